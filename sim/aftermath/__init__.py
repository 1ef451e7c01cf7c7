"""Days after a battle: injury, infection, recovery and healers (RULES.md 1.4, 2.5, 3, 4).

A Mesa-free core. :class:`Aftermath` takes the survivors' end state (:class:`Patient`, built
from a battle's fighters by :func:`patient_from_fighter`), the side's healers
(:class:`Healer`: ordinary fighters with a nurse, surgeon or physician skill level), the rule
system and a ``numpy.random.Generator``; each :meth:`Aftermath.step` is one day (day 0 is the
day of the battle) and yields one row per patient (:data:`ROW_KEYS`,
``sim.dataset.records.AFTERMATH_FIELDS``).

The package: :mod:`~sim.aftermath.healers` (healers, their capacity and supervision),
:mod:`~sim.aftermath.patients` (patients and the rows' keys), :mod:`~sim.aftermath.days` (the
day loop, triage and rows every system shares, and the hooks a system fills in), and one
module per rule system (:mod:`~sim.aftermath.twowp`, :mod:`~sim.aftermath.deathwish`,
:mod:`~sim.aftermath.d6`, :mod:`~sim.aftermath.wargame`), each a subclass of
:class:`Aftermath`; ``Aftermath(patients, healers, "d6", rng)`` makes the D6 one. A battle's
rule system names its aftermath (``sim.systems.RuleSystem.aftermath``).

Per system:

- **2W2P** (RULES.md 2.5, the full model; rules in :mod:`sim.rules.twowp`): wounds that need
  re-set (felling ones always, others 1 in 3, secretly); on the day of the blow each wound is
  an infection risk; a felled fighter's death risk every day until removed; each infection a
  daily death risk from the next day; a recovery goal per wound after each day of rest; all
  rolled as one task by the patient and its carers (2.2, 2.3). Healers detect infections and
  re-sets by their skill and role; surgeons bind and re-set; physicians compound medicine.
- **Deathwish** (RULES.md 3): on the battle's day, surgeons reach the bleeding in triage
  order; a Serious wound kills if treatment has not started within ``serious_minutes``, a
  Critical one within ``critical_minutes``; survivors stay incapacitated per
  ``incapacitated_from``. No recovery over days (the seed has none).
- **D6 tiers** (RULES.md 4 "Healing"): on the battle's day surgeons give first aid (one try
  per patient, First Aid code by skill level), patients drink their potions, the Mortally
  wounded who are not stabilized die, the Incapacitated wake as Wounded twice; then every
  third day of rest a Strength roll heals or infects one spot, with the first-aid bonus. The
  poisoned roll Resist Disease or Poison the next day (plus first aid's dice); priests
  (healer role ``priest``) and members with Religion 4D raise the dead, one an hour.
- **War Game** (RULES.md 1.4): 1 HD back per 8 hours of rest (:func:`hd_after_rest`); a
  creature incapacitated at 1 or fewer HD is back on its feet above ``wake_above_hd``.

Healers and capacity (seed 000 "healers"): a nurse cares for 3/5/8 patients at a time
(competent/experienced/specialized), all day; a surgeon treats 2/3/5 wounds or examines
3/4/5 patients an hour, a physician examines 3/3/5 or compounds medicine for 2/3/5 an hour,
for ``healer_hours`` hours a day. A supervisor (named by its students' ``supervisor``) takes
1/3/6 students, works at its least-skilled student's level, and each day adds one die to one
roll of one of its students (the first of that student's patients in triage order).

Default triage (``triage: felled_first`` [H]): patients who are felled (2W2P), bleeding out
(Deathwish: earliest deadline) or mortally wounded (D6) first; then those with a known
infection; then those with the most open wounds (worst condition); ties in list order.
Healers are taken best first (skill, then list order). A healer who is also a patient works
only while active (or fleeing), and not on itself. In 2W2P each day runs: nurses take
patients in triage order (one nurse per patient); every attending healer then spots what its
skill lets it (infections, wounds needing re-set); surgeons examine (experienced or
specialized: to find re-sets), bind the day's new wounds and re-set known ones; physicians
compound medicine for known infections and examine the rest; then every living patient rolls
(in list order), carers being its nurse, the surgeons who treated a wound of it and the
physicians who compounded for it (examining alone is no treatment [I]).

Options: the system's own (``twowp.Options`` ...), its ``AftermathOptions`` group
(``twowp.AftermathOptions``, ``deathwish.AftermathOptions``, ``d6.AftermathOptions``), and
:class:`CampOptions` here:

- ``healer_hours`` = 8 [H]: hours a surgeon or physician works a day.
- ``triage`` = ``felled_first`` [H]: the default triage above (``listed``: list order).
- ``supervised_unskilled`` = ``competent`` [H]: an unskilled student under supervision works
  at a competent healer's capacity (it still counts 0 in the head count) (``none``: not at all).
- ``first_aid_competent`` = "3D", ``first_aid_experienced`` = "4D",
  ``first_aid_specialized`` = "5D" [H]: D6 tiers First Aid code of a healer of that level
  (a healer's own ``first_aid`` code overrides it).
- ``rest_hours_per_day`` = 8 [H]: War Game hours of rest per aftermath day.
- ``wake_above_hd`` = 1 [I]: War Game: an incapacitated creature is up again once its HD
  exceed this.

May import: the ground floor (``sim.dice``, ``sim.errors``, ``sim.options``) and
``sim.rules``; nothing of the battle.
"""

from __future__ import annotations

from sim.aftermath.days import KINDS, Aftermath, run_aftermath
from sim.aftermath.healers import (
    DEFAULT_CAMP,
    Healer,
    day_capacity,
    healers_from_fighters,
    students_of,
    working_level,
)
from sim.aftermath.patients import ROW_KEYS, WOUND_KEYS, Patient, patient_from_fighter
from sim.options import CampOptions

# Each system files its aftermath in KINDS as it is imported: this order is SYSTEMS'.
# isort: off
from sim.aftermath.twowp import TwoWPAftermath
from sim.aftermath.deathwish import DeathwishAftermath
from sim.aftermath.d6 import D6Aftermath
from sim.aftermath.wargame import HOURS_PER_HD, WarGameAftermath, hd_after_rest
# isort: on

SYSTEMS = tuple(KINDS)
"""The systems with an aftermath: every rule system."""

__all__ = [
    "DEFAULT_CAMP",
    "HOURS_PER_HD",
    "ROW_KEYS",
    "SYSTEMS",
    "WOUND_KEYS",
    "Aftermath",
    "CampOptions",
    "D6Aftermath",
    "DeathwishAftermath",
    "Healer",
    "Patient",
    "TwoWPAftermath",
    "WarGameAftermath",
    "day_capacity",
    "hd_after_rest",
    "healers_from_fighters",
    "patient_from_fighter",
    "run_aftermath",
    "students_of",
    "working_level",
]
