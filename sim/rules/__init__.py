"""The rule systems, one package per seed, and the one registry a scenario's ``rules:`` names.

Each package is pure: numbers and a passed-in ``numpy.random.Generator`` in, frozen results
out. None imports Mesa or keeps state (``tests/rules/test_purity.py`` checks it). Each defines
``NAME``, ``SEED`` (the seed file it follows), ``MAX_SIDES`` (most sides a battle can have,
None for any number), ``FACTION_POOLS`` (whether its large scale may be fought as the War
Game's faction pools) and ``Options``, a frozen dataclass of its interpretations [I] and
house rules [H] (and, with an aftermath of its own, ``AftermathOptions``), and is split into
modules along its seed's sections:

- :mod:`sim.rules.wargame`: seed ``002_5306f142c0f73876.txt``, RULES.md section 1;
- :mod:`sim.rules.twowp`: seed ``000_7f98fe11b25af74f.txt``, RULES.md section 2;
- :mod:`sim.rules.deathwish`: seed ``001_e5fc2d51799d4e98.txt``, RULES.md section 3;
- :mod:`sim.rules.d6`: seed ``003_fd1c4a13f28810ec.txt``, RULES.md section 4;
- :mod:`sim.rules.common`: the ground they share (RULES.md section 0) and the one table helper.

May import: ``sim.dice`` and ``sim.errors`` only (nothing of the battle, no Mesa).
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
