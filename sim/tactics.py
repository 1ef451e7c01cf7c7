"""Tactics: the decisions the rules leave to players and the GM (RULES.md section 5).

A tactic is a frozen set of parameters plus small pure decision functions. Each side names
one in its scenario (default ``balanced``) and may override any parameter; every parameter
can be swept like a rule option. The named tactics are presets:

- ``balanced`` (default): attack the weakest enemy in reach; dodge every blow that would
  wound; keep 1 HD for dodging while an enemy may still attack this round, and spend
  everything once none can (spent HD come back when the next round starts); declare a
  mighty attack only on a target that cannot dodge it; in popcorn initiative name the most
  harmless enemy next, keeping its own side for the end of the round; recover armor below
  half; take cover from ranged attackers; push enemies into hazards when there are any.
- ``aggressive``: spend every HD on attacks, mighty every time, dodge only a blow that would
  take the fighter out, never stop to recover armor or take cover.
- ``defensive``: keep 2 HD to dodge, never mighty, recover armor below three quarters, set
  half of a 2W2P front's dice aside for defence, take cover.
- ``focus_leader``: like ``balanced``, but go for the enemy leader first (on a map, advance
  on it), and at large scale try leader killing.

Why ``balanced`` plays as it does (issue 14): a dodge costs 1 HD and cancels an attack that
cost 2, and spent HD come back every round, so a fighter who dodges every wounding blow
cannot be hurt by one opponent of equal HD. A round-robin of War Game tactics (1 v 1 and
3 v 3, four fighter kinds, both sides' places) showed the old default (mighty on an armored
target, a reserve kept all round) winning 31% of its matches: a dodged mighty attack left
the attacker unable to dodge, and a reserve kept after every enemy has acted is wasted.
Declaring mighty only on an exposed target and going all in once no enemy is left to act
won 71%; dodging only a blow that would take the fighter out won 9%. Whoever acts last in a
round can spend everything while its enemies have already spent theirs, so naming an enemy
next (``enemy_first``) beat naming an ally (``ally_first``) in 95-100% of battles, even
outnumbered five to six; with both sides naming enemies, the bigger side keeps the last turn.

Parameters (all presets share them):

- ``target``: ``weakest`` (fewest HD, then most wounds), ``strongest``, ``leader``
  (the enemy leader while it stands, else weakest) or ``random``.
- ``reserve``: HD a War Game fighter keeps unspent on its turn, for dodging.
- ``all_in_last``: keep no reserve once every enemy has acted this round.
- ``dodge``: ``never``, ``wound`` (dodge a blow that would wound) or ``out`` (only one that
  would take the fighter out).
- ``mighty``: ``never``, ``armored`` (when the target's armor pool is at least
  ``mighty_pool``), ``exposed`` (when the target cannot dodge it) or ``always``.
- ``recover_below``: recover armor (1 HD, start of turn) when the pool is below this share
  of its maximum.
- ``cover``: take cover (a maneuver) when an enemy has a ranged weapon and cover is in play.
- ``hazard``: push an enemy into a hazard in play instead of attacking.
- ``break_free``: a War Game fighter stuck in a hazard, grappled or subdued spends a
  maneuver at the start of its turn on a contest to break free (RULES.md 1.10).
- ``distract``: invoke a distraction in play on the target before attacking.
- ``leader_killing``: at large scale, ``never`` or ``always`` go for the enemy leader.
- ``defence_share``: share of a side's 2W2P front dice set aside for defence.
- ``protect_leader``: 2W2P, the side deciding who takes the hits keeps them off its leader
  while anyone else on the front can take them (the seed: "the other side decides which
  fighters take them").
- ``objective_share``: share of a side's fighters that work on a ``destroy`` goal.
- ``name_next``: popcorn initiative, ``enemy_first`` (name the most harmless enemy who has
  not acted, else the readiest ally) or ``ally_first`` (the readiest ally first) (RULES.md
  1.6 [H]). At large scale with turns it is the order in which a faction sends its members:
  the most harmless first, or the readiest first.
- ``parry``: D6 tiers, parry instead of dodging when the parry code is the better one.
- ``formation`` (only on a map): how fighters with no enemy in reach move. ``advance``
  closes in on the nearest enemy; ``hold`` holds its ground (a line), attacking only what
  comes into reach; ``flank`` goes for the free cell beside its target farthest from the
  target's allies; ``leader`` advances on the enemy leader while it stands.
- ``sprint`` (only on a map, D6): forfeit the attack for a second move when one move
  brings no enemy into reach (RULES.md 4; a sprinter rolls half its dodge).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from sim.dice import die
from sim.errors import SimError, unknown
from sim.rules.common import build_options, describe_options, option

if TYPE_CHECKING:
    from sim.agents import Fighter


@dataclass(frozen=True, slots=True)
class Tactic:
    """A side's tactic: a name and its parameters (see the module docstring)."""

    name: str = "balanced"
    target: str = option(
        "weakest", "whom to attack", choices=("weakest", "strongest", "leader", "random")
    )
    reserve: int = option(1, "HD kept unspent for dodging", low=0, high=100)
    all_in_last: bool = option(
        True, "keep no reserve once every enemy has acted this round (spent HD come back)"
    )
    dodge: str = option("wound", "which blows to dodge", choices=("never", "wound", "out"))
    mighty: str = option(
        "exposed",
        "when to declare a mighty attack: never, on an armored target, on a target that cannot "
        "dodge it (exposed), always",
        choices=("never", "armored", "exposed", "always"),
    )
    mighty_pool: int = option(6, "armor pool that makes a target 'armored'", low=0, high=100)
    recover_below: float = option(0.5, "recover armor below this share of max", low=0, high=1)
    cover: bool = option(True, "take cover from ranged attackers")
    hazard: bool = option(True, "push enemies into hazards in play")
    break_free: bool = option(
        True, "War Game: a fighter stuck, grappled or subdued tries to break free on its turn"
    )
    distract: bool = option(False, "distract the target before attacking")
    leader_killing: str = option(
        "never", "large scale: try leader killing", choices=("never", "always")
    )
    defence_share: float = option(0.0, "2W2P: share of dice for defence", low=0, high=1)
    protect_leader: bool = option(
        True, "2W2P: the side's leader takes hits only when nobody else on its front can"
    )
    objective_share: float = option(0.5, "share of fighters on a destroy goal", low=0, high=1)
    name_next: str = option(
        "enemy_first", "popcorn: whom to name next", choices=("enemy_first", "ally_first")
    )
    parry: bool = option(True, "D6: parry when the parry code is better than dodge")
    formation: str = option(
        "advance",
        "with a map: move to close in on the nearest enemy, hold the line, flank the target "
        "or advance on the enemy leader",
        choices=("advance", "hold", "flank", "leader"),
    )
    sprint: bool = option(True, "with a map, D6: sprint when one move brings no enemy in reach")

    # --- decisions -----------------------------------------------------------------
    def choose_target(self, enemies: Sequence[Fighter], rng: np.random.Generator) -> Fighter | None:
        """The enemy to attack among ``enemies`` (those still in the fight)."""
        if not enemies:
            return None
        if self.target == "random":
            return enemies[die(rng, len(enemies)) - 1]  # rng.integers(len(enemies))
        if self.target == "leader":
            leaders = [e for e in enemies if e.leader]
            if leaders:
                return leaders[0]
        ranked = sorted(enemies, key=weakness)
        return ranked[-1] if self.target == "strongest" else ranked[0]

    def wants_dodge(self, would_wound: bool, would_out: bool) -> bool:
        """Whether to spend 1 HD to dodge a blow, given what it would do."""
        if self.dodge == "never":
            return False
        if self.dodge == "out":
            return would_out
        return would_wound

    def wants_mighty(self, target_pool: int, target_can_dodge: bool = True) -> bool:
        """Whether to declare the next attack mighty.

        ``exposed``: only when the target cannot dodge it, since a dodged mighty attack
        costs the attacker its own dodges for nothing.
        """
        if self.mighty == "always":
            return True
        if self.mighty == "exposed":
            return not target_can_dodge
        return self.mighty == "armored" and target_pool >= self.mighty_pool

    def wants_recover(self, armor_pool: int, armor_max: int) -> bool:
        """Whether to spend 1 HD at the start of the turn to recover armor."""
        return armor_max > 0 and armor_pool < self.recover_below * armor_max

    def name_next_actor(
        self, allies: Sequence[Fighter], enemies: Sequence[Fighter]
    ) -> Fighter | None:
        """Popcorn initiative: whom the last actor names among those yet to act.

        ``ally_first``: the ally with the most HD to spend; once none is left, the enemy
        most likely to be harmless (fewest HD). ``enemy_first`` names the harmless enemy
        first.
        """
        best_ally = min(allies, key=readiness, default=None)
        harmless = min(enemies, key=harmlessness, default=None)
        if self.name_next == "enemy_first":
            return harmless if harmless is not None else best_ally
        return best_ally if best_ally is not None else harmless


