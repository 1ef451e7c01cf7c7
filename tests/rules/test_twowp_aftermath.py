"""2W2P aftermath over days (seed 000 "injury", "recovery", "healers"; RULES.md 2.5).

Exact cases worked by hand, each with its derivation; the rolls checked against their exact
distributions. Task resolution (RULES.md 2.3): a 5-6 removes a risk or achieves a goal, a
3-4 delays a risk (at most twice) or advances a goal, a risk with no 3+ die happens. A d6
falls into 1-2, 3-4, 5-6 with chance 1/3 each.
"""

from dataclasses import fields, replace
from fractions import Fraction

import numpy as np
import pytest

from sim.dice import Dist
from sim.errors import SimError
from sim.rules import twowp
from sim.rules.common import build_options, describe_options
from sim.rules.twowp import (
    DEFAULT_AFTERMATH_OPTIONS,
    AftermathOptions,
    Options,
    PatientState,
    WoundState,
    detect_infections,
    examine_resets,
    infection_chance,
    patient_day,
    patient_day_dist,
    patient_days_dist,
    patient_dice,
    patient_stakes,
    recovery_due,
    reset_wound,
    take_blows,
)
from tests.conftest import assert_matches

F = Fraction
SETTLED = WoundState(infection_risk=None)  # an old wound whose infection risk is settled
FELLED = PatientState(
    wounds=(WoundState(felling=True, needs_reset=True, reset_known=True),), felled_risk=0
)


# --- infection on the day of the blow ---------------------------------------------------------


def test_untreated_wounding_blow_infected_one_in_three():
    # The patient alone: weighted head count 1 (patient_weight 1) -> 1 die. The wound's
    # infection risk is the roll's only stake; it happens when no 3+ die can go on it, i.e.
    # when the one die shows 1-2: 2/6 = 1/3.
    assert patient_dice() == 1
    assert infection_chance(1) == F(1, 3)


def test_one_competent_healer_makes_it_one_in_nine():
    # Patient (1) + a competent healer (1): w = 2 -> 2 dice (2.2: 2 dice for 2-3). The risk
    # happens only if both dice show 1-2: (1/3)^2 = 1/9.
    assert patient_dice(["competent"]) == 2
    assert infection_chance(patient_dice(["competent"])) == F(1, 9)
    # a specialized healer: w = 1 + 4 = 5 -> 3 dice: 1/27
    assert infection_chance(patient_dice(["specialized"])) == F(1, 27)
    # a supervisor's die on top of a competent carer: 3 dice
    assert infection_chance(patient_dice(["competent"], extra_dice=1)) == F(1, 27)


def test_two_fresh_wounds_each_a_separate_risk():
    # One die, two infection risks: the die goes to the first; the second has no die and
    # happens. Infections: 2 when the die is 1-2 (1/3), else 1 (2/3).
    state = PatientState(wounds=(WoundState(), WoundState()))
    dist = patient_day_dist(state, 0, 1).map(lambda s: s.infections)
    assert dist == Dist({1: F(2, 3), 2: F(1, 3)})
    # Two dice: each risk takes one die (greedy, highest first): infections = number of
    # 1-2 dice: binomial(2, 1/3).
    dist = patient_day_dist(state, 0, 2).map(lambda s: s.infections)
    assert dist == Dist({0: F(4, 9), 1: F(4, 9), 2: F(1, 9)})


# --- death risks ------------------------------------------------------------------------------


def test_felled_fighter_alone_over_two_days():
    # Day 0, 1 die, stakes: felled death risk, then the felling wound's infection risk.
    # The die goes to the death risk (greedy order), so the infection risk always happens.
    # Die 5-6: risk removed; 3-4: delayed (1 delay); 1-2: dies. P(dead on day 0) = 1/3.
    day0 = patient_days_dist(FELLED, 0, [1])
    assert day0.prob(lambda s: s.dead) == F(1, 3)
    assert day0.prob(lambda s: not s.dead and s.infections == 1) == F(2, 3)
    # Day 1: the infection (set in on day 0) is now a death risk. The felling wound awaits
    # re-set, so there is no recovery goal.
    # - felled risk removed on day 0 (1/3): one death risk, dies with a 1-2: 1/3.
    # - felled risk delayed (1/3): two death risks, one die: one of them gets no die, dies.
    # P(alive after day 1) = 1/3 * 2/3 = 2/9, P(dead) = 7/9.
    two = patient_days_dist(FELLED, 0, [1, 1])
    assert two.prob(lambda s: s.dead) == F(7, 9)
    assert two.prob(lambda s: s.dead and s.died_day == 1) == F(7, 9) - F(1, 3)


