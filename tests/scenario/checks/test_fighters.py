"""Fighter entries and templates: counts, names and every field of a stat block."""

import pytest

from sim.rules.deathwish import WornArmor
from sim.scenario import (
    load_scenario,
)
from tests.scenario.helpers import FORD, TWO_SIDES, errors, load

BAD_CASES = {
    "duplicate fighter names across sides and counts": (
        "sides:\n  red:\n    fighters:\n      - {name: guard, count: 2}\n"
        "  blue:\n    fighters:\n      - {name: guard 2}\n",
        [
            "t.yaml:7: sides.blue.fighters[0].name: fighter name 'guard 2' is already used by "
            "sides.red.fighters[0]"
        ],
    ),
    "negative count": (
        "sides:\n  red:\n    fighters:\n      - {name: a, count: -3}\n"
        "  blue:\n    fighters: [{name: b}]\n",
        ["t.yaml:4: sides.red.fighters[0].count: must be 1..100000, got -3"],
    ),
    "absurd count": (
        "sides:\n  red:\n    fighters:\n      - {name: a, count: 1000000000}\n"
        "  blue:\n    fighters: [{name: b}]\n",
        ["t.yaml:4: sides.red.fighters[0].count: must be 1..100000, got 1000000000"],
    ),
    "too many fighters in all": (
        "sides:\n  red:\n    fighters:\n      - {name: a, count: 60000}\n"
        "  blue:\n    fighters:\n      - {name: b, count: 60000}\n",
        [
            "t.yaml:7: sides.blue.fighters[0].count: this entry brings the scenario to 120000 "
            "fighters; the limit is 100000"
        ],
    ),
    "healing tools out of range": (
        "sides:\n  red:\n    fighters:\n      - {name: a, healing_tools: 101}\n"
        "  blue:\n    fighters: [{name: b, healing_tools: -1}]\n",
        [
            "t.yaml:4: sides.red.fighters[0].healing_tools: must be 0..100, got 101",
            "t.yaml:6: sides.blue.fighters[0].healing_tools: must be 0..100, got -1",
        ],
    ),
    "fighter without a name": (
        "sides:\n  red:\n    fighters:\n      - {hit_dice: 3}\n  blue:\n    fighters: [{name: "
        "b}]\n",
        ["t.yaml:4: sides.red.fighters[0].name: required: every fighter entry needs a name"],
    ),
    "fighter field errors": (
        "sides:\n  red:\n    fighters:\n"
        "      - name: a\n"
        "        hit_dice: 0\n"
        "        armor: [chian, 'piecemeal:9', 'piecemeal:x']\n"
        "        shield: huge\n"
        "        weapon: swrod\n"
        "        savvy: 5\n"
        "        mounted: maybe\n"
        "        dexterity: 25\n"
        "        hitdice: 3\n"
        "  blue:\n    fighters: [{name: b}]\n",
        [
            "t.yaml:5: sides.red.fighters[0].hit_dice: must be 1..100, got 0",
            "t.yaml:6: sides.red.fighters[0].armor[0]: unknown armor 'chian'; did you mean "
            "'chain'?",
            "t.yaml:6: sides.red.fighters[0].armor[1]: piecemeal covers 1..4 pieces, got 9",
            "t.yaml:6: sides.red.fighters[0].armor[2]: expected NAME:PIECES such as piecemeal:3, "
            "got 'piecemeal:x'",
            "t.yaml:7: sides.red.fighters[0].shield: unknown shield size 'huge'; known: 'small', "
            "'medium', 'large'",
            "t.yaml:8: sides.red.fighters[0].weapon: unknown weapon category 'swrod'; did you mean "
            "'warbow'?",
            "t.yaml:9: sides.red.fighters[0].savvy: must be 10..99, got 5",
            "t.yaml:10: sides.red.fighters[0].mounted: expected true or false, got 'maybe'",
            "t.yaml:11: sides.red.fighters[0].dexterity: must be 1..20, got 25",
            "t.yaml:12: sides.red.fighters[0].hitdice: unknown key 'hitdice'; did you mean "
            "'hit_dice'?",
        ],
    ),
    "shield value out of range": (
        "sides:\n  red:\n    fighters: [{name: a, shield: 7}]\n  blue:\n    fighters: [{name: "
        "b}]\n",
        [
            "t.yaml:3: sides.red.fighters[0].shield: shield armor must be 2..4 (or 0 for "
            "none), got 7"
        ],
    ),
    "skills, deathwish and d6 blocks": (
        "sides:\n  red:\n    fighters:\n"
        "      - name: a\n"
        "        skills: {sword: expert}\n"
        "        deathwish: {weapon: glok 18, armor: kevlar, skil: 3}\n"
        "        d6: {attack: 4X, size: giant, damage: 200D}\n"
        "  blue:\n    fighters: [{name: b}]\n",
        [
            "t.yaml:5: sides.red.fighters[0].skills.sword: unknown skill level 'expert'; did you "
            "mean 'experienced'?",
            "t.yaml:6: sides.red.fighters[0].deathwish.skil: unknown key 'skil'; did you mean "
            "'skill'?",
            "t.yaml:6: sides.red.fighters[0].deathwish.weapon: unknown weapon 'glok 18'; did you "
            "mean 'Glock 18' or 'Glock 20'?",
            "t.yaml:6: sides.red.fighters[0].deathwish.armor: unknown armor 'kevlar'; known: "
            "'none', 'light vest', 'military vest', 'SWAT vest', 'trauma plates', 'helmet'",
            "t.yaml:7: sides.red.fighters[0].d6.attack: bad dice code '4X': expected ND or ND+P, "
            "e.g. 3D, 3D+2, 4D-1",
            "t.yaml:7: sides.red.fighters[0].d6.size: unknown size 'giant'; did you mean 'Pegiya' "
            "or 'Ralitan'?",
            "t.yaml:7: sides.red.fighters[0].d6.damage: at most 100D, got '200D'",
        ],
    ),
    "d6 ride, range and area": (
        "sides:\n  red:\n    fighters:\n"
        "      - name: a\n"
        "        d6: {ride: fast, range: -5, area: 101}\n"
        "      - name: c\n"
        "        d6: {ride: 3, range: 1.5, area: two, rang: 2}\n"
        "  blue:\n    fighters: [{name: b}]\n",
        [
            "t.yaml:5: sides.red.fighters[0].d6.ride: bad dice code 'fast': expected ND or "
            "ND+P, e.g. 3D, 3D+2, 4D-1",
            "t.yaml:5: sides.red.fighters[0].d6.range: must be 0..3000, got -5",
            "t.yaml:5: sides.red.fighters[0].d6.area: must be 0..100, got 101",
            "t.yaml:7: sides.red.fighters[1].d6.rang: unknown key 'rang'; did you mean "
            "'range' or 'strength'?",
            "t.yaml:7: sides.red.fighters[1].d6.ride: expected a dice code such as 3D or 4D+1, "
            "got 3",
            "t.yaml:7: sides.red.fighters[1].d6.range: expected a whole number, got 1.5",
            "t.yaml:7: sides.red.fighters[1].d6.area: expected a whole number, got 'two'",
        ],
    ),
    "d6 poison, resist and religion": (
        "sides:\n  red:\n    fighters:\n"
        "      - name: a\n"
        "        d6: {poison: venom, resist: 4, religion: 101D, poizon: 3D}\n"
        "      - name: c\n"
        "        d6: {poison: '', resist: '', religion: ''}\n"
        "  blue:\n    fighters: [{name: b}]\n",
        [
            "t.yaml:5: sides.red.fighters[0].d6.poizon: unknown key 'poizon'; did you mean "
            "'poison'?",
            "t.yaml:5: sides.red.fighters[0].d6.poison: bad dice code 'venom': expected ND or "
            "ND+P, e.g. 3D, 3D+2, 4D-1",
            "t.yaml:5: sides.red.fighters[0].d6.resist: expected a dice code such as 3D or "
            "4D+1, got 4",
            "t.yaml:5: sides.red.fighters[0].d6.religion: at most 100D, got '101D'",
        ],
    ),
    "a two-handed d6 fighter with no weapon": (
        "templates:\n  brute: {two_handed: true}\n"
        "sides:\n  red:\n    fighters:\n"
        "      - {name: a, two_handed: true, d6: {damage: ''}}\n"
        "      - {name: c, template: brute, d6: {damage: ''}}\n"
        "      - {name: d, two_handed: true, d6: {damage: 5D}}\n"
        "      - {name: e, two_handed: false, d6: {damage: ''}}\n"
        "  blue:\n    fighters: [{name: b, two_handed: 2}]\n",
        [
            "t.yaml:6: sides.red.fighters[0].two_handed: a two-handed fighter wields a weapon, "
            "but its d6.damage is empty (unarmed)",
            "t.yaml:7: sides.red.fighters[1].two_handed: a two-handed fighter wields a weapon, "
            "but its d6.damage is empty (unarmed)",
            "t.yaml:11: sides.blue.fighters[0].two_handed: expected true or false, got 2",
        ],
    ),
    "rolled war game gear": (
        "templates:\n  levy: {weapon: {roll: d6}}\n"
        "sides:\n  red:\n    fighters:\n"
        "      - {name: a, weapon: {rol: d12}, armor: {roll: d12}}\n"
        "      - {name: c, weapon: {roll: d12, armor: d6}, armor: {roll: 6}}\n"
        "      - {name: d, weapon: {}, armor: [{roll: d6}]}\n"
        "      - {name: e, template: levy, weapon: {roll: d12}, armor: {roll: d6}}\n"
        "  blue:\n    fighters: [{name: b}]\n",
        [
            "t.yaml:2: templates.levy.weapon.roll: the weapon table is rolled on a d12, got 'd6'",
            "t.yaml:6: sides.red.fighters[0].weapon.rol: unknown key 'rol'; did you mean 'roll'?",
            "t.yaml:6: sides.red.fighters[0].armor.roll: the armor table is rolled on a d6, got "
            "'d12'",
            "t.yaml:7: sides.red.fighters[1].weapon: expected {roll: d12}, got 2 keys",
            "t.yaml:7: sides.red.fighters[1].armor.roll: the armor table is rolled on a d6, got 6",
            "t.yaml:8: sides.red.fighters[2].weapon: expected {roll: d12}, got 0 keys",
            "t.yaml:8: sides.red.fighters[2].armor[0]: expected text, got a mapping",
        ],
    ),
    "deathwish armor by location": (
        "sides:\n  red:\n    fighters:\n"
        "      - name: a\n"
        "        deathwish:\n"
        "          armor:\n"
        "            torso: ligth vest\n"
        "            hed: 2\n"
        "            limb: 1\n"
        "            legs: 1\n"
        "            vitals: 21\n"
        "            head: -1\n"
        "            limbs: 1.5\n"
        "      - {name: b, deathwish: {armor: {head: helmut, limbs: null}}}\n"
        "  blue:\n    fighters: [{name: c}]\n",
        [
            "t.yaml:7: sides.red.fighters[0].deathwish.armor.torso: unknown armor 'ligth vest'; "
            "did you mean 'light vest' or 'military vest' or 'SWAT vest'?",
            "t.yaml:8: sides.red.fighters[0].deathwish.armor.hed: unknown key 'hed'; did you mean "
            "'head'?",
            "t.yaml:9: sides.red.fighters[0].deathwish.armor.limb: unknown key 'limb'; did you "
            "mean 'limbs'?",
            "t.yaml:10: sides.red.fighters[0].deathwish.armor.legs: unknown key 'legs'; allowed: "
            "head, torso, vitals, limbs",
            "t.yaml:11: sides.red.fighters[0].deathwish.armor.vitals: must be 0..20, got 21",
            "t.yaml:12: sides.red.fighters[0].deathwish.armor.head: must be 0..20, got -1",
            "t.yaml:13: sides.red.fighters[0].deathwish.armor.limbs: expected armor points 0..20 "
            "or an armor name, got 1.5",
            "t.yaml:14: sides.red.fighters[1].deathwish.armor.head: unknown armor 'helmut'; did "
            "you mean 'helmet'?",
            "t.yaml:14: sides.red.fighters[1].deathwish.armor.limbs: expected armor points 0..20 "
            "or an armor name, got null",
        ],
    ),
    "deathwish armor as one value": (
        "sides:\n  red:\n    fighters:\n"
        "      - {name: a, deathwish: {armor: [light vest, helmet]}}\n"
        "      - {name: b, deathwish: {armor: 2.5}}\n"
        "      - {name: c, deathwish: {armor: 21}}\n"
        "      - {name: d, deathwish: {armor: helmut}}\n"
        "      - {name: e, deathwish: {armor: true}}\n"
        "  blue:\n    fighters: [{name: f}]\n",
        [
            "t.yaml:4: sides.red.fighters[0].deathwish.armor: expected armor points 0..20, an "
            "armor name or a mapping of location to armor, got a list",
            "t.yaml:5: sides.red.fighters[1].deathwish.armor: expected armor points 0..20, an "
            "armor name or a mapping of location to armor, got 2.5",
            "t.yaml:6: sides.red.fighters[2].deathwish.armor: must be 0..20, got 21",
            "t.yaml:7: sides.red.fighters[3].deathwish.armor: unknown armor 'helmut'; did you "
            "mean 'helmet'?",
            "t.yaml:8: sides.red.fighters[4].deathwish.armor: expected armor points 0..20, an "
            "armor name or a mapping of location to armor, got true",
        ],
    ),
    "trauma tolerance below 1": (
        "sides:\n  red:\n    fighters:\n"
        "      - {name: a, body: 1, strength: 1, deathwish: {traits: -5}}\n"
        "  blue:\n    fighters: [{name: b}]\n",
        ["t.yaml:4: sides.red.fighters[0]: trauma tolerance must be 1 or more, got -4"],
    ),
    "templates": (
        "templates:\n  levy: {hit_dice: 300, name: x}\n"
        "sides:\n  red:\n    fighters: [{name: a, template: levi}]\n"
        "  blue:\n    fighters: [{name: b, template: levy}]\n",
        [
            "t.yaml:2: templates.levy.hit_dice: must be 1..100, got 300",
            "t.yaml:2: templates.levy.name: name belongs on a fighter entry, not in a template",
            "t.yaml:5: sides.red.fighters[0].template: unknown template 'levi'; did you mean "
            "'levy'?",
        ],
    ),
}


