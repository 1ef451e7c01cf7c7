"""The README is the front door: it must document every rule option and the two commands."""

from pathlib import Path

from sim.cli import option_rows

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def test_readme_lists_every_option():
    rows = option_rows()
    assert {r["system"] for r in rows} == {
        "wargame",
        "2w2p",
        "deathwish",
        "d6",
        "battle",
        "tactic",
        "2w2p-aftermath",
        "deathwish-aftermath",
        "d6-aftermath",
        "camp",
        "campaign",
    }
    missing = [
        f"{r['system']}.{r['name']}"
        for r in rows
        if f"| {r['system']} | {r['name']} |" not in README
    ]
    assert missing == []


def test_readme_gives_the_two_setup_commands():
    assert "python3 -m pip install -e . && sim sweep experiments/quickstart.yaml" in README
    assert 'python3 -m pip install -e ".[test]" && python3 -m pytest' in README
