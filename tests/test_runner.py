"""sim sweep: executors, resume, Ctrl-C, failing runs, the dataset and replay (issue 5)."""

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

import sim
from sim.cli import main
from sim.dataset import records
from sim.experiment import load_experiment
from sim.experiment.resume import listed_run_ids
from sim.experiment.runner import done_run_ids, summary, sweep
from tests.datasets import relist

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = ROOT / "scenarios" / "skirmish.yaml"
TABLES = ("runs", "rounds", "fighters")
SORT = {
    "runs": ["run_id"],
    "rounds": ["run_id", "round", "side"],
    "fighters": ["run_id", "name"],
}

# 2 x 2 points x 10 replicates = 40 runs in 10 chunks: a second or so serially.
SMALL = f"""
name: small
scenario: {SKIRMISH}
design: grid
parameters:
  sides.guards.tactic: [balanced, defensive]
  max_rounds: [3, 30]
replicates: 10
seed: 2026
chunk: 4
tables: [runs, rounds, fighters]
"""

# 3 x 2 points x 50 replicates = 300 runs in 30 chunks (at most 50 per process-pool worker):
# long enough to interrupt part-way.
BIG = f"""
name: big
scenario: {SKIRMISH}
parameters:
  sides.guards.tactic: [balanced, aggressive, defensive]
  sides.bandits.tactic: [balanced, aggressive]
replicates: 50
seed: 11
chunk: 10
tables: [runs, rounds, fighters]
"""


def write(folder, text, name="exp.yaml"):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def cli(capsys, *argv):
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def table(out, name):
    """One table of a dataset, read with pyarrow.dataset and sorted."""
    t = ds.dataset(Path(out) / name, format="parquet").to_table()
    return t.sort_by([(k, "ascending") for k in SORT[name]])


def assert_same_data(a, b, tables=TABLES):
    for name in tables:
        ta, tb = table(a, name), table(b, name)
        assert ta.schema == tb.schema, name
        assert ta.num_rows == tb.num_rows, f"{name}: {ta.num_rows} rows vs {tb.num_rows}"
        if not ta.equals(tb):
            for i, (ra, rb) in enumerate(zip(ta.to_pylist(), tb.to_pylist(), strict=True)):
                assert ra == rb, f"{name} row {i} differs"
        assert ta.equals(tb), name


def run_ids(out):
    return table(out, "runs").column("run_id").to_pylist()


def stamps(out):
    """Every file of the dataset but its lock file, with its modification time."""
    return {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.name != ".lock"}


def listed(out):
    """The run ids the dataset's manifest lists."""
    return listed_run_ids(json.loads((Path(out) / "manifest.json").read_text()))


def assert_whole(out):
    """Every part is a whole, readable Parquet file; no temporary files are left."""
    out = Path(out)
    for folder in TABLES:
        for part in (out / folder).glob("*"):
            assert re.fullmatch(r"part-\d{6}\.parquet", part.name), f"stray file {part}"
            pq.read_table(part)
    leftovers = sorted(p.name for p in out.rglob(".*") if p != out / ".lock")
    assert not leftovers, f"temporary files left: {leftovers}"


@pytest.fixture(scope="module")
def small_ref(tmp_path_factory):
    """A clean serial sweep of SMALL: (experiment file, dataset)."""
    folder = tmp_path_factory.mktemp("small_ref")
    path = write(folder, SMALL)
    result = sweep(load_experiment(path), folder / "out", progress=False)
    assert result.done == 40 and not result.interrupted
    return path, folder / "out"


@pytest.fixture(scope="module")
def big_ref(tmp_path_factory):
    folder = tmp_path_factory.mktemp("big_ref")
    path = write(folder, BIG)
    result = sweep(load_experiment(path), folder / "out", progress=False)
    assert result.done == 300
    return folder / "out"


# --------------------------------------------------------------------------- determinism


def test_the_reference_dataset_is_complete(small_ref):
    path, out = small_ref
    exp = load_experiment(path)
    assert run_ids(out) == list(range(40))
    runs = table(out, "runs")
    assert runs.column("seed").to_pylist() == [exp.run_seed(i) for i in range(40)]
    assert runs.column("error").null_count == 40
    assert table(out, "rounds").num_rows > 40
    assert set(table(out, "fighters").column("run_id").to_pylist()) == set(range(40))
    assert sorted(p.name for p in (out / "runs").iterdir()) == [
        f"part-{i:06d}.parquet" for i in range(10)
    ]


