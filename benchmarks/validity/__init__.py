"""Validation studies: does the simulator behave the way a researcher can trust? (issue 14)

Run from the repository root::

    python -m benchmarks.validity                  # every study; writes docs/validation.md
                                                   # and its charts in docs/validation/
    python -m benchmarks.validity --quick          # fewer battles (about 1.5 minutes);
                                                   # writes results/validation-quick.md
    python -m benchmarks.validity --scenario wargame one_hit 10 8
                                                   # print one study scenario (YAML for sim run)
    python -m benchmarks.validity --experiments    # write experiments/large_scale_*.yaml,
                                                   # which reproduce study f's battles

Six studies, each under every rule system, one module each in ``studies/`` (listed in
:data:`~benchmarks.validity.studies.STUDIES`): a. mirror, b. monotone, c. Lanchester,
d. 100 v 80 survivors, e. scale, f. the shipped scenarios at both scales (issue 30). Each
study's module holds its points, its study function, its checks, its report section and its
chart; the tests (``tests/test_validity.py``, ``tests/test_validity_shipped.py``) run the
same study functions with fewer battles.

The modules, lowest first (each imports only those before it): ``base`` (constants, the
fighters, the scenario texts), ``battles`` (points, seeds, the runner), ``arms`` (the
shipped scenarios' arms for study f, their seeds and experiment files), ``stats`` (shares,
z-tests, checks), ``laws`` (Lanchester's exact laws), ``study`` (what a study is; the
results), ``report`` and ``charts`` (the pieces the studies share, and the page that gathers
their sections and charts), ``studies``, ``run`` (the whole run), ``cli`` (the command line).
"""

from benchmarks.validity.arms import (
    Arm,
    arms_for,
    experiment_files,
    experiment_text,
    fight_arm,
    fighters_of,
    shipped_scenarios,
    write_experiments,
)
from benchmarks.validity.base import (
    ATTRITION,
    CONFIG_TITLES,
    CONFIGS,
    EVERYDAY,
    FORCE_SMALL,
    LEADERLESS,
    MASTER_SEED,
    MAX_ROUNDS,
    ONE_HIT,
    ROOT,
    SYSTEMS,
    Z99,
    Z99_ONE_SIDED,
    Fighters,
    config_text,
    one_hit_note,
    scenario_text,
)
from benchmarks.validity.battles import Point, Runner, Sample, fight, point_seeds
from benchmarks.validity.charts import draw_charts
from benchmarks.validity.cli import main
from benchmarks.validity.laws import Law, lanchester
from benchmarks.validity.report import md_table, render
from benchmarks.validity.run import FULL, QUICK, run_all
from benchmarks.validity.stats import Check, Share, drop_z, family_z, paired_difference, pct
from benchmarks.validity.studies import STUDIES
from benchmarks.validity.studies.lanchester import (
    LANCHESTER_SIZES,
    AttritionRow,
    lanchester_checks,
    lanchester_study,
    scale_gaps,
)
from benchmarks.validity.studies.mirror import MirrorRow, mirror_checks, mirror_study
from benchmarks.validity.studies.monotone import (
    LADDERS,
    Ladder,
    LadderResult,
    monotone_checks,
    monotone_study,
)
from benchmarks.validity.studies.scale import (
    RATIO_SIZES,
    ContinuityRow,
    continuity_checks,
    continuity_study,
    ratio_checks,
    ratio_study,
)
from benchmarks.validity.studies.shipped import (
    POOL_SIZES,
    Outcomes,
    PoolsRow,
    ShippedRow,
    pools_checks,
    pools_study,
    scenario_checks,
    scenarios_study,
)
from benchmarks.validity.studies.survivors import SurvivorRow, survivors_study
from benchmarks.validity.study import Part, Replicates, Results, Study

__all__ = [
    "ATTRITION",
    "CONFIGS",
    "CONFIG_TITLES",
    "EVERYDAY",
    "FORCE_SMALL",
    "FULL",
    "LADDERS",
    "LANCHESTER_SIZES",
    "LEADERLESS",
    "MASTER_SEED",
    "MAX_ROUNDS",
    "ONE_HIT",
    "POOL_SIZES",
    "QUICK",
    "RATIO_SIZES",
    "ROOT",
    "STUDIES",
    "SYSTEMS",
    "Z99",
    "Z99_ONE_SIDED",
    "Arm",
    "AttritionRow",
    "Check",
    "ContinuityRow",
    "Fighters",
    "Ladder",
    "LadderResult",
    "Law",
    "MirrorRow",
    "Outcomes",
    "Part",
    "Point",
    "PoolsRow",
    "Replicates",
    "Results",
    "Runner",
    "Sample",
    "Share",
    "ShippedRow",
    "Study",
    "SurvivorRow",
    "arms_for",
    "config_text",
    "continuity_checks",
    "continuity_study",
    "draw_charts",
    "drop_z",
    "experiment_files",
    "experiment_text",
    "family_z",
    "fight",
    "fight_arm",
    "fighters_of",
    "lanchester",
    "lanchester_checks",
    "lanchester_study",
    "main",
    "md_table",
    "mirror_checks",
    "mirror_study",
    "monotone_checks",
    "monotone_study",
    "one_hit_note",
    "paired_difference",
    "pct",
    "point_seeds",
    "pools_checks",
    "pools_study",
    "ratio_checks",
    "ratio_study",
    "render",
    "run_all",
    "scale_gaps",
    "scenario_checks",
    "scenario_text",
    "scenarios_study",
    "shipped_scenarios",
    "survivors_study",
    "write_experiments",
]
