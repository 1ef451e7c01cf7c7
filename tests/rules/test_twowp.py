"""2W2P (seed 000, RULES.md 2): every figure of the seed asserted exactly, hand-worked cases,
brute-force checks of the defence and Monte Carlo checks of every roll against its exact dist.
"""

from dataclasses import fields
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.dice import Dist
from sim.errors import SimError
from sim.rules import get_system, twowp
from sim.rules.common import build_options, describe_options
from sim.rules.twowp import (
    DEFAULT_OPTIONS,
    SKILL_WEIGHTS,
    Hits,
    Options,
    Outcome,
    PatientDay,
    SidePool,
    Skill,
    Stake,
    StakeKind,
    Tier,
    Wounds,
    aftermath_day,
    aftermath_day_dist,
    apply_defence,
    assign_greedy,
    detection_delay,
    effective_tier,
    exchange_dist,
    fights_after_battle,
    front_dist,
    greedy_assignment,
    group_dice,
    healer_capacity,
    parse_skill,
    parse_tier,
    patient_dice,
    protection_dice,
    recovery_roll_due,
    resolve,
    roll_exchange,
    roll_front,
    roll_task,
    side_dice,
    side_pool,
    split_dice,
    supervision_capacity,
    supervisor_weight,
    take_hits,
    take_hits_dist,
    task_dice,
    task_dist,
    task_pool,
    tier_dice,
    tier_from_fights,
    trained_skill,
    training_reached,
    weighted_count,
    wound_needs_reset,
    wound_needs_reset_dist,
)
from tests.conftest import assert_matches

F = Fraction
A, V, OP, L = Outcome.ACHIEVED, Outcome.ADVANCED, Outcome.OPEN, Outcome.LOST
R, D, H = Outcome.REMOVED, Outcome.DELAYED, Outcome.HAPPENS
DEATH, INFECTION, RISK, GOAL = StakeKind.DEATH, StakeKind.INFECTION, StakeKind.RISK, StakeKind.GOAL


def test_registered():
    assert get_system("2w2p") is twowp
    assert twowp.NAME == "2w2p" and twowp.SEED == "000_7f98fe11b25af74f.txt"


# --- 2.1 fighting experience -----------------------------------------------------------------

TIER_TABLE = {  # dice for n = 0..10 fighters of one tier [S]
    Tier.GREEN: [0, 0, 1, 2, 2, 3, 4, 4, 5, 6, 6],
    Tier.FRESH: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    Tier.TESTED: [0, 1, 3, 4, 6, 7, 9, 10, 12, 13, 15],
    Tier.SEASONED: [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20],
    Tier.VETERAN: [0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30],
    Tier.HERO: [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40],
}


@pytest.mark.parametrize("tier", list(Tier))
def test_tier_dice_table(tier):
    assert [tier_dice(tier, n) for n in range(11)] == TIER_TABLE[tier]


@pytest.mark.parametrize(
    ("fights", "tier"),
    [
        (0, Tier.GREEN),
        (1, Tier.FRESH),
        (2, Tier.FRESH),
        (3, Tier.TESTED),
        (5, Tier.TESTED),
        (6, Tier.SEASONED),
        (9, Tier.SEASONED),
        (10, Tier.VETERAN),
        (14, Tier.VETERAN),
        (15, Tier.HERO),
        (200, Tier.HERO),
    ],
)
def test_tier_boundaries(fights, tier):
    assert tier_from_fights(fights) is tier


def test_tier_names_and_bad_input():
    assert [t.label for t in Tier] == ["Green", "Fresh", "Tested", "Seasoned", "Veteran", "Hero"]
    assert parse_tier("veteran") is Tier.VETERAN and parse_tier(" HERO ") is Tier.HERO
    with pytest.raises(SimError, match="did you mean 'Veteran'"):
        parse_tier("veteren")
    with pytest.raises(SimError):
        tier_from_fights(-1)
    with pytest.raises(SimError):
        tier_dice(Tier.GREEN, -1)


def test_wounds_lower_the_tier():
    assert effective_tier(Tier.VETERAN, 0) is Tier.VETERAN
    assert effective_tier(Tier.VETERAN, 2) is Tier.TESTED
    assert effective_tier(Tier.FRESH, 1) is Tier.GREEN
    assert effective_tier(Tier.GREEN, 1) is None
    assert effective_tier(Tier.TESTED, 3) is None


