"""The README is the front door: the two set-up commands and the tour's real outputs.

The tour starts in the README and goes on in docs/tour.md; both show real output.

Every rule option is documented on the generated page docs/options.md (tests/test_docs.py).
"""

import contextlib
import io
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
TOUR = (ROOT / "docs" / "tour.md").read_text()


def test_the_readme_stays_a_front_door():
    assert len(README.splitlines()) < 300
    assert "](docs/tour.md)" in README


def test_readme_gives_the_two_setup_commands():
    assert "python3 -m pip install -e . && sim sweep experiments/quickstart.yaml" in README
    assert 'python3 -m pip install -e ".[test]" && python3 -m pytest' in README


def test_the_tour_shows_the_real_bridge_battle(tmp_path):
    from sim.cli import main

    start = TOUR.index("$ sim run scenarios/bridge.yaml --frames")
    block = TOUR[start : TOUR.index("```", start)].splitlines()[1:]
    shown = [line for line in block if not line.startswith(("frames:", "gif:"))]
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        assert (
            main(["run", str(ROOT / "scenarios" / "bridge.yaml"), "--frames", str(tmp_path)]) == 0
        )
    assert buf.getvalue().rstrip("\n").splitlines() == shown
    frames = next(line for line in block if line.startswith("frames:"))
    assert f"frames: {len(list(tmp_path.glob('round-*.png')))} PNGs" in frames


def test_the_tour_shows_the_replay_page(tmp_path):
    from sim.cli import main

    assert "$ sim run scenarios/bridge.yaml --html bridge.html" in TOUR
    assert "](img/replay.png)" in TOUR and (ROOT / "docs/img/replay.png").is_file()
    out = tmp_path / "bridge.html"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["run", str(ROOT / "scenarios/bridge.yaml"), "--html", str(out)]) == 0
    assert "bridge (wargame), seed 5: raiders won" in out.read_text()


def _block(command: str, page: str = TOUR) -> list[str]:
    """The lines a page (the tour) shows after ``$ COMMAND`` in its console block."""
    start = page.index(f"$ {command}\n")
    return page[start : page.index("```", start)].splitlines()[1:]


def _printed(*argv: str) -> list[str]:
    from sim.cli import main

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        assert main(list(argv)) == 0
    return buf.getvalue().rstrip("\n").splitlines()


def test_the_tour_shows_sim_tables_and_sim_schema_as_they_print(tmp_path):
    assert _block("sim tables shields") == _printed("tables", "shields")
    shown = _block("sim schema --out docs/schema")
    printed = _printed("schema", "--out", str(tmp_path))
    assert printed == [line.replace("docs/schema", str(tmp_path)) for line in shown]
    modeline = "# yaml-language-server: $schema=../docs/schema/scenario.schema.json"
    assert modeline in " ".join(TOUR.split())  # the tour wraps it


def test_the_tour_shows_a_dice_expression_and_its_check():
    from tests.test_docs import _shown_in

    shown = _block('sim odds dice "d8 vs d8" --check 100000')
    assert shown[-1] == "P(first higher): exact 43.75%, simulated 43.7% ± 0.3"
    assert _shown_in(shown, _printed("odds", "dice", "d8 vs d8", "--check", "100000"))


@pytest.mark.slow
def test_the_tour_shows_the_real_sensitivity_table(tmp_path):
    from sim.cli import main

    start = TOUR.index("$ sim analyze results/sensitivity --sensitivity")
    block = TOUR[start : TOUR.index("```", start)].splitlines()[1:]
    shown = [line for line in block if not line.startswith("plot:")]
    out = tmp_path / "sensitivity"
    sweep = ["sweep", str(ROOT / "experiments" / "sensitivity.yaml"), "--out", str(out)]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main([*sweep, "--executor", "serial"]) == 0
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["analyze", str(out), "--sensitivity"]) == 0
    real = buf.getvalue().rstrip("\n").splitlines()
    assert real[0] == shown[0]
    for line in shown:
        assert line == "..." or line in real, line


def test_the_readme_and_analysis_page_say_what_each_interval_is():
    analysis_page = (ROOT / "docs" / "analysis.md").read_text()
    for text in (README, analysis_page):
        assert "95% Wilson score" in text, "the win-rate interval"
        assert "Student-t" in text, "the battle-length interval"
        assert "cluster bootstrap by run" in text, "the per-fighter shares' interval"
    assert "## What each interval is" in analysis_page
    assert "docs/analysis.md#what-each-interval-is" in README


def test_the_tour_shows_the_real_errors_of_a_scenario_with_mistakes(tmp_path):
    from sim.cli import main

    shown = _block('sim validate /tmp/typo.yaml; echo "exit $?"', README)
    text = (ROOT / "scenarios" / "skirmish.yaml").read_text()
    typo = tmp_path / "typo.yaml"  # the README's sed, in Python
    typo.write_text(
        text.replace("weapon: axe", "weapon: ax", 1).replace(
            "tactic: aggressive", "tactic: agressive", 1
        )
    )
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["validate", str(typo)])
    printed = err.getvalue().replace(str(typo), "/tmp/typo.yaml").splitlines()
    assert [*printed, f"exit {code}"] == shown


@pytest.mark.slow  # the quick start's 1,350 battles, fought serially
def test_the_tour_shows_the_real_game_of_the_quick_start(tmp_path):
    from sim.cli import main
    from tests.test_docs import _shown_in

    cmd = "$ sim analyze results/quickstart --game sides.guards.tactic sides.bandits.tactic"
    start = README.index(cmd)
    shown = README[start : README.index("```", start)].splitlines()[1:]
    out = tmp_path / "quickstart"
    sweep = ["sweep", str(ROOT / "experiments" / "quickstart.yaml"), "--out", str(out)]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main([*sweep, "--executor", "serial"]) == 0
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["analyze", str(out), "--game", *cmd.split()[-2:]]) == 0
    real = buf.getvalue().rstrip("\n").splitlines()
    assert _shown_in(shown, real), "\n".join(real)
