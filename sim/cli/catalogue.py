"""The option catalogue: every documented option of every group, for ``sim options`` and docs.

The groups are each rule system's options (``rules.options``), the battle frame's house
rules (``battle``), the tactics' parameters (``tactic``), each system's aftermath options
(``aftermath.options``), the camp's (``aftermath.camp``) and the campaign's
(``campaign.options``). Each row: group (``system``), name, default, tag ([I]/[H]), choices
and meaning.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


def option_rows(group: str | None = None) -> list[dict[str, Any]]:
    """Every documented option: each system's, the battle frame's and the tactics' parameters."""
    from sim.options import BattleOptions, describe_options
    from sim.rules import SYSTEMS
    from sim.scenario.tactics import describe_tactics

    groups: dict[str, list[dict[str, Any]]] = {
        name: describe_options(module.Options) for name, module in SYSTEMS.items()
    }
    groups["battle"] = describe_options(BattleOptions)
    groups["tactic"] = describe_tactics()
    groups.update(_after_option_groups())
    if group is not None and group not in groups:
        from sim.errors import unknown

        raise unknown("option group", group, groups)
    names = [group] if group else list(groups)
    return [{"system": n, **o} for n in names for o in groups[n]]


def _after_option_groups() -> dict[str, list[dict[str, Any]]]:
    """The aftermath's option groups.

    Each system's (a scenario's ``aftermath.options``), ``camp`` (``aftermath.camp``) and
    ``campaign`` (``campaign.options``).
    """
    from sim.options import CampaignOptions, CampOptions, describe_options
    from sim.rules import d6, deathwish, twowp

    return {
        "2w2p-aftermath": describe_options(twowp.AftermathOptions),
        "deathwish-aftermath": describe_options(deathwish.AftermathOptions),
        "d6-aftermath": describe_options(d6.AftermathOptions),
        "camp": describe_options(CampOptions),
        "campaign": describe_options(CampaignOptions),
    }


# ---------------------------------------------------------------------------------------
# sim tables: every name a scenario may use, read from the rule data

TABLE_TOPICS = ("weapons", "armor", "shields", "factors", "hazards", "d6", "deathwish")
"""The topics of ``sim tables``, in the order it prints them when given none."""


@dataclass(frozen=True)
class Listing:
    """One table of names: the rows ``sim tables`` prints under ``title``.

    ``system`` is the rule system whose data it is, ``field`` where a scenario writes one of
    the names (empty for a table the rules only look up), ``spelling`` what the lookup
    forgives.
    """

    topic: str
    system: str
    title: str
    field: str
    spelling: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def as_dict(self) -> dict[str, Any]:
        """The listing as plain JSON data: its rows as mappings of header to cell."""
        return {
            "topic": self.topic,
            "system": self.system,
            "title": self.title,
            "field": self.field,
            "spelling": self.spelling,
            "rows": [dict(zip(self.headers, r, strict=True)) for r in self.rows],
        }


_WARGAME_SPELLING = "case, spaces, hyphens, underscores and slashes ignored"
_LOOSE_SPELLING = "case, spaces, hyphens and underscores ignored"


def table_listings(topic: str | None = None) -> list[Listing]:
    """The tables of ``topic`` (one of :data:`TABLE_TOPICS`), or of every topic.

    Every name, alias and number comes from the rule systems' own tables
    (``sim/rules/data/*.csv`` as the rules load them), so the listing is what a scenario
    may write. Raises :class:`sim.errors.SimError` for an unknown topic.
    """
    makers = {
        "weapons": lambda: [_wargame_weapons(), _deathwish_weapons()],
        "armor": lambda: [_wargame_armor(), _deathwish_armor()],
        "shields": lambda: [_wargame_shields()],
        "factors": _wargame_factors,
        "hazards": lambda: [_hazards()],
        "d6": _d6_tables,
        "deathwish": lambda: [
            _deathwish_weapons("deathwish"),
            _deathwish_armor("deathwish"),
            *_deathwish_modifiers(),
        ],
    }
    if topic is not None and topic not in makers:
        from sim.errors import unknown

        raise unknown("table", topic, TABLE_TOPICS)
    return [t for name in ([topic] if topic else TABLE_TOPICS) for t in makers[name]()]


