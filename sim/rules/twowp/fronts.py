"""2W2P melee fronts: defence dice, exchanges, who takes the hits, wounding blows.

Follows seed ``000_7f98fe11b25af74f.txt`` (RULES.md 2.4 melee fronts).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache

import numpy as np

from sim.dice import Dist, outcome
from sim.errors import SimError
from sim.rules.twowp.options import (
    DEFAULT_OPTIONS,
    FELLING_BLOW_OTHER,
    FELLING_BLOW_PRIME,
    Options,
    _check_count,
)
from sim.rules.twowp.tasks import _trinomial


@dataclass(frozen=True, slots=True)
class Hits:
    """Hits that got through a side's defence."""

    felling: int = 0
    wounding: int = 0

    @property
    def pair(self) -> tuple[int, int]:
        """``(felling, wounding)``, the outcome form of :func:`exchange_dist`."""
        return (self.felling, self.wounding)


def apply_defence(
    felling: int,
    wounding: int,
    def_high: int,
    def_mid: int,
    options: Options = DEFAULT_OPTIONS,
) -> tuple[int, int]:
    """Hits left after the defender spends its 5-6s (``def_high``) and 3-4s (``def_mid``).

    A 5-6 stops one hit of any kind; a 3-4 stops a wounding hit or turns a felling hit into a
    wounding one [S]. ``defence_order`` [H]:

    - ``felling_first`` (default): 5-6s stop felling hits; 3-4s turn the remaining felling hits
      into wounding ones; all dice left stop wounding hits (including turned ones). This leaves
      the fewest felling hits possible, max(0, F - H - M), and among the uses that do, the
      fewest wounding hits (a 5-6 on a felling hit saves a 3-4 for a wounding one, so the 5-6s
      go to felling hits first). It is the best use whenever a wounding hit is less harmful
      than a felling hit, which holds as long as some fighter can take a wounding blow without
      being felled; when every fighter that would take the hits is one blow from being felled,
      turning a felling hit gains nothing and ``fewest_hits`` is better.
    - ``fewest_hits``: the fewest hits of any kind, then the fewest felling hits: 5-6s stop
      felling hits, then wounding hits; 3-4s stop wounding hits; the 3-4s left remove felling
      hits two at a time (turn, then stop), and a last odd one turns one more.
    """
    for value, what in (
        (felling, "felling hits"),
        (wounding, "wounding hits"),
        (def_high, "defence 5-6s"),
        (def_mid, "defence 3-4s"),
    ):
        _check_count(value, what)
    return _through(felling, wounding, def_high, def_mid, options.defence_order)


def _through(f: int, w: int, h: int, m: int, order: str) -> tuple[int, int]:
    if order == "fewest_hits":
        return _fewest_hits(f, w, h, m)
    return _felling_first(f, w, h, m)


def _felling_first(f: int, w: int, h: int, m: int) -> tuple[int, int]:
    stop = min(h, f)
    f -= stop
    h -= stop
    turn = min(m, f)
    f -= turn
    return f, max(0, w + turn - (h + m - turn))