@pytest.mark.parametrize(("text", "expected"), BAD_CASES.values(), ids=BAD_CASES.keys())
def test_bad_input_is_reported_exactly(text, expected):
    assert errors(text) == expected


def test_fighters_may_start_wounded_or_out_of_the_fight():
    sc = load(
        """\
        sides:
          a:
            fighters:
              - {name: a0, wounds: 2}
              - {name: a1, status: fled}
          b:
            fighters: [{name: b0}]
        """
    )
    a0, a1 = sc.sides[0].fighters
    assert (a0.wounds, a0.status) == (2, "active")
    assert (a1.wounds, a1.status) == (0, "fled")


def test_a_bad_starting_state_is_a_located_error():
    assert errors(
        """\
        sides:
          a:
            fighters:
              - {name: a0, wounds: -1}
              - {name: a1, status: incapacitatd}
          b:
            fighters: [{name: b0, status: [dead]}]
        """
    ) == [
        "t.yaml:4: sides.a.fighters[0].wounds: must be 0..100, got -1",
        "t.yaml:5: sides.a.fighters[1].status: unknown starting status 'incapacitatd'; "
        "did you mean 'incapacitated'?",
        "t.yaml:7: sides.b.fighters[0].status: expected text, got a list",
    ]


def test_old_single_armor_values_still_load_as_body_armor():
    sc = load_scenario(FORD.parent / "firefight.yaml")
    armor = {f.name: f.deathwish.armor for side in sc.sides for f in side.fighters}
    assert armor["Ruiz"] == WornArmor(torso=3, vitals=3)  # trauma plates
    assert armor["guard 1"] == WornArmor(torso=2, vitals=2)  # military vest
    assert armor["Vance"] == WornArmor(torso=1, vitals=1)  # light vest
    assert armor["raider 1"] == WornArmor()  # none given
    sc = load(TWO_SIDES, ["sides.red.fighters[0].deathwish={armor: 2}"])
    assert sc.sides[0].fighters[0].deathwish.armor == WornArmor(torso=2, vitals=2)
    sc = load(TWO_SIDES, ["sides.red.fighters[0].deathwish={armor: 0}"])
    assert sc.sides[0].fighters[0].deathwish.armor == WornArmor()


