"""War Game contested maneuvers: grapple, shove, disarm, push.

Follows seed ``002_5306f142c0f73876.txt`` (RULES.md 1.7 contested maneuvers).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.dice import Dist, until
from sim.errors import SimError
from sim.rules.wargame.base import HD_SIDES, RESIST_COST
from sim.rules.wargame.combatant import Combatant
from sim.rules.wargame.maneuvers import can_spend, spend
from sim.rules.wargame.options import DEFAULT_OPTIONS, Options


@dataclass(frozen=True, slots=True)
class Contest:
    """A contested maneuver: dice totals, totals with Strength/Athletics, the winner."""

    attacker_roll: int
    defender_roll: int
    attacker_total: int
    defender_total: int
    winner: str
    rerolls: int | None = 0  # None: not followed (the exact method, sim.dice.until)

    def describe(self) -> str:
        """A log line."""
        again = f" after {self.rerolls} re-roll(s)" if self.rerolls else ""
        return (
            f"contest {self.attacker_total} ({self.attacker_roll}) vs "
            f"{self.defender_total} ({self.defender_roll}): {self.winner} wins{again}"
        )


def _tie_winner(ties: str) -> str:
    return "attacker" if ties == "attacker" else "defender"


def roll_contest(
    attacker_bonus: int,
    defender_bonus: int,
    rng: np.random.Generator,
    *,
    attacker_dice: int = 1,
    defender_dice: int = 1,
    options: Options = DEFAULT_OPTIONS,
) -> Contest:
    """Each side rolls its d8s and adds Strength or Athletics; the higher total wins.

    Ties go as ``options.contest_ties`` says (default: the defender).
    """
    if attacker_dice < 1 or defender_dice < 0:
        raise SimError("a contest needs 1 or more attacker dice and 0 or more defender dice")
    reroll = options.contest_ties == "reroll"

    def draw(rng: np.random.Generator) -> tuple[int, int]:
        a = int(rng.integers(1, HD_SIDES + 1, size=attacker_dice).sum())
        d = int(rng.integers(1, HD_SIDES + 1, size=defender_dice).sum()) if defender_dice else 0
        return a, d

    def settled(ad: tuple[int, int]) -> bool:
        return not reroll or ad[0] + attacker_bonus != ad[1] + defender_bonus

    (a, d), rerolls = until(rng, draw, settled)
    at, dt = a + attacker_bonus, d + defender_bonus
    if at != dt:
        return Contest(a, d, at, dt, "attacker" if at > dt else "defender", rerolls)
    return Contest(a, d, at, dt, _tie_winner(options.contest_ties), rerolls)


def contest_dist(
    attacker_bonus: int,
    defender_bonus: int,
    *,
    attacker_dice: int = 1,
    defender_dice: int = 1,
    options: Options = DEFAULT_OPTIONS,
) -> Dist:
    """Exact distribution of :func:`roll_contest`'s winner (``"attacker"``/``"defender"``)."""
    if attacker_dice < 1 or defender_dice < 0:
        raise SimError("a contest needs 1 or more attacker dice and 0 or more defender dice")
    att = Dist.die(HD_SIDES).repeat(attacker_dice).shift(attacker_bonus)
    dfn = Dist.die(HD_SIDES).repeat(defender_dice).shift(defender_bonus)
    diff = att.combine(dfn, lambda a, d: (a > d) - (a < d))
    win, lose, tie = diff[1], diff[-1], diff[0]
    if options.contest_ties == "reroll":
        return Dist({"attacker": win / (win + lose), "defender": lose / (win + lose)})
    if options.contest_ties == "attacker":
        win += tie
    else:
        lose += tie
    return Dist({"attacker": win, "defender": lose})


def _contest_setup(
    attacker: Combatant, target: Combatant, attacker_dice: int, options: Options
) -> tuple[Combatant, int, int, bool]:
    """Target after spending its 1 HD; attacker and defender dice; whether it loses outright."""
    a_dice = attacker_dice if options.contest_roll == "spent" else 1
    if can_spend(target, RESIST_COST, "resist"):
        return spend(target, RESIST_COST, "resist"), a_dice, 1, False
    return target, a_dice, 0, options.contest_unable == "auto_lose"