def _fewest_hits(f: int, w: int, h: int, m: int) -> tuple[int, int]:
    stop = min(h, f)
    f -= stop
    h -= stop
    w = max(0, w - h)
    stop_w = min(m, w)
    w -= stop_w
    m -= stop_w
    removed = min(f, m // 2)  # two 3-4s take a felling hit away entirely
    turned = min(f - removed, m - 2 * removed)
    return f - removed - turned, w + turned


def roll_exchange(
    attack_dice: int,
    defence_dice: int,
    rng: np.random.Generator,
    options: Options = DEFAULT_OPTIONS,
) -> Hits:
    """Roll one side's attack dice against the other side's defence dice [S].

    Attack: each 5-6 a felling hit, each 3-4 a wounding hit. The attack dice are drawn first,
    then the defence dice.
    """
    _check_count(attack_dice, "attack dice")
    _check_count(defence_dice, "defence dice")
    order = options.defence_order

    def draw(rng: np.random.Generator) -> Hits:
        attack = rng.integers(1, 7, size=attack_dice)
        defence = rng.integers(1, 7, size=defence_dice)
        f = int((attack >= 5).sum())
        w = int(((attack >= 3) & (attack <= 4)).sum())
        h = int((defence >= 5).sum())
        m = int(((defence >= 3) & (defence <= 4)).sum())
        return Hits(*_through(f, w, h, m, order))

    return outcome(rng, draw)  # type: ignore[no-any-return]  # only the hits matter


def exchange_dist(attack_dice: int, defence_dice: int, options: Options = DEFAULT_OPTIONS) -> Dist:
    """Exact distribution of the ``(felling, wounding)`` hits that get through the defence.

    Attack and defence dice each fall trinomially into (5-6, 3-4, 1-2) with chance 1/3 each;
    the counts are enumerated with integer weights and combined through
    :func:`apply_defence`, so 40 attack against 20 defence dice takes a fraction of a second.
    """
    _check_count(attack_dice, "attack dice")
    _check_count(defence_dice, "defence dice")
    return _exchange_dist(attack_dice, defence_dice, options.defence_order)


@cache
def _exchange_dist(attack_dice: int, defence_dice: int, order: str) -> Dist:
    use = _fewest_hits if order == "fewest_hits" else _felling_first
    defence = _trinomial(defence_dice)
    acc: dict[tuple[int, int], int] = {}
    for f, w, ways_a in _trinomial(attack_dice):
        for h, m, ways_d in defence:
            key = use(f, w, h, m)
            acc[key] = acc.get(key, 0) + ways_a * ways_d
    total = 3 ** (attack_dice + defence_dice)
    return Dist({k: Fraction(v, total) for k, v in acc.items()})


def protection_dice(
    protections: Iterable[tuple[bool, bool]], options: Options = DEFAULT_OPTIONS
) -> int:
    """Extra defence dice for a side, given (body, head) protection of each fighter on it.

    Everyone protected on body and head: ``protection_both`` (2); everyone on at least one:
    ``protection_one`` (1); else 0 [I]. A side with nobody on it gets nothing.
    """
    items = list(protections)
    if not items or not all(body or head for body, head in items):
        return 0
    if all(body and head for body, head in items):
        return options.protection_both
    return options.protection_one


@dataclass(frozen=True, slots=True)
class SidePool:
    """One side of a front: dice rolled to attack and dice rolled to defend."""

    attack: int
    defence: int


def split_dice(dice: int, defence_share: float) -> tuple[int, int]:
    """(attack, defence) when ``defence_share`` of ``dice`` is set aside, rounded down.

    The share is read as the decimal it was written as (0.3 of 10 is 3, not 2).
    """
    _check_count(dice, "dice")
    if not 0 <= defence_share <= 1:
        raise SimError(f"defence_share must be in 0..1, got {defence_share}")
    share = Fraction(defence_share).limit_denominator(10**6)
    defence = int(dice * share)
    return dice - defence, defence


def side_pool(dice: int, protection: int = 0, options: Options = DEFAULT_OPTIONS) -> SidePool:
    """A side's attack and defence dice from its total dice and its protection dice.

    ``defence_share`` of the dice (rounded down) defend; the protection dice
    (:func:`protection_dice`) are extra defence dice on top [S].
    """
    _check_count(protection, "protection dice")
    attack, defence = split_dice(dice, options.defence_share)
    return SidePool(attack, defence + protection)


def roll_front(
    a: SidePool, b: SidePool, rng: np.random.Generator, options: Options = DEFAULT_OPTIONS
) -> tuple[Hits, Hits]:
    """Both sides of a front roll at once [H]; returns (hits taken by a, hits taken by b).

    Draw order: a's attack against b's defence, then b's attack against a's defence. Both
    results come from the pools before the exchange; the caller applies them together.
    """
    on_b = roll_exchange(a.attack, b.defence, rng, options)
    on_a = roll_exchange(b.attack, a.defence, rng, options)
    return on_a, on_b


def front_dist(a: SidePool, b: SidePool, options: Options = DEFAULT_OPTIONS) -> Dist:
    """Exact distribution of ``((felling, wounding) on a, (felling, wounding) on b)``.

    The two exchanges are independent; the joint table grows as the product of both, so
    this is meant for small fronts (use :func:`exchange_dist` per side for large ones).
    """
    on_a = exchange_dist(b.attack, a.defence, options)
    on_b = exchange_dist(a.attack, b.defence, options)
    return on_a.combine(on_b, lambda x, y: (x, y))


@dataclass(frozen=True, slots=True, order=True)
class Wounds:
    """The blows a fighter carries: wounding blows, felling blows, and its physical prime.

    A felling hit is a felling blow; the ``FELLING_BLOW_PRIME``-th (prime) or
    ``FELLING_BLOW_OTHER``-th (others) wounding blow is a felling blow too [S]. A fighter with
    a felling blow is felled (``incapacitated``).
    """

    wounding: int = 0
    felling: int = 0
    prime: bool = True

    def __post_init__(self) -> None:
        _check_count(self.wounding, "wounding blows")
        _check_count(self.felling, "felling blows")

    @property
    def felled(self) -> bool:
        """True once it has taken a felling blow."""
        return self.felling > 0

    @property
    def wounding_left(self) -> int:
        """Wounding blows it can still take without being felled (0 when felled)."""
        if self.felled:
            return 0
        limit = FELLING_BLOW_PRIME if self.prime else FELLING_BLOW_OTHER
        return max(0, limit - 1 - self.wounding)

    def take(self, felling: bool) -> Wounds:
        """This fighter after one more hit, felling or wounding."""
        if felling or self.wounding_left == 0:
            return replace(self, felling=self.felling + 1)
        return replace(self, wounding=self.wounding + 1)


def _pick(policy: str, standing: list[int], state: list[Wounds], felling: bool) -> int:
    if policy == "shield_best":
        return standing[-1]
    if felling:  # spread: the felling hit lands on the most worn-down fighter
        return min(standing, key=lambda i: (state[i].wounding_left, i))
    return max(standing, key=lambda i: (state[i].wounding_left, -i))


def _candidates(state: Sequence[Wounds], shielded: frozenset[int]) -> list[int]:
    """Who may take the next hit: the standing, the ``shielded`` only when nobody else is."""
    standing = [i for i, s in enumerate(state) if not s.felled]
    return [i for i in standing if i not in shielded] or standing


def take_hits(
    felling: int,
    wounding: int,
    fighters: Sequence[Wounds],
    rng: np.random.Generator | None = None,
    options: Options = DEFAULT_OPTIONS,
    shielded: frozenset[int] = frozenset(),
) -> tuple[Wounds, ...]:
    """Distribute hits over a side's fighters; returns every fighter's new state, same order.

    Felling hits are dealt first, then wounding hits, one at a time, each to a fighter still
    standing (a felled fighter is out of the front; hits left when all are felled are lost).
    Fighters at the indices in ``shielded`` (a side's leader, when its tactic protects it)
    take a hit only when no other fighter of the front is standing. The side decides who
    takes them, by option ``take_hits`` [H]:

    - ``spread``: a felling hit goes to the standing fighter with the fewest wounding blows
      left before being felled (the most worn down; first in list order on ties); a wounding
      hit to the one with the most left (first in list order on ties), so wounds even out and
      nobody is felled by a wounding hit while anyone can still take one standing.
    - ``shield_best``: the caller lists fighters best first; every hit goes to the last
      fighter still standing, so the best are hit last.
    - ``random``: each hit to a standing fighter chosen uniformly with ``rng``.
    """
    _check_count(felling, "felling hits")
    _check_count(wounding, "wounding hits")
    policy = options.take_hits
    if policy == "random" and rng is None:
        raise SimError("take_hits 'random' needs a random generator")
    state = list(fighters)
    for is_felling in [True] * felling + [False] * wounding:
        standing = _candidates(state, shielded)
        if not standing:
            break
        if policy == "random":
            assert rng is not None
            i = standing[int(rng.integers(len(standing)))]
        else:
            i = _pick(policy, standing, state, is_felling)
        state[i] = state[i].take(is_felling)
    return tuple(state)


def take_hits_dist(
    felling: int,
    wounding: int,
    fighters: Sequence[Wounds],
    options: Options = DEFAULT_OPTIONS,
    shielded: frozenset[int] = frozenset(),
) -> Dist:
    """Exact distribution of :func:`take_hits`' result (a constant unless ``random``)."""
    start = tuple(fighters)
    if options.take_hits != "random":
        return Dist.constant(take_hits(felling, wounding, start, None, options, shielded))

    def hit(is_felling: bool) -> Callable[[tuple[Wounds, ...]], Dist]:
        def step(state: tuple[Wounds, ...]) -> Dist:
            standing = _candidates(state, shielded)
            if not standing:
                return Dist.constant(state)
            p = Fraction(1, len(standing))
            out: dict[tuple[Wounds, ...], Fraction] = {}
            for i in standing:
                nxt = state[:i] + (state[i].take(is_felling),) + state[i + 1 :]
                out[nxt] = out.get(nxt, Fraction(0)) + p
            return Dist(out)

        return step

    dist = Dist.constant(start)
    for is_felling in [True] * felling + [False] * wounding:
        dist = dist.bind(hit(is_felling))
    return dist