def weakness(f: Fighter) -> tuple[int, int, int]:
    """Sort key of ``weakest`` targets: fewer HD and more wounds first (ties by creation order)."""
    return (f.wg.hit_dice, -f.wounds_taken, f.unique_id)


def readiness(f: Fighter) -> tuple[int, int]:
    """Sort key of the ally to name next: most HD to spend first (ties by creation order)."""
    return (-f.wg.spendable, f.unique_id)


def harmlessness(f: Fighter) -> tuple[int, int]:
    """Sort key of the enemy to name next: fewest HD first (ties by creation order)."""
    return (f.wg.hit_dice, f.unique_id)


_PRESETS: dict[str, dict[str, Any]] = {
    "balanced": {},
    "aggressive": {
        "reserve": 0,
        "dodge": "out",
        "mighty": "always",
        "recover_below": 0.0,
        "cover": False,
    },
    "defensive": {
        "reserve": 2,
        "mighty": "never",
        "recover_below": 0.75,
        "defence_share": 0.5,
    },
    "focus_leader": {"target": "leader", "leader_killing": "always", "formation": "leader"},
}

TACTICS: tuple[str, ...] = tuple(_PRESETS)
PARAMETERS: tuple[str, ...] = tuple(f.name for f in fields(Tactic) if f.name != "name")


def make_tactic(
    name: str = "balanced", params: Mapping[str, Any] | None = None, where: str = "tactic"
) -> Tactic:
    """The tactic ``name`` with ``params`` overriding its preset; clear errors otherwise."""
    if name not in _PRESETS:
        raise unknown("tactic", name, _PRESETS)
    values = {**_PRESETS[name], **(params or {})}
    if "name" in values:
        raise SimError(f"{where}.params.name: the tactic's name is not a parameter")
    built = build_options(Tactic, values, where=f"{where}.params")
    return replace(built, name=name)


def describe_tactics() -> list[dict[str, Any]]:
    """Every tactic parameter with its default (the ``balanced`` preset) and meaning."""
    return [o for o in describe_options(Tactic) if o["name"] != "name"]
