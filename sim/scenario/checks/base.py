"""The ground of every scenario check: reporting issues, plain values, option groups."""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any, Self

from sim.dice import DiceError
from sim.errors import SimError, did_you_mean, unknown
from sim.options import build_options
from sim.scenario.overrides import OVERRIDE_SOURCE
from sim.scenario.reader import Issue, Locate, join_path, show
from sim.scenario.tactics import Tactic

if TYPE_CHECKING:
    from sim.scenario.model import Scenario

MAX_ROUNDS = 10_000
"""Most rounds a battle may last."""
MAX_DAYS = 3650
"""Most aftermath days after one battle (and days between two battles of a campaign)."""

BAD = object()
"""What a check returns for a value that failed it (the issue is already recorded)."""


def unknown_key(key: str, allowed: Iterable[str]) -> str:
    """The message for an unknown key, with the closest allowed key or all of them."""
    names = list(allowed)
    hint = did_you_mean(key, names) or "; allowed: " + ", ".join(names)
    return f"unknown key {key!r}{hint}"


def listing(names: Sequence[str], limit: int = 10) -> str:
    """Up to ``limit`` names quoted, and how many more there are."""
    shown = ", ".join(repr(n) for n in names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def get_or(m: Mapping[str, Any], key: str, default: Any) -> Any:
    """``m[key]``, or ``default`` when the key is missing or null."""
    value = m.get(key)
    return default if value is None else value


def strip_prefix(message: str, *prefixes: str) -> str:
    """``message`` without the first of ``prefixes`` it starts with."""
    for prefix in prefixes:
        if message.startswith(prefix):
            return message[len(prefix) :]
    return message


class Checks(ABC):
    """What every section's checks share: reporting, plain values, option groups.

    A checker walks a document and collects an :class:`Issue` for every problem it finds;
    each check returns the value it checked (made ready for the model), or :data:`BAD`.
    The sections' checks are mixins of this class; :class:`sim.scenario.checks.Checker`
    puts them together.
    """

    def __init__(
        self, source: str, locate: Locate, overridden: Sequence[str], default_name: str
    ) -> None:
        self.source = source
        self.locate = locate
        self.overridden = tuple(overridden)
        self.default_name = default_name
        self.issues: list[Issue] = []
        self.templates: dict[str, dict[str, Any]] = {}
        self.names: dict[str, str] = {}  # fighter name -> path of the entry that made it
        self.total = 0
        self.max_rounds = MAX_ROUNDS
        self.unsure: set[str] = set()  # sides with fighter entries that made no fighter
        self.within = ""  # " in campaign.battles[i]" while checking a campaign's battle
        self.parent: Checks | None = None  # the file's checker, while checking such a battle
        self.prefix = ""  # then: "campaign.battles[i]"
        self.patched: set[str] = set()  # then: the paths the battle's entry set

    @abstractmethod
    def scenario(self, doc: dict[str, Any]) -> Scenario | None:
        """The :class:`Scenario` a whole document describes, or None (``Checker`` gives it)."""

    def for_battle(self, prefix: str, patched: set[str]) -> Self:
        """A fresh checker for one campaign battle: the document with its entry merged in.

        An issue at a path the entry set (``patched``) is reported at ``PREFIX.PATH`` (its
        line in the entry); an issue elsewhere is the scenario's own.
        """
        sub = type(self)(self.source, self.locate, (), self.default_name)
        sub.parent, sub.prefix, sub.patched = self, prefix, patched
        sub.within = f" in {prefix}"
        return sub

    # ----------------------------------------------------------------- reporting
    def error(self, path: str, message: str, below: int = 0) -> None:
        """Record ``message`` at ``path`` (``below`` as in :meth:`issue_at`)."""
        if self.parent is None:
            self.issues.append(self.issue_at(path, message, below))
            return
        if any(path == p or path.startswith((p + ".", p + "[")) for p in self.patched):
            path = f"{self.prefix}.{path}" if path else self.prefix
        self.issues.append(self.parent.issue_at(path, message, below))

    def issue_at(self, path: str, message: str, below: int = 0) -> Issue:
        """The :class:`Issue` of ``message`` at ``path`` (an override's, if it set the path).

        ``below`` counts lines below the path's own: a row of a ``|`` block such as
        ``map.picture`` (its first row is on the line after the key).
        """
        for o in self.overridden:
            if path == o or path.startswith((o + ".", o + "[")):
                return Issue(OVERRIDE_SOURCE, None, path, message)
        line = self.locate(path)
        return Issue(self.source, None if line is None else line + below, path, message)

    def attempt(
        self, path: str, check: Callable[..., Any], *args: Any, strip: Sequence[str] = ()
    ) -> Any:
        """``check(*args)``, or ``BAD`` after recording its SimError or DiceError.

        ``strip`` lists prefixes to take off the error message (a path the issue already has).
        """
        try:
            return check(*args)
        except (SimError, DiceError) as err:
            self.error(path, strip_prefix(str(err), *strip))
            return BAD

    # ----------------------------------------------------------------- plain values
    def mapping(self, value: Any, path: str, what: str = "a mapping") -> dict[str, Any] | None:
        """``value`` if it is a mapping, else None (reported as not ``what``)."""
        if isinstance(value, dict):
            return value
        self.error(path, f"expected {what}, got {show(value)}")
        return None

    def keys(self, m: Mapping[str, Any], path: str, allowed: Sequence[str]) -> None:
        """Report every key of ``m`` that is not ``allowed``."""
        for key in m:
            if key not in allowed:
                self.error(join_path(path, key), unknown_key(key, allowed))

    def whole(self, value: Any, path: str, low: int | None, high: int | None) -> Any:
        """``value`` if it is a whole number in ``low..high`` (None: unbounded)."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(path, f"expected a whole number, got {show(value)}")
            return BAD
        if low is not None and high is not None and not low <= value <= high:
            self.error(path, f"must be {low}..{high}, got {show(value)}")
            return BAD
        if low is not None and value < low:
            self.error(path, f"must be {low} or more, got {show(value)}")
            return BAD
        return value

    def flag(self, value: Any, path: str) -> Any:
        """``value`` if it is true or false."""
        if isinstance(value, bool):
            return value
        self.error(path, f"expected true or false, got {show(value)}")
        return BAD

    def text(self, value: Any, path: str, empty: bool = True) -> Any:
        """``value`` if it is text (not blank, unless ``empty``)."""
        if not isinstance(value, str):
            self.error(path, f"expected text, got {show(value)}")
            return BAD
        if not empty and not value.strip():
            self.error(path, "must not be empty")
            return BAD
        return value

    def a_list(self, value: Any, path: str, what: str) -> list[Any] | None:
        """``value`` if it is a list, else None (reported as not a list of ``what``)."""
        if isinstance(value, list):
            return value
        self.error(path, f"expected a list of {what}, got {show(value)}")
        return None

    # ----------------------------------------------------------------- options
    def options(self, cls: Any, value: Any, path: str, what: str = "option") -> dict[str, Any]:
        """The valid entries of an options mapping checked against ``cls`` one by one."""
        if value is None:
            return {}
        m = self.mapping(value, path, f"a mapping of {what}s")
        if m is None:
            return {}
        known = {f.name: f for f in fields(cls) if not (cls is Tactic and f.name == "name")}
        good: dict[str, Any] = {}
        for key, v in m.items():
            key_path = join_path(path, key)
            if cls is Tactic and key == "name":
                self.error(key_path, "the tactic's name is not a parameter; give it as tactic.name")
                continue
            if key not in known:
                self.error(key_path, str(unknown(what, key, known)))
                continue
            default = known[key].default
            if isinstance(default, str) and not isinstance(v, str):
                self.error(key_path, f"expected text, got {show(v)}")
                continue
            if isinstance(v, float) and not math.isfinite(v):
                self.error(key_path, f"expected a finite number, got {show(v)}")
                continue
            low, high = known[key].metadata.get("low"), known[key].metadata.get("high")
            number = isinstance(v, (int, float)) and not isinstance(v, bool)
            if number and not isinstance(default, bool) and isinstance(default, (int, float)):
                if low is not None and high is not None and not low <= v <= high:
                    self.error(key_path, f"must be {low:g}..{high:g}, got {v!r}")
                    continue
                if low is not None and v < low:
                    self.error(key_path, f"must be {low:g} or more, got {v!r}")
                    continue
                if high is not None and v > high:
                    self.error(key_path, f"must be {high:g} or less, got {v!r}")
                    continue
            checked = self.attempt(
                key_path,
                build_options,
                cls,
                {key: v},
                path,
                strip=(f"{path}.{key}: ", f"options.{key}: "),
            )
            if checked is not BAD:
                good[key] = v
        self.attempt(path, build_options, cls, good, path, strip=(f"{path}.",))
        return good