def test_group_and_side_dice():
    assert group_dice({Tier.GREEN: 5, Tier.TESTED: 3}) == 3 + 4
    assert group_dice({}) == 0
    # two Fresh, one wounded to Green; a wounded Green adds nothing by default
    fighters = [(Tier.FRESH, 0), (Tier.FRESH, 1), (Tier.GREEN, 1), (Tier.GREEN, 0)]
    assert side_dice(fighters) == 1 + tier_dice(Tier.GREEN, 2)
    assert side_dice(fighters, Options(below_green="green")) == 1 + tier_dice(Tier.GREEN, 3)


def test_fight_count_grows_by_surviving():
    assert fights_after_battle(4, fought=True, survived=True) == 5
    assert fights_after_battle(4, fought=True, survived=False) == 4
    assert fights_after_battle(4, fought=False, survived=True) == 4


@given(st.integers(0, 60), st.sampled_from(list(Tier)))
def test_tier_dice_monotone(n, tier):
    assert tier_dice(tier, n + 1) >= tier_dice(tier, n)
    if tier > Tier.GREEN:
        assert tier_dice(tier, n) >= tier_dice(Tier(tier - 1), n)


# --- 2.2 skill, task dice, supervision, training ---------------------------------------------


def test_task_dice_for_weighted_counts():
    expected = [1, 2, 2, 3, 3, 3, 4, 4, 4, 4] + [5] * 5 + [6] * 6
    assert [task_dice(w) for w in range(1, 22)] == expected
    assert task_dice(0) == 0
    with pytest.raises(SimError):
        task_dice(-1)


@given(st.integers(1, 400))
def test_task_dice_triangular_steps(k):
    tri = k * (k + 1) // 2
    assert task_dice(tri) == k
    assert task_dice(tri + 1) == k + 1


def test_skill_weights_and_supervision():
    assert dict(SKILL_WEIGHTS) == {
        Skill.UNSKILLED: 0,
        Skill.COMPETENT: 1,
        Skill.EXPERIENCED: 2,
        Skill.SPECIALIZED: 4,
    }
    assert SKILL_WEIGHTS["experienced"] == 2
    assert [supervision_capacity(s) for s in Skill] == [0, 1, 3, 6]
    with pytest.raises(SimError, match="did you mean 'specialized'"):
        parse_skill("specialised")


def test_weighted_count_and_task_pool():
    crew = ["experienced", "competent", "unskilled"]
    assert weighted_count(crew) == 3
    assert weighted_count(crew, untrained_task=True) == 4
    assert weighted_count(crew, options=Options(unskilled_weight=1)) == 4
    assert task_pool(crew) == 2
    assert task_pool(crew, scarce_resource_used=True) == 3
    assert task_pool(crew, scarce_resource_used=True, supervisors=1) == 4
    assert task_pool(["specialized", "specialized", "experienced"]) == 4  # w = 10


def test_supervisor_works_as_its_least_skilled_student():
    assert supervisor_weight("specialized", ["competent", "experienced"]) == 1
    assert supervisor_weight("experienced", []) == 2
    with pytest.raises(SimError, match="at most 1 students"):
        supervisor_weight("competent", ["unskilled", "unskilled"])


@pytest.mark.parametrize(
    ("months", "skill"),
    [
        ({"supervised": 3}, Skill.COMPETENT),  # a season
        ({"supervised": 2}, Skill.UNSKILLED),
        ({"supervised": F(3, 2), "instruction": 3}, Skill.COMPETENT),  # half by 2x instruction
        ({"instruction": 100}, Skill.UNSKILLED),  # instruction replaces at most half
        ({"self_study": 9}, Skill.COMPETENT),  # three times as long
        ({"supervised": 12}, Skill.EXPERIENCED),  # a year
        ({"supervised": 6, "instruction": 12}, Skill.EXPERIENCED),
        ({"supervised": 48}, Skill.SPECIALIZED),  # four years
        ({"supervised": 24, "instruction": 48}, Skill.SPECIALIZED),
        ({"supervised": 23, "instruction": 48}, Skill.EXPERIENCED),
    ],
)
def test_general_training_times(months, skill):
    assert trained_skill(**months) is skill