def test_a_death_risk_is_delayed_at_most_twice():
    # An infection death risk delayed twice needs a 5-6: with 1 die the patient dies 2/3.
    state = PatientState(
        wounds=(replace(SETTLED, infected_day=0, infection_delays=2, needs_reset=False),)
    )
    dist = patient_day_dist(state, 3, 1, aftermath=AftermathOptions(rest="light"))
    assert dist.prob(lambda s: s.dead) == F(2, 3)


def test_removed_infection_risk_ends_the_infection():
    state = PatientState(wounds=(replace(SETTLED, infected_day=0),))
    light = AftermathOptions(rest="light")  # day 1: no recovery roll, only the death risk
    dist = patient_day_dist(state, 1, 1, aftermath=light)
    assert dist.prob(lambda s: not s.dead and s.infections == 0) == F(1, 3)  # 5-6
    assert dist.prob(lambda s: not s.dead and s.wounds[0].infection_delays == 1) == F(1, 3)
    keep = replace(light, infection_ends_when_removed=False)
    dist = patient_day_dist(state, 1, 1, aftermath=keep)
    assert dist.prob(lambda s: not s.dead and s.infections == 1) == F(2, 3)


def test_infection_is_no_death_risk_on_its_own_day():
    state = PatientState(wounds=(replace(SETTLED, infected_day=2),))
    stakes = patient_stakes(state, 2)
    assert stakes.day.infections == () and stakes.infection_wounds == ()
    assert patient_stakes(state, 3).day.infections == (0,)


# --- recovery ---------------------------------------------------------------------------------


def test_recovery_goal_by_hand():
    # One wound, no re-set, no infection; 1 die a day from day 1. Each day: 5-6 achieves
    # (1/3), 3-4 advances (1/3), 1-2 loses the day's chance but keeps the advances (1/3).
    # Day 1: 1/3. Two days: 1/3 + (advanced) 1/3*1/3 + (lost) 1/3*1/3 = 5/9.
    # Three days: not recovered = no 5-6 in three days and not three 3-4s:
    # (2/3)^3 - (1/3)^3 = 7/27, so 20/27.
    state = PatientState(wounds=(SETTLED,))
    for days, p in [(1, F(1, 3)), (2, F(5, 9)), (3, F(20, 27))]:
        dist = patient_days_dist(state, 1, [1] * days)
        assert dist.prob(lambda s: s.wounds[0].recovered) == p
    # Four days. Keeping advances (default): not recovered = the four days show only 3-4s
    # and 1-2s with at most two 3-4s: C(4,0) + C(4,1) + C(4,2) = 11 of the 81 sequences,
    # so 70/81. Losing them on a lost goal: not recovered = no run of three 3-4s:
    # 16 - 3 (MMMM, MMML, LMMM) = 13 sequences, so 68/81.
    dist = patient_days_dist(state, 1, [1] * 4)
    assert dist.prob(lambda s: s.wounds[0].recovered) == F(70, 81)
    reset = AftermathOptions(lost_recovery_keeps_advances=False)
    dist = patient_days_dist(state, 1, [1] * 4, aftermath=reset)
    assert dist.prob(lambda s: s.wounds[0].recovered) == F(68, 81)


def test_no_recovery_roll_on_the_day_of_the_blow():
    state = PatientState(wounds=(SETTLED,))
    assert patient_day_dist(state, 0, 3) == Dist.constant(state)
    assert not recovery_due(0)
    assert recovery_due(0, AftermathOptions(rest_on_blow_day=True))
    light = AftermathOptions(rest="light")
    assert [recovery_due(d, light) for d in range(1, 7)] == [False, False, True] * 2


def test_fewer_dice_than_goals_keeps_the_rest_open():
    # Two wounds, 1 die: the die goes to the first goal; the second stays open (advances 0).
    state = PatientState(wounds=(SETTLED, replace(SETTLED, advances=2)))
    dist = patient_day_dist(state, 1, 1)
    assert dist.prob(lambda s: s.wounds[1].recovered) == 0
    assert dist.prob(lambda s: s.wounds[1].advances == 2) == 1


