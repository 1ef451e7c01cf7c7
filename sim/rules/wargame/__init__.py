"""War Game: hit dice, maneuvers, armor pools, wounds, weapons, environment, morale, factions.

Follows seed ``002_5306f142c0f73876.txt`` and implements the rules of RULES.md section 1
(1.1-1.10 and 1.12; the turn loop, goals and scale switching belong to the battle). Pure
functions of numbers, frozen records and a passed-in ``numpy.random.Generator``; every
function that rolls has an exact ``*_dist`` counterpart.

State is a frozen :class:`Combatant` (a creature, or a faction's pool at large scale).
Functions take one and return ``(new_combatant, result)``, the result a frozen record that
says what happened (``describe()`` gives a log line such as ``armor 4 -> 0; wound, 2 HD left``).

Data files (``sim/rules/data``): ``wargame_armors.csv`` (d6), ``wargame_shields.csv``,
``wargame_weapons.csv`` (d12 plus ``plain``), ``wargame_wound_types.csv`` (d4),
``wargame_factors.csv`` (d8 cover, distractions, hazards).

Options (fields of :class:`Options`; [I] interpretation, [H] house rule):

- ``damage`` = ``"hd_sum"`` [I]: damage is the total of the spent HD rolled as d8s
  (``"weapon_d8"``: one d8 whatever was spent).
- ``max_damage`` = ``"all_eight"`` [I]: max damage = every spent die shows 8 (``"any_eight"``).
- ``finish`` = ``"incapacitate"`` [H]: what a creature becomes at 0 HD (``"kill"``).
- ``inventory_block`` = False [I]: a defender may block with an inventory slot (item lost).
- ``broken_bones`` = ``"all_hd_on_8"`` [I]: attacking or moving costs all remaining HD and
  succeeds only on a d8 of 8 (``"forbidden"``: not possible at all).
- ``torch_ignites`` = ``"ignitable"`` [I]: a torch's max damage sets on fire only a target
  wearing armor that "can be ignited" (a gambeson) (``"anyone"``: every target).
- ``survive`` = ``"any_source"`` [I]: a creature with no armor protecting it (burning and a
  hazard keep its armor at 0) may spend 1 HD to survive an HD loss from burning or a hazard
  as it may dodge an attack [S: "when it takes damage from any source"] (``"attacks"``:
  only attacks).
- ``wound_types`` = ``"named"`` [H]: a wound gets a type only where the weapon or hazard names
  one (``"by_kind"``: also by the weapon's damage kind per the d4 table, a max-damage wound
  lingering; ``"rolled"``: d4).
- ``called_shot_cost`` = ``"hd"`` [H]: a called shot at an arm or a leg (the seed names
  called shots but gives no rule) costs 1 HD more than its maneuver, not rolled for damage
  (``"half"``: no extra HD, the damage is halved, rounded down).
- ``dismember`` = ``"max_damage"`` [H]: a called shot that wounds takes the limb off when it
  rolls max damage, unless the target wears plate [S: "prevents dismemberment"]
  (``"wound"``: whenever it wounds; ``"never"``).
- ``lingering`` = ``"conditions"`` [H]: a lingering wound rolls a d4 of conditions with a
  battle effect: blinded, lost arm, lost leg, shaken (``"record"``: recorded only).
- ``extinguish`` = ``"maneuver"`` [H]: putting out a fire is a maneuver (``"one_hd"``).
- ``mighty_hd`` = ``"extra"`` [I]: a mighty attack's lost HD comes on top of any wound
  (``"at_least_one"``: the attack costs the target at least 1 HD in all).
- ``wound_spendable`` = ``"cap"`` [I]: after a lost HD the dice left to spend this round are
  capped at the new HD (``"unspent"``: the lost die comes out of the unspent ones).
- ``warbow_direct`` = ``"wound"`` [I]: an unblocked warbow hit is a wound whatever the armor
  (``"damage"``: it removes as many HD as the damage).
- ``skewer`` = ``"incapacitate"`` [H]: a skewered target is incapacitated (``"kill"``).
- ``hazard_contest`` = True [I]: pushing into a hazard is a contested maneuver.
- ``contest_ties`` = ``"defender"`` [H]: tied contests go to the defender
  (``"attacker"``, ``"reroll"``).
- ``contest_roll`` = ``"d8"`` [I]: the attacker of a contest rolls one d8 (``"spent"``: the
  HD spent on the maneuver, totalled).
- ``contest_unable`` = ``"attribute_only"`` [I]: a defender that cannot spend HD adds no die
  (``"auto_lose"``: it loses the contest).
- ``distraction_limit`` = ``"per_factor"`` [I]: each distraction works once on a given target
  (``"per_target"``: a target can be distracted once in all).
- ``morale_compare`` = ``"hd"`` [I]: morale compares current HD to the roll (``"fixed"``:
  a per-fighter ``resolve``).
- ``morale_triggers_once`` = True [H]: each morale trigger fires once per side, except two
  quiet rounds, which fires again after two more.
- ``flee_turns`` = 1 [H]: a fleeing creature is ``fled`` at the end of this many own turns.
- ``initiative_ties`` = ``"reroll"`` [H]: tied initiative re-rolls (``"first_listed"``).
  Whom an actor names next in popcorn initiative is a tactic's choice (``name_next``,
  :mod:`sim.scenario.tactics`), not an option here.
- ``act_out_of_turn`` = False [H]: the tactic of spending 1 HD to act at once is used.
- ``weak_cover`` = ``"table"`` [I]: cover the seed calls "no real protection" (fog, bushes,
  pits) does not stop ranged attacks (``"protects"``: every cover does).
- ``loud_armor`` = ``"heard"`` [I]: a wearer of loud armor (chain, scale, plate) is heard in
  cover that shelters by hiding (fog, bushes, trees): it does not stop ranged attacks on it
  (``"silent"``: loud armor does nothing).
- ``large_scale_above`` = 10 [H]: more individuals than this is a large-scale War Game.
- ``pool`` = ``"members"`` [I]: a faction pool's HD are its head count, the average HD the
  dice it spends a round (on dodges), and it takes a turn a round for each active member,
  the sides alternating, each maneuver paid by its member (``"headcount"``: the same with
  one turn a round paid from the pool; ``"literal"``: its HD the members' average HD, one
  turn a round).
- ``faction_rounding`` = ``"half_up"`` [H]: rounding of faction averages (``"down"``).

The package follows the seed's sections, one module each; this ``__init__`` re-exports the
public API, so ``from sim.rules import wargame`` then ``wargame.<name>`` reaches everything:

- :mod:`~sim.rules.wargame.base`: the seed's numbers, argument checks, draws and the exact
  oracle behind the ``*_dist`` functions;
- :mod:`~sim.rules.wargame.options`: :class:`Options` and its builders;
- :mod:`~sim.rules.wargame.tables`: the d6 armors, shields, d12 weapons, d4 wound types and
  d8 environmental factors (1.5, 1.9, 1.4, 1.10);
- :mod:`~sim.rules.wargame.combatant`: the armor pool and the :class:`Combatant` (1.1, 1.5);
- :mod:`~sim.rules.wargame.maneuvers`: spending HD, maneuvers, dodging, acting out of turn
  (1.1, 1.3, 1.4, 1.6);
- :mod:`~sim.rules.wargame.damage`: damage rolls and the armor pool absorbing them (1.2, 1.5);
- :mod:`~sim.rules.wargame.wounds`: lost HD and wound types (1.4);
- :mod:`~sim.rules.wargame.attacks`: a whole attack and its weapon effects (1.2-1.4, 1.9);
- :mod:`~sim.rules.wargame.called`: called shots, lamellar's bare limbs, dismemberment
  (1.3, 1.5);
- :mod:`~sim.rules.wargame.conditions`: the conditions of lingering wounds and lost limbs
  (1.4);
- :mod:`~sim.rules.wargame.rounds`: round and turn bookkeeping, armor recovery (1.5, 1.6);
- :mod:`~sim.rules.wargame.contests`: contested maneuvers (1.7);
- :mod:`~sim.rules.wargame.factors`: cover, distractions, hazards, fire, breaking free (1.10);
- :mod:`~sim.rules.wargame.morale`: morale triggers and checks (1.8);
- :mod:`~sim.rules.wargame.initiative`: who goes first (1.6);
- :mod:`~sim.rules.wargame.large_scale`: factions, casualties, leader killing (1.12).
"""

