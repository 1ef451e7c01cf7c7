"""sim.odds.parallel: an exact battle's rounds explored on worker processes, the same odds."""

import os
import signal
import time
from pathlib import Path

import pytest

from sim.odds import parallel
from sim.odds.battle import TooLarge, battle_odds
from tests.test_faults import alive, kill_left
from tests.test_runner import cli, finish, forkservers, pool_workers, start

ROOT = Path(__file__).resolve().parents[2]
TIERS = ROOT / "scenarios/duel_of_tiers.yaml"
DEATHWISH = ROOT / "scenarios/exact/duel_deathwish.yaml"


def test_two_workers_give_the_very_odds_of_one_process(monkeypatch):
    monkeypatch.setattr(parallel, "LEAST", 2)  # every round but the first shared out
    monkeypatch.setattr(parallel, "AFTER", 0)
    serial = battle_odds(TIERS, ["max_rounds=4"], guess={"executions": 0})
    started = []
    real = parallel.Pool.explore

    def explore(self, x, keys):
        started.append(len(keys))
        real(self, x, keys)

    monkeypatch.setattr(parallel.Pool, "explore", explore)
    shared = battle_odds(TIERS, ["max_rounds=4"], guess={"executions": 0}, workers=2)
    assert started and shared.outcomes == serial.outcomes
    assert shared.states == serial.states and shared.executions >= serial.executions


def test_the_workers_keep_to_the_limit_together(monkeypatch):
    """Every worker's fights count against one limit: not the limit each, for each part."""
    monkeypatch.setattr(parallel, "LEAST", 2)
    monkeypatch.setattr(parallel, "AFTER", 0)
    fought = []
    real = parallel.Pool.__exit__

    def leave(self, *exc):
        fought.append(self.fights.value)
        real(self, *exc)

    monkeypatch.setattr(parallel.Pool, "__exit__", leave)
    with pytest.raises(TooLarge, match="more than 300 fights"):
        battle_odds(TIERS, limit=300, guess={"executions": 0}, workers=2)
    assert fought[0] == 300  # a worker that would fight one more stops there
    with pytest.raises(TooLarge, match="more than 3,000 fights"):
        battle_odds(TIERS, limit=3_000, guess={"executions": 0}, workers=2)
    assert fought[1] == 3_000


def test_no_workers_is_one_line(capsys):
    code, out, err = cli(capsys, "odds", "battle", str(TIERS), "--workers", "0")
    assert code == 2 and err.strip().count("\n") == 0 and "--workers" in err


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the workers in /proc")
def test_the_workers_end_when_the_battle_is_killed_alone():
    proc = start("odds", "battle", DEATHWISH, "--workers", "2")
    workers, servers = [], []
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
            workers = pool_workers(proc.pid)
        assert len(workers) == 2, workers
        servers = forkservers(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        killed = time.monotonic()
        while any(alive(w) for w in workers) and time.monotonic() - killed < 30:
            time.sleep(0.01)
        assert not any(alive(w) for w in workers), "workers still running 30 s after"
        assert time.monotonic() - killed < 2.0
        while any(alive(s) for s in servers) and time.monotonic() - killed < 30:
            time.sleep(0.01)
        assert not any(alive(s) for s in servers), "the forkserver outlived its battle"
        finish(proc)
    finally:
        kill_left(proc, [*workers, *servers])
