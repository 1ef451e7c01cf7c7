"""load_scenario and parse_scenario: files and texts in, a Scenario or every problem out."""

import copy
import pickle

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.battle.battle import Battle
from sim.scenario import (
    Event,
    FactorSpec,
    FighterSpec,
    Goal,
    Issue,
    Scenario,
    ScenarioError,
    TacticSpec,
    load_scenario,
    parse_scenario,
)
from tests.scenario.helpers import FORD, TWO_SIDES, errors


def test_ford_loads_with_everything_in_it():
    sc = load_scenario(FORD)
    assert isinstance(sc, Scenario)
    assert sc.name == "ford" and sc.rules == "wargame" and sc.max_rounds == 30 and sc.seed == 9
    assert sc.description.startswith("Red holds the ford") and not sc.description.endswith("\n")
    assert dict(sc.options) == {"pool": "literal"}
    assert sc.frame == {} and sc.battle == {}
    assert sc.factors == (
        FactorSpec("cover", "trees"),
        FactorSpec("hazard", "storm"),
        FactorSpec("distraction", "sand"),
        FactorSpec("cover", None),  # rolled
    )
    red, blue = sc.sides
    assert red.name == "red" and blue.name == "blue"
    assert [f.name for f in red.fighters] == ["Bran", "Ailis", "guard 1", "guard 2"]
    assert [f.name for f in blue.fighters] == ["Osk", "levy 1", "levy 2", "levy 3", "levy 4"]
    assert red.leader == "Bran" and blue.leader == "Osk"
    assert red.tactic == TacticSpec("defensive")
    assert blue.tactic == TacticSpec("aggressive", {"reserve": 1, "target": "strongest"})
    assert red.goals == (Goal("hold", rounds=5), Goal("protect", target="Ailis"))
    assert blue.goals == ()
    bran, ailis, guard1, _ = red.fighters
    assert (bran.hit_dice, bran.armor, bran.shield, bran.weapon, bran.fights) == (
        5,
        ("chain",),
        "medium",
        "axe",
        12,
    )
    assert (ailis.hit_dice, ailis.role, ailis.weapon) == (4, "priest", "plain")
    assert guard1 == bran.renamed("guard 1")
    osk = blue.fighters[0]
    assert osk.weapon == "maul" and osk.hit_dice == 5  # own field over the template's
    assert blue.fighters[1].armor == ("gambeson",) and blue.fighters[1].weapon == "spear"
    reinforce, fire = sc.events
    assert (reinforce.round, reinforce.kind, reinforce.side) == (3, "reinforce", "blue")
    assert [f.name for f in reinforce.fighters] == ["rider 1", "rider 2"]
    assert all(f.mounted and f.weapon == "lance" and f.hit_dice == 3 for f in reinforce.fighters)
    assert fire == Event(4, "add_factor", factor=FactorSpec("hazard", "fire"))
    assert hash(sc) == hash(pickle.loads(pickle.dumps(sc)))


def test_ford_fights_a_battle():
    sc = load_scenario(str(FORD))
    outcome = Battle(sc, seed=1).run()
    assert outcome.end_reason in (
        "defeat",
        "goal_achieved",
        "goal_failed",
        "mutual_defeat",
        "max_rounds",
    )
    assert outcome.rounds >= 1
    again = Battle(load_scenario(FORD), seed=1).run()
    assert again.to_dict() == outcome.to_dict()


def test_every_error_in_a_file_is_reported_at_once(tmp_path):
    text = FORD.read_text()
    text = text.replace("max_rounds: 30", "max_rounds: thirty")
    text = text.replace(
        "{name: Bran, template: veteran}", "{name: Bran, template: veteran, weapon: ax}"
    )
    text = text.replace("leader: Osk", "leader: Oks")
    text = text.replace("{hazard: fire}", "{hazard: fir}")
    path = tmp_path / "ford.yaml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    src = str(path)

    def line(snippet):  # 1-based line of a snippet in the file, so ford.yaml may change
        return next(i for i, t in enumerate(text.splitlines(), 1) if snippet in t)

    assert str(info.value).splitlines() == [
        f"{src}:{line('thirty')}: max_rounds: expected a whole number, got 'thirty'",
        f"{src}:{line('weapon: ax}')}: sides.red.fighters[0].weapon: unknown weapon category "
        "'ax'; did you mean 'axe'?",
        f"{src}:{line('Oks')}: sides.blue.leader: 'Oks' is not a starting fighter of side "
        "blue; did you mean 'Osk'?",
        f"{src}:{line('fir}')}: events[1].add_factor.hazard: unknown hazard 'fir'; did you "
        "mean 'fire'?",
    ]


