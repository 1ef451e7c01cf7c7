from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.dice import Dist
from sim.errors import SimError
from sim.rules import deathwish as dw
from sim.rules import get_system
from sim.rules.common import load_csv
from tests.conftest import assert_matches

F = Fraction


def values(name, **kw):
    return dw.attack_values(dw.find_weapon(name), **kw)


def dist_of(name, armor=0, cover=0, **kw):
    pen, leth = values(name, **kw)
    return dw.damage_dist(pen, leth, armor, cover)


# --------------------------------------------------------------------------- registry, data


def test_registered_and_named():
    assert get_system("deathwish") is dw
    assert dw.NAME == "deathwish"
    assert dw.SEED == "001_e5fc2d51799d4e98.txt"


def test_weapons_table_is_the_seeds():
    table = {n: (w.penetration, w.lethality) for n, w in dw.WEAPONS.items()}
    assert table == {
        "Unarmed": (1, None),
        "Glock 18": (2, 4),
        "Glock 20": (2, 6),
        "M1911": (2, 5),
        "Five-seveN": (4, 2),
        "MP7": (4, 2),
        "S&W 500": (2, 8),
        "M16": (3, 6),
        "AKM": (4, 5),
        "AK-74": (5, 4),
        "M468": (4, 6),
        "FN MAG": (4, 7),
        "M2HB": (7, 8),
    }


def test_armors_table_is_the_seeds():
    assert dw.ARMORS["light vest"] == 1
    assert dw.ARMORS["military vest"] == 2
    assert dw.ARMORS["SWAT vest"] == 2
    assert dw.ARMORS["trauma plates"] == 3
    assert dw.find_armor("Trauma Plates") == 3
    assert dw.find_armor("swat-vest") == 2


def test_weapon_is_frozen():
    w = dw.find_weapon("AKM")
    with pytest.raises(AttributeError):
        w.penetration = 9  # type: ignore[misc]


@pytest.mark.parametrize("text", ["glock 18", "GLOCK 18", "glock18", "Glock-18", " Glock 18"])
def test_find_weapon_forgives_case_and_spacing(text):
    assert dw.find_weapon(text.strip()).name == "Glock 18"


def test_find_weapon_suggests():
    with pytest.raises(SimError, match="did you mean 'Glock 18'"):
        dw.find_weapon("glok 18")
    with pytest.raises(SimError, match="unknown armor"):
        dw.find_armor("chainmail")


# --------------------------------------------------------------------------- seed figures

SEED_MEANS = {
    "Glock 18": F(2),
    "Glock 20": F(21, 5),
    "M1911": F(3),
    "Five-seveN": F(6, 5),
    "MP7": F(6, 5),
    "S&W 500": F(36, 5),
    "M16": F(63, 10),
    "AKM": F(6),
    "AK-74": F(5),
    "M468": F(42, 5),
    "FN MAG": F(56, 5),
    "M2HB": F(126, 5),
}


@pytest.mark.parametrize(("name", "mean"), SEED_MEANS.items())
def test_mean_damage_is_the_seeds(name, mean):
    assert dist_of(name).mean() == mean


def test_unarmed_mean_damage_at_strength_5():
    assert dist_of("Unarmed", strength=5).mean() == F(3, 2)
    assert values("Unarmed", strength=5) == (1, 5)


def test_data_file_average_column_matches_the_rule():
    for row in load_csv("deathwish_weapons.csv"):
        assert dist_of(row["name"]).mean() == F(row["average_damage"]), row["name"]


@pytest.mark.parametrize(
    ("name", "p0"),
    [
        ("Five-seveN", F(256, 625)),
        ("Glock 18", F(9, 25)),
        ("M16", F(8, 125)),
        ("AKM", F(1, 16)),
        ("M2HB", F(1, 5) ** 7),
    ],
)
def test_chance_of_no_damage_is_the_seeds(name, p0):
    assert dist_of(name)[0] == p0


def test_chance_of_no_damage_decimals():
    assert dist_of("Five-seveN")[0] == F("0.4096")
    assert dist_of("Glock 18")[0] == F("0.36")
    assert dist_of("M16")[0] == F("0.064")
    assert dist_of("AKM")[0] == F("0.0625")
    assert dist_of("M2HB")[0] == F("0.0000128")