from __future__ import annotations

from sim.rules.wargame.attacks import (
    Blow,
    Hit,
    attack_dist,
    resolve_attack,
    resolve_attack_in_place,
)
from sim.rules.wargame.base import (
    ACT_NOW_COST,
    BACK_IN_ROUNDS,
    BROKEN_BONES_NEEDS,
    BURNING_HD,
    DEFENCES,
    DODGE_COST,
    FACTOR_KINDS,
    HAZARD_HD,
    HD_SIDES,
    HEAL_HD,
    LEADER_KILLING_TARGET,
    LEADER_OUT_KEEPS,
    MANEUVER_COST,
    MANEUVERS,
    MAX_DICE,
    MIGHTY_HD,
    QUIET_ROUNDS,
    RECOVER_COST,
    RESIST_COST,
    SURVIVE_COST,
    WOUND_HD,
    Draw,
)
from sim.rules.wargame.called import (
    CALLED_SHOT_HD,
    LIMBS,
    called_damage,
    called_shot_extra,
    can_call_shot,
    dismembers,
    gets_through,
    lost_limb,
    pay_called_shot,
    shot_wound_chance,
)
from sim.rules.wargame.combatant import (
    ArmorPiece,
    Combatant,
    Wound,
    armor_piece,
    combatant,
    effective_pool,
    has_broken_bones,
    inventory_left,
    is_ignitable,
    is_loud,
    is_out,
    limbs_unprotected,
    lingering_wounds,
    pool_maximum,
    prevents_dismemberment,
    savvy_modifier,
    warbow_blocked,
)
from sim.rules.wargame.conditions import (
    BLIND_NEEDS,
    BLINDED,
    CONDITIONS,
    LEG_MOVE_SHARE,
    LOST_ARM,
    LOST_LEG,
    SHAKEN,
    SHAKEN_MORALE,
    add_condition,
    attack_dice,
    blind_attack_dist,
    can_two_hand,
    condition_dist,
    condition_roll,
    has_condition,
    morale_hd,
    move_share,
    roll_blind_attack,
    roll_condition,
)
from sim.rules.wargame.contests import (
    CONTEST_KINDS,
    Contest,
    ContestUse,
    contest_dist,
    contest_maneuver,
    contest_maneuver_dist,
    contested_maneuver,
    contested_maneuver_dist,
    pick_up_weapon,
    roll_contest,
    stand_up,
    wielded,
    win_contest,
)
from sim.rules.wargame.damage import (
    Absorb,
    DamageRoll,
    absorb,
    absorb_dist,
    damage_dist,
    damage_roll_dist,
    roll_damage,
    wound_chance,
)
from sim.rules.wargame.factors import (
    FactorUse,
    apply_hazard,
    break_free,
    break_free_dist,
    can_distract,
    cover_protects,
    distract,
    hazard_hd,
    hazard_round,
    heard_in_cover,
    is_held,
    push_into_hazard,
    push_into_hazard_dist,
    put_out_fire,
    try_break_free,
)
from sim.rules.wargame.initiative import Initiative, initiative_dist, roll_initiative
from sim.rules.wargame.large_scale import (
    LeaderKilling,
    casualties,
    faction_pool,
    is_large_scale,
    is_scattered,
    leader_down,
    leader_killing_dist,
    leader_killing_result,
    resolve_leader_killing,
    roll_leader_killing,
)
from sim.rules.wargame.maneuvers import (
    Maneuver,
    act_out_of_turn,
    broken_bones_dist,
    can_act_out_of_turn,
    can_block,
    can_dodge,
    can_maneuver,
    can_spend,
    declare_mighty,
    declare_mighty_in_place,
    maneuver_cost,
    maneuver_price,
    pay_maneuver,
    pay_maneuver_in_place,
    price_now,
    roll_broken_bones,
    spend,
)
from sim.rules.wargame.morale import (
    MORALE_TRIGGERS,
    Morale,
    flee_chance,
    morale_check,
    morale_dist,
    morale_triggers,
    morale_value,
    roll_morale,
    start_fleeing,
)
from sim.rules.wargame.options import DEFAULT_OPTIONS, Options, make_options, options_help
from sim.rules.wargame.rounds import (
    ArmorRecovery,
    RoundStart,
    back_into_fight,
    can_heal,
    can_recover_armor,
    can_survive,
    end_round,
    end_turn,
    heal,
    recover_armor,
    recover_armor_dist,
    start_round,
    start_round_in_place,
    start_turn,
    use_healing_tool,
)
from sim.rules.wargame.tables import (
    ArmorSpec,
    Factor,
    Weapon,
    WoundType,
    armor_roll_dist,
    armor_spec,
    armors,
    factor,
    factor_dist,
    factors,
    roll_armor,
    roll_factor,
    roll_weapon,
    roll_wound_type,
    shield_value,
    weapon,
    weapon_roll_dist,
    weapons,
    wound_type,
    wound_type_dist,
    wound_types,
)
from sim.rules.wargame.wounds import HdLoss, apply_wound_type, bleed_armor_max, lose_hd