@pytest.mark.parametrize(
    ("months", "skill"),
    [
        ({"supervised": 1}, Skill.COMPETENT),  # a month supervised
        ({"instruction": 3}, Skill.COMPETENT),  # or a season of instruction
        ({"instruction": 2}, Skill.UNSKILLED),
        ({"supervised": 6}, Skill.EXPERIENCED),  # two seasons supervised
        ({"instruction": 24}, Skill.EXPERIENCED),  # or two years' instruction
        ({"supervised": 36}, Skill.EXPERIENCED),
        ({"supervised": 36, "instruction": 24}, Skill.SPECIALIZED),  # three years and two
        ({"self_study": 100}, Skill.UNSKILLED),
    ],
)
def test_healer_training_times(months, skill):
    assert trained_skill(track="healer", **months) is skill


def test_healer_training_takes_one_whole_path():
    """Healer track: the supervised months or the instruction months; halves do not add [S]."""
    half = {"supervised": F(1, 2), "instruction": F(3, 2)}
    assert not training_reached("competent", track="healer", **half)
    with pytest.raises(SimError, match="did you mean 'healer'"):
        training_reached("competent", track="healers")


# --- 2.3 goals and risks ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "goal", "risk"),
    [(1, L, H), (2, L, H), (3, V, D), (4, V, D), (5, A, R), (6, A, R)],
)
def test_one_die_on_a_goal_and_a_risk(face, goal, risk):
    (g,) = resolve([face], [Stake(GOAL)], [[0]])
    (r,) = resolve([face], [Stake(RISK)], [[0]])
    assert (g.outcome, r.outcome) == (goal, risk)


def test_counts_carry_over():
    assert resolve([4], [Stake(GOAL, advances=1)], [[0]])[0] == (twowp.StakeResult(V, (4,), 0, 2))
    assert resolve([3], [Stake(GOAL, advances=2)], [[0]])[0].outcome is A  # third advance
    assert resolve([4], [Stake(DEATH, delays=1)], [[0]])[0].delays == 2
    assert resolve([4], [Stake(DEATH, delays=2)], [[0]])[0].outcome is H  # at most twice
    assert resolve([5], [Stake(DEATH, delays=2)], [[0]])[0].outcome is R
    assert resolve([3], [Stake(RISK, delays=3, max_delays=4)], [[0]])[0].outcome is D
    assert resolve([], [Stake(GOAL)], [[]])[0].outcome is L


def test_resolve_rejects_bad_assignments():
    with pytest.raises(SimError):
        resolve([6, 4], [Stake(GOAL), Stake(RISK)], [[0], [0]])
    with pytest.raises(SimError):
        resolve([6], [Stake(GOAL)], [[0], []])
    with pytest.raises(SimError):
        resolve([7], [Stake(GOAL)], [[0]])
    with pytest.raises(SimError):
        Stake("peril")  # type: ignore[arg-type]


def outcomes(dice, stakes, options=DEFAULT_OPTIONS):
    return tuple(r.outcome for r in assign_greedy(dice, stakes, options))


def test_greedy_serves_death_infection_risk_goal():
    stakes = [Stake(GOAL), Stake(RISK), Stake(DEATH), Stake(INFECTION)]
    # death takes the 6, infection the 4; the 2 suffices for nothing and goes to the risk
    assert outcomes((6, 4, 2), stakes) == (L, H, R, D)
    assert greedy_assignment((6, 4, 2), stakes) == ((), (2,), (0,), (1,))
    assert outcomes((3, 3, 3, 3), stakes) == (V, D, D, D)


def test_greedy_passes_dice_an_exhausted_risk_cannot_use():
    stakes = [Stake(DEATH, delays=2), Stake(GOAL)]
    assert outcomes((4, 3), stakes) == (H, V)
    assert outcomes((5, 3), stakes) == (R, V)


def test_recovery_goals_stay_open_when_dice_run_out():
    goals = [Stake(GOAL, keep_open=True)] * 3
    assert outcomes((6, 1), goals) == (A, L, OP)
    assert outcomes((), goals) == (OP, OP, OP)
    assert outcomes((4, 4, 4, 4), goals) == (V, V, V)
    # a low die goes to a doomed risk before it spoils an open recovery goal
    assert outcomes((1,), [Stake(GOAL, keep_open=True), Stake(DEATH)]) == (OP, H)


def test_goal_steps():
    steps = [Stake(GOAL), Stake(GOAL, after=0), Stake(GOAL, after=1)]
    assert outcomes((4,), steps) == (V, OP, OP)  # later steps open while the first advances
    assert outcomes((6,), steps) == (A, L, L)
    assert outcomes((2,), steps) == (L, L, L)
    assert outcomes((5, 4), steps) == (A, V, OP)
    with pytest.raises(SimError):
        resolve([2], [Stake(GOAL, after=0)], [[0]])


