"""Checks of the ``aftermath`` key: days after the battle, camp healers and options."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sim.aftermath import Healer, healers_from_fighters, students_of
from sim.aftermath.healers import ROLES as HEALER_ROLES
from sim.dice import parse_code
from sim.errors import did_you_mean, unknown
from sim.options import CampOptions
from sim.rules import SYSTEMS, twowp
from sim.scenario.checks.base import BAD, MAX_DAYS, Checks, get_or, listing
from sim.scenario.model import AftermathSpec, FighterSpec
from sim.scenario.reader import join_path, quote_name

_AFTERMATH_KEYS = ("days", "healers", "camp", "options")
_HEALER_KEYS = ("name", "side", "role", "skill", "count", "supervisor", "first_aid")
MAX_HEALERS = 1000
MAX_FIGHTER_DAYS = 500_000
"""Most aftermath rows of one battle: days times fighters (each row ~1 kB while it runs)."""
"""Most camp healers one entry stands for (``count``)."""


class _SpecFighter:
    """A fighter spec seen as ``sim.aftermath.healers_from_fighters`` reads a fighter."""

    def __init__(self, spec: FighterSpec, side: str) -> None:
        self.spec, self.name, self.side = spec, spec.name, side


class AftermathChecks(Checks):
    """The aftermath: its days, the camps' healers, the camp and the system's options."""

    def aftermath_(
        self,
        value: Any,
        system: str,
        side_names: Sequence[str],
        starting: Mapping[str, Sequence[FighterSpec]],
    ) -> AftermathSpec | None:
        """The ``aftermath`` key: days, camp healers, camp options, the system's options."""
        m = self.mapping(value, "aftermath", "a mapping with days, healers, camp and options")
        if m is None:
            return None
        self.keys(m, "aftermath", _AFTERMATH_KEYS)
        days = self.whole(get_or(m, "days", 7), "aftermath.days", 1, MAX_DAYS)
        camp = self.options(CampOptions, m.get("camp"), "aftermath.camp", "camp option")
        options = self.aftermath_options(m.get("options"), system)
        every = {f.name for fs in starting.values() for f in fs}
        healers: list[Healer] = []
        bad = False
        raw = m.get("healers")
        items = [] if raw is None else self.a_list(raw, "aftermath.healers", "healers")
        for i, item in enumerate(items or []):
            path = f"aftermath.healers[{i}]"
            made = self.healer(item, path, side_names, every, healers)
            bad = bad or made is None
            healers += made or []
        if items is None or bad or days is BAD:
            return None
        fighters = sum(len(fs) for fs in starting.values())
        if days * fighters > MAX_FIGHTER_DAYS:
            self.error(
                "aftermath.days",
                f"{days} days x {fighters} fighters is {days * fighters} fighter-days (a row "
                f"each); the limit is {MAX_FIGHTER_DAYS}: fewer days or fighters",
            )
            return None
        if not self.supervisors(items, healers, side_names, starting):
            return None
        return AftermathSpec(days, tuple(healers), camp, options)

    def aftermath_options(self, value: Any, system: str) -> dict[str, Any]:
        """``aftermath.options``: the rule system's aftermath options (War Game has none)."""
        group = getattr(SYSTEMS.get(system), "AftermathOptions", None)  # War Game has none
        if group is not None:
            return self.options(group, value, "aftermath.options", "aftermath option")
        if value not in (None, {}):
            self.error(
                "aftermath.options",
                f"the {system} system has no aftermath options (camp options go in aftermath.camp)",
            )
        return {}

    def supervisors(
        self,
        items: Sequence[Mapping[str, Any]],
        healers: Sequence[Healer],
        side_names: Sequence[str],
        starting: Mapping[str, Sequence[FighterSpec]],
    ) -> bool:
        """Whether every supervisor is a healer of its student's side (then check the loads).

        ``items`` are the good healer entries, ``healers`` the camp healers they made.
        """
        entry_of: dict[tuple[str, str], int] = {}
        for i, item in enumerate(items):
            base = item["name"]
            n = get_or(item, "count", 1)
            for made_name in [base] if n == 1 else [f"{base} {k}" for k in range(1, n + 1)]:
                entry_of[made_name, item["side"]] = i
        bad = False
        for side in side_names:  # supervisors and their students, side by side
            own = healers_from_fighters(_SpecFighter(f, side) for f in starting.get(side, ())) + [
                h for h in healers if h.side == side
            ]
            names = [h.name for h in own]
            for h in healers:
                if h.side == side and h.supervisor is not None and h.supervisor not in names:
                    path = f"aftermath.healers[{entry_of[h.name, side]}].supervisor"
                    others = [n for n in names if n != h.name]
                    hint = did_you_mean(h.supervisor, others) or (
                        f"; the healers of side {quote_name(side)}: {listing(others)}"
                        if others
                        else f"; side {quote_name(side)} has no other healer"
                    )
                    self.error(path, f"{h.supervisor!r} is not a healer of side {side}{hint}")
                    bad = True
            if not bad:
                self.attempt("aftermath.healers", students_of, own)
        return not bad

    def healer(
        self,
        item: Any,
        path: str,
        side_names: Sequence[str],
        fighter_names: set[str],
        earlier: Sequence[Healer],
    ) -> list[Healer] | None:
        """The camp healers of one entry (``count`` of them), or None."""
        example = "a healer such as {name: Mara, side: red, role: surgeon, skill: experienced}"
        hm = self.mapping(item, path, example)
        if hm is None:
            return None
        self.keys(hm, path, _HEALER_KEYS)
        if not self.healer_fields(hm, path, side_names, fighter_names, earlier):
            return None
        name, side, role = hm["name"], hm["side"], hm["role"]
        skill: Any = get_or(hm, "skill", "competent")
        supervisor = hm.get("supervisor")
        first_aid: Any = get_or(hm, "first_aid", "")
        count: Any = get_or(hm, "count", 1)
        names = [name] if count == 1 else [f"{name} {k}" for k in range(1, count + 1)]
        for n in names if count != 1 else ():
            if n in fighter_names or any(h.name == n and h.side == side for h in earlier):
                self.error(join_path(path, "name"), f"healer name {n!r} is already used")
                return None
        role_, side_ = str(role), str(side)
        made = [
            self.attempt(
                path, lambda n=n: Healer(n, role_, skill, supervisor, str(first_aid), side=side_)
            )
            for n in names
        ]
        return None if any(h is BAD for h in made) else made

    def healer_fields(
        self,
        hm: Mapping[str, Any],
        path: str,
        side_names: Sequence[str],
        fighter_names: set[str],
        earlier: Sequence[Healer],
    ) -> bool:
        """Whether a healer entry's fields are good; every problem is reported."""
        ok = True
        for key in ("name", "side", "role"):
            if hm.get(key) is None:
                self.error(join_path(path, key), f"required: a healer needs a {key}")
                ok = False
        name, side, role = hm.get("name"), hm.get("side"), hm.get("role")
        ok = self.healer_name(name, side, path, fighter_names, earlier) and ok
        if side is not None and self.text(side, join_path(path, "side")) is not BAD:
            if side not in side_names:
                self.error(join_path(path, "side"), str(unknown("side", side, side_names)))
                ok = False
        elif side is not None:
            ok = False
        if role is not None:
            if self.text(role, join_path(path, "role")) is BAD:
                ok = False
            elif role not in HEALER_ROLES:
                self.error(join_path(path, "role"), str(unknown("healer role", role, HEALER_ROLES)))
                ok = False
        skill: Any = get_or(hm, "skill", "competent")
        if self.text(skill, join_path(path, "skill")) is BAD:
            ok = False
        elif self.attempt(join_path(path, "skill"), twowp.parse_skill, skill) is BAD:
            ok = False
        supervisor = hm.get("supervisor")
        if supervisor is not None and self.text(supervisor, join_path(path, "supervisor")) is BAD:
            ok = False
        first_aid: Any = get_or(hm, "first_aid", "")
        if self.text(first_aid, join_path(path, "first_aid")) is BAD:
            ok = False
        elif first_aid and self.attempt(join_path(path, "first_aid"), parse_code, first_aid) is BAD:
            ok = False
        count: Any = get_or(hm, "count", 1)
        if self.whole(count, join_path(path, "count"), 0, MAX_HEALERS) is BAD:
            ok = False
        return ok

    def healer_name(
        self,
        name: Any,
        side: Any,
        path: str,
        fighter_names: set[str],
        earlier: Sequence[Healer],
    ) -> bool:
        """Whether a healer's name is good: text, no fighter's, not used on its side."""
        if name is not None and self.text(name, join_path(path, "name"), empty=False) is BAD:
            return False
        if name in fighter_names:
            self.error(
                join_path(path, "name"),
                f"{name!r} is a fighter; a fighter heals by its skills "
                "(skills: {surgeon: experienced}), a camp healer needs a name of its own",
            )
            return False
        if any(h.name == name and h.side == side for h in earlier):
            self.error(join_path(path, "name"), f"healer name {name!r} is already used on its side")
            return False
        return True
