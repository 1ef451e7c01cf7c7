"""The search frame every design shares (sim.search.driver, core, designs, journal)."""

import json

import pyarrow as pa
import pytest

from sim.cli import main
from sim.search import designs, load_search, run_search
from sim.search.core import Answer, Planned
from sim.search.space import read_param
from tests.search.helpers import DUEL, write
from tests.test_architecture import import_graph

DUELLED = """\
name: duelled
scenario: duel.yaml
design: balance
parameters:
  rules.options.incapacitate_serious: {low: 0.0, high: 1.0}
target: {side: shooter, wins: 50%, of: all}
tolerance: 5%
budget: 4000
seed: 11
"""


@pytest.fixture
def folder(tmp_path):
    write(tmp_path, "duel.yaml", DUEL)
    return tmp_path


def test_nothing_below_the_search_imports_it():
    users = {
        m
        for m, deps in import_graph().items()
        if any(d == "sim.search" or d.startswith("sim.search.") for d in deps)
    }
    assert {u for u in users if not u.startswith(("sim.search", "sim.cli"))} == set()


def test_a_worker_unpickling_a_batch_imports_little():
    """The package's names come when asked for: a worker needs the batch, not the driver."""
    import subprocess
    import sys

    code = "import sys, sim.search.batch; print(sorted(m for m in sys.modules if m in WATCH))"
    watch = "WATCH = {'sim.search.driver', 'sim.search.designs', 'matplotlib', 'optuna'}; "
    got = subprocess.run(
        [sys.executable, "-c", watch + code], capture_output=True, text=True, check=True
    )
    assert got.stdout.strip() == "[]"
    import sim.search

    assert sim.search.load_search.__module__ == "sim.search.load"
    with pytest.raises(AttributeError):
        _ = sim.search.nothing


class Twice:
    """A toy design: each of its values twice (20 battles each), then the answer."""

    def __init__(self, search):
        self.search = search

    def columns(self):
        return [pa.field("round_trip", pa.int64())]

    def plan(self, history, recorded):
        if len(history.batches) == 2:
            return None
        p = self.search.params[0]
        points = tuple({p.name: v} for v in p.choices)
        return Planned(
            points,
            (20,) * len(points),
            "twice",
            columns={"round_trip": (len(history.batches),) * len(points)},
        )

    def progress(self, history):
        return f"{history.spent} battles"

    def answer(self, history):
        wins = int((history.runs["winner"] == "shooter").sum())
        return Answer(
            "answered", 0, [f"the shooter won {wins} of {history.spent}"], data={"wins": wins}
        )

    def finished_batch(self, history, root):
        pass


def read_twice(doc, sides, budget, bad):
    p = read_param("max_rounds", doc["parameters"]["max_rounds"], bad, ("choices",))
    return [p], None


def test_a_new_design_plugs_in_with_one_entry(folder, monkeypatch, capsys):
    kind = designs.Kind("twice", (), 1000, read_twice, Twice)
    monkeypatch.setitem(designs.KINDS, "twice", kind)
    exp = write(
        folder,
        "t.yaml",
        "scenario: duel.yaml\ndesign: twice\n"
        "parameters:\n  max_rounds: {choices: [1, 3]}\nseed: 4\n",
    )
    out = folder / "t"
    assert main(["sweep", str(exp), "--out", str(out), "--workers", "1"]) == 0
    text = capsys.readouterr().out
    answer = json.loads((out / "search" / "answer.json").read_text())
    assert answer["design"] == "twice" and f"the shooter won {answer['data']['wins']} of 80" in text
    assert main(["analyze", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"the shooter won {answer['data']['wins']} of 80")
    import pandas as pd

    runs = pd.read_parquet(out / "runs")
    assert sorted(runs.round_trip.unique()) == [0, 1] and len(runs) == 80


def test_the_first_batch_is_the_one_a_search_fights(folder, monkeypatch):
    """The golden digests fight first_batch's runs: the run ids, seeds and columns it writes."""
    import pandas as pd

    from sim.search.driver import first_batch

    monkeypatch.setitem(designs.KINDS, "twice", designs.Kind("twice", (), 1000, read_twice, Twice))
    text = "scenario: duel.yaml\ndesign: twice\nparameters:\n  max_rounds: {choices: [1, 3]}\n"
    search = load_search(write(folder, "t.yaml", text + "seed: 4\n"))
    monkeypatch.chdir(folder)
    batch = first_batch(search)
    assert batch is not None
    assert sorted(p.name for p in folder.iterdir()) == ["duel.yaml", "t.yaml"]  # nothing written
    run_search(search, folder / "t", progress=False)
    runs = pd.read_parquet(folder / "t" / "runs").sort_values("run_id")
    first = runs[runs["batch"] == 0].to_dict("records")
    assert [r["run_id"] for r in first] == list(range(batch.first_run, batch.stop)) != []
    for row in first:
        assert row["seed"] == batch.run_seed(row["run_id"])
        want = batch.param_values(batch.point_of(row["run_id"]))
        assert {k: row[k] for k in want} == want and set(want) >= {"batch", "point", "round_trip"}


def test_the_progress_lines_show_the_estimate_as_it_narrows(folder, capsys):
    search = load_search(write(folder, "d.yaml", DUELLED))
    run_search(search, folder / "d", progress=True)
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("search: batch 0, 250 of at most 4,000 battles: crossing ")
    widths = [float(line.split(", +-")[1].split(" points")[0]) for line in err if "+-" in line]
    assert widths[-1] <= 5.0 < widths[0]