def test_stack_advances_option():
    stack = Options(stack_advances=True)
    assert outcomes((4, 4, 3), [Stake(GOAL)]) == (V,)
    assert outcomes((4, 4, 3), [Stake(GOAL)], stack) == (A,)
    assert outcomes((4, 4), [Stake(GOAL), Stake(GOAL)], stack) == (V, V)
    assert outcomes((4, 4, 6), [Stake(GOAL, advances=1), Stake(GOAL)], stack) == (A, V)


def test_task_dist_by_hand():
    assert task_dist(1, [Stake(DEATH), Stake(INFECTION)]) == Dist(
        {(R, H): F(1, 3), (D, H): F(1, 3), (H, H): F(1, 3)}
    )
    # two dice, a risk and a goal: by categories HH, HM, HL, MM, ML, LL
    assert task_dist(2, [Stake(RISK), Stake(GOAL)]) == Dist(
        {
            (R, A): F(1, 9),
            (R, V): F(2, 9),
            (R, L): F(2, 9),
            (D, V): F(1, 9),
            (D, L): F(2, 9),
            (H, L): F(1, 9),
        }
    )
    assert task_dist(0, [Stake(RISK)]) == Dist.constant((H,))


def test_roll_task_matches_dist(rng):
    stakes = [Stake(GOAL, advances=2), Stake(RISK, delays=2), Stake(DEATH), Stake(INFECTION)]
    exact = task_dist(3, stakes)
    samples = [roll_task(3, stakes, rng).outcomes for _ in range(4000)]
    assert_matches(samples, exact)


def test_a_tactic_can_supply_its_own_assignment(rng):
    def goals_first(dice, stakes):
        order = sorted(range(len(stakes)), key=lambda i: stakes[i].is_risk)
        chosen = [[] for _ in stakes]
        for j, i in enumerate(order[: len(dice)]):
            chosen[i].append(j)
        return resolve(dice, stakes, chosen)

    stakes = [Stake(RISK), Stake(GOAL)]
    assert task_dist(1, stakes, assign=goals_first) == Dist(
        {(H, A): F(1, 3), (H, V): F(1, 3), (H, L): F(1, 3)}
    )
    roll = roll_task(2, stakes, rng, assign=goals_first)
    assert roll.dice == tuple(sorted(roll.dice, reverse=True))


stake_st = st.builds(
    Stake,
    kind=st.sampled_from(list(StakeKind)),
    delays=st.integers(0, 2),
    advances=st.integers(0, 2),
    keep_open=st.booleans(),
)


@settings(max_examples=200)
@given(
    st.lists(st.integers(1, 6), max_size=6),
    st.lists(stake_st, max_size=6),
    st.booleans(),
)
def test_greedy_properties(dice, stakes, stack):
    dice = tuple(sorted(dice, reverse=True))
    opts = Options(stack_advances=stack)
    chosen = greedy_assignment(dice, stakes, opts)
    flat = [j for c in chosen for j in c]
    assert len(flat) == len(set(flat))  # each die at most once
    assert len(flat) == len(dice) or all(c for c in chosen)  # all dice used or every stake has one
    results = resolve(dice, stakes, chosen)
    deaths = [r for s, r in zip(stakes, results, strict=True) if s.kind is DEATH]
    # raising the lowest die never lets more death risks happen
    if dice and dice[-1] < 6:
        higher = tuple(sorted((*dice[:-1], 6), reverse=True))
        res2 = assign_greedy(higher, stakes, opts)
        deaths2 = [r for s, r in zip(stakes, res2, strict=True) if s.kind is DEATH]
        assert sum(r.outcome is H for r in deaths2) <= sum(r.outcome is H for r in deaths)


# --- 2.4 melee: defence ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "felling_first", "fewest_hits"),
    [
        ((2, 1, 1, 1), (0, 2), (1, 0)),  # 5-6 stops a felling hit; the 3-4 turns the other
        ((1, 2, 2, 0), (0, 1), (0, 1)),  # the spare 5-6 stops a wounding hit
        ((0, 3, 1, 1), (0, 1), (0, 1)),
        ((3, 0, 0, 1), (2, 1), (2, 1)),
        ((1, 0, 0, 2), (0, 0), (0, 0)),  # one 3-4 turns it, the other stops it
        ((3, 0, 0, 3), (0, 3), (1, 1)),
        ((1, 1, 0, 1), (0, 2), (1, 0)),
        ((0, 0, 3, 3), (0, 0), (0, 0)),
        ((4, 4, 0, 0), (4, 4), (4, 4)),
    ],
)
def test_apply_defence_by_hand(args, felling_first, fewest_hits):
    assert apply_defence(*args) == felling_first
    assert apply_defence(*args, Options(defence_order="fewest_hits")) == fewest_hits