def test_punch_beats_five_seven_unarmored():
    assert dist_of("Unarmed", strength=5).mean() > dist_of("Five-seveN").mean()


def test_five_seven_is_the_best_handgun_against_armor_2():
    handguns = ["Glock 18", "Glock 20", "M1911", "S&W 500"]
    best = dist_of("Five-seveN", armor=2).mean()
    assert best == F(3, 5)
    assert all(dist_of(h, armor=2).mean() < best for h in handguns)


def test_armor_stops_equal_or_lower_penetration_cold():
    for w in dw.WEAPONS.values():
        pen, leth = dw.attack_values(w)
        assert dw.damage_dist(pen, leth, armor=pen) == Dist.constant(0)
        assert dw.damage_dist(pen, leth, armor=pen - 1, cover=1) == Dist.constant(0)


def test_armor_and_cover_remove_dice():
    assert dist_of("M2HB", armor=3, cover=2) == dw.damage_dist(2, 8)
    assert dist_of("AKM", armor=dw.find_armor("trauma plates")) == dw.damage_dist(1, 5)
    one = dw.damage_dist(1, 5)
    assert one == Dist({0: F(1, 2), **{f: F(1, 10) for f in range(1, 6)}})


# --------------------------------------------------------------------------- trauma tolerance


@pytest.mark.parametrize(
    ("body", "strength", "tt"), [(5, 5, 5), (3, 9, 6), (5, 6, 6), (6, 5, 6), (1, 2, 2), (4, 5, 5)]
)
def test_trauma_tolerance_rounds_half_up(body, strength, tt):
    assert dw.trauma_tolerance(body, strength) == tt


def test_trauma_tolerance_traits():
    assert dw.trauma_tolerance(5, 5, traits=2) == 7
    assert dw.trauma_tolerance(5, 6, traits=-1) == 5
    with pytest.raises(SimError):
        dw.trauma_tolerance(1, 1, traits=-1)
    with pytest.raises(SimError):
        dw.trauma_tolerance(0, 5)


@pytest.mark.parametrize(
    ("tt", "expected"), [(5, (1, 3, 5, 10)), (6, (2, 3, 6, 12)), (10, (3, 5, 10, 20))]
)
def test_thresholds_are_the_seeds(tt, expected):
    assert dw.thresholds(tt) == dw.Thresholds(*expected)


@pytest.mark.parametrize("tt", [6, 7, 8, 9])
def test_slight_threshold_is_2_for_tt_6_to_9(tt):
    thr = dw.thresholds(tt)
    assert thr.slight == 2
    assert dw.wound_level(1, thr) is None  # 1-point wounds do nothing


def test_slight_threshold_3_from_tt_10():
    assert dw.thresholds(10).slight == 3
    assert dw.thresholds(11).slight == 3  # 2.75 -> 3


def test_bad_tt_is_an_error():
    with pytest.raises(SimError, match="trauma tolerance"):
        dw.thresholds(0)


# --------------------------------------------------------------------------- wound levels

TT5_MEETS = {1: "slight", 2: "slight", 3: "moderate", 4: "moderate"}
TT5_MEETS |= {d: "serious" for d in range(5, 10)} | {d: "critical" for d in range(10, 30)}


def test_tt5_example_meets():
    thr = dw.thresholds(5)
    assert dw.wound_level(0, thr) is None
    for damage, level in TT5_MEETS.items():
        assert dw.wound_level(damage, thr) == level, damage
        assert dw.wound_level(damage, thr) is dw.WoundLevel(level)


def test_tt5_exceeds_reading():
    thr = dw.thresholds(5)
    opts = dw.make_options({"threshold_compare": "exceeds"})
    got = {d: dw.wound_level(d, thr, opts) for d in range(0, 12)}
    assert got == {
        0: None,
        1: None,
        2: "slight",
        3: "slight",
        4: "moderate",
        5: "moderate",
        6: "serious",
        7: "serious",
        8: "serious",
        9: "serious",
        10: "serious",
        11: "critical",
    }


def test_wound_dist_over_level_names():
    wd = dw.wound_dist(dist_of("M16"), dw.thresholds(5))
    assert set(wd.outcomes()) == {"none", "slight", "moderate", "serious", "critical"}
    assert wd["none"] == F(8, 125)
    # 1-2 points are Slight: exactly one die shows 1 or 2 (others miss), or two 1s
    miss = F(4, 10)
    assert wd["slight"] == 3 * F(2, 10) * miss**2 + 3 * F(1, 10) ** 2 * miss
    assert sum((p for _, p in wd.items()), F(0)) == 1


