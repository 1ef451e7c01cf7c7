"""The aftermath key: days, camp healers and their supervisors, camp and system options."""

import pickle

import pytest

from tests.scenario.helpers import AFTER, errors, load


def test_aftermath_and_campaign_load():
    sc = load(
        AFTER
        + """\
aftermath:
  days: 3
  healers:
    - {name: Doc, side: red, role: surgeon, skill: experienced}
    - {name: kid, count: 2, side: red, role: nurse, skill: unskilled, supervisor: Doc}
  camp: {triage: listed}
  options: {rest: light}
campaign:
  side: red
  days_between: 2
  battles: [{}, {name: again, max_rounds: 9}]
  options: {fled: leave}
"""
    )
    a = sc.aftermath
    assert a.days == 3 and dict(a.camp) == {"triage": "listed"}
    assert dict(a.options) == {"rest": "light"}
    assert [(h.name, h.role, h.skill, h.supervisor) for h in a.healers] == [
        ("Doc", "surgeon", "experienced", None),
        ("kid 1", "nurse", "unskilled", "Doc"),
        ("kid 2", "nurse", "unskilled", "Doc"),
    ]
    c = sc.campaign
    assert c.side == "red" and c.days_between == 2 and dict(c.options) == {"fled": "leave"}
    assert c.names == ("battle 1", "again") and [b.max_rounds for b in c.battles] == [50, 9]
    assert all(b.aftermath is None and b.campaign is None for b in c.battles)
    assert pickle.loads(pickle.dumps(sc)) == sc


AFTER_BAD = {
    "aftermath keys and values": (
        """\
aftermath:
  dayz: 3
  days: 0
  camp: {triage: worst, healer_hourz: 3}
  options: {felled_until: never}
""",
        [
            "t.yaml:10: aftermath.dayz: unknown key 'dayz'; did you mean 'days'?",
            "t.yaml:11: aftermath.days: must be 1..3650, got 0",
            "t.yaml:12: aftermath.camp.triage: 'worst' is not one of 'felled_first', 'listed'",
            "t.yaml:12: aftermath.camp.healer_hourz: unknown camp option 'healer_hourz'; did you "
            "mean 'healer_hours'?",
            "t.yaml:13: aftermath.options.felled_until: 'never' is not one of "
            "'felling_recovered', 'all_recovered'",
        ],
    ),
    "healers": (
        """\
aftermath:
  healers:
    - {name: a, side: red, role: surgeon}
    - {name: Mara, side: redd, role: surgeonn, skill: expert}
    - {name: Pip, side: red, role: nurse, first_aid: 3X, count: -1}
    - {side: red, hair: grey}
""",
        [
            "t.yaml:11: aftermath.healers[0].name: 'a' is a fighter; a fighter heals by its "
            "skills (skills: {surgeon: experienced}), a camp healer needs a name of its own",
            "t.yaml:12: aftermath.healers[1].side: unknown side 'redd'; did you mean 'red'?",
            "t.yaml:12: aftermath.healers[1].role: unknown healer role 'surgeonn'; did you mean "
            "'surgeon'?",
            "t.yaml:12: aftermath.healers[1].skill: unknown skill level 'expert'; did you mean "
            "'experienced'?",
            "t.yaml:13: aftermath.healers[2].first_aid: bad dice code '3X': expected ND or ND+P, "
            "e.g. 3D, 3D+2, 4D-1",
            "t.yaml:13: aftermath.healers[2].count: must be 0..1000, got -1",
            "t.yaml:14: aftermath.healers[3].hair: unknown key 'hair'; allowed: name, side, role, "
            "skill, count, supervisor, first_aid",
            "t.yaml:14: aftermath.healers[3].name: required: a healer needs a name",
            "t.yaml:14: aftermath.healers[3].role: required: a healer needs a role",
        ],
    ),
    "supervisors": (
        """\
aftermath:
  healers:
    - {name: Kid, side: red, role: nurse, skill: unskilled, supervisor: A}
    - {name: Kad, side: blue, role: nurse, supervisor: Kid}
""",
        [
            "t.yaml:11: aftermath.healers[0].supervisor: 'A' is not a healer of side red; did "
            "you mean 'a'?",
            "t.yaml:12: aftermath.healers[1].supervisor: 'Kid' is not a healer of side blue; "
            "side blue has no other healer",
        ],
    ),
    "too many students": (
        """\
aftermath:
  healers: [{name: kid, count: 2, side: red, role: nurse, supervisor: a}]
""",
        [
            "t.yaml:10: aftermath.healers: healer a: a competent supervisor takes at most 1 "
            "students, got 2"
        ],
    ),
    "priests": (
        """\
aftermath:
  healers:
    - {name: Anselm, side: red, role: preist}
    - {name: Oda, side: red, role: priest, skill: holy}
""",
        [
            "t.yaml:11: aftermath.healers[0].role: unknown healer role 'preist'; did you mean "
            "'priest'?",
            "t.yaml:12: aftermath.healers[1].skill: unknown skill level 'holy'; known: "
            "'unskilled', 'competent', 'experienced', 'specialized'",
        ],
    ),
}


@pytest.mark.parametrize(("tail", "expected"), AFTER_BAD.values(), ids=AFTER_BAD.keys())
def test_bad_aftermath_and_campaign_keys_are_reported_exactly(tail, expected):
    assert errors(AFTER + tail) == expected


def test_bad_d6_aftermath_options_are_reported_exactly():
    text = (
        "rules: d6\n"
        "sides:\n  red:\n    fighters: [{name: a}]\n  blue:\n    fighters: [{name: b}]\n"
        "aftermath:\n"
        "  options: {raised_as: alive, poison_fails: worse, first_aid_bonus: all}\n"
    )
    assert errors(text) == [
        "t.yaml:8: aftermath.options.raised_as: 'alive' is not one of 'unhurt', 'wounded_twice'",
        "t.yaml:8: aftermath.options.poison_fails: 'worse' is not one of 'worsen', 'by_margin'; "
        "did you mean 'worsen'?",
        "t.yaml:8: aftermath.options.first_aid_bonus: 'all' is not one of 'both', 'either'",
    ]


def test_bad_aftermath_overrides_are_reported_against_set():
    assert errors(
        AFTER + "aftermath: {healers: [{name: Doc, side: red, role: surgeon}]}\n",
        ["aftermath.healers[0].skill=wizard", "aftermath.days=x"],
    ) == [
        "<--set>: aftermath.days: expected a whole number, got 'x'",
        "<--set>: aftermath.healers[0].skill: unknown skill level 'wizard'; known: 'unskilled', "
        "'competent', 'experienced', 'specialized'",
    ]


def test_war_game_has_no_aftermath_options():
    text = AFTER.replace("rules: 2w2p", "rules: wargame") + "aftermath: {options: {rest: x}}\n"
    assert errors(text) == [
        "t.yaml:9: aftermath.options: the wargame system has no aftermath options (camp "
        "options go in aftermath.camp)"
    ]
