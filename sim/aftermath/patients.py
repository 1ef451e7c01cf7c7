"""A patient: one fighter's state at the end of a battle, and the rows a day gives of it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.errors import SimError
from sim.rules import twowp
from sim.rules.common import Status

ROW_KEYS = (
    "day",
    "name",
    "side",
    "status",
    "fights",
    "dice",
    "treated_by",
    "wounds",
    "infections",
    "infections_known",
    "hd",
    "condition",
)
"""Keys of every aftermath row, in ``sim.dataset.records.AFTERMATH_FIELDS`` order (less run_id)."""

WOUND_KEYS = (
    "kind",
    "state",
    "advances",
    "needs_reset",
    "reset_known",
    "infected",
    "infection_known",
)
"""Keys of each entry of a row's ``wounds`` list."""


@dataclass(frozen=True, slots=True)
class Patient:
    """One fighter's state at the end of a battle, as the aftermath needs it.

    Attributes:
        name, side, status: the fighter and its status at the battle's end (RULES.md 0).
        fights: its fight count after the battle (``twowp.fights_after_battle``).
        wounding, felling: 2W2P blows taken in this battle.
        twowp_state: 2W2P state carried from an earlier aftermath (campaigns), or None.
        dw_wounds: Deathwish wound levels carried.
        d6_condition: D6 tiers condition label (``wounded_twice`` ...).
        d6_strength: D6 tiers Strength code, for time healing.
        d6_potions: D6 tiers healing potions' dice codes, drunk on the battle's day.
        d6_poison: D6 tiers potency of a poison taken in the battle (empty: none).
        d6_resist: D6 tiers Resist Disease or Poison code (empty: its Strength).
        d6_religion: D6 tiers Religion skill (empty: none; 4D performs the resurrection ritual).
        hd, hd_max: War Game current and full hit dice.
        wg_conditions: War Game lingering conditions carried (a lost arm ...), campaigns only.
        in_battle: it fought in the battle (did not rest that day): in a campaign its older
            2W2P wounds get no recovery roll on the battle's day (:func:`twowp.patient_stakes`).
    """

    name: str
    side: str = ""
    status: str = "active"
    fights: int = 0
    wounding: int = 0
    felling: int = 0
    twowp_state: twowp.PatientState | None = None
    dw_wounds: tuple[str, ...] = ()
    d6_condition: str = "none"
    d6_strength: str = "3D"
    d6_potions: tuple[str, ...] = ()
    d6_poison: str = ""
    d6_resist: str = ""
    d6_religion: str = ""
    hd: int = 0
    hd_max: int = 0
    wg_conditions: tuple[str, ...] = ()
    in_battle: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", Status(self.status).value)
        object.__setattr__(self, "dw_wounds", tuple(self.dw_wounds))
        object.__setattr__(self, "d6_potions", tuple(self.d6_potions))
        if self.fights < 0 or self.wounding < 0 or self.felling < 0:
            raise SimError(f"{self.name}: fights and blows must be 0 or more")


def patient_from_fighter(fighter: Any) -> Patient:
    """A :class:`Patient` from a battle's fighter (``sim.frame.agents.Fighter``, read duck-typed).

    Reads ``name``, ``side``, ``status``, ``fights``, ``fought``, ``spec.d6`` (``strength``,
    ``resist``, ``religion``),
    ``wg.hit_dice``, ``hd_start``, and what its battle's rule system says it carries
    (``model.system.carried``: 2W2P blows, Deathwish wound levels, the D6 condition). The
    2W2P blows are all the fighter carries (a campaign passes earlier state separately).
    """
    status = Status(getattr(fighter.status, "value", fighter.status))
    fights = twowp.fights_after_battle(fighter.fights, fighter.fought, status != Status.DEAD)
    return Patient(
        name=fighter.name,
        side=fighter.side,
        status=status.value,
        fights=fights,
        d6_strength=fighter.spec.d6.strength,
        d6_resist=fighter.spec.d6.resist,
        d6_religion=fighter.spec.d6.religion,
        hd=fighter.wg.hit_dice,
        hd_max=fighter.hd_start,
        in_battle=True,
        **fighter.model.system.carried(fighter),
    )
