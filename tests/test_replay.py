"""sim.run.replay: a stored run rebuilt from its dataset and fought again, exactly."""

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from sim.cli import main
from sim.errors import SimError
from sim.run import replay
from tests.datasets import relist

ROOT = Path(__file__).resolve().parents[1]
CAMPAIGN = ROOT / "scenarios" / "campaign.yaml"


@pytest.fixture(scope="module")
def campaign_ds(tmp_path_factory):
    out = tmp_path_factory.mktemp("ds") / "camp"
    argv = ["run", str(CAMPAIGN), "--seed", "6", "--set", "max_rounds=9", "--out", str(out)]
    assert main(argv) == 0
    assert (out / "manifest.json").is_file()
    return out


def test_a_stored_run_is_rebuilt_with_its_overrides_and_seed(campaign_ds):
    stored = replay.stored_run(campaign_ds, 0)
    assert stored.seed == 6 and stored.run_id == 0 and stored.params == ()
    assert stored.scenario.name == "campaign" and stored.scenario.max_rounds == 9
    fought = replay.replay(stored)
    assert len(fought.battles) == 5 and fought.campaign
    assert replay.differences(stored, fought) == []


def test_a_tampered_aftermath_table_is_named(campaign_ds, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(campaign_ds, copy)
    part = next((copy / "aftermath").glob("part-*.parquet"))
    table = pq.read_table(part)
    pq.write_table(table.slice(1), part)  # one row fewer
    relist(copy, part)  # as if other code had written and listed it
    stored = replay.stored_run(copy, 0)
    with pytest.raises(replay.ReplayMismatch) as err:
        replay.replay(stored)
    n = table.num_rows
    assert str(err.value).splitlines() == [
        "run 0 does not replay: it differs from the stored row",
        f"  aftermath: {n - 1} stored rows differ from {n} replayed",
    ]


def test_an_unknown_run_names_the_ids_there_are(campaign_ds):
    with pytest.raises(SimError, match=r"no run 4 \(run ids: 0\.\.0\)$"):
        replay.stored_run(campaign_ds, 4)