def contested_maneuver(
    attacker: Combatant,
    target: Combatant,
    rng: np.random.Generator,
    *,
    attacker_dice: int = 1,
    options: Options = DEFAULT_OPTIONS,
) -> tuple[Combatant, Contest]:
    """Grapple, shove, disarm, push: the target spends 1 HD (if it can) and the two contest.

    ``attacker_dice`` is the HD spent on the maneuver (rolled only if ``contest_roll="spent"``).
    """
    t2, a_dice, d_dice, auto = _contest_setup(attacker, target, attacker_dice, options)
    if auto:
        return t2, Contest(0, 0, attacker.strength, target.strength, "attacker")
    result = roll_contest(
        attacker.strength,
        target.strength,
        rng,
        attacker_dice=a_dice,
        defender_dice=d_dice,
        options=options,
    )
    return t2, result


def contested_maneuver_dist(
    attacker: Combatant,
    target: Combatant,
    *,
    attacker_dice: int = 1,
    options: Options = DEFAULT_OPTIONS,
) -> Dist:
    """Exact distribution of :func:`contested_maneuver`'s winner."""
    _, a_dice, d_dice, auto = _contest_setup(attacker, target, attacker_dice, options)
    if auto:
        return Dist.constant("attacker")
    return contest_dist(
        attacker.strength,
        target.strength,
        attacker_dice=a_dice,
        defender_dice=d_dice,
        options=options,
    )


CONTEST_KINDS = ("grapple", "shove", "disarm")
"""The contested maneuvers a creature may try on another [S: "grappled, shoved, etc."]."""


def win_contest(target: Combatant, kind: str, by: str = "") -> tuple[Combatant, str]:
    """``target`` after losing a contested maneuver of ``kind``, and what happened.

    ``grapple``: held by ``by`` (RULES.md 1.7): it cannot move, a dagger strips 1 HD from it
    [S], and it breaks free with a contest against its holder [H]. ``shove``: on the ground
    (``prone``): it cannot dodge until it stands up, a maneuver [H]. ``disarm``: its weapon
    is gone: it attacks as ``plain`` until it picks the weapon up, a maneuver [H].
    """
    if kind == "grapple":
        return target.evolve(grappled=True, held_by=by or None), "grappled"
    if kind == "shove":
        return target.evolve(prone=True), "shoved to the ground"
    if kind == "disarm":
        return target.evolve(disarmed=True), "disarmed"
    raise SimError(f"unknown contested maneuver {kind!r}; one of {', '.join(CONTEST_KINDS)}")


@dataclass(frozen=True, slots=True)
class ContestUse:
    """A grapple, shove or disarm: its contest and whether it took hold."""

    kind: str
    contest: Contest
    applied: bool
    effect: str

    def describe(self) -> str:
        """A log line."""
        tail = self.effect if self.applied else "no effect"
        return f"{self.kind}: {self.contest.describe()}; {tail}"


def contest_maneuver(
    kind: str,
    attacker: Combatant,
    target: Combatant,
    rng: np.random.Generator,
    *,
    attacker_dice: int = 1,
    by: str = "",
    options: Options = DEFAULT_OPTIONS,
) -> tuple[Combatant, ContestUse]:
    """A grapple, shove or disarm on ``target`` (RULES.md 1.7).

    The target resists (1 HD) and they contest; on the attacker's win :func:`win_contest`
    applies. The caller pays the maneuver.
    """
    win_contest(target, kind)  # checks the kind
    t2, contest = contested_maneuver(
        attacker, target, rng, attacker_dice=attacker_dice, options=options
    )
    if contest.winner != "attacker":
        return t2, ContestUse(kind, contest, False, "")
    t3, effect = win_contest(t2, kind, by)
    return t3, ContestUse(kind, contest, True, effect)


def contest_maneuver_dist(
    kind: str,
    attacker: Combatant,
    target: Combatant,
    *,
    attacker_dice: int = 1,
    by: str = "",
    options: Options = DEFAULT_OPTIONS,
) -> Dist:
    """Exact distribution of the target (a :class:`Combatant`) after :func:`contest_maneuver`."""
    win_contest(target, kind)  # checks the kind
    t2, _, _, _ = _contest_setup(attacker, target, attacker_dice, options)
    t3, _ = win_contest(t2, kind, by)
    winners = contested_maneuver_dist(
        attacker, target, attacker_dice=attacker_dice, options=options
    )
    return winners.map(lambda w: t3 if w == "attacker" else t2)


def stand_up(c: Combatant) -> Combatant:
    """A creature on the ground stands up (the caller pays a move maneuver) [H]."""
    return c.evolve(prone=False)


def pick_up_weapon(c: Combatant) -> Combatant:
    """A disarmed creature picks its weapon up again (the caller pays a maneuver) [H]."""
    return c.evolve(disarmed=False)


def wielded(c: Combatant, weapon_name: str) -> str:
    """The weapon ``c`` attacks with: ``plain`` while disarmed [H], else its own."""
    return "plain" if c.disarmed else weapon_name