NAME = "wargame"
SEED = "002_5306f142c0f73876.txt"
MAX_SIDES: int | None = None
"""Most sides a battle under these rules can have (None: any number of sides)."""
FACTION_POOLS = True
"""Whether a large-scale battle may be fought as faction pools (``battle.large_scale: pools``):
the seed's literal faction pools (RULES.md 1.6) are its own."""
FIGHTER_FIELDS: tuple[str, ...] = (
    "weapon",
    "shield",
    "mounted",
    "two_handed",
    "inventory_slots",
    "healing_tools",
)
"""The scenario fighter fields these rules read (others' fields are warned about)."""
POOL_FIELDS: tuple[str, ...] = ()
"""Fighter fields read only when ``battle.large_scale: pools`` (War Game pools)."""

__all__ = [
    "ACT_NOW_COST",
    "BACK_IN_ROUNDS",
    "BROKEN_BONES_NEEDS",
    "BURNING_HD",
    "DEFENCES",
    "DODGE_COST",
    "Draw",
    "FACTOR_KINDS",
    "HAZARD_HD",
    "HEAL_HD",
    "HD_SIDES",
    "LEADER_KILLING_TARGET",
    "LEADER_OUT_KEEPS",
    "MANEUVERS",
    "MANEUVER_COST",
    "MAX_DICE",
    "MIGHTY_HD",
    "QUIET_ROUNDS",
    "RECOVER_COST",
    "RESIST_COST",
    "SURVIVE_COST",
    "WOUND_HD",
    "DEFAULT_OPTIONS",
    "Options",
    "make_options",
    "options_help",
    "ArmorSpec",
    "Factor",
    "Weapon",
    "WoundType",
    "armor_roll_dist",
    "armor_spec",
    "armors",
    "factor",
    "factor_dist",
    "factors",
    "roll_armor",
    "roll_factor",
    "roll_weapon",
    "roll_wound_type",
    "shield_value",
    "weapon",
    "weapon_roll_dist",
    "weapons",
    "wound_type",
    "wound_type_dist",
    "wound_types",
    "ArmorPiece",
    "Combatant",
    "Wound",
    "armor_piece",
    "combatant",
    "effective_pool",
    "has_broken_bones",
    "inventory_left",
    "is_ignitable",
    "is_loud",
    "is_out",
    "limbs_unprotected",
    "lingering_wounds",
    "pool_maximum",
    "prevents_dismemberment",
    "savvy_modifier",
    "warbow_blocked",
    "Maneuver",
    "act_out_of_turn",
    "broken_bones_dist",
    "can_act_out_of_turn",
    "can_block",
    "can_dodge",
    "can_maneuver",
    "can_spend",
    "declare_mighty",
    "declare_mighty_in_place",
    "maneuver_cost",
    "maneuver_price",
    "pay_maneuver",
    "pay_maneuver_in_place",
    "price_now",
    "roll_broken_bones",
    "spend",
    "Absorb",
    "DamageRoll",
    "absorb",
    "absorb_dist",
    "damage_dist",
    "damage_roll_dist",
    "roll_damage",
    "wound_chance",
    "HdLoss",
    "apply_wound_type",
    "bleed_armor_max",
    "lose_hd",
    "Blow",
    "Hit",
    "attack_dist",
    "resolve_attack",
    "resolve_attack_in_place",
    "CALLED_SHOT_HD",
    "LIMBS",
    "called_damage",
    "called_shot_extra",
    "can_call_shot",
    "dismembers",
    "gets_through",
    "lost_limb",
    "pay_called_shot",
    "shot_wound_chance",
    "BLIND_NEEDS",
    "BLINDED",
    "CONDITIONS",
    "LEG_MOVE_SHARE",
    "LOST_ARM",
    "LOST_LEG",
    "SHAKEN",
    "SHAKEN_MORALE",
    "add_condition",
    "attack_dice",
    "blind_attack_dist",
    "can_two_hand",
    "condition_dist",
    "condition_roll",
    "has_condition",
    "morale_hd",
    "move_share",
    "roll_blind_attack",
    "roll_condition",
    "ArmorRecovery",
    "RoundStart",
    "back_into_fight",
    "can_heal",
    "can_recover_armor",
    "can_survive",
    "heal",
    "use_healing_tool",
    "end_round",
    "end_turn",
    "recover_armor",
    "recover_armor_dist",
    "start_round",
    "start_round_in_place",
    "start_turn",
    "Contest",
    "contest_dist",
    "CONTEST_KINDS",
    "ContestUse",
    "contest_maneuver",
    "contest_maneuver_dist",
    "contested_maneuver",
    "contested_maneuver_dist",
    "pick_up_weapon",
    "stand_up",
    "wielded",
    "win_contest",
    "roll_contest",
    "FactorUse",
    "apply_hazard",
    "break_free",
    "break_free_dist",
    "can_distract",
    "cover_protects",
    "distract",
    "hazard_hd",
    "hazard_round",
    "heard_in_cover",
    "is_held",
    "push_into_hazard",
    "push_into_hazard_dist",
    "put_out_fire",
    "try_break_free",
    "MORALE_TRIGGERS",
    "Morale",
    "flee_chance",
    "morale_check",
    "morale_dist",
    "morale_triggers",
    "morale_value",
    "roll_morale",
    "start_fleeing",
    "Initiative",
    "initiative_dist",
    "roll_initiative",
    "LeaderKilling",
    "casualties",
    "faction_pool",
    "is_large_scale",
    "is_scattered",
    "leader_down",
    "leader_killing_dist",
    "leader_killing_result",
    "resolve_leader_killing",
    "roll_leader_killing",
    "FIGHTER_FIELDS",
    "FACTION_POOLS",
    "MAX_SIDES",
    "POOL_FIELDS",
    "NAME",
    "SEED",
]
