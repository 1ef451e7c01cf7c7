"""A battle's state for the exact method: pickled, compared and where a turn stands.

:class:`Codec` pickles a battle with the scenario's unchanging parts left out by reference;
:func:`turn_frames` reads the turn loop's frames at a merge point; :func:`start` is the
battle before its first round, refused if the exact method cannot follow it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import importlib
import io
import itertools
import operator
import pickle
import sys
import weakref
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from sim.battle import Battle
from sim.errors import SimError
from sim.frame.sides import FighterHeap, SideState
from sim.odds.enumerate import Branch, Enumerator, Unsupported
from sim.scenario import Scenario, load_scenario

__all__ = [
    "HOOKS",
    "MERGE",
    "Codec",
    "NotExact",
    "TooLarge",
    "digest",
    "maneuvers_merged",
    "relative",
    "round_key",
    "rounds_free",
    "scenario_of",
    "start",
    "state_of",
    "too_many_fights",
    "turn_frames",
]

# Where a turn may start in the frame: a turn start is merged only when every frame between
# the battle's step and the turn is one of these, whose own variables then say where it is
# (none holds a value mid-expression that its variables do not show).
_TURN_LOOPS = {
    "Battle.step",
    "Battle.take_turns",
    "TurnFrame.take_turns",
    "TurnFrame._faction_turns",
    "TurnFrame._jump_in",
    "System.fight_round",
    "D6.fight_round",
    "cycle_turns",
    "TurnFrame.take_turn",
    "WarGame.take_turn",
    "turn",
}

#: Frames a merge point's hooks add, passed over by :func:`turn_frames` (sim.odds.battle).
HOOKS: set[Any] = set()
#: Where a turn is cut into maneuvers (a merge point between them): the War Game's.
_MANEUVERS = (("sim.systems.wargame", "maneuver"),)
#: The fight under way's merge point, called before each maneuver (:func:`maneuvers_merged`).
MERGE: list[Callable[[], None]] = []
_WG_TURN = importlib.import_module("sim.systems.wargame").turn.__code__


class NotExact(SimError):
    """A battle the exact method cannot follow (a map, a draw it cannot enumerate)."""


class TooLarge(SimError):
    """A battle too large for the exact method within its limit."""


def too_many_fights(limit: int) -> TooLarge:
    """The refusal of a battle whose work passed ``limit`` fights of a round."""
    return TooLarge(
        f"more than {limit:,} fights of a round: too large for the exact method "
        "(--limit raises it; docs/odds.md)"
    )


class _NoRandom:
    """Stands for the model's stdlib ``random``, which no rule draws from: a draw is refused."""

    def __getattr__(self, name: str) -> Any:
        raise Unsupported(f"the exact method cannot follow the model's random.{name}")


_CODECS: weakref.WeakValueDictionary[int, Codec] = weakref.WeakValueDictionary()


def _fixed(codec: int, i: int) -> Any:
    """A scenario's unchanging part, by its place in its codec (the unpickling side)."""
    return _CODECS[codec].fixed[i]


def _no_die(_: Any) -> Any:
    return type(None), ()


def _count(c: Any) -> Any:
    """An ``itertools.count`` (a heap's tie-breaker) by its next value, read from its repr.

    Python 3.14 no longer pickles itertools objects (3.12 and 3.13 warn). The battle's
    counts start at whole numbers and step by 1: ``count(5)``.
    """
    r = repr(c)[6:-1]
    return itertools.count, (int(r),) if "," not in r else tuple(int(x) for x in r.split(","))


_FIELDS: dict[type, tuple[str, ...]] = {}


def _frozen_dataclasses() -> dict[type, Callable[[Any], Any]]:
    """Reducers for the simulator's frozen slotted dataclasses, by their fields' values.

    Such a class pickles through :mod:`dataclasses`' own ``__getstate__``, which asks
    ``fields()`` for every object; these read the values with one ``attrgetter`` (the same
    state, a tenth of a War Game fight's time less).
    """
    out: dict[type, Callable[[Any], Any]] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("sim.") or module is None:
            continue
        for cls in vars(module).values():
            if (
                isinstance(cls, type)
                and cls.__module__ == name
                and getattr(cls.__getstate__, "__name__", "") == "_dataclass_getstate"
                and getattr(getattr(cls, "__setstate__", None), "__name__", "")
                == "_dataclass_setstate"
                and not {"__reduce__", "__reduce_ex__"} & set(vars(cls))
            ):
                out[cls] = _frozen_reducer(cls)
    return out