def test_processes_give_the_same_data_as_serial(tmp_path, small_ref):
    path, ref = small_ref
    result = sweep(
        load_experiment(path), tmp_path / "p", workers=2, executor="processes", progress=False
    )
    assert result.done == 40 and result.failed == 0
    assert_same_data(tmp_path / "p", ref)


@pytest.mark.slow
def test_dask_gives_the_same_data_as_serial(tmp_path, small_ref):
    path, ref = small_ref
    result = sweep(
        load_experiment(path), tmp_path / "d", workers=2, executor="dask", progress=False
    )
    assert result.done == 40 and result.failed == 0
    assert_same_data(tmp_path / "d", ref)


def test_chunk_size_does_not_change_the_data(tmp_path, small_ref):
    _, ref = small_ref
    path = write(tmp_path, SMALL.replace("chunk: 4", "chunk: 3"))
    sweep(load_experiment(path), tmp_path / "c", progress=False)
    assert len(list((tmp_path / "c" / "runs").glob("part-*.parquet"))) == 14
    assert_same_data(tmp_path / "c", ref)


# --------------------------------------------------------------------------- resume


def test_limit_then_resume_equals_a_full_run(tmp_path, capsys, small_ref):
    path, ref = small_ref
    out = tmp_path / "out"
    code, stdout, err = cli(
        capsys, "sweep", path, "--out", out, "--executor", "serial", "--limit", 7
    )
    assert code == 0, err
    assert done_run_ids(out) == set(range(7))  # 7 is not a whole number of chunks of 4
    code, stdout, err = cli(capsys, "sweep", path, "--out", out, "--executor", "serial", "--resume")
    assert code == 0, err
    assert "4 already done" in stdout  # the part-done chunk 4..7 runs again, whole
    assert run_ids(out) == list(range(40))
    assert_same_data(out, ref)
    assert_whole(out)


def test_resuming_a_complete_dataset_does_nothing(tmp_path, capsys, small_ref):
    path, _ = small_ref
    out = tmp_path / "out"
    assert sweep(load_experiment(path), out, progress=False).done == 40
    before = stamps(out)
    result = sweep(load_experiment(path), out, resume=True, progress=False)
    assert (result.done, result.already, result.failed) == (0, 40, 0)
    code, stdout, err = cli(capsys, "sweep", path, "--out", out, "--resume")
    assert code == 0, err
    assert "40 of 40" in stdout
    assert stamps(out) == before