def test_documents_that_are_not_scenarios():
    assert errors("") == ["t.yaml: the file is empty; expected a mapping with at least sides"]
    assert errors("- a\n- b\n") == [
        "t.yaml:1: expected a mapping of keys (name, rules, sides, ...) at the top level, got "
        "a list"
    ]
    assert errors("just text\n") == [
        "t.yaml:1: expected a mapping of keys (name, rules, sides, ...) at the top level, "
        "got 'just text'"
    ]


def test_file_not_found(tmp_path):
    missing = tmp_path / "nope.yaml"
    with pytest.raises(ScenarioError) as info:
        load_scenario(missing)
    assert str(info.value) == f"{missing}: file not found"


def test_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin.yaml"
    path.write_bytes(b"name: x\ndescription: caf\xe9\n")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert str(info.value) == f"{path}:2: not UTF-8 text (byte 24)"


def test_name_defaults_to_the_file_stem(tmp_path):
    path = tmp_path / "skirmish.yaml"
    path.write_text(TWO_SIDES)
    assert load_scenario(path).name == "skirmish"
    assert parse_scenario(TWO_SIDES).name == "battle"


FORD_DOC = yaml.safe_load(FORD.read_text())


_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["wargame", "2w2p", "d6", "deathwish", "Bran", "levy", "chain", "axe", "3D"]),
)


_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


FORD_PATHS = [p for p in _paths(FORD_DOC) if p]


def _mutate(doc, data):
    doc = copy.deepcopy(doc)
    for _ in range(data.draw(st.integers(1, 4))):
        path = data.draw(st.sampled_from(FORD_PATHS))
        parent = doc
        try:
            for step in path[:-1]:
                parent = parent[step]
            last = path[-1]
            parent[last]  # noqa: B018 - the path may be gone after an earlier mutation
        except (KeyError, IndexError, TypeError):
            continue
        if not isinstance(parent, (dict, list)):  # a text put there earlier: indexable, fixed
            continue
        action = data.draw(st.sampled_from(["replace", "delete", "rename", "duplicate"]))
        if action == "replace":
            parent[last] = data.draw(_values)
        elif action == "delete":
            del parent[last]
        elif action == "rename" and isinstance(parent, dict):
            parent[data.draw(st.text(max_size=10))] = parent.pop(last)
        elif action == "duplicate" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[last]))
    return doc


def _check(text, overrides=()):
    try:
        sc = parse_scenario(text, "fuzz.yaml", overrides)
    except ScenarioError as err:
        assert err.issues and all(isinstance(i, Issue) for i in err.issues)
        assert all("\n" not in str(i) for i in err.issues)
    else:
        assert isinstance(sc, Scenario) and len(sc.sides) >= 2
        assert all(isinstance(f, FighterSpec) for s in sc.sides for f in s.fighters)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_scenarios_load_or_fail_cleanly(data):
    doc = _mutate(FORD_DOC, data)
    text = yaml.safe_dump(doc, allow_unicode=True)
    overrides = data.draw(
        st.lists(
            st.one_of(
                st.text(max_size=20),
                st.builds(
                    lambda p, v: f"{p}={v}",
                    st.sampled_from(
                        [
                            "max_rounds",
                            "sides.red.tactic",
                            "rules.options.pool",
                            "sides.blue.fighters[0].hit_dice",
                            "x[1].y",
                            "seed",
                        ]
                    ),
                    st.text(max_size=10),
                ),
            ),
            max_size=2,
        )
    )
    _check(text, overrides)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_loads_or_fails_cleanly(text):
    _check(text)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_mutated_yaml_text_loads_or_fails_cleanly(data):
    text = FORD.read_text()
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 20)))
        text = text[:i] + data.draw(st.text(max_size=8)) + text[j:]
    _check(text)