def _frozen_reducer(cls: type) -> Callable[[Any], Any]:
    names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    if not names:
        return lambda x: (_blank, (cls,), (), None, None, _set_frozen)
    get = operator.attrgetter(*names)
    if len(names) == 1:
        return lambda x: (_blank, (cls,), (get(x),), None, None, _set_frozen)
    return lambda x: (_blank, (cls,), get(x), None, None, _set_frozen)


def _set_frozen(obj: Any, values: tuple[Any, ...]) -> None:
    for name, value in zip(_FIELDS[type(obj)], values, strict=True):
        object.__setattr__(obj, name, value)


@functools.cache
def _mesa_attrs() -> frozenset[str]:
    """The attributes a Mesa model keeps for itself (its clock, its agents, its events)."""
    import mesa

    return frozenset(vars(mesa.Model(rng=0)))


def _model_state(b: Any) -> Any:
    """A battle as its state key pickles it: its own attributes, not Mesa's clock and registry.

    The fighters are reached through the sides; the clock (steps, time, the scheduled step)
    counts rounds, which the round number already says.
    """
    own = {k: v for k, v in vars(b).items() if k not in _mesa_attrs()}
    return _blank, (type(b),), own


# A fighter's and a side's tallies that no rule reads, only the records of a battle, and
# wounds_taken, which the rules read only up to a fighter's hit dice (System.morale_hd) but
# for a side's weakest-first pick among its fighters (tests/odds/test_states.py lists every
# read of them): a state key leaves out the first and counts the second no higher where a
# fighter has no ally to be compared with.
_FIGHTER_TALLIES = ("wounds_dealt",)
_SIDE_TALLIES = ("wounds_dealt", "hd_lost")


def _alone(b: Battle) -> set[str]:
    """The fighters whose wounds no pick compares with another's: alone on a side, for good."""
    if b.spec.events:
        return set()
    return {f.name for f in b.roster if len(b.sides[f.side].fighters) == 1}


def _side_key(s: SideState) -> Any:
    rv: Any = s.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    return (*rv[:2], {**rv[2], **dict.fromkeys(_SIDE_TALLIES, 0)}, *rv[3:])  # never unpickled


def _heap(h: FighterHeap) -> Any:
    """A side's index as a state key has it: none of its entries.

    Its picks are its members' with the smallest key now, however its entries were filed
    (:class:`sim.frame.sides.FighterHeap`): the fighters' states say them all.
    """
    return _blank, (FighterHeap,)


def _blank(cls: type) -> Any:
    return object.__new__(cls)


def _event(e: Any) -> Any:
    """A Mesa event with its serial number 0, which counts only the events made on the way.

    The battle schedules nothing but its steps, one event at a time, so no order hangs on it.
    """
    rv = e.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    state = rv[2]
    if isinstance(state, dict) and "unique_id" in state:
        state = {**state, "unique_id": 0}
    return (rv[0], rv[1], state, *rv[3:])