def _aliases(names: tuple[str, ...]) -> str:
    return ", ".join(names)


def _wargame_weapons() -> Listing:
    from sim.rules.wargame.tables import named_tables

    t = named_tables()["weapons"]
    rows = tuple(
        (
            "" if w.roll is None else str(w.roll),
            w.name,
            _aliases(a),
            "ranged" if w.ranged else "melee",
            w.text,
        )
        for w, a in zip(t.rows, t.aliases, strict=True)
    )
    return Listing(
        "weapons",
        "wargame",
        "War Game d12 weapon categories (plain: no property)",
        "fighter weapon:",
        _WARGAME_SPELLING,
        ("d12", "name", "aliases", "kind", "effect"),
        rows,
    )


def _deathwish_weapons(topic: str = "weapons") -> Listing:
    from sim.rules.deathwish.tables import WEAPON_TABLE

    rows = tuple(
        (
            w.name,
            w.category,
            w.caliber,
            str(w.penetration),
            "Strength" if w.lethality is None else str(w.lethality),
        )
        for w in WEAPON_TABLE.rows
    )
    return Listing(
        topic,
        "deathwish",
        "Deathwish weapons: a hit rolls (penetration - armor - cover) d10; each die at most "
        "lethality adds its face to the damage",
        "fighter deathwish.weapon:",
        _LOOSE_SPELLING,
        ("name", "category", "caliber", "penetration", "lethality"),
        rows,
    )


def _wargame_armor() -> Listing:
    from sim.rules.wargame.tables import named_tables

    t = named_tables()["armor"]
    rows = tuple(
        (str(a.roll), a.name, _aliases(al), str(a.value), a.text)
        for a, al in zip(t.rows, t.aliases, strict=True)
    )
    return Listing(
        "armor",
        "wargame",
        "War Game d6 armors (piecemeal as piecemeal:N for N pieces)",
        "fighter armor: (a name or a list)",
        _WARGAME_SPELLING,
        ("d6", "name", "aliases", "armor", "effect"),
        rows,
    )


def _deathwish_armor(topic: str = "armor") -> Listing:
    from sim.rules.deathwish.tables import ARMOR_TABLE

    rows = tuple((r["name"], r["armor"], r["covers"] or "-") for r in ARMOR_TABLE.rows)
    return Listing(
        topic,
        "deathwish",
        "Deathwish armor (each point removes one damage die on a location it covers)",
        "fighter deathwish.armor: (a name, points, or a mapping by location)",
        _LOOSE_SPELLING,
        ("name", "armor", "covers"),
        rows,
    )


def _wargame_shields() -> Listing:
    from sim.rules.wargame.tables import named_tables

    t = named_tables()["shields"]
    rows = tuple(
        (name, _aliases(al), str(v)) for name, al, v in zip(t.names, t.aliases, t.rows, strict=True)
    )
    return Listing(
        "shields",
        "wargame",
        "War Game shields (or an armor value 2..4)",
        "fighter shield:",
        _WARGAME_SPELLING,
        ("size", "aliases", "armor"),
        rows,
    )


def _factor_rows(kind: str) -> tuple[tuple[str, ...], ...]:
    from sim.rules.wargame.tables import named_tables

    t = named_tables()[kind]
    return tuple(
        (
            str(f.roll),
            f.name,
            _aliases(al),
            ("stops ranged attacks" if f.protects else "no protection")
            if kind == "cover"
            else f.effect,
            f.text,
        )
        for f, al in zip(t.rows, t.aliases, strict=True)
    )