def test_wound_difficulty():
    assert dw.wound_difficulty([]) == 0
    assert dw.wound_difficulty(["moderate"]) == 2
    assert dw.wound_difficulty(["slight"] * 4) == 4
    assert dw.wound_difficulty([dw.WoundLevel.SERIOUS, "critical", "slight"]) == 8
    assert [lv.difficulty for lv in dw.WoundLevel] == [1, 2, 3, 4]


# --------------------------------------------------------------------------- modifiers, clamp


def test_location_modifiers():
    assert values("M1911", location="torso") == (2, 5)
    assert values("M1911", location="limb") == (2, 3)
    assert values("M1911", location="head") == (2, 7)
    assert values("M1911", location="vitals") == (2, 7)
    opts = dw.make_options({"limb_lethality": -1})
    assert values("M1911", location="limb", options=opts) == (2, 4)


def test_ammo_modifiers():
    assert values("AKM", ammo="hollow-point") == (3, 6)
    assert values("AKM", ammo="armor-piercing") == (5, 4)
    assert values("AKM", ammo="Hollow Point", location="head") == (3, 8)
    opts = dw.make_options({"armor_piercing_penetration": 2, "armor_piercing_lethality": 0})
    assert values("AKM", ammo="armor_piercing", options=opts) == (6, 5)


@pytest.mark.parametrize(
    ("name", "kw", "expected"),
    [
        ("S&W 500", {"location": "head"}, (2, 8)),  # 10 -> 8
        ("M2HB", {"location": "vitals", "ammo": "hollow-point"}, (6, 8)),  # 11 -> 8
        ("Five-seveN", {"location": "limb"}, (4, 2)),  # 0 -> 2
        ("Five-seveN", {"ammo": "armor-piercing"}, (5, 2)),  # 1 -> 2
        ("MP7", {"location": "limb", "ammo": "armor-piercing"}, (5, 2)),  # -1 -> 2
        ("Unarmed", {"strength": 9}, (1, 8)),
        ("Unarmed", {"strength": 1}, (1, 2)),
        ("Unarmed", {"strength": 7, "location": "head"}, (1, 8)),  # 9 -> 8
        ("Unarmed", {"strength": 3, "location": "limb"}, (1, 2)),  # 1 -> 2
    ],
)
def test_lethality_clamp_examples(name, kw, expected):
    assert values(name, **kw) == expected


def test_clamp_lethality():
    assert [dw.clamp_lethality(x) for x in (-3, 1, 2, 5, 8, 9, 20)] == [2, 2, 2, 5, 8, 8, 8]


def test_unarmed_ignores_ammunition():
    assert values("Unarmed", ammo="hollow-point") == values("Unarmed")
    assert values("Unarmed", ammo="armor-piercing", location="head") == (1, 7)


def test_penetration_never_below_zero():
    opts = dw.make_options({"hollow_point_penetration": -5})
    assert values("Glock 18", ammo="hollow-point", options=opts) == (0, 5)


def test_bad_location_or_ammo_suggests():
    with pytest.raises(SimError, match="unknown hit location 'hed'; did you mean 'head'"):
        values("AKM", location="hed")
    with pytest.raises(SimError, match="did you mean 'armor-piercing'"):
        values("AKM", ammo="armour-piercing")
    with pytest.raises(SimError, match="unknown ammunition"):
        values("Unarmed", ammo="dumdum")
    with pytest.raises(SimError, match="Strength"):
        values("Unarmed", strength=0)


def test_damage_args_checked():
    with pytest.raises(SimError, match="lethality 9"):
        dw.damage_dist(3, 9)
    with pytest.raises(SimError, match="armor"):
        dw.damage_dist(3, 5, armor=-1)
    with pytest.raises(SimError):
        dw.roll_damage(3, 1, 0, 0, np.random.default_rng(1))


# --------------------------------------------------------------------------- to-hit


