"""Alternatives that fought the same battles: points alike on every one of their first seeds.

With shared seeds (a sweep's ``seeds: shared``, a search's confirmation) replicate ``r`` of
every point meets the same dice. Two points whose battles come out the same on each of
their first shared seeds (the same winner, length and losses) are, as far as these rules
can tell, the same choice: four weapons the rules fight alike, an option that never comes
into play. A comparison of them says nothing, and the user should be told so once
(:func:`alike`, :func:`alike_note`), not left to find it by brute force.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

FIRST = 20
"""The shared seeds compared: identical battles on each of the first 20 is no coincidence
unless the choice does not matter (two points that differ in a battle one time in ten
agree on 20 seeds one time in eight; one time in three, one time in 3,000)."""


def alike(battles: Mapping[int, Sequence[Hashable]], first: int = FIRST) -> list[list[int]]:
    """Groups (two or more) of points whose first ``first`` battles are all the same.

    ``battles`` gives each point's battles in replicate order (each one hashable: its
    winner, rounds and losses); a point with fewer than ``first`` is left out.
    """
    groups: dict[tuple[Hashable, ...], list[int]] = {}
    for point, outcomes in battles.items():
        if len(outcomes) >= first:
            groups.setdefault(tuple(outcomes[:first]), []).append(point)
    return [sorted(g) for g in groups.values() if len(g) > 1]


def alike_note(names: Sequence[Sequence[str]], first: int = FIRST) -> str:
    """The one line that says which points fought alike (``names``: each group's names)."""
    said = "; ".join(" and ".join(group) for group in names)
    return (
        f"note: {said} fought identical battles (winner, rounds and losses) on each of the "
        f"first {first} shared seeds: these rules may not tell them apart"
    )
