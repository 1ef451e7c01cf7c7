"""Recovery: a calibration of a table the simulator made at known settings finds them.

The truth (:data:`tests.search.calib_helpers.RECOVERY`): morale on (``battle.morale: all``
among ``all, none``) and the guards' leader at 6 HD (among 3..9); five observed settings,
two to six bandits, each giving the guards' wins among decisive battles, the mean rounds
and the loser's share out. Ten calibrations, each of a table observed with its own seed and
searched with its own: the 95% intervals (the set of choices for morale) must hold both
true values in at least 9. And with four times the battles observed at each setting (48,
not 12), the leader's interval is no wider, seed by seed, and narrower and less spread on
average over the seeds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.search.calib_helpers import RECOVERY, recover

HD = 6
EXTRA = "start: 10\nchunk: 100000\n"  # one part a batch: what is counted is the intervals


def holds(answer: dict[str, Any]) -> bool:
    """Whether the intervals hold the truth."""
    morale, hd = answer["data"]["parameters"]
    return RECOVERY["battle.morale"] in morale["set"] and hd["lo"] <= HD <= hd["hi"]


def spread(answer: dict[str, Any]) -> tuple[float, float]:
    """The leader's 95% interval's width, and its posterior standard deviation."""
    hd = answer["data"]["parameters"][1]
    x, p = np.array(hd["values"], dtype=float), np.array(hd["posterior"])
    mean = float(x @ p)
    return hd["hi"] - hd["lo"], float(np.sqrt(((x - mean) ** 2) @ p))


@pytest.mark.slow
def test_intervals_hold_the_truth_and_narrow_as_more_battles_are_observed(
    tmp_path: Path,
) -> None:
    answers = {s: recover(tmp_path / f"12-{s}", 12, s, extra=EXTRA) for s in range(1, 11)}
    hits = [s for s, a in answers.items() if holds(a)]
    assert len(hits) >= 9, f"the truth in {len(hits)} of 10 ({hits})"
    more = {s: recover(tmp_path / f"48-{s}", 48, s, extra=EXTRA) for s in (1, 2, 3)}
    before = [spread(answers[s]) for s in more]
    after = [spread(a) for a in more.values()]
    assert all(a[0] <= b[0] for a, b in zip(after, before, strict=True)), (before, after)
    assert np.mean([w for w, _ in after]) < np.mean([w for w, _ in before]), (before, after)
    assert np.mean([s for _, s in after]) < np.mean([s for _, s in before]), (before, after)
