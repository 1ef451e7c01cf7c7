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
- ``block``: a War Game defender that would avoid a blow (as ``dodge`` says) may block it
  with an inventory slot instead of dodging (the item is lost; only with the option
  ``wargame.inventory_block``): ``never``; ``fallback`` (the default: only when it cannot
  dodge, being distracted, out of HD or after its own mighty attack, since a dodge costs
  1 HD that comes back next round and an item is gone for good); ``first`` (block while it
  has items, keeping its HD for attacks).
- ``mighty``: ``never``, ``armored`` (when the target's armor pool is at least
  ``mighty_pool``), ``exposed`` (when the target can neither dodge it nor block it with an
  item) or ``always``.
- ``recover_below``: recover armor (1 HD, start of turn) when the pool is below this share
  of its maximum.
- ``cover``: take cover (a maneuver) when an enemy has a ranged weapon and cover is in play.
- ``hazard``: push an enemy into a hazard in play instead of attacking.
- ``break_free``: a War Game fighter stuck in a hazard, grappled or subdued spends a
  maneuver at the start of its turn on a contest to break free (RULES.md 1.10).
- ``distract``: invoke a distraction in play on the target before attacking.
- ``contest``: War Game, a contested maneuver on the target once a turn instead of an attack
  (RULES.md 1.7): ``never`` (the default: every maneuver goes into attacks, as before);
  ``grapple``, ``shove`` or ``disarm`` whenever it would take hold; ``auto``: with a dagger
  grapple (a dagger strips 1 HD from a grappled target), else disarm a target whose weapon
  has a property, else shove down a target that could dodge (one on the ground cannot).
- ``heal``: War Game, a fighter carrying healing tools spends a maneuver (and one use) on
  1 HD for an ally: ``fallen`` (the default: bring back an incapacitated ally, who goes last
  for 2 rounds), ``wounded`` (also an ally, itself included, missing 2 HD or more, the most
  hurt first), ``never``. Not on a map.
- ``whip``: what a whip's max damage does beside subduing [S: "targets subdued this way can
  be shoved to the ground or disarmed at the same time"]: ``auto`` (the default: disarm a
  target whose weapon has a property, else knock it down), ``disarm``, ``shove``, ``none``.
- ``leader_killing``: at large scale, ``never`` or ``always`` go for the enemy leader.
- ``pursue``: War Game, strike at the enemies once every one of them left is fleeing. Off
  by default: the fleeing leave the field at the end of their next turn whatever is done to
  them, and a creature damaged while fleeing may spend its HD again (RULES.md 1.8), so a blow
  that does not take it out buys it a free blow back. Pursuing gave the routed side's last
  blows to the winners' leader and turned won battles into mutual routs (issue 30: 72 of the
  pass's 600 battles at large scale, 172 of armor_trial's 600).
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
- ``ride``: D6 tiers, a mounted fighter with a Ride skill reacts with it instead of dodge
  or parry when its Ride code is better than both (RULES.md 4: Ride adds no MAP, even
  against an area attack).
- ``formation`` (only on a map): how fighters with no enemy in reach move. ``advance``
  closes in on the nearest enemy; ``hold`` holds its ground (a line), attacking only what
  comes into reach; ``flank`` goes for the free cell beside its target farthest from the
  target's allies; ``leader`` advances on the enemy leader while it stands.
- ``sprint`` (only on a map, D6): forfeit the attack for a second move when one move
  brings no enemy into reach (RULES.md 4; a sprinter rolls half its dodge).
- ``called_shot`` (D6): ``odds`` (default) calls a shot when the exact odds of the blow
  (:func:`sim.rules.d6.blow_dist`: the target's standing reaction or the code it will roll,
  the difficulty with cover and scale, damage against body, its condition) give a greater
  chance of taking the target out of the fight, then a worse expected condition, than the
  plain attack: worth it against a weak reaction and a strong body, not against a good
  dodge. ``never``, ``always``.
