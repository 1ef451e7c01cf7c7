"""Analysis of a dataset: the common questions, answered in columnar code.

For notebooks::

    from sim import analysis
    ds = analysis.load("results/quickstart")
    ds.runs                      # pandas: one row per battle, the parameters as columns
    ds.table("fighters")         # one row per fighter, the run's parameters joined
    s = analysis.summarize(ds)   # one row per group of the swept parameters
    s.frame                      # win rates with Wilson intervals, length, casualties ...

Every figure is computed over whole columns (Arrow, numpy ``bincount``, pandas group-by),
never a Python loop over runs, so a million-run dataset is summarised in seconds. Runs
that failed (``error`` set) are counted per group and left out of every rate.

The charts of a summary (:mod:`~sim.analysis.plots`, :mod:`~sim.analysis.sensplot`), the
self-contained HTML report (:mod:`~sim.analysis.report`) and the flat files for spreadsheets
and R (:mod:`~sim.analysis.export`) sit beside the summaries they draw.

May import: ``sim.experiment``, ``sim.dataset``, ``sim.scenario`` and the ground floor;
nothing of the battle.
"""

from __future__ import annotations

from sim.analysis.after import (
    ExtraTable,
    aftermath_rows,
    aftermath_summary,
    campaign_rows,
    campaign_summary,
    extra_tables,
    groups_json,
)
from sim.analysis.dataset import Dataset, flatten_sides, has_table, load
from sim.analysis.failures import FailureGroup, failure_groups, failures_text
from sim.analysis.fmt import _short, short_names
from sim.analysis.paired import (
    Paired,
    alike_text,
    paired,
    paired_json,
    paired_rows,
    shared_seeds,
)
from sim.analysis.stats import CLUSTER_INTERVAL, Z95, cluster_bootstrap, t975, wilson
from sim.analysis.summary import CASUALTIES, GROUPABLE, Summary, summarize
from sim.analysis.tables import flat_rows, loss_rows, outcome_caption, outcome_rows

__all__ = [
    "CASUALTIES",
    "CLUSTER_INTERVAL",
    "GROUPABLE",
    "Z95",
    "Dataset",
    "ExtraTable",
    "FailureGroup",
    "Paired",
    "Summary",
    "_short",
    "aftermath_rows",
    "aftermath_summary",
    "campaign_rows",
    "campaign_summary",
    "cluster_bootstrap",
    "extra_tables",
    "failure_groups",
    "failures_text",
    "flat_rows",
    "flatten_sides",
    "groups_json",
    "alike_text",
    "paired",
    "paired_json",
    "paired_rows",
    "has_table",
    "load",
    "loss_rows",
    "outcome_caption",
    "outcome_rows",
    "shared_seeds",
    "short_names",
    "summarize",
    "t975",
    "wilson",
]
