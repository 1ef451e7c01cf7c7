"""The rules a battle is fought by: rules, frame and battle."""

import pytest

from tests.scenario.helpers import TWO_SIDES, errors

BAD_CASES = {
    "unknown system": (
        "rules: wargam\n" + TWO_SIDES,
        ["t.yaml:1: rules: unknown rules system 'wargam'; did you mean 'wargame'?"],
    ),
    "unknown rule option": (
        "rules:\n  system: wargame\n  options: {pools: headcount}\n" + TWO_SIDES,
        ["t.yaml:3: rules.options.pools: unknown option 'pools'; did you mean 'pool'?"],
    ),
    "bad rule option value": (
        "rules:\n  system: d6\n  options:\n    called_shot_difficulty: 2X\n" + TWO_SIDES,
        [
            "t.yaml:4: rules.options.called_shot_difficulty: bad dice code '2X': expected ND "
            "or ND+P, e.g. 3D, 3D+2, 4D-1"
        ],
    ),
    "frame under wargame set twice": (
        "rules:\n  system: wargame\n  options: {large_scale_above: 12}\n"
        "frame: {large_scale_above: 20}\n" + TWO_SIDES,
        [
            "t.yaml:4: frame.large_scale_above: also set in rules.options (12): under War Game "
            "the frame's options are its own; give it once"
        ],
    ),
    "frame option checked against War Game options": (
        "rules: deathwish\nframe:\n  morale_compare: fix\n" + TWO_SIDES,
        [
            "t.yaml:3: frame.morale_compare: 'fix' is not one of 'hd', 'fixed'; did you mean "
            "'fixed'?"
        ],
    ),
    **{
        f"faction pools under {system}": (
            f"rules: {system}\nbattle: {{large_scale: pools}}\n" + TWO_SIDES,
            [
                "t.yaml:2: battle.large_scale: 'pools' are the War Game's faction pools (each "
                f"faction one pool of HD and armor); a {system} battle has none: use 'turns' "
                "(the default), or rules: wargame"
            ],
        )
        for system in ("2w2p", "deathwish", "d6")
    },
    "battle option": (
        "battle: {cover_rounds: 0}\n" + TWO_SIDES,
        ["t.yaml:1: battle.cover_rounds: must be 1 or more, got 0"],
    ),
}


@pytest.mark.parametrize(("text", "expected"), BAD_CASES.values(), ids=BAD_CASES.keys())
def test_bad_input_is_reported_exactly(text, expected):
    assert errors(text) == expected


def test_the_frame_block_works_under_every_system():
    """frame.large_scale_above is one sweep path for all four systems (under War Game the
    frame's options are the system's own, so they join rules.options)."""
    from tests.scenario.helpers import load

    for system in ("wargame", "2w2p", "deathwish", "d6"):
        sc = load(f"rules: {system}\nframe: {{large_scale_above: 3}}\n" + TWO_SIDES)
        from sim.systems import get

        assert sc.frame_options(get(system)).large_scale_above == 3, system
    wg = load("frame: {large_scale_above: 3}\n" + TWO_SIDES)
    assert dict(wg.options) == {"large_scale_above": 3} and dict(wg.frame) == {}


def test_faction_pools_are_the_war_games_own():
    from dataclasses import replace

    from sim.battle import Battle
    from sim.errors import SimError
    from sim.scenario import parse_scenario

    sc = parse_scenario("battle: {large_scale: pools}\n" + TWO_SIDES, "t.yaml")  # War Game
    Battle(sc, seed=1, battle={"large_scale": "pools"}).run()
    for system in ("2w2p", "deathwish", "d6"):
        with pytest.raises(SimError, match=f"a {system} battle has none"):
            Battle(replace(sc, rules=system), seed=1, battle={"large_scale": "pools"})
