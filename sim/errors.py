"""User-facing errors: one clear line, with a suggestion where one can be made."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class SimError(ValueError):
    """An error in user input. The CLI prints its message on one line and exits with 2."""


def did_you_mean(word: str, choices: Iterable[str], cutoff: float = 0.5) -> str:
    """Return ``"; did you mean 'x'?"`` for the closest choice, or ``""`` if none is close.

    Matching ignores case, so ``glok 18`` finds ``Glock 18``. ``cutoff`` is difflib's
    similarity (0..1) a choice needs to be suggested.
    """
    options = list(choices)
    lowered = {c.lower(): c for c in options}
    close = difflib.get_close_matches(word.lower(), list(lowered), n=3, cutoff=cutoff)
    if not close:
        return ""
    names = " or ".join(repr(lowered[c]) for c in close)
    return f"; did you mean {names}?"


def unknown(kind: str, word: str, choices: Iterable[str]) -> SimError:
    """An error for an unknown name, with the closest known names suggested."""
    options = list(choices)
    hint = did_you_mean(word, options)
    if not hint:
        hint = "; known: " + ", ".join(repr(c) for c in options)
    return SimError(f"unknown {kind} {word!r}{hint}")