- ``called_shot`` (War Game, RULES.md 1.3-1.5 [H]): a called shot aims at a limb (a leg
  while the target has both, then an arm; none, so a plain attack, once it has lost an arm
  and a leg: :meth:`Tactic.called_limb`) and costs 1 HD more
  than its maneuver (``wargame.called_shot_cost``); against lamellar the pool cannot absorb
  it [S], and on max damage it may take the limb off (``wargame.dismember``; plate prevents
  it [S]). ``odds`` (default) calls one only when the exact chance that it wounds
  (:func:`sim.rules.wargame.called.shot_wound_chance`) per HD it costs beats the plain
  blow's, on a target that can neither dodge it nor block it with an item: in practice a
  wearer of lamellar, with a pool big enough to stop most plain blows, that has spent its
  dodges (elsewhere the extra HD buys only the small chance of a limb). ``always`` calls
  every shot it can pay for; ``never``.
- ``extra_attacks`` (D6): attacks a turn beyond the regular action, declared at the start
  of the turn; each is one more action of the Multiple Action Penalty, -1D
  (``d6.map_dice_per_action``) on every roll the fighter makes for the rest of the round,
  its reaction and body rolls included. Default 0: a second attack at -1D also takes -1D
  off the reaction and the body roll that must carry the fighter through its enemies' turns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, Protocol, TypeVar

import numpy as np

from sim.dice import die
from sim.errors import SimError, unknown
from sim.rules import wargame
from sim.rules.common import build_options, describe_options, option


class Candidate(Protocol):
    """What a tactic reads of a fighter it ranks (a :class:`sim.frame.agents.Fighter` is one).

    A tactic names no class of the battle: it decides from these alone.
    """

    @property
    def wg(self) -> wargame.Combatant:
        """Its War Game record: hit dice, HD it can spend this round."""
        ...

    @property
    def wounds_taken(self) -> int:
        """Wounds it has taken in this battle."""
        ...

    @property
    def unique_id(self) -> int:
        """Its creation order in the battle (Mesa's agent id): the last tie-break."""
        ...

    @property
    def leader(self) -> bool:
        """Whether it leads its side."""
        ...


