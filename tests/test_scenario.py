import pickle

import pytest

from sim.errors import SimError
from sim.scenario import FighterSpec, FrozenDict, Goal, Scenario, Side


def two_sides(**kw):
    return Scenario(
        sides=(Side("red", (FighterSpec("a"),)), Side("blue", (FighterSpec("b"),))), **kw
    )


def test_scenarios_are_frozen_hashable_and_picklable():
    sc = two_sides(options={"damage": "weapon_d8"})
    with pytest.raises(AttributeError):
        sc.max_rounds = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        sc.options["damage"] = "hd_sum"  # type: ignore[index]
    assert isinstance(sc.options, FrozenDict)
    assert pickle.loads(pickle.dumps(sc)) == sc
    assert hash(sc) == hash(pickle.loads(pickle.dumps(sc)))


def test_mirrored_swaps_the_sides():
    sc = two_sides()
    assert [s.name for s in sc.mirrored().sides] == ["blue", "red"]
    assert sc.mirrored().mirrored() == sc


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Scenario(sides=(Side("red", (FighterSpec("a"),)),)), "two sides"),
        (lambda: two_sides(max_rounds=0), "max_rounds"),
        (lambda: FighterSpec("x", hit_dice=0), "hit_dice"),
        (lambda: FighterSpec(""), "name"),
        (lambda: Goal("defend"), "goal kind"),
        (
            lambda: Scenario(
                sides=(Side("red", (FighterSpec("a"),)), Side("red", (FighterSpec("b"),)))
            ),
            "differ",
        ),
    ],
)
def test_bad_specs_are_clear_errors(build, message):
    with pytest.raises(SimError, match=message):
        build()


def test_renamed_keeps_the_stat_block():
    f = FighterSpec("levy", hit_dice=3, armor=("gambeson",))
    g = f.renamed("levy 2")
    assert g.name == "levy 2" and g.hit_dice == 3 and g.armor == ("gambeson",)