def every_use(f, w, h, m):
    """All results of every way to spend h 5-6s and m 3-4s on f felling and w wounding hits."""
    out = set()
    for hf, hw, mc, mw in product(range(h + 1), range(h + 1), range(m + 1), range(m + 1)):
        if hf + hw <= h and mc + mw <= m and hf + mc <= f and hw + mw <= w + mc:
            out.add((f - hf - mc, w + mc - hw - mw))
    return out


def test_defence_orders_are_optimal_brute_force():
    fewest = Options(defence_order="fewest_hits")
    for f, w, h, m in product(range(5), repeat=4):
        uses = every_use(f, w, h, m)
        assert apply_defence(f, w, h, m) == min(uses)  # fewest felling, then fewest wounding
        best_total = min(uses, key=lambda r: (r[0] + r[1], r[0]))
        assert apply_defence(f, w, h, m, fewest) == best_total


@given(st.integers(0, 8), st.integers(0, 8), st.integers(0, 8), st.integers(0, 8))
def test_more_defence_never_hurts(f, w, h, m):
    for opts in (DEFAULT_OPTIONS, Options(defence_order="fewest_hits")):
        base = apply_defence(f, w, h, m, opts)
        assert 0 <= base[0] <= f and base[0] + base[1] <= f + w
        for more in (apply_defence(f, w, h + 1, m, opts), apply_defence(f, w, h, m + 1, opts)):
            assert more[0] <= base[0] and sum(more) <= sum(base)


# --- 2.4 melee: the exchange -----------------------------------------------------------------


def test_exchange_dist_by_hand():
    assert exchange_dist(0, 3) == Dist.constant((0, 0))
    assert exchange_dist(1, 0) == Dist({(1, 0): F(1, 3), (0, 1): F(1, 3), (0, 0): F(1, 3)})
    assert exchange_dist(2, 0) == Dist(
        {
            (2, 0): F(1, 9),
            (1, 1): F(2, 9),
            (0, 2): F(1, 9),
            (1, 0): F(2, 9),
            (0, 1): F(2, 9),
            (0, 0): F(1, 9),
        }
    )
    # a felling hit gets through a defence die 1-2 (1/3), is turned by a 3-4 (1/3);
    # a wounding hit gets through only a 1-2
    assert exchange_dist(1, 1) == Dist({(1, 0): F(1, 9), (0, 1): F(2, 9), (0, 0): F(6, 9)})
    # one attack die against two defence dice: felling survives only 1-2,1-2 (1/9); it is
    # turned when no 5-6 and exactly one 3-4 (2/9); a wounding hit survives only 1-2,1-2
    assert exchange_dist(1, 2) == Dist(
        {(1, 0): F(1, 27), (0, 1): F(1, 27) * 2 + F(1, 27), (0, 0): F(23, 27)}
    )
    assert exchange_dist(40, 0).map(lambda h: h[0]).mean() == F(40, 3)
    assert exchange_dist(1, 1, Options(defence_order="fewest_hits")) == exchange_dist(1, 1)


def test_exchange_dist_counts_outcomes_not_rolls(monkeypatch):
    """40 attack and 20 defence dice: 861 x 231 counts of 5-6s and 3-4s, not 3**60 rolls.

    A count of the work, not a timing (timings belong in benchmarks/).
    """
    from sim.rules.twowp import fronts

    calls = []
    real = fronts._felling_first
    monkeypatch.setattr(fronts, "_felling_first", lambda *a: calls.append(a) or real(*a))
    twowp._exchange_dist.cache_clear()
    dist = exchange_dist(40, 20)
    twowp._exchange_dist.cache_clear()
    assert len(calls) == (41 * 42 // 2) * (21 * 22 // 2) == 861 * 231
    assert sum(p for _, p in dist.items()) == 1


@pytest.mark.parametrize(("attack", "defence"), [(3, 2), (5, 3)])
@pytest.mark.parametrize("order", ["felling_first", "fewest_hits"])
def test_roll_exchange_matches_dist(rng, attack, defence, order):
    opts = Options(defence_order=order)
    samples = [roll_exchange(attack, defence, rng, opts).pair for _ in range(4000)]
    assert_matches(samples, exchange_dist(attack, defence, opts))


@pytest.mark.slow
@pytest.mark.parametrize(("attack", "defence"), [(12, 6), (8, 8)])
def test_roll_exchange_matches_dist_large(rng, attack, defence):
    samples = [roll_exchange(attack, defence, rng).pair for _ in range(40_000)]
    assert_matches(samples, exchange_dist(attack, defence))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 6), st.integers(0, 4))