def test_a_wound_that_needs_reset_never_recovers():
    secret = PatientState(wounds=(replace(SETTLED, needs_reset=True),))
    # three dice, three days: still not recovered, and the roll failed
    dist = patient_days_dist(secret, 1, [3, 3, 3])
    assert dist.prob(lambda s: s.wounds[0].recovered) == 0
    assert dist.prob(lambda s: s.wounds[0].failed_recovery) == 1
    # as_rolled: only a lost goal is a failed roll (1 die: 1-2, 1/3)
    as_rolled = AftermathOptions(unknown_reset_roll="as_rolled")
    dist = patient_day_dist(secret, 1, 1, aftermath=as_rolled)
    assert dist.prob(lambda s: s.wounds[0].failed_recovery) == F(1, 3)
    # a known one awaits the surgeon: no goal at all
    known = PatientState(wounds=(replace(SETTLED, needs_reset=True, reset_known=True),))
    assert patient_stakes(known, 1).day.recovering == ()
    # once re-set it recovers like any other
    fixed = reset_wound(known, 0)
    assert patient_day_dist(fixed, 1, 1).prob(lambda s: s.wounds[0].recovered) == F(1, 3)
    with pytest.raises(SimError):
        reset_wound(secret, 0)


def test_finding_resets():
    w = replace(SETTLED, needs_reset=True)
    state = PatientState(wounds=(w, replace(w, failed_recovery=True), SETTLED))
    by_exam = examine_resets(state, "surgeon", "experienced")
    assert [x.reset_known for x in by_exam.wounds] == [True, True, False]
    by_nurse = examine_resets(state, "nurse", "competent")  # only after a failed roll
    assert [x.reset_known for x in by_nurse.wounds] == [False, True, False]
    assert examine_resets(state, "nurse", "specialized") == by_exam
    assert examine_resets(state, "nurse", "unskilled") == state


def test_detecting_infections():
    state = PatientState(wounds=(replace(SETTLED, infected_day=3),))
    # an experienced physician: the day after; a competent nurse: two days after
    assert not detect_infections(state, 3, "physician", "experienced").wounds[0].infection_known
    assert detect_infections(state, 4, "physician", "experienced").wounds[0].infection_known
    assert not detect_infections(state, 4, "nurse", "competent").wounds[0].infection_known
    assert detect_infections(state, 5, "nurse", "competent").wounds[0].infection_known
    assert detect_infections(state, 9, "nurse", "unskilled") == state


# --- blows and rolls --------------------------------------------------------------------------


def test_take_blows(rng):
    state = take_blows(PatientState(), 2, 1, 0, rng)
    assert [w.felling for w in state.wounds] == [False, False, True]
    assert state.wounds[2].needs_reset and state.wounds[2].reset_known
    assert state.felled_risk == 0 and state.felled() and state.carried == (2, 1)
    third = Options(reset_rule="every_third")
    state = take_blows(PatientState(), 3, 0, 0, rng, third)
    assert [w.needs_reset for w in state.wounds] == [False, False, True]
    assert state.felled_risk is None and not state.felled()
    with pytest.raises(SimError):
        take_blows(replace(state, dead=True), 1, 0, 1, rng)


def test_patient_day_matches_dist(rng):
    state = PatientState(
        wounds=(
            WoundState(felling=True, needs_reset=True, reset_known=True),
            WoundState(day=0, infection_risk=0),
            replace(SETTLED, infected_day=0, advances=1),
        ),
        felled_risk=1,
    )
    exact = patient_day_dist(state, 1, 3)
    samples = [patient_day(state, 1, 3, rng)[0] for _ in range(3000)]
    assert_matches(samples, exact)


def test_nothing_at_stake_draws_nothing():
    gen = np.random.default_rng(1)
    before = gen.bit_generator.state
    healed = PatientState(wounds=(replace(SETTLED, recovered=True),))
    assert patient_day(healed, 1, 2, gen) == (healed, None)
    dead = replace(FELLED, dead=True)
    assert patient_day(dead, 1, 2, gen) == (dead, None)
    assert gen.bit_generator.state == before
    assert healed.healed and not dead.healed


def test_felled_until_option():
    state = PatientState(
        wounds=(
            replace(SETTLED, felling=True, recovered=True),
            SETTLED,
        )
    )
    assert not state.felled()
    assert state.felled(AftermathOptions(felled_until="all_recovered"))


def test_aftermath_options_documented():
    described = {d["name"]: d for d in describe_options(AftermathOptions)}
    assert set(described) == {f.name for f in fields(AftermathOptions)}
    assert all(d["tag"] in ("I", "H") and d["doc"] for d in described.values())
    for name in described:
        assert f"``{name}``" in twowp.__doc__
    assert DEFAULT_AFTERMATH_OPTIONS == AftermathOptions()
    with pytest.raises(SimError, match="did you mean 'rest'"):
        build_options(AftermathOptions, {"rets": "full"})
