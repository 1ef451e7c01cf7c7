"""The README is the front door: the two set-up commands and the tour's real outputs.

Every rule option is documented on the generated page docs/options.md (tests/test_docs.py).
"""

import contextlib
import io
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_readme_gives_the_two_setup_commands():
    assert "python3 -m pip install -e . && sim sweep experiments/quickstart.yaml" in README
    assert 'python3 -m pip install -e ".[test]" && python3 -m pytest' in README


def test_the_tour_shows_the_real_bridge_battle(tmp_path):
    from sim.cli import main

    start = README.index("$ sim run scenarios/bridge.yaml --frames")
    block = README[start : README.index("```", start)].splitlines()[1:]
    shown = [line for line in block if not line.startswith(("frames:", "gif:"))]
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        assert (
            main(["run", str(ROOT / "scenarios" / "bridge.yaml"), "--frames", str(tmp_path)]) == 0
        )
    assert buf.getvalue().rstrip("\n").splitlines() == shown
    frames = next(line for line in block if line.startswith("frames:"))
    assert f"frames: {len(list(tmp_path.glob('round-*.png')))} PNGs" in frames


def test_the_readme_and_analysis_page_say_what_each_interval_is():
    analysis_page = (ROOT / "docs" / "analysis.md").read_text()
    for text in (README, analysis_page):
        assert "95% Wilson score" in text, "the win-rate interval"
        assert "Student-t" in text, "the battle-length interval"
        assert "cluster bootstrap by run" in text, "the per-fighter shares' interval"
    assert "## What each interval is" in analysis_page
    assert "docs/analysis.md#what-each-interval-is" in README