def test_deathwish_armor_by_location():
    sc = load(
        """\
        rules: deathwish
        templates:
          trooper: {deathwish: {weapon: M16, armor: {torso: military vest, head: 2, limbs: 1}}}
        sides:
          red:
            fighters:
              - {name: a, template: trooper}
              - {name: b, template: trooper, deathwish: {armor: helmet}}
              - {name: c, deathwish: {armor: {torso: trauma plates, vitals: 1}}}
              - {name: d, deathwish: {armor: {head: helmet, limbs: light vest}}}
              - {name: e, deathwish: {armor: {}}}
          blue:
            fighters: [{name: f, deathwish: {armor: {vitals: 0, torso: 2}}}]
        """
    )
    armor = {f.name: f.deathwish.armor for side in sc.sides for f in side.fighters}
    assert armor == {
        "a": WornArmor(head=2, torso=2, vitals=2, limbs=1),  # torso covers the vitals too
        "b": WornArmor(head=2),  # one name: the parts it covers (a helmet: the head)
        "c": WornArmor(torso=3, vitals=1),  # vitals given: their own
        "d": WornArmor(head=2, limbs=1),  # in a mapping a name gives its points there
        "e": WornArmor(),
        "f": WornArmor(torso=2, vitals=0),
    }
    assert sc.sides[0].fighters[1].deathwish.weapon == "M16"  # the rest of the template stays


def test_deathwish_armor_location_by_override():
    sc = load(TWO_SIDES, ["sides.red.fighters[0].deathwish.armor.head=helmet"])
    assert sc.sides[0].fighters[0].deathwish.armor == WornArmor(head=2)
    assert errors(TWO_SIDES, ["sides.red.fighters[0].deathwish.armor.hed=2"]) == [
        "<--set>: sides.red.fighters[0].deathwish.armor.hed: unknown key 'hed'; did you mean "
        "'head'?"
    ]