class Codec:
    """Pickles a battle's state, with the scenario's unchanging parts left out by reference.

    The parts kept by reference are found by their types in a dispatch table, which the C
    pickler consults without calling Python for every other object.
    """

    def __init__(
        self,
        battle: Battle,
        dice: Sequence[type] = (Enumerator,),
        last: int | None = None,
        token: int | None = None,
    ) -> None:
        fixed: list[Any] = [battle.random]  # the AgentSets keep it too
        battle.random = _NoRandom()
        fixed += [battle.spec, battle.system, battle.options, battle.frame, battle.opts]
        fixed += [f.spec for f in battle.roster] + [s.tactic for s in battle.sides.values()]
        fixed += [f.tier for f in battle.roster if hasattr(f, "tier")]
        fixed.append(battle.random)
        self.fixed = [x for x in fixed if x is not None]
        ids = {id(x): i for i, x in enumerate(self.fixed)}
        # the name its pickles give it: another process's codec of the same battle may
        # take it (sim.odds.parallel), and then reads them
        self.token = token = id(self) if token is None else token
        _CODECS[token] = self

        def reduce(x: Any) -> Any:
            i = ids.get(id(x))
            if i is not None:
                return _fixed, (token, i)
            return x.__reduce_ex__(pickle.HIGHEST_PROTOCOL)

        self.table: dict[type, Callable[[Any], Any]] = _frozen_dataclasses()
        self.table.update({type(x): reduce for x in self.fixed})
        self.table[itertools.count] = _count
        try:  # Mesa 3.5's scheduled step: its event's serial number is not the battle's state
            from mesa.time.events import Event
        except ImportError:  # Mesa 3.3 steps without events
            pass
        else:
            self.table[Event] = _event
        for die in dice:  # a die in a frame's variables is not the state
            self.table[die] = _no_die
        self.key_table: dict[type, Callable[[Any], Any]] = {**self.table}
        self.key_table.update({type(battle): _model_state, FighterHeap: _heap})
        system = battle.system

        self.last = last  # the battle's last round, if it has one
        self.left: int | None = None  # rounds left, counting the one that plays next
        alone = _alone(battle)

        def fighter_key(f: Any) -> Any:
            rv = f.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
            kept = {**rv[2], **dict.fromkeys(_FIGHTER_TALLIES, 0)}
            if f.name in alone:
                kept["wounds_taken"] = min(f.wounds_taken, f.spec.hit_dice)
            key = system.state_key(f, self.left)
            if key is not None:
                kept["state"] = key
            return (*rv[:2], kept, *rv[3:])  # never unpickled

        for t in {type(f) for f in battle.roster}:
            self.key_table[t] = fighter_key
        self.key_table[SideState] = _side_key

    def key(self, obj: Any, b: Battle, ahead: int | None) -> bytes:
        """The short key of ``obj`` (a battle, or a battle with where its turn stands).

        Equal keys are equal states: ``obj`` pickled without Mesa's own clock, and, with
        ``ahead`` (1 at a round's end, 0 within a round), with ``b``'s round-valued fields
        counted from the round that plays next (:func:`relative`), so that a state met again
        a round later has the same key. ``ahead`` None keeps the round number in the key.
        """
        if self.last is not None:
            self.left = self.last - b.round - (ahead or 0) + 1
        buf = io.BytesIO()
        p = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
        p.dispatch_table = self.key_table
        with relative(b, ahead):
            _dump(p, obj)
        return digest(buf.getvalue())

    def dumps(self, obj: Any) -> bytes:
        """``obj`` pickled, its dice left out."""
        buf = io.BytesIO()
        p = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
        p.dispatch_table = self.table
        _dump(p, obj)
        return buf.getvalue()

    def loads(self, blob: bytes) -> Any:
        """The state ``blob`` pickled, a new battle (its unchanging parts shared)."""
        return pickle.loads(blob)


def _maneuver_hook(original: Callable[..., Any]) -> Callable[..., Any]:
    def maneuver(*args: Any) -> Any:
        if MERGE:
            MERGE[-1]()
        return original(*args)

    return maneuver


HOOKS.add(_maneuver_hook(print).__code__)


@contextlib.contextmanager
def maneuvers_merged() -> Iterator[None]:
    """The War Game's maneuvers as merge points (each calls ``MERGE[-1]`` first), meanwhile."""
    saved = []
    for module, name in _MANEUVERS:
        m = importlib.import_module(module)
        saved.append((m, name, getattr(m, name)))
        setattr(m, name, _maneuver_hook(getattr(m, name)))
    try:
        yield
    finally:
        for m, name, original in saved:
            setattr(m, name, original)


def _dump(p: pickle.Pickler, obj: Any) -> None:
    try:
        p.dump(obj)
    except (pickle.PicklingError, AttributeError, TypeError) as e:
        raise NotExact(
            f"a battle whose state cannot be kept ({e}): beyond the exact method"
        ) from None


def digest(blob: bytes) -> bytes:
    """A state's short key (its pickle's BLAKE2b)."""
    return hashlib.blake2b(blob, digest_size=16).digest()


