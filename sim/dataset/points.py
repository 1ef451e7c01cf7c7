"""Design points kept compact in a manifest: a long text swept over many points is stored once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

LONG_TEXT = 200
"""Texts of design points this long or longer are kept once, in the manifest's ``texts``."""
TEXT_REF = "$text"


def compact_points(points: Sequence[Any]) -> tuple[list[Any], list[str]]:
    """Design points with each long text stored once: ``{"$text": i}`` for ``texts[i]``.

    A text value of :data:`LONG_TEXT` characters or more swept over many points would be
    copied into every one (a 400 kB text at 200 points: 80 MB). Points holding a mapping
    with the key ``$text`` of their own are left as they are (no texts).
    """
    texts: dict[str, int] = {}

    def walk(v: Any) -> Any:
        if isinstance(v, str) and len(v) >= LONG_TEXT:
            return {TEXT_REF: texts.setdefault(v, len(texts))}
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        if isinstance(v, list | tuple):
            return [walk(x) for x in v]
        return v

    if _has_ref(points):
        return list(points), []
    return [walk(p) for p in points], list(texts)


def _has_ref(v: Any) -> bool:
    if isinstance(v, dict):
        return TEXT_REF in v or any(_has_ref(x) for x in v.values())
    if isinstance(v, list | tuple):
        return any(_has_ref(x) for x in v)
    return False


def expand_points(points: Sequence[Any], texts: Sequence[str]) -> list[Any]:
    """The design points of :func:`compact_points` with every text back in its place."""

    def walk(v: Any) -> Any:
        if isinstance(v, dict):
            if set(v) == {TEXT_REF} and isinstance(v[TEXT_REF], int):
                return texts[v[TEXT_REF]]
            return {k: walk(x) for k, x in v.items()}
        if isinstance(v, list):
            return [walk(x) for x in v]
        return v

    return [walk(p) for p in points]