def test_more_dice_shift_the_exchange(attack, defence):
    base = exchange_dist(attack, defence)

    def felling(d):
        return d.map(lambda h: h[0]).mean()

    def total(d):
        return d.map(lambda h: h[0] + h[1]).mean()

    more_def = exchange_dist(attack, defence + 1)
    assert felling(more_def) <= felling(base) and total(more_def) <= total(base)
    more_att = exchange_dist(attack + 1, defence)
    assert felling(more_att) >= felling(base) and total(more_att) >= total(base)


def test_protection_dice():
    assert protection_dice([(True, True), (True, True)]) == 2
    assert protection_dice([(True, False), (False, True)]) == 1
    assert protection_dice([(True, True), (False, False)]) == 0
    assert protection_dice([]) == 0
    assert protection_dice([(True, False)], Options(protection_one=2)) == 2


def test_defence_share_rounds_down():
    assert split_dice(10, 0.3) == (7, 3)
    assert split_dice(7, 0.5) == (4, 3)
    assert split_dice(2, 0.4) == (2, 0)
    assert split_dice(5, 0) == (5, 0) and split_dice(5, 1) == (0, 5)
    with pytest.raises(SimError):
        split_dice(5, 1.5)
    assert side_pool(10, protection=2, options=Options(defence_share=0.25)) == SidePool(8, 4)
    assert side_pool(6) == SidePool(6, 0)


def test_front_rolls_both_sides(rng):
    a, b = SidePool(2, 1), SidePool(1, 1)
    exact = front_dist(a, b)
    assert exact == exchange_dist(1, 1).combine(exchange_dist(2, 1), lambda x, y: (x, y))
    samples = []
    for _ in range(4000):
        on_a, on_b = roll_front(a, b, rng)
        samples.append((on_a.pair, on_b.pair))
    assert_matches(samples, exact)
    assert front_dist(SidePool(1, 0), SidePool(0, 0)) == exchange_dist(1, 0).map(
        lambda h: ((0, 0), h)
    )
    assert Hits(1, 2).pair == (1, 2)


# --- 2.4 hits taken --------------------------------------------------------------------------


def test_wounding_blows_to_felling():
    prime, other = Wounds(prime=True), Wounds(prime=False)
    assert prime.take(False).take(False) == Wounds(2, 0, True)  # still standing
    assert prime.take(False).take(False).take(False) == Wounds(2, 1, True)  # third fells
    assert other.take(False) == Wounds(1, 0, False)
    assert other.take(False).take(False) == Wounds(1, 1, False)  # second fells
    assert prime.take(True).felled and prime.take(True).wounding == 0
    assert [Wounds(0).wounding_left, Wounds(1, prime=False).wounding_left] == [2, 0]


def test_take_hits_spread():
    side = [Wounds(0), Wounds(1, prime=False), Wounds(0)]
    # the felling hit fells the worn-down fighter; wounding hits even out on the others
    assert take_hits(1, 3, side) == (Wounds(2), Wounds(1, 1, prime=False), Wounds(1))
    # nobody is felled by wounding hits while anyone can take one standing
    assert not any(s.felled for s in take_hits(0, 4, [Wounds(0), Wounds(0)]))
    assert take_hits(0, 5, [Wounds(0), Wounds(0)]) == (Wounds(2, 1), Wounds(2))


def test_take_hits_shield_best():
    opts = Options(take_hits="shield_best")
    side = [Wounds(0), Wounds(0), Wounds(0)]
    assert take_hits(1, 3, side, options=opts) == (Wounds(0), Wounds(2, 1), Wounds(0, 1))