def round_key(codec: Codec, blob: bytes, ahead: int | None, done: Battle | None = None) -> bytes:
    """The key of the battle ``blob`` at a round's end: as the next round begins.

    Two states that begin the next round alike (:meth:`Battle.begin_round`: what the last
    round alone kept, a D6 reaction, the HD spent, is reset then) play alike from there.
    A beginning that would roll a die keys the state as it is. ``done``: the battle
    ``blob`` was pickled from, no longer needed (begun in place of a copy).
    """
    b: Battle = codec.loads(blob) if done is None else done
    b.rng = Enumerator()
    try:
        b.begin_round()
    except (Branch, Unsupported):
        b = codec.loads(blob)
        return codec.key(b, b, ahead)
    return codec.key(b, b, None if ahead is None else 0)


def rounds_free(s: Scenario) -> bool:
    """Whether ``s`` plays the same from equal states in any round (:func:`relative`).

    A reinforcement arrives in a named round and a ``hold`` goal is won after one: a battle
    with either keeps the round number in its states. ``max_rounds`` is the exact method's
    own (sim.odds.battle ends the states left after the last round).
    """
    hold = any(g.kind == "hold" for side in s.sides for g in side.goals)
    return not s.events and not hold


@contextlib.contextmanager
def relative(b: Battle, ahead: int | None) -> Iterator[None]:
    """``b`` with every field that holds a round number counted from the round that plays next.

    That round is ``b.round + ahead``; a field only says what it will still change: a cover
    that lasts into it (sim.systems.common), a hearing of the noise in it, a D6 stun still
    in effect (this round or the last) or a sprint in it (sim.systems.d6). These are every
    read of the round number in the rules (tests/odds/test_states.py keeps the list), so
    two states equal here play the same from then on. Put back as they were on leaving.
    """
    if ahead is None:
        yield
        return
    now = b.round + ahead
    saved = b.round, b.cover_until, b.heard_round
    states: list[Any] = [getattr(f, "state", None) for f in b.roster]
    kept = [(st, st.stuns, st.sprinted) for st in states if hasattr(st, "sprinted")]
    b.round = -ahead
    b.cover_until = {k: v - now for k, v in sorted(b.cover_until.items()) if v >= now}
    b.heard_round = {k: 0 for k, v in sorted(b.heard_round.items()) if v == now}
    for st, stuns, sprinted in kept:
        st.stuns = [x - now for x in stuns if x >= now - 1]
        st.sprinted = 0 if sprinted == now else -1
    try:
        yield
    finally:
        b.round, b.cover_until, b.heard_round = saved
        for st, stuns, sprinted in kept:
            st.stuns, st.sprinted = stuns, sprinted


def turn_frames(start: Any) -> list[tuple[str, int, dict[str, Any]]] | None:
    """The turn loop's frames from ``start`` down to the battle's step, or None if one is not."""
    frames = []
    frame = start
    while frame is not None:
        if frame.f_code in HOOKS:
            frame = frame.f_back
            continue
        name = frame.f_code.co_qualname
        if name not in _TURN_LOOPS or (name == "turn" and frame.f_code is not _WG_TURN):
            return None
        frames.append((name, frame.f_lasti, dict(frame.f_locals)))
        if name == "Battle.step":
            return frames
        frame = frame.f_back
    return None


def state_of(codec: Codec, b: Battle) -> bytes:
    """The battle at a round's end, pickled without the records of its rounds."""
    b.round_rows = []
    b.states = []
    return codec.dumps(b)


def scenario_of(scenario: Scenario | str | Path, overrides: Sequence[str]) -> Scenario:
    """The scenario itself, or the file read with its ``--set`` overrides."""
    if isinstance(scenario, Scenario):
        return scenario
    return load_scenario(scenario, list(overrides))


def start(s: Scenario) -> Battle:
    """The battle before its first round, refused if the exact method cannot follow it."""
    if s.map is not None:
        raise NotExact(f"{s.name}: a battle on a map is beyond the exact method (docs/odds.md)")
    rolled = [f.name for side in s.sides for f in side.fighters if f.rolled]
    rolled += [f.name for e in s.events for f in e.fighters if f.rolled]
    if (
        rolled
        or any(x.name is None for x in s.factors)
        or any(e.factor is not None and e.factor.name is None for e in s.events)
    ):
        what = f"{rolled[0]}'s gear is rolled" if rolled else "a factor is rolled on its d8 table"
        raise NotExact(f"{s.name}: {what} before the fight: beyond the exact method (docs/odds.md)")
    return Battle(s, seed=0)