def _default_sigint():
    # A shell without job control starts background jobs with SIGINT ignored, and Python
    # keeps an inherited SIG_IGN; restore the default so Ctrl-C tests work from any shell.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(*argv, cwd=None):
    return subprocess.Popen(
        [sys.executable, "-m", "sim", *map(str, argv)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        start_new_session=True,
        preexec_fn=_default_sigint,
    )


def wait_for_parts(proc, out, n, timeout=60.0):
    """Poll until ``n`` runs parts exist (True) or the sweep has ended (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if len(list((out / "runs").glob("part-*.parquet"))) >= n:
            return True
        if proc.poll() is not None:
            return False
        time.sleep(0.005)
    os.killpg(proc.pid, signal.SIGKILL)
    raise AssertionError(f"no {n} runs parts after {timeout} s")


def finish(proc, timeout=60):
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        raise AssertionError(f"the sweep did not end within {timeout} s; stderr:\n{err}") from None


EXECUTORS = [
    pytest.param("serial", 1, id="serial"),
    pytest.param("processes", 2, id="processes", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("executor, workers", EXECUTORS)
def test_sigkill_then_resume_equals_a_clean_run(tmp_path, big_ref, executor, workers):
    path = write(tmp_path, BIG)
    out = tmp_path / "out"
    args = ("sweep", path, "--out", out, "--executor", executor, "--workers", workers)
    proc = start(*args)
    assert wait_for_parts(proc, out, 3), "the sweep ended before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)
    finish(proc)
    assert proc.returncode == -signal.SIGKILL
    done = done_run_ids(out)
    assert 30 <= len(done) < 300, "killed part-way"
    for part in (out / "runs").glob("part-*.parquet"):
        pq.read_table(part)  # whole, even after SIGKILL
    proc = start(*args, "--resume")
    stdout, err = finish(proc)
    assert proc.returncode == 0, err
    # the manifest lists finished chunks at most once a second: those not yet listed run again
    # (none yet when the kill came within the first second of parts)
    listed = re.search(r"(\d+) already done", stdout)
    assert (int(listed[1]) if listed else 0) <= len(done), stdout
    ids = run_ids(out)
    assert ids == list(range(300)), "every planned run exactly once"
    assert_same_data(out, big_ref)


# --------------------------------------------------------------------------- Ctrl-C


def interrupt(tmp_path, executor, workers, parts=3):
    path = write(tmp_path, BIG)
    out = tmp_path / "out"
    args = ("sweep", path, "--out", out, "--executor", executor, "--workers", workers)
    proc = start(*args)
    assert wait_for_parts(proc, out, parts), "the sweep ended before it could be interrupted"
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C in a terminal signals the whole group
    stdout, err = finish(proc)
    return args, out, proc.returncode, stdout, err


@pytest.mark.parametrize("executor, workers", EXECUTORS)
def test_ctrl_c_keeps_whole_parts_and_resume_finishes(tmp_path, big_ref, executor, workers):
    args, out, code, stdout, err = interrupt(tmp_path, executor, workers)
    assert code == 130, err
    assert "interrupted" in err and "--resume" in err
    assert_whole(out)
    done = done_run_ids(out)
    assert 0 < len(done) < 300
    # a chunk is whole or absent: its runs part holds all its run ids
    assert done == {i for i in range(300) if i // 10 in {j // 10 for j in done}}
    proc = start(*args, "--resume")
    stdout, err = finish(proc)
    assert proc.returncode == 0, err
    assert run_ids(out) == list(range(300))
    assert_same_data(out, big_ref)
    assert_whole(out)


def test_ctrl_c_serial_prints_a_clean_summary(tmp_path):
    _, out, code, _, err = interrupt(tmp_path, "serial", 1)
    assert code == 130
    assert "Traceback" not in err
    m = re.search(r"interrupted: (\d+) of 300 runs are in the dataset; finish with --resume", err)
    assert m, err
    # the dataset is what the manifest lists: a chunk cut off just after its last part was
    # written is on disk but not listed, and runs again on resume
    assert int(m[1]) == len(listed(out)), err
    assert listed(out) <= done_run_ids(out)


@pytest.mark.slow
def test_ctrl_c_processes_summary_counts_what_is_in_the_dataset(tmp_path):
    _, out, code, _, err = interrupt(tmp_path, "processes", 2)
    assert code == 130, err
    m = re.search(r"interrupted: (\d+) of 300 runs", err)
    assert m, err
    assert int(m[1]) == len(done_run_ids(out)), err


def pool_workers(pid):
    """Process ids of the multiprocessing children of ``pid``."""
    kids = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
            cmd = (d / "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid and b"spawn_main" in cmd:
            kids.append(int(d.name))
    return kids


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_ctrl_c_while_workers_start_prints_no_traceback(tmp_path):
    errors = []
    for attempt in range(2):
        path = write(tmp_path / str(attempt), BIG)
        out = tmp_path / str(attempt) / "out"
        proc = start("sweep", path, "--out", out, "--executor", "processes", "--workers", 2)
        deadline = time.monotonic() + 30
        while len(pool_workers(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.25)  # the workers are importing sim
        os.killpg(proc.pid, signal.SIGINT)
        _, err = finish(proc)
        assert proc.returncode == 130, err
        assert "interrupted" in err and "--resume" in err
        assert_whole(out)
        errors.append(err)
    for err in errors:
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


def test_processes_sweep_with_many_chunks_per_worker_finishes(tmp_path):
    # Regression: with max_tasks_per_child, CPython 3.11's ProcessPoolExecutor deadlocks once
    # a worker retires with tasks still queued (python/cpython#115634).
    path = write(
        tmp_path,
        f"""
        name: many
        scenario: {SKIRMISH}
        parameters:
          max_rounds: [3]
        replicates: 60
        chunk: 1
        """,
    )
    out = tmp_path / "out"
    proc = start("sweep", path, "--out", out, "--executor", "processes", "--workers", 1)
    try:
        stdout, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError(
            f"hung: {len(done_run_ids(out))} of 60 runs after 30 s (60 chunks, 1 worker)"
        ) from None
    assert proc.returncode == 0, err
    assert run_ids(out) == list(range(60))


# --------------------------------------------------------------------------- failing runs

FAILING = f"""
name: failing
scenario: {SKIRMISH}
design: list
points:
  - sides.guards.fighters[0].hit_dice: 6
  - sides.guards.fighters[0].hit_dice: 0
  - sides.guards.fighters[0].hit_dice: 3
replicates: 3
seed: 5
chunk: 2
tables: [runs, fighters]
"""


@pytest.mark.parametrize("executor", ["serial", pytest.param("processes", marks=pytest.mark.slow)])
def test_a_failing_run_does_not_stop_the_sweep(tmp_path, executor):
    # design points are checked before a sweep (sim.experiment.checks); unchecked, a point that
    # fails to load fails its runs alone
    exp = load_experiment(write(tmp_path, FAILING), check_points=False)
    out = tmp_path / "out"
    result = sweep(exp, out, executor=executor, workers=2, progress=False)
    stdout = summary(exp, result, executor, 2)
    assert "; 3 failed" in stdout
    assert "(error) 33.3%" in stdout
    assert "9 of 9 planned runs" in stdout
    runs = table(out, "runs").to_pylist()
    assert [r["run_id"] for r in runs] == list(range(9))
    param = "sides.guards.fighters[0].hit_dice"
    for r in runs:
        assert r["seed"] == exp.run_seed(r["run_id"])
        assert r[param] == [6, 0, 3][r["run_id"] // 3]
        if r[param] == 0:
            assert r["end_reason"] == "error"
            assert r["winner"] is None
            assert "ScenarioError" in r["error"] and "hit_dice" in r["error"], r["error"]
            assert "must be 1..100, got 0" in r["error"]
        else:
            assert r["error"] is None
            assert r["winner"] in {"guards", "bandits"}
            assert r["end_reason"] != "error"
    fighters = table(out, "fighters").column("run_id").to_pylist()
    assert set(fighters) == {0, 1, 2, 6, 7, 8}
    result = sweep(exp, out, resume=True, progress=False)  # failed runs count as done
    assert result.done == 0


def test_a_failing_first_point_does_not_stop_the_sweep(tmp_path):
    first, second = "fighters[0].hit_dice: 6\n", "fighters[0].hit_dice: 0\n"
    path = write(
        tmp_path, FAILING.replace(first, "FIRST").replace(second, first).replace("FIRST", second)
    )
    exp = load_experiment(path, check_points=False)
    assert [p["sides.guards.fighters[0].hit_dice"] for p in exp.points] == [0, 6, 3]
    result = sweep(exp, tmp_path / "out", progress=False)
    assert result.failed == 3 and result.done == 9


def test_mixed_type_parameter_values_are_recorded(tmp_path):
    path = write(
        tmp_path,
        f"""
        scenario: {SKIRMISH}
        parameters:
          sides.guards.fighters[0].shield: [medium, 3, null]
        replicates: 2
        """,
    )
    result = sweep(load_experiment(path), tmp_path / "out", progress=False)
    assert result.done == 6 and result.failed == 0


# --------------------------------------------------------------------------- refusals


def test_a_different_experiment_into_the_same_out_is_refused(tmp_path, capsys, small_ref):
    path, _ = small_ref
    out = tmp_path / "out"
    assert cli(capsys, "sweep", path, "--out", out, "--executor", "serial")[0] == 0
    before = stamps(out)
    other = write(tmp_path, SMALL.replace("name: small", "name: other").replace("10\n", "5\n"))
    for extra in ([], ["--resume"]):
        code, stdout, err = cli(capsys, "sweep", other, "--out", out, *extra)
        assert code == 2
        assert stdout == ""
        assert "'small'" in err and "'other'" in err and "another --out" in err
        assert "Traceback" not in err
    # the same text under another scenario is another experiment too
    scen = tmp_path / "skirmish.yaml"
    scen.write_text(SKIRMISH.read_text().replace("hit_dice: 5", "hit_dice: 6"))
    moved = write(tmp_path, SMALL.replace(str(SKIRMISH), str(scen)), name="moved.yaml")
    code, _, err = cli(capsys, "sweep", moved, "--out", out, "--resume")
    assert code == 2 and "'small'" in err
    assert stamps(out) == before


def test_the_same_experiment_without_resume_is_refused(tmp_path, capsys, small_ref):
    path, _ = small_ref
    out = tmp_path / "out"
    assert cli(capsys, "sweep", path, "--out", out, "--limit", 8, "--executor", "serial")[0] == 0
    before = stamps(out)
    code, stdout, err = cli(capsys, "sweep", path, "--out", out, "--executor", "serial")
    assert code == 2
    assert "unfinished (8 of 40 runs)" in err
    assert "--resume" in err and "another --out" in err
    assert stamps(out) == before
    assert done_run_ids(out) == set(range(8))


def test_the_same_finished_experiment_without_resume_reruns_as_a_no_op(tmp_path, capsys, small_ref):
    path, _ = small_ref
    out = tmp_path / "out"
    assert cli(capsys, "sweep", path, "--out", out, "--executor", "serial")[0] == 0
    before = stamps(out)
    code, stdout, err = cli(capsys, "sweep", path, "--out", out, "--executor", "serial")
    assert code == 0, err
    assert "all 40 runs were already done; nothing to run" in stdout
    assert stamps(out) == before


def test_a_folder_that_is_not_a_dataset_is_refused(tmp_path, capsys, small_ref):
    path, _ = small_ref
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    code, _, err = cli(capsys, "sweep", path, "--out", out)
    assert code == 2 and "not a dataset" in err
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]


def test_default_out_is_results_slash_the_experiment_name(tmp_path, capsys, monkeypatch):
    path = write(tmp_path / "exps", SMALL.replace("replicates: 10", "replicates: 2"))
    unnamed = write(tmp_path / "exps", SMALL.replace("name: small\n", ""), name="plain.yaml")
    monkeypatch.chdir(tmp_path)
    code, stdout, err = cli(capsys, "sweep", path, "--executor", "serial", "--limit", 3)
    assert code == 0, err
    assert (tmp_path / "results" / "small" / "manifest.json").is_file()
    assert done_run_ids(tmp_path / "results" / "small") == {0, 1, 2}
    assert "results/small/" in stdout
    code, _, err = cli(capsys, "sweep", unnamed, "--executor", "serial", "--limit", 2)
    assert code == 0, err
    assert (tmp_path / "results" / "plain" / "manifest.json").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["exps", "results"]


# --------------------------------------------------------------------------- the dataset


def test_every_tool_reads_the_dataset_with_no_glue(small_ref):
    import duckdb
    import polars as pl

    _, out = small_ref
    runs = out / "runs"
    counts = {
        "pandas": len(pd.read_parquet(runs)),
        "pyarrow.dataset": ds.dataset(runs).count_rows(),
        "duckdb": duckdb.sql(f"select count(*) from '{runs}/*.parquet'").fetchall()[0][0],
        "polars read": pl.read_parquet(f"{runs}/*.parquet").height,
        "polars scan": pl.scan_parquet(f"{runs}/*.parquet").select(pl.len()).collect().item(),
    }
    assert set(counts.values()) == {40}, counts
    for name in ("rounds", "fighters"):
        n = ds.dataset(out / name).count_rows()
        assert len(pd.read_parquet(out / name)) == n
        assert duckdb.sql(f"select count(*) from '{out / name}/*.parquet'").fetchall()[0][0] == n
        assert pl.read_parquet(f"{out / name}/*.parquet").height == n
    # a join across tables in DuckDB, as an analyst would write it
    joined = duckdb.sql(
        f"select count(distinct f.run_id) from '{out}/fighters/*.parquet' f "
        f"join '{runs}/*.parquet' r using (run_id) where r.max_rounds = 30"
    ).fetchall()[0][0]
    assert joined == 20


def test_parameter_columns_are_typed_and_filterable(small_ref):
    _, out = small_ref
    df = pd.read_parquet(out / "runs")
    assert df["max_rounds"].dtype == np.int64
    assert df["run_id"].dtype == np.int64
    assert df["seed"].dtype == np.uint64
    assert pd.api.types.is_string_dtype(df["sides.guards.tactic"])
    short = df[df["max_rounds"] == 3]
    assert len(short) == 20
    assert (short["rounds"] <= 3).all()
    defensive = df[df["sides.guards.tactic"] == "defensive"]
    assert sorted(defensive["run_id"]) == list(range(20, 40))
    schema = ds.dataset(out / "runs").schema
    assert schema.field("max_rounds").type == pa.int64()
    assert schema.field("sides.guards.tactic").type == pa.string()


def test_list_parameters_are_json_text_columns(tmp_path):
    path = write(
        tmp_path,
        f"""
        scenario: {SKIRMISH}
        parameters:
          sides.guards.fighters[1].armor: [[gambeson], [chain, "piecemeal:2"]]
        replicates: 2
        """,
    )
    sweep(load_experiment(path), tmp_path / "out", progress=False)
    runs = table(tmp_path / "out", "runs")
    col = "sides.guards.fighters[1].armor"
    assert runs.schema.field(col).type == pa.string()
    assert [json.loads(v) for v in runs.column(col).to_pylist()] == [
        ["gambeson"],
        ["gambeson"],
        ["chain", "piecemeal:2"],
        ["chain", "piecemeal:2"],
    ]
    assert runs.column("error").null_count == 4


def test_only_the_tables_asked_for_are_written(tmp_path):
    path = write(
        tmp_path,
        f"""
        scenario: {SKIRMISH}
        parameters:
          max_rounds: [2, 4]
        replicates: 2
        tables: [events]
        """,
    )
    out = tmp_path / "out"
    sweep(load_experiment(path), out, progress=False)
    assert sorted(p.name for p in out.iterdir()) == [".lock", "events", "manifest.json", "runs"]
    events = pd.read_parquet(out / "events")
    assert set(events["run_id"]) == {0, 1, 2, 3}
    for _, group in events.groupby("run_id"):
        assert list(group.sort_values("seq")["seq"]) == list(range(len(group)))
    assert events["round"].max() <= 4


def test_the_quickstart_experiment_plans_its_runs():
    exp = load_experiment(ROOT / "experiments" / "quickstart.yaml")
    assert exp.name == "quickstart"
    assert exp.planned_runs == 9 * 150
    assert exp.scenario_path == str(ROOT / "experiments" / ".." / "scenarios" / "skirmish.yaml")
    assert sum(len(ids) for _, ids in exp.chunks()) == exp.planned_runs


def test_the_manifest_says_what_made_the_dataset(small_ref):
    path, out = small_ref
    m = json.loads((out / "manifest.json").read_text())
    assert m["experiment_text"] == path.read_text()
    assert m["scenario_texts"] == {"skirmish": SKIRMISH.read_text()}
    assert m["sim_version"] == sim.__version__
    assert m["master_seed"] == 2026
    assert m["planned_runs"] == 40
    assert m["schema_version"] == records.SCHEMA_VERSION
    assert m["parameters"] == ["sides.guards.tactic", "max_rounds"]
    assert m["experiment_name"] == "small"
    assert m["kind"] == "sweep" and m["replicates"] == 10 and len(m["points"]) == 4
    assert set(m) == {*records.MANIFEST_KEYS, "schema_version", "sim_version"}
    assert records.read_manifest(out) == m


# --------------------------------------------------------------------------- replay

REPLAY = f"""
name: replay
scenario: {SKIRMISH}
parameters:
  rules.system: [wargame, d6]
  sides.guards.tactic: [balanced, defensive]
  max_rounds: [4, 25]
replicates: 2
seed: 99
"""


def test_replay_reproduces_runs_of_a_sweep(tmp_path, capsys):
    path = write(tmp_path, REPLAY)
    out = tmp_path / "out"
    assert cli(capsys, "sweep", path, "--out", out, "--executor", "serial")[0] == 0
    runs = {r["run_id"]: r for r in table(out, "runs").to_pylist()}
    # run 0: the first point; run 15: d6, defensive, max_rounds 25 (all non-default)
    assert (runs[15]["rules.system"], runs[15]["sides.guards.tactic"]) == ("d6", "defensive")
    assert runs[15]["max_rounds"] == 25 and runs[15]["rules"] == "d6"
    assert (runs[6]["rules.system"], runs[6]["sides.guards.tactic"]) == ("wargame", "defensive")
    for run_id in (0, 15, 6):
        code, stdout, err = cli(capsys, "replay", out, "--run", run_id)
        assert code == 0, err
        assert stdout.startswith(f"run {run_id} replays exactly.")
        assert f"seed {runs[run_id]['seed']}" in stdout


def test_replay_notices_a_tampered_row(tmp_path, capsys):
    path = write(tmp_path, REPLAY)
    out = tmp_path / "out"
    assert cli(capsys, "sweep", path, "--out", out, "--executor", "serial")[0] == 0
    part = out / "runs" / "part-000000.parquet"
    t = pq.read_table(part)
    rounds = t.column("rounds").to_pylist()
    rounds[0] += 1
    t = t.set_column(t.schema.get_field_index("rounds"), "rounds", pa.array(rounds, pa.int32()))
    pq.write_table(t, part)
    code, _, err = cli(capsys, "replay", out, "--run", 0)
    assert code == 2 and "damaged parts: runs/part-000000.parquet" in err, err  # not as listed
    relist(out, part)  # as if other code had written and listed it
    code, _, err = cli(capsys, "replay", out, "--run", 0)
    assert code == 1
    assert "does not replay" in err and "rounds" in err


def test_replay_a_run_with_a_list_parameter(tmp_path, capsys):
    path = write(
        tmp_path,
        f"""
        scenario: {SKIRMISH}
        parameters:
          sides.guards.fighters[1].armor: [[gambeson], [chain, "piecemeal:2"]]
        replicates: 2
        """,
    )
    out = tmp_path / "out"
    assert cli(capsys, "sweep", path, "--out", out, "--executor", "serial")[0] == 0
    code, stdout, err = cli(capsys, "replay", out, "--run", 3)
    assert code == 0, err
    assert "replays exactly" in stdout


def test_replay_of_a_failed_run_is_a_clear_error(tmp_path, capsys):
    out = tmp_path / "out"
    sweep(load_experiment(write(tmp_path, FAILING), check_points=False), out, progress=False)
    code, _, err = cli(capsys, "replay", out, "--run", 3)
    assert code in (1, 2)
    assert "run 3" in err


# --------------------------------------------------------------------------- progress


def test_progress_lines_on_a_non_tty_stream(tmp_path, capsys, small_ref):
    path, _ = small_ref
    code, stdout, err = cli(
        capsys, "sweep", path, "--out", tmp_path / "out", "--executor", "serial"
    )
    assert code == 0, err
    lines = [line for line in err.splitlines() if line.startswith("progress:")]
    assert lines, err
    pattern = re.compile(r"progress: (\d+)/40 runs \((\d+)%\), \d+ runs/s, ETA (\d+s|\?)")
    first = re.compile(r"progress: (\d+)/40 runs \((\d+)%\), first chunk done in \d+\.\ds")
    assert first.fullmatch(lines[0]) or len(lines) == 1, lines[0]  # not a rate: the start
    for line in lines[1:]:
        assert pattern.fullmatch(line), line
    assert lines[-1].startswith("progress: 40/40 runs (100%)")
    assert "\r" not in err and "\x1b" not in err  # no bar drawing on a pipe
    assert not [line for line in stdout.splitlines() if line.startswith("progress")]
    assert "small: 40 runs" in stdout and "0 failed" in stdout


def test_the_bar_counts_its_rate_from_the_first_chunk(monkeypatch):
    """The start-up (workers importing) is not in the bar's rate, so not in its ETA."""
    import io
    import time

    from sim.experiment.runner import Progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    p = Progress(1000, 0, Terminal())
    assert p.bar.desc == "starting" and p.bar.leave is False
    time.sleep(0.3)  # the start-up
    first = time.time()
    p.update(100)  # the first chunk
    assert p.bar.n == 100 and p.bar.initial == 100 and p.bar.desc == ""
    assert p.bar.start_t >= first, "the bar's clock starts at the first chunk"
    p.update(100)
    assert p.bar.n == 200
    p.close()


def test_progress_from_a_cli_subprocess(tmp_path, small_ref):
    path, _ = small_ref
    proc = start("sweep", path, "--out", tmp_path / "out", "--executor", "serial")
    stdout, err = finish(proc)
    assert proc.returncode == 0, err
    assert re.search(r"^progress: 40/40 runs \(100%\), \d+ runs/s, ETA 0s$", err, re.M), err