def test_a_shielded_leader_takes_hits_only_when_nobody_else_can():
    side = [Wounds(0), Wounds(0), Wounds(0)]
    # spread would fell the first listed fighter (the leader, index 0) on a fresh front
    assert take_hits(1, 0, side)[0].felled
    shielded = frozenset({0})
    assert take_hits(1, 2, side, shielded=shielded) == (Wounds(0), Wounds(0, 1), Wounds(2))
    # once the others are felled, the leader takes what is left
    assert take_hits(3, 0, side, shielded=shielded) == (Wounds(0, 1), Wounds(0, 1), Wounds(0, 1))
    opts = Options(take_hits="random")
    exact = take_hits_dist(1, 1, side, opts, shielded)
    assert all(not after[0].felled and after[0].wounding == 0 for after in exact.outcomes())
    assert exact == Dist(
        {
            (Wounds(0), Wounds(0, 1), Wounds(1)): F(1, 2),
            (Wounds(0), Wounds(1), Wounds(0, 1)): F(1, 2),
        }
    )


def test_hits_beyond_the_last_standing_fighter_are_lost():
    assert take_hits(3, 2, [Wounds(0)]) == (Wounds(0, 1),)
    assert take_hits(1, 0, [Wounds(0, 1)]) == (Wounds(0, 1),)


def test_take_hits_random(rng):
    opts = Options(take_hits="random")
    two = [Wounds(0), Wounds(1)]
    assert take_hits_dist(0, 1, two, opts) == Dist(
        {(Wounds(1), Wounds(1)): F(1, 2), (Wounds(0), Wounds(2)): F(1, 2)}
    )
    side = [Wounds(0), Wounds(1, prime=False), Wounds(0)]
    exact = take_hits_dist(1, 3, side, opts)
    samples = [take_hits(1, 3, side, rng, opts) for _ in range(4000)]
    assert_matches(samples, exact)
    with pytest.raises(SimError):
        take_hits(1, 0, side, None, opts)
    spread = (Wounds(2), Wounds(1, 1, prime=False), Wounds(1))
    assert take_hits_dist(1, 3, side) == Dist.constant(spread)


wounds_st = st.builds(Wounds, wounding=st.integers(0, 2), felling=st.just(0), prime=st.booleans())


@settings(max_examples=100)
@given(
    st.integers(0, 4),
    st.integers(0, 6),
    st.lists(wounds_st, max_size=5),
    st.sampled_from(["spread", "shield_best", "random"]),
)
def test_take_hits_properties(f, w, side, policy):
    opts = Options(take_hits=policy)
    after = take_hits(f, w, side, np.random.default_rng(7), opts)
    assert len(after) == len(side)
    for old, new in zip(side, after, strict=True):
        assert new.wounding >= old.wounding and new.felling >= old.felling
        assert new.prime == old.prime
    felled = sum(s.felled for s in after)
    assert felled <= f + w
    assert felled == len(side) or felled >= min(f, len(side))
    if policy == "spread" and f == 0 and w <= sum(s.wounding_left for s in side):
        assert felled == 0


# --- 2.5 the aftermath -----------------------------------------------------------------------


def test_which_wounds_need_reset(rng):
    assert wound_needs_reset(True, rng)
    assert wound_needs_reset_dist(True) == Dist.constant(True)
    assert wound_needs_reset_dist(False) == Dist({True: F(1, 3), False: F(2, 3)})
    samples = [wound_needs_reset(False, rng) for _ in range(6000)]
    assert_matches(samples, wound_needs_reset_dist(False))
    third = Options(reset_rule="every_third")
    assert [wound_needs_reset(False, rng, third, k) for k in range(6)] == [
        False,
        False,
        True,
        False,
        False,
        True,
    ]
    assert wound_needs_reset_dist(False, third, 2) == Dist.constant(True)


def test_patient_dice():
    assert patient_dice() == 1
    assert patient_dice(["competent"]) == 2  # w = 2
    assert patient_dice(["specialized"]) == 3  # w = 5
    assert patient_dice(["experienced", "experienced"], extra_dice=1) == 4  # w = 5, +1
    assert patient_dice(options=Options(patient_weight=0)) == 0


def test_felled_fighter_on_the_day_of_the_blow():
    day = PatientDay(felled_delays=0, infection_risks=(0,))
    assert [s.kind for s in day.stakes()] == [DEATH, INFECTION]
    exact = aftermath_day_dist(day, 1)
    assert exact == Dist({(R, H): F(1, 3), (D, H): F(1, 3), (H, H): F(1, 3)})
    assert exact.prob(lambda k: k[0] is H) == F(1, 3)


