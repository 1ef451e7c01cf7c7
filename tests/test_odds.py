import pytest

from sim import odds
from sim.errors import SimError
from sim.rules import twowp


def test_deathwish_glock_18_matches_seed():
    data = odds.deathwish_odds(2, 4, armor=0, cover=0, tt=5)
    assert data["mean"] == 2.0
    assert data["p_zero"] == 0.36
    assert sum(data["damage"].values()) == pytest.approx(1.0)
    assert sum(data["wounds"].values()) == pytest.approx(1.0)
    assert data["wounds"]["none"] == 0.36  # TT 5: Slight is 1, so only 0 damage does nothing


def test_deathwish_table_has_every_weapon_at_every_armor():
    rows = odds.deathwish_table(tt=5, strength=5, cover=0, location="torso", ammo="standard")
    from sim.rules import deathwish

    assert len(rows) == 4 * len(deathwish.WEAPONS)
    m2hb = next(r for r in rows if r["weapon"] == "M2HB" and r["armor"] == 0)
    assert m2hb["mean"] == pytest.approx(25.2)
    assert m2hb["p_zero"] == pytest.approx(0.2**7)


def test_more_armor_lowers_mean_in_the_table():
    rows = odds.deathwish_table(tt=5, strength=5, cover=0, location="torso", ammo="standard")
    by_weapon: dict[str, list[float]] = {}
    for r in rows:
        by_weapon.setdefault(r["weapon"], []).append(r["mean"])
    for means in by_weapon.values():
        assert means == sorted(means, reverse=True)


def test_parse_armor_by_name_and_number():
    assert odds.parse_armor("2") == 2
    assert odds.parse_armor("light vest") == 1
    with pytest.raises(SimError, match="did you mean"):
        odds.parse_armor("lite vest")
    with pytest.raises(SimError):
        odds.parse_armor("-1")


def test_a_named_armor_counts_only_where_it_covers():
    assert [odds.parse_armor("light vest", loc) for loc in ("torso", "vitals", "head", "limb")] == [
        1,
        1,
        0,
        0,
    ]
    assert [odds.parse_armor("helmet", loc) for loc in ("torso", "vitals", "head", "limb")] == [
        0,
        0,
        2,
        0,
    ]
    assert odds.parse_armor("2", "head") == 2  # points are the struck location's own


def test_parse_attackers():
    assert odds.parse_attackers("green=3, veteran=1") == {
        twowp.Tier.GREEN: 3,
        twowp.Tier.VETERAN: 1,
    }
    with pytest.raises(SimError, match="TIER=COUNT"):
        odds.parse_attackers("green3")
    with pytest.raises(SimError, match="did you mean"):
        odds.parse_attackers("veteren=2")


def test_twowp_one_die_no_defence():
    data = odds.twowp_odds(1, 0)
    got = {(o["felling"], o["wounding"]): o["p"] for o in data["outcomes"]}
    assert got == pytest.approx({(0, 0): 1 / 3, (0, 1): 1 / 3, (1, 0): 1 / 3})


def test_wargame_odds_two_dice_against_armor():
    data = odds.wargame_odds(2, 10, "hd_sum")
    assert data["mean"] == 9.0
    # 2d8 > 10: totals 11..16 -> 6+5+4+3+2+1 = 21 of 64
    assert data["p_wound"] == pytest.approx(21 / 64)


def test_d6_odds_sum_to_one_and_name_every_tier():
    from sim.dice import parse_code

    data = odds.d6_odds(parse_code("4D"), parse_code("3D"))
    assert list(data["tiers"]) == odds.d6_tier_names()
    assert sum(data["tiers"].values()) == pytest.approx(1.0)
