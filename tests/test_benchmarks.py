"""The benchmark harness's bookkeeping (the figures themselves are timed, not tested)."""

import json
import subprocess
from pathlib import Path

import mesa

from benchmarks.__main__ import QUOTED, RESULTS, ROOT, environment, table, write_results
from benchmarks.base import Figure
from benchmarks.figures import parse_memory_log


def _fig(name, value, passed):
    return Figure(name, f"{name} title", value, "s", "< 1 s", passed, {"n": 1})


def test_results_json_holds_figures_cores_date_and_versions(tmp_path):
    out = tmp_path / "results.json"
    env = environment(quick=True)
    write_results(out, {"5": _fig("odds_table", 0.2, True)}, env)
    data = json.loads(out.read_text())
    assert data["cpu_count"] >= 1 and data["date"] and data["mesa"] == mesa.__version__
    fig = data["figures"]["5"]
    assert (fig["value"], fig["units"], fig["goal"], fig["pass"]) == (0.2, "s", "< 1 s", True)
    assert not list(tmp_path.glob(".*.tmp"))  # written through a temporary file


def test_measuring_some_figures_keeps_the_others(tmp_path):
    out = tmp_path / "results.json"
    env = environment(quick=False)
    write_results(out, {"5": _fig("odds_table", 0.2, True)}, env)
    data = write_results(out, {"7": _fig("analyze_time", 12.0, False)}, env)
    assert sorted(data["figures"]) == ["5", "7"]
    text = table(data)
    assert "analyze_time title" in text and "NO" in text and "yes" in text


def test_a_sweep_memory_report_is_parsed():
    report = """runs done          1000000 (0 failed)
seconds            2180.3
runs/s             458.7
parent RSS start   145.2 MB
parent peak RSS    150.5 MB (VmHWM)
dataset on disk    70.8 MB (71 bytes/run)
workers            2 distinct pids seen; peak RSS of one worker 170.6 MB (VmHWM 170.6 MB), \
peak total 338.0 MB, total at 50% 331.9 MB
"""
    got = parse_memory_log(report)
    assert got["parent_peak_mb"] == 150.5 and got["worker_peak_mb"] == 170.6
    assert got["runs"] == 1_000_000


def test_a_run_writes_under_results_which_git_ignores():
    assert RESULTS.parent == ROOT / "results"
    rel = RESULTS.relative_to(ROOT).as_posix()
    ignored = subprocess.run(
        ["git", "check-ignore", "--no-index", "-q", rel], cwd=ROOT, check=False
    )
    assert ignored.returncode == 0, f"{rel} is not ignored by git"


def test_the_quoted_copy_is_the_one_the_performance_page_names():
    assert QUOTED == ROOT / "docs" / "performance.json"
    assert QUOTED.is_file()
    assert "performance.json" in (ROOT / "docs" / "performance.md").read_text()
    assert not (ROOT / "benchmarks" / "results.json").exists()


def test_the_results_directory_is_made_when_missing(tmp_path):
    out = tmp_path / "results" / "benchmarks.json"
    write_results(out, {"5": _fig("odds_table", 0.2, True)}, environment(quick=True))
    assert Path(out).is_file()


def test_the_yardstick_toy_is_a_fixed_fair_battle():
    from benchmarks.yardstick import rate, toy_battle

    seeds = range(2_000)
    first = [toy_battle(s) for s in seeds]
    assert first == [toy_battle(s) for s in seeds]  # the same work on any day
    wins = sum(w == 0 for w in first) / len(first)
    assert 0.45 < wins < 0.55, wins  # mirrored sides: each wins about half
    assert rate(repeats=1, battles=50) > 0


def test_instruction_counts_agree_to_the_printed_unit():
    from benchmarks.instructions import RUNS, experiment, same

    assert same([617_819_298, 617_821_451], 100)  # two counts of one 100-run sweep
    assert not same([617_819_298, 617_919_298], 100)  # 1,000 a run apart: code changed
    doc = experiment()  # figure 1's path: the sweep's tables, chunks, seed
    assert (doc["tables"], doc["chunk"], doc["seed"]) == (["runs", "rounds", "fighters"], 500, 2026)
    assert RUNS == 1_000  # the count the goal of 5.48 M was measured over