def test_to_hit():
    assert dw.to_hit_target() == 5
    assert dw.hit_chance() == F(1, 2)
    assert dw.hit_chance(7) == F(7, 10)
    moderate = dw.wound_difficulty(["moderate"])
    assert dw.to_hit_target(5, moderate, dw.cover_difficulty(1)) == 2
    assert dw.hit_chance(5, moderate, dw.cover_difficulty(1)) == F(1, 5)
    assert dw.hit_chance(3, 2, 2) == 0  # below 1: never hits
    assert dw.hit_chance(14) == 1
    assert dw.hit_chance(8) == F(4, 5)
    opts = dw.make_options({"cover_difficulty_per_point": 2})
    assert dw.cover_difficulty(2, opts) == 4
    assert dw.hit_dist(6) == Dist({True: F(3, 5), False: F(2, 5)})


# --------------------------------------------------------------------------- incapacitation, death


def test_incapacitation_defaults():
    chances = [dw.incapacitation_chance(lv) for lv in dw.WoundLevel]
    assert chances == [0, F(1, 4), F(3, 4), 1]
    opts = dw.make_options({"incapacitate_moderate": 0.1})
    assert dw.incapacitation_chance("moderate", opts) == F(1, 10)


def test_rounds_to_death():
    assert dw.rounds_to_death("slight") is None
    assert dw.rounds_to_death("moderate") is None
    assert dw.rounds_to_death("serious") == 30
    assert dw.rounds_to_death("critical") == 5


def test_instant_death_at_twice_the_critical_threshold():
    thr = dw.thresholds(5)
    assert not dw.instant_death(19, thr)
    assert dw.instant_death(20, thr)
    assert not dw.instant_death(9, thr)
    opts = dw.make_options({"instant_death_multiple": 3})
    assert not dw.instant_death(29, thr, opts) and dw.instant_death(30, thr, opts)


def test_cheat_death_chance():
    assert dw.cheat_death_chance() == 1 - F(9, 10) ** 3 == F(271, 1000)
    one = dw.make_options({"cheat_death_dice": 1, "cheat_death": 4})
    assert dw.cheat_death_chance(one) == F(2, 5)
    assert dw.cheat_death_chance(dw.make_options({"cheat_death_dice": 0})) == 0


def test_effect_dist_examples():
    thr = dw.thresholds(5)
    assert dw.effect_dist(Dist.constant(0), thr) == Dist.constant("unhurt")
    assert dw.effect_dist(Dist.constant(1), thr) == Dist.constant("wounded")
    assert dw.effect_dist(Dist.constant(3), thr) == Dist(
        {"incapacitated": F(1, 4), "wounded": F(3, 4)}
    )
    assert dw.effect_dist(Dist.constant(12), thr) == Dist.constant("incapacitated")
    assert dw.effect_dist(Dist.constant(20), thr) == Dist(
        {"dead": F(729, 1000), "incapacitated": F(271, 1000)}
    )


def test_roll_effect_without_wound_draws_nothing():
    rng = np.random.default_rng(5)
    state = rng.bit_generator.state
    eff = dw.roll_effect(0, dw.thresholds(5), rng)
    assert eff == dw.WoundEffect(0, None, False, False) and eff.effect == "unhurt"
    assert rng.bit_generator.state == state


# --------------------------------------------------------------------------- options


def test_options_checked():
    with pytest.raises(SimError, match="did you mean 'threshold_compare'"):
        dw.make_options({"threshold_compares": "meets"})
    with pytest.raises(SimError, match="not one of"):
        dw.make_options({"threshold_compare": "beats"})
    with pytest.raises(SimError, match="out of range"):
        dw.make_options({"incapacitate_serious": 1.5})
    docs = {d["name"]: d for d in dw.option_docs()}
    assert docs["threshold_compare"]["tag"] == "I"
    assert docs["threshold_compare"]["default"] == "meets"
    assert docs["limb_lethality"] == docs["limb_lethality"] | {"tag": "H", "default": -2}
    assert all(d["tag"] in ("I", "H") and d["doc"] for d in docs.values())


# --------------------------------------------------------------------------- Monte Carlo


def test_roll_damage_matches_exact(rng):
    samples = [dw.roll_damage(3, 6, 0, 0, rng) for _ in range(20_000)]
    assert_matches(samples, dw.damage_dist(3, 6))