def _wargame_factors() -> list[Listing]:
    from sim.rules.wargame.base import FACTOR_KINDS

    return [
        Listing(
            "factors",
            "wargame",
            f"War Game d8 {kind} (environmental factors)",
            f"factors: [{{{kind}: NAME}}], events' add_factor",
            _WARGAME_SPELLING,
            ("d8", "name", "aliases", "effect", "text"),
            _factor_rows(kind),
        )
        for kind in FACTOR_KINDS
    ]


def _hazards() -> Listing:
    from sim.space.map import DEFAULT_LEGEND

    chars = {name: ch for ch, (kind, name) in DEFAULT_LEGEND.items() if kind == "hazard"}
    rows = tuple((chars.get(r[1], ""), *r[1:]) for r in _factor_rows("hazard"))
    return Listing(
        "hazards",
        "wargame",
        "Hazards: the War Game d8 hazards, on a map by their character or "
        "map.legend {hazard: NAME}",
        "factors: [{hazard: NAME}], map.legend",
        _WARGAME_SPELLING,
        ("map", "name", "aliases", "effect", "text"),
        rows,
    )


def _d6_tables() -> list[Listing]:
    from sim.rules.common import load_csv
    from sim.rules.d6.difficulty import named_tables

    t = named_tables()
    sizes = tuple(
        (name, f"{v:+d}" if v else "0")
        for name, v in zip(t["sizes"].names, t["sizes"].rows, strict=True)
    )
    damage = tuple(
        (
            r["min_difference"] + ("+" if not r["max_difference"] else f"-{r['max_difference']}"),
            r["tier"],
            r["effect"],
        )
        for r in load_csv("d6_damage_table.csv")
    )
    modifiers = tuple(
        (deg, f"{lo}+" if hi is None else f"{lo}-{hi}", f"{dice}D")
        for deg, lo, hi, dice in t["modifiers"].rows
    )
    difficulties = tuple(
        (name, str(n))
        for name, n in zip(t["difficulties"].names, t["difficulties"].rows, strict=True)
    )
    return [
        Listing(
            "d6",
            "d6",
            "D6 scale: participants and their size values (+ larger, - smaller)",
            "fighter d6.size: (a participant, or a signed value)",
            _LOOSE_SPELLING,
            ("participant", "size"),
            sizes,
        ),
        Listing(
            "d6",
            "d6",
            "D6 damage table: damage roll minus body roll",
            "",
            "",
            ("difference", "tier", "effect"),
            damage,
        ),
        Listing(
            "d6",
            "d6",
            "D6 modifiers: degree of advantage",
            "",
            "",
            ("degree", "pips", "dice"),
            modifiers,
        ),
        Listing("d6", "d6", "D6 difficulties", "", "", ("name", "number"), difficulties),
    ]


def _deathwish_modifiers() -> list[Listing]:
    from dataclasses import fields

    from sim.rules.deathwish.options import Options
    from sim.rules.deathwish.tables import AMMUNITION_TABLE, LOCATION_TABLE

    defaults = {f.name: f.default for f in fields(Options)}

    def value(cell: str, opt: str) -> str:
        return f"{defaults[opt]:+d} (option {opt})" if opt else f"{int(cell or 0):+d}"

    ammo = tuple(
        (
            r["ammo"],
            value(r["penetration"], r["penetration_option"]),
            value(r["lethality"], r["lethality_option"]),
        )
        for r in AMMUNITION_TABLE.rows
    )
    locations = tuple(
        (r["location"], value(r["lethality"], r["option"])) for r in LOCATION_TABLE.rows
    )
    return [
        Listing(
            "deathwish",
            "deathwish",
            "Deathwish ammunition",
            "fighter deathwish.ammo:",
            _LOOSE_SPELLING,
            ("ammo", "penetration", "lethality"),
            ammo,
        ),
        Listing(
            "deathwish",
            "deathwish",
            "Deathwish hit locations (battle: {deathwish_location: random})",
            "fighter deathwish.armor: {LOCATION: ...}",
            _LOOSE_SPELLING,
            ("location", "lethality"),
            locations,
        ),
    ]
