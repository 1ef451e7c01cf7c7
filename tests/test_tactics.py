import numpy as np
import pytest

from sim.battle.battle import Battle
from sim.errors import SimError
from sim.scenario import FighterSpec, Scenario, Side
from sim.scenario.tactics import PARAMETERS, TACTICS, Tactic, describe_tactics, make_tactic


def test_the_four_named_tactics_exist():
    assert set(TACTICS) >= {"balanced", "aggressive", "defensive", "focus_leader"}
    assert make_tactic() == Tactic(name="balanced")


def test_presets_differ_where_documented():
    aggressive, defensive = make_tactic("aggressive"), make_tactic("defensive")
    assert (aggressive.reserve, aggressive.mighty, aggressive.dodge) == (0, "always", "out")
    assert (defensive.reserve, defensive.mighty, defensive.defence_share) == (2, "never", 0.5)
    assert make_tactic("focus_leader").target == "leader"


def test_params_override_a_preset():
    t = make_tactic("aggressive", {"reserve": 2})
    assert t.name == "aggressive" and t.reserve == 2 and t.mighty == "always"


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"reserv": 1}, "did you mean 'reserve'"),
        ({"dodge": "sometimes"}, "not one of"),
        ({"defence_share": 2.0}, "out of range"),
        ({"name": "x"}, "not a parameter"),
    ],
)
def test_bad_params_are_clear_errors(params, message):
    with pytest.raises(SimError, match=message):
        make_tactic("balanced", params)


def test_every_parameter_is_documented():
    docs = {d["name"] for d in describe_tactics()}
    assert docs == set(PARAMETERS) and "name" not in docs


def _battle():
    red = (FighterSpec("r0", hit_dice=2), FighterSpec("r1", hit_dice=6), FighterSpec("r2"))
    sc = Scenario(sides=(Side("red", red, leader="r2"), Side("blue", (FighterSpec("b0"),))))
    return Battle(sc, seed=1)


def test_targets():
    b = _battle()
    red = b.sides["red"].fighters
    rng = np.random.default_rng(0)
    assert make_tactic().choose_target(red, rng).name == "r0"  # weakest: fewest HD
    assert make_tactic("balanced", {"target": "strongest"}).choose_target(red, rng).name == "r1"
    assert make_tactic("focus_leader").choose_target(red, rng).name == "r2"
    assert make_tactic().choose_target([], rng) is None


def test_dodge_and_mighty_decisions():
    t = make_tactic()
    assert t.wants_dodge(would_wound=True, would_out=False)
    assert not t.wants_dodge(would_wound=False, would_out=False)
    out_only = make_tactic("aggressive")
    assert not out_only.wants_dodge(would_wound=True, would_out=False)
    assert out_only.wants_dodge(would_wound=True, would_out=True)
    # balanced: mighty only on a target that cannot dodge it; armored: on a well-armored one
    assert t.wants_mighty(0, target_can_dodge=False) and not t.wants_mighty(20)
    armored = make_tactic("balanced", {"mighty": "armored"})
    assert armored.wants_mighty(6) and not armored.wants_mighty(5)
    assert t.wants_recover(3, 8) and not t.wants_recover(4, 8) and not t.wants_recover(0, 0)


def test_popcorn_names_the_most_harmless_enemy_first_or_an_ally_first():
    b = _battle()
    red, blue = b.sides["red"].fighters, b.sides["blue"].fighters
    t = make_tactic()  # enemy_first: keep one's own for the end of the round
    assert t.name_next_actor(blue, red).name == "r0"  # fewest HD
    assert t.name_next_actor(red, []).name == "r1"  # no enemy waiting: the readiest ally
    ally = make_tactic("balanced", {"name_next": "ally_first"})
    assert ally.name_next_actor(red, blue).name == "r1"  # most HD to spend
    assert ally.name_next_actor([], red).name == "r0"
    for tactic in (t, ally):  # name_of: the same pick from the two candidates
        for a, e in ((red[1], blue[0]), (None, red[0]), (red[1], None), (None, None)):
            assert tactic.name_of(a, e) is tactic.name_next_actor(
                [a] if a else [], [e] if e else []
            )


def test_a_defender_blocks_with_an_item_only_when_its_tactic_says():
    fallback, first = make_tactic(), make_tactic("balanced", {"block": "first"})
    never = make_tactic("balanced", {"block": "never"})
    assert fallback.block == "fallback"
    # (avoid, can_dodge, can_block) -> defence
    assert fallback.defence(False, True, True) == "armor"
    assert fallback.defence(True, True, True) == "dodge"
    assert fallback.defence(True, False, True) == "block"
    assert fallback.defence(True, False, False) == "armor"
    assert first.defence(True, True, True) == "block"
    assert first.defence(True, True, False) == "dodge"
    assert never.defence(True, False, True) == "armor"


def test_a_called_shot_is_weighed_by_its_odds_unless_the_tactic_says_never_or_always():
    from fractions import Fraction as F

    from sim.scenario.tactics import make_tactic

    plain, better = (F(1, 4), F(2)), (F(1, 3), F(1))
    odds = make_tactic()
    assert odds.called_shot == "odds"
    assert odds.wants_called_shot(plain, better) and not odds.wants_called_shot(better, plain)
    assert not odds.wants_called_shot(plain, plain)
    assert make_tactic(params={"called_shot": "always"}).wants_called_shot(better, plain)
    assert not make_tactic(params={"called_shot": "never"}).wants_called_shot(plain, better)
