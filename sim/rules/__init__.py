"""The rule systems, one module per seed, and the one registry a scenario's ``rules:`` names.

Each module is pure: numbers and a passed-in ``numpy.random.Generator`` in, frozen results out.
None imports Mesa or keeps state. Each defines ``NAME``, ``SEED`` (the seed file it follows)
and ``Options``, a frozen dataclass of its interpretations [I] and house rules [H].
"""

from __future__ import annotations

from types import ModuleType

from sim.errors import unknown
from sim.rules import d6, deathwish, twowp, wargame

SYSTEMS: dict[str, ModuleType] = {
    wargame.NAME: wargame,
    twowp.NAME: twowp,
    deathwish.NAME: deathwish,
    d6.NAME: d6,
}


def get_system(name: str) -> ModuleType:
    """The rules module registered under ``name``; a clear error with suggestions otherwise."""
    try:
        return SYSTEMS[name]
    except KeyError:
        raise unknown("rules system", name, SYSTEMS) from None
