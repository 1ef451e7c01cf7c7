"""Names that mislead, and numbers they could silently make wrong (issue 34).

A side's name must never collide with the summary's columns derived from another side's
(``guards`` and ``guards.lo`` would share ``win.guards.lo``); names may hold no invisible
or bidirectional control character, and are compared after Unicode NFC normalisation, so
two names that print alike are not two names.
"""

from __future__ import annotations

import csv
import json
import re
import unicodedata
from textwrap import dedent

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sim import analysis
from sim.cli import text
from sim.errors import SimError
from sim.scenario import ScenarioError, parse_scenario
from tests.scenario.helpers import TWO_SIDES, errors
from tests.test_analysis import make_dataset, run, side
from tests.test_runner import cli

SIDES = """\
sides:
  "{a}":
    fighters:
      - {{name: x}}
  "{b}":
    fighters:
      - {{name: y}}
"""


def sides(a: str, b: str) -> str:
    return SIDES.format(a=a, b=b)


# --------------------------------------------------------------------------- columns


def test_a_side_named_as_another_sides_interval_column_is_refused():
    assert errors(sides("guards", "guards.lo")) == [
        "t.yaml:5: sides.guards.lo: a side named 'guards.lo' would share the summary's "
        "column win.guards.lo with side 'guards' (its interval); rename one of them"
    ]
    assert errors(sides("a.hi", "a"))[0].startswith("t.yaml:2: sides.a.hi: a side named 'a.hi'")
    parse_scenario(dedent(sides("guards", "guards.low")), "t.yaml")  # no column is shared


def hand_dataset(root, names, winners):
    """Runs of two sides named ``names``; run i won by ``winners[i]`` (None: a draw)."""
    a, b = names
    rows = [
        run(i, "x", w, 3, [side(a, dead=int(w == b)), side(b, dead=int(w == a))])
        for i, w in enumerate(winners)
    ]
    return make_dataset(root, rows)


def test_a_dataset_whose_sides_share_a_column_is_refused(tmp_path, capsys):
    ds = hand_dataset(tmp_path / "ds", ["guards", "guards.lo"], ["guards.lo"] * 9 + ["guards"])
    with pytest.raises(SimError, match="share the summary's column win.guards.lo"):
        analysis.summarize(ds)
    code, out, err = cli(capsys, "analyze", ds.root)
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err


PIECES = ["guards", "a", "lo", "hi", ".lo", ".hi", ".", "win", "draw", ".mean", "dead", " "]
SIDE_NAME = st.lists(st.sampled_from(PIECES), min_size=1, max_size=4).map("".join)
ENDS = st.sampled_from([".lo", ".hi", ".mean", ".lo.hi", "lo", ".", ""])
PAIR = (
    SIDE_NAME.flatmap(lambda a: st.tuples(st.just(a), SIDE_NAME | ENDS.map(lambda e: a + e)))
    .flatmap(lambda t: st.sampled_from([list(t), list(t[::-1])]))
    .filter(lambda t: t[0] != t[1])
)
"""Two side names, the second often the first with an ending the summary's columns use."""
INTERVAL = re.compile(r"(\d+\.\d)% \[\s*(\d+\.\d)-\s*(\d+\.\d)\]")


def accepted(a: str, b: str) -> bool:
    try:
        parse_scenario(dedent(sides(a, b)), "t.yaml")
    except ScenarioError:
        return False
    return True


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PAIR, st.lists(st.integers(0, 2), min_size=1, max_size=12))
def test_every_printed_interval_holds_its_rate_for_any_accepted_names(
    tmp_path_factory, names, outcomes
):
    assume(accepted(*names))
    winners = [(names + [None])[k] for k in outcomes]
    ds = hand_dataset(tmp_path_factory.mktemp("names") / "ds", names, winners)
    s = analysis.summarize(ds)
    n = len(winners)
    for group in json.loads(text.summary_text(ds, s, "json")):
        for name in names:
            rate = group["win_rate"][name]
            assert rate["p"] == winners.count(name) / n
            assert rate["lo"] <= rate["p"] <= rate["hi"], (name, rate)
    table = text.summary_text(ds, s, "table")
    shown = INTERVAL.findall(table)
    decisive = any(w is not None for w in winners)  # the first side's share of them is shown
    assert len(shown) == 2 + 1 + decisive, table  # each side's wins, the draws
    for p, lo, hi in shown:
        assert float(lo) <= float(p) <= float(hi), table
    header, row = text.summary_text(ds, s, "csv").splitlines()[:2]
    cells = dict(zip(*csv.reader([header, row]), strict=True))
    for name in names:
        p, lo, hi = (float(cells[f"win.{name}{end}"]) for end in ("", ".lo", ".hi"))
        assert lo <= p <= hi and p == winners.count(name) / n