def test_roll_damage_many_matches_exact(rng):
    assert_matches(dw.roll_damage_many(4, 5, 1, 0, rng, 40_000).tolist(), dw.damage_dist(4, 5, 1))


def test_rolls_are_deterministic():
    a = [dw.roll_damage(7, 8, 0, 0, np.random.default_rng(9)) for _ in range(3)]
    b = [dw.roll_damage(7, 8, 0, 0, np.random.default_rng(9)) for _ in range(3)]
    assert a == b


def test_to_hit_and_cheat_death_match_exact(rng):
    assert_matches([dw.roll_to_hit(rng, 6, 1) for _ in range(20_000)], dw.hit_dist(6, 1))
    assert_matches([dw.roll_cheat_death(rng) for _ in range(20_000)], dw.cheat_death_dist())


def test_incapacitation_matches_exact(rng):
    for level in dw.WoundLevel:
        samples = [dw.roll_incapacitated(level, rng) for _ in range(5_000)]
        assert_matches(samples, dw.incapacitation_dist(level))


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SEED_MEANS))
@pytest.mark.parametrize("armor", [0, 2])
def test_weapon_damage_rolls_match_exact(name, armor, rng):
    pen, leth = values(name)
    samples = dw.roll_damage_many(pen, leth, armor, 0, rng, 200_000).tolist()
    assert_matches(samples, dw.damage_dist(pen, leth, armor))


@pytest.mark.slow
@pytest.mark.parametrize(("name", "tt"), [("M2HB", 5), ("FN MAG", 5), ("M16", 6), ("S&W 500", 3)])
def test_effect_rolls_match_exact(name, tt, rng):
    pen, leth = values(name)
    thr = dw.thresholds(tt)
    damages = dw.roll_damage_many(pen, leth, 0, 0, rng, 60_000).tolist()
    samples = [dw.roll_effect(d, thr, rng).effect for d in damages]
    assert_matches(samples, dw.effect_dist(dw.damage_dist(pen, leth), thr))


# --------------------------------------------------------------------------- properties

small = st.integers(min_value=0, max_value=8)
lethality = st.integers(min_value=dw.LETHALITY_MIN, max_value=dw.LETHALITY_MAX)


@settings(max_examples=60, deadline=None)
@given(pen=small, leth=lethality, armor=small, cover=small, seed=st.integers(0, 2**32))
def test_damage_never_negative(pen, leth, armor, cover, seed):
    assert min(dw.damage_dist(pen, leth, armor, cover).outcomes()) >= 0
    rng = np.random.default_rng(seed)
    assert dw.roll_damage(pen, leth, armor, cover, rng) >= 0
    assert dw.roll_damage(pen, leth, armor, cover, rng) <= 10 * max(0, pen - armor - cover)


@settings(max_examples=60, deadline=None)
@given(pen=small, leth=lethality, armor=small, cover=small)
def test_more_armor_never_raises_expected_damage(pen, leth, armor, cover):
    less = dw.damage_dist(pen, leth, armor, cover).mean()
    assert dw.damage_dist(pen, leth, armor + 1, cover).mean() <= less
    assert dw.damage_dist(pen, leth, armor, cover + 1).mean() <= less


@settings(max_examples=200, deadline=None)
@given(
    weapon=st.sampled_from(sorted(dw.WEAPONS)),
    strength=st.integers(1, 30),
    location=st.sampled_from(dw.LOCATIONS),
    ammo=st.sampled_from(dw.AMMUNITION),
    limb=st.integers(-6, 6),
    hp=st.integers(-6, 6),
    ap=st.integers(-6, 6),
)
def test_lethality_always_2_to_8(weapon, strength, location, ammo, limb, hp, ap):
    opts = dw.make_options(
        {"limb_lethality": limb, "hollow_point_lethality": hp, "armor_piercing_lethality": ap}
    )
    w = dw.WEAPONS[weapon]
    pen, leth = dw.attack_values(w, strength=strength, location=location, ammo=ammo, options=opts)
    assert dw.LETHALITY_MIN <= leth <= dw.LETHALITY_MAX
    assert pen >= 0