def test_rest_day_with_recovery_goals():
    day = PatientDay(felled_delays=0, recovering=(0, 0))
    assert aftermath_day_dist(day, 2) == Dist(
        {
            (R, A, OP): F(1, 9),
            (R, V, OP): F(2, 9),
            (R, L, OP): F(2, 9),
            (D, V, OP): F(1, 9),
            (D, L, OP): F(2, 9),
            (H, L, OP): F(1, 9),
        }
    )


def test_aftermath_day_matches_dist(rng):
    day = PatientDay(felled_delays=1, infections=(2,), infection_risks=(0, 0), recovering=(2, 0))
    exact = aftermath_day_dist(day, 4)
    samples = [aftermath_day(day, 4, rng).key for _ in range(4000)]
    assert_matches(samples, exact)


def test_day_result_summaries(rng):
    day = PatientDay(infections=(0,), infection_risks=(0, 1), recovering=(2,))
    recurs = Options(infection_risk_recurs=True)
    seen = set()
    for _ in range(300):
        res = aftermath_day(day, 3, rng)
        assert res.felled is None and len(res.infections) == 1
        assert res.died == (res.infections[0].outcome is H)
        assert res.new_infections == sum(r.outcome is H for r in res.infection_risks)
        assert res.recovered == sum(r.outcome is A for r in res.recovering)
        assert res.pending_infection_risks() == ()
        pending = res.pending_infection_risks(recurs)
        assert pending == tuple(r.delays for r in res.infection_risks if r.outcome is D)
        seen.add(res.key)
    assert len(seen) > 5


@pytest.mark.parametrize(
    ("rested", "light", "due"),
    [(True, 0, True), (False, 0, False), (False, 2, False), (False, 3, True), (False, 6, True)],
)
def test_recovery_roll_due(rested, light, due):
    assert recovery_roll_due(rested, light) is due


@pytest.mark.parametrize(
    ("finding", "role", "skill", "delay"),
    [
        ("infection", "physician", "experienced", 1),
        ("infection", "physician", "competent", 2),
        ("infection", "nurse", "specialized", 1),
        ("infection", "surgeon", "experienced", 2),
        ("infection", "nurse", "unskilled", None),
        ("reset", "surgeon", "experienced", 0),
        ("reset", "surgeon", "competent", None),
        ("reset", "nurse", "specialized", 0),
        ("reset", "physician", "experienced", None),
        ("reset_after_failed_recovery", "nurse", "competent", 0),
    ],
)
def test_detection(finding, role, skill, delay):
    assert detection_delay(finding, role, skill) == delay


HEALERS = {  # competent, experienced, specialized [S]; experienced surgeon exam 4 is [I]
    ("nurse", "care"): [3, 5, 8],
    ("surgeon", "treat"): [2, 3, 5],
    ("surgeon", "examine"): [3, 4, 5],
    ("physician", "examine"): [3, 3, 5],
    ("physician", "compound"): [2, 3, 5],
}


@pytest.mark.parametrize(("role", "task"), list(HEALERS))
def test_healer_capacities(role, task):
    levels = ["competent", "experienced", "specialized"]
    assert [healer_capacity(role, task, s) for s in levels] == HEALERS[role, task]
    assert healer_capacity(role, task, "unskilled") == 0


def test_healer_options_and_errors():
    assert (
        healer_capacity(
            "surgeon", "examine", "experienced", Options(surgeon_examines_experienced=3)
        )
        == 3
    )
    assert healer_capacity("nurse", "care", "specialized", practicing_other=True) == 0
    with pytest.raises(SimError, match="did you mean 'surgeon'"):
        healer_capacity("surgeen", "treat", "competent")
    with pytest.raises(SimError, match="did you mean 'compound'"):
        healer_capacity("physician", "compund", "competent")
    with pytest.raises(SimError):
        detection_delay("fever", "nurse", "competent")


# --- options ---------------------------------------------------------------------------------


def test_options_are_documented_and_checked():
    described = {d["name"]: d for d in describe_options(Options)}
    assert set(described) == {f.name for f in fields(Options)}
    assert all(d["tag"] in ("I", "H") and d["doc"] for d in described.values())
    assert described["take_hits"]["choices"] == ("spread", "shield_best", "random")
    assert build_options(Options, {"defence_share": 0.5}).defence_share == 0.5
    with pytest.raises(SimError, match="did you mean 'take_hits'"):
        build_options(Options, {"take_hit": "spread"})
    with pytest.raises(SimError):
        build_options(Options, {"reset_rule": "sometimes"})
    assert DEFAULT_OPTIONS == Options()
    for name in described:
        assert f"``{name}``" in twowp.__doc__