# --------------------------------------------------------------------------- invisible


@pytest.mark.parametrize(
    ("char", "what"),
    [
        ("\u200b", "U+200B (zero width space)"),
        ("\u200d", "U+200D (zero width joiner)"),
        ("\u202e", "U+202E (right-to-left override)"),
        ("\u2066", "U+2066 (left-to-right isolate)"),
        ("\u200f", "U+200F (right-to-left mark)"),
        ("\ufeff", "U+FEFF (zero width no-break space)"),
        ("\u00ad", "U+00AD (soft hyphen)"),
        ("\u2028", "U+2028 (line separator)"),
    ],
)
def test_invisible_and_bidirectional_characters_are_refused_in_names(char, what):
    problem = (
        f"holds the invisible or bidirectional control character {what}; a name must "
        "read as it shows"
    )
    escape = f"\\u{ord(char):04x}"  # written as a YAML escape: U+2028 ends a YAML line
    key = f"re{char}d"
    assert errors(TWO_SIDES.replace("  red:", f'  "re{escape}d":')) == [
        f"t.yaml:2: sides: the key {key!r} {problem}"
    ]
    name = f"Ha{char}l"
    assert errors(TWO_SIDES.replace("{name: a}", f'{{name: "Ha{escape}l"}}')) == [
        f"t.yaml:4: sides.red.fighters[0].name: the text {name!r} {problem}"
    ]


def test_bidirectional_text_itself_is_a_fine_name():
    sc = parse_scenario(dedent(TWO_SIDES.replace("{name: a}", "{name: \u05d0\u05d1\u05d2}")), "t")
    assert sc.sides[0].fighters[0].name == "\u05d0\u05d1\u05d2"


def test_a_description_may_hold_a_right_to_left_mark():
    text = 'description: "\u05d0\u200f 1"\n' + TWO_SIDES
    assert parse_scenario(dedent(text), "t.yaml").description == "\u05d0\u200f 1"


# --------------------------------------------------------------------------- twins

NFC = unicodedata.normalize("NFC", "caf\u00e9")
NFD = unicodedata.normalize("NFD", "caf\u00e9")


def test_unicode_twins_are_one_side_name():
    assert NFC != NFD
    assert errors(sides(NFC, NFD)) == [
        f"t.yaml:5: sides.{NFC}: duplicate key (first on line 2: the same name in another "
        "Unicode form)"
    ]


def test_unicode_twins_are_one_fighter_name():
    doc = TWO_SIDES.replace("{name: b}", f"{{name: {NFD}}}").replace(
        "{name: a}", f"{{name: {NFC}}}"
    )
    assert errors(doc) == [
        f"t.yaml:7: sides.blue.fighters[0].name: fighter name {NFC!r} is already used by "
        "sides.red.fighters[0]"
    ]


def test_names_are_read_in_nfc():
    doc = TWO_SIDES.replace("  red:", f"  {NFD}:").replace("{name: a}", f"{{name: {NFD}}}")
    sc = parse_scenario(dedent(doc), "t.yaml")
    assert [s.name for s in sc.sides][0] == NFC
    assert sc.sides[0].fighters[0].name == NFC


def test_a_leader_written_in_another_unicode_form_is_the_same_fighter():
    doc = TWO_SIDES.replace("{name: a}", f"{{name: {NFC}}}")
    doc = doc.replace("  red:\n", f"  red:\n    leader: {NFD}\n")
    sc = parse_scenario(dedent(doc), "t.yaml")
    assert sc.sides[0].leader == NFC == sc.sides[0].fighters[0].name


def test_a_label_is_a_name(tmp_path):
    from pathlib import Path

    from sim.experiment.load import load_experiment

    skirmish = Path(__file__).resolve().parents[1] / "scenarios" / "skirmish.yaml"
    path = tmp_path / "e.yaml"
    path.write_text(
        f"scenario: {skirmish}\nparameters:\n  max_rounds: [3, 4]\n"
        'labels:\n  max_rounds: "rounds\\u202e"\n'
    )
    with pytest.raises(ScenarioError) as err:
        load_experiment(path)
    assert str(err.value) == (
        f"{path}:5: labels.max_rounds: the text 'rounds\\u202e' holds the invisible or "
        "bidirectional control character U+202E (right-to-left override); a name must read "
        "as it shows"
    )
