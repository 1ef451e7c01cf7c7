"""The README is the front door: it must document every rule option and the two commands."""

from pathlib import Path

from sim.rules import SYSTEMS
from sim.rules.common import describe_options

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def test_readme_lists_every_rule_option():
    missing = [
        f"{name}.{o['name']}"
        for name, module in SYSTEMS.items()
        for o in describe_options(module.Options)
        if f"| {name} | {o['name']} |" not in README
    ]
    assert missing == []


def test_readme_gives_the_two_setup_commands():
    assert "python3 -m pip install -e . && sim " in README
    assert 'python3 -m pip install -e ".[test]" && python3 -m pytest' in README