Fighter = TypeVar("Fighter", bound=Candidate)
"""Whatever kind of fighter a decision ranks: it returns one of those it was given."""


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
    block: str = option(
        "fallback",
        "War Game, with wargame.inventory_block: block a blow it would dodge with an inventory "
        "slot: never, fallback (only when it cannot dodge), first (before dodging)",
        choices=("never", "fallback", "first"),
    )
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
    contest: str = option(
        "never",
        "War Game: a grapple, shove or disarm on the target once a turn: never, grapple, shove, "
        "disarm, auto (grapple with a dagger, disarm an armed target, shove one that can dodge)",
        choices=("never", "grapple", "shove", "disarm", "auto"),
    )
    heal: str = option(
        "fallen",
        "War Game, healing tools: bring back an incapacitated ally (fallen), also heal an ally "
        "missing 2+ HD (wounded), never",
        choices=("never", "fallen", "wounded"),
    )
    whip: str = option(
        "auto",
        "War Game: a whip's subduing blow also disarms (a target with a weapon property) or "
        "knocks down (auto), disarm, shove or none",
        choices=("auto", "disarm", "shove", "none"),
    )
    leader_killing: str = option(
        "never", "large scale: try leader killing", choices=("never", "always")
    )
    pursue: bool = option(
        False,
        "War Game: strike at enemies who flee once every enemy left is fleeing (a creature "
        "damaged while fleeing may strike back; the fleeing leave the field anyway)",
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
    ride: bool = option(
        True, "D6: a mounted fighter reacts with Ride when its Ride code is the best it has"
    )
    formation: str = option(
        "advance",
        "with a map: move to close in on the nearest enemy, hold the line, flank the target "
        "or advance on the enemy leader",
        choices=("advance", "hold", "flank", "leader"),
    )
    sprint: bool = option(True, "with a map, D6: sprint when one move brings no enemy in reach")
    called_shot: str = option(
        "odds",
        "D6: call a shot (+1D difficulty, +1D damage) never, always, or when its exact odds "
        "take the target out more often (odds); War Game: a called shot at a limb never, "
        "always, or when it wounds more often per HD than a plain blow on a target that cannot "
        "avoid it (odds)",
        choices=("never", "odds", "always"),
    )
    extra_attacks: int = option(
        0,
        "D6: attacks a turn beyond the regular action, each one more action of the Multiple "
        "Action Penalty on every roll of the fighter that round (its reaction and body too)",
        low=0,
        high=3,
    )

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

    def defence(self, avoid: bool, can_dodge: bool, can_block: bool) -> str:
        """How a War Game defender meets a blow: ``dodge``, ``block`` or ``armor``.

        ``avoid``: whether it wants to avoid the blow (:meth:`wants_dodge`). ``block`` says
        whether an inventory slot is used before a dodge, instead of one, or never.
        """
        if not avoid:
            return "armor"
        if can_block and (self.block == "first" or (self.block == "fallback" and not can_dodge)):
            return "block"
        return "dodge" if can_dodge else "armor"

    def contest_kind(self, dagger: bool, target_armed: bool, target_dodges: bool) -> str | None:
        """The contested maneuver to try on the target this turn, or None (``contest``).

        ``dagger``: the fighter wields one; ``target_armed``: the target's weapon has a
        property and it is not disarmed; ``target_dodges``: it could dodge (not on the ground).
        """
        if self.contest == "never":
            return None
        if self.contest != "auto":
            return self.contest
        if dagger:
            return "grapple"
        if target_armed:
            return "disarm"
        return "shove" if target_dodges else None

    def whip_follow(self, target_armed: bool) -> str | None:
        """What a subduing whip blow also does: ``disarm``, ``shove`` or None (``whip``)."""
        if self.whip == "none":
            return None
        if self.whip == "auto":
            return "disarm" if target_armed else "shove"
        return self.whip

    def wants_mighty(self, target_pool: int, target_can_dodge: bool = True) -> bool:
        """Whether to declare the next attack mighty.

        ``exposed``: only when the target cannot dodge it (``target_can_dodge``: nor block it
        with an item), since a dodged or blocked mighty attack costs the attacker its own
        dodges for nothing.
        """
        if self.mighty == "always":
            return True
        if self.mighty == "exposed":
            return not target_can_dodge
        return self.mighty == "armored" and target_pool >= self.mighty_pool

    def wants_called_shot(self, plain: tuple[Any, ...], called: tuple[Any, ...]) -> bool:
        """D6: whether to call a shot, given what the plain and the called blow would do.

        ``plain`` and ``called`` are :func:`sim.rules.d6.harm` of each blow (the chance the
        target is out, then its expected rank); ``odds`` calls it only when it does more.
        """
        if self.called_shot != "odds":
            return self.called_shot == "always"
        return called > plain

    def called_limb(self, target_lost_leg: bool, target_lost_arm: bool = False) -> str | None:
        """War Game: the limb a called shot aims at: a leg while the target has both, else an arm.

        A lost leg ends the target's dodging for good (the seed's dodge is "dodge away"), which
        is worth more than a lost arm's one damage die fewer. None once it has lost both: a
        called shot aims at a limb it still has, and a lost limb is lost only once.
        """
        if not target_lost_leg:
            return "leg"
        return None if target_lost_arm else "arm"

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
        return self.name_of(
            min(allies, key=readiness, default=None), min(enemies, key=harmlessness, default=None)
        )

    def name_of(self, best_ally: Fighter | None, harmless: Fighter | None) -> Fighter | None:
        """:meth:`name_next_actor` given the most ready ally and the most harmless enemy."""
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