@settings(max_examples=100, deadline=None)
@given(
    tt=st.integers(1, 60), damage=st.integers(0, 150), compare=st.sampled_from(["meets", "exceeds"])
)
def test_thresholds_ordered_and_levels_monotone(tt, damage, compare):
    thr = dw.thresholds(tt)
    assert thr.slight <= thr.moderate <= thr.serious <= thr.critical == 2 * tt
    opts = dw.make_options({"threshold_compare": compare})
    order = [None, *dw.WoundLevel]
    assert order.index(dw.wound_level(damage, thr, opts)) <= order.index(
        dw.wound_level(damage + 1, thr, opts)
    )


# --------------------------------------------------------------------------- armor by location
def test_a_vest_protects_torso_and_vitals_not_head_or_limbs():
    vest = dw.body_armor(dw.find_armor("military vest"))
    assert vest == dw.WornArmor(head=0, torso=2, vitals=2, limbs=0)
    on = {loc: dw.armor_on(vest, loc) for loc in dw.LOCATIONS}
    assert on == {"torso": 2, "vitals": 2, "head": 0, "limb": 0}


def test_a_helmet_protects_the_head_only():
    helmet = dw.armor_by_location({"head": 2})
    on = {loc: dw.armor_on(helmet, loc) for loc in dw.LOCATIONS}
    assert on == {"torso": 0, "vitals": 0, "head": 2, "limb": 0}


def test_limb_armor_covers_the_limb_location():
    assert dw.armor_on(dw.WornArmor(limbs=1), "limb") == 1
    assert dw.armor_on(dw.WornArmor(limbs=1), "Limb") == 1  # names forgive case


def test_torso_armor_covers_the_vitals_unless_they_are_given():
    assert dw.armor_by_location({"torso": 3}) == dw.WornArmor(torso=3, vitals=3)
    assert dw.armor_by_location({"torso": 3, "vitals": 1}) == dw.WornArmor(torso=3, vitals=1)
    assert dw.armor_by_location({"vitals": 2}) == dw.WornArmor(vitals=2)
    assert dw.armor_by_location({}) == dw.WornArmor()
    everywhere = dw.armor_by_location({"head": 1, "torso": 2, "vitals": 3, "limbs": 4})
    assert [dw.armor_on(everywhere, loc) for loc in ("head", "torso", "vitals", "limb")] == [
        1,
        2,
        3,
        4,
    ]


def test_one_armor_value_is_body_armor():
    assert dw.worn_armor(0) == dw.WornArmor()
    assert dw.worn_armor(2) == dw.WornArmor(torso=2, vitals=2)
    assert dw.worn_armor("light vest") == dw.WornArmor(torso=1, vitals=1)
    assert dw.worn_armor("Trauma Plates") == dw.WornArmor(torso=3, vitals=3)
    kept = dw.WornArmor(head=1)
    assert dw.worn_armor(kept) is kept


def test_worn_armor_is_frozen_and_checked():
    with pytest.raises(AttributeError):
        dw.WornArmor().head = 1  # type: ignore[misc]
    with pytest.raises(
        SimError, match=r"^armor on the limbs must be a whole number 0 or more, got -1$"
    ):
        dw.WornArmor(limbs=-1)
    with pytest.raises(
        SimError, match=r"^armor on the head must be a whole number 0 or more, got True$"
    ):
        dw.WornArmor(head=True)
    with pytest.raises(SimError, match=r"^unknown armor location 'hed'; did you mean 'head'\?$"):
        dw.armor_by_location({"hed": 1})
    with pytest.raises(SimError, match=r"^unknown hit location 'limbs'; did you mean 'limb'\?$"):
        dw.armor_on(dw.WornArmor(), "limbs")
    with pytest.raises(SimError, match=r"^unknown armor 'kevlar'; known: "):
        dw.worn_armor("kevlar")


def test_the_helmet_row_is_a_house_rule_on_the_head():
    assert dw.ARMORS["helmet"] == 2 and dw.ARMOR_COVERS["helmet"] == ("head",)
    helmet = dw.worn_armor("Helmet")
    assert helmet == dw.WornArmor(head=2)
    assert {loc: dw.armor_on(helmet, loc) for loc in dw.LOCATIONS} == {
        "torso": 0,
        "vitals": 0,
        "head": 2,
        "limb": 0,
    }
    for vest in ("light vest", "military vest", "SWAT vest", "trauma plates"):
        assert dw.ARMOR_COVERS[vest] == ("torso", "vitals")
    assert dw.worn_armor("none") == dw.WornArmor()
