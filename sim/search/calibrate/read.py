"""``design: calibrate``: the values of a scenario's unknowns that reproduce what was observed.

::

    design: calibrate
    parameters:                      # the unknowns, each with its prior (uniform)
      battle.morale: {choices: [all, none]}
      sides.bandits.fighters[0].hit_dice: {low: 2, high: 5}
    observed: ambush_observed.csv    # or rows inline (sim.search.calibrate.observed)
    covariates: {}                   # paths the table's covariate columns set (optional)
    dispersion: 0                    # the rows differ by chance alone; or rho, or fit
    weights: {}                      # a statistic's weight in the likelihood (default 1)
    distance: uncertainty            # each statistic weighed by its uncertainty (the default)
    method: grid                     # synthetic likelihood on the prior's grid (the default)
    levels: 9                        # grid values of a real range (default 9)
    start: 20                        # battles at each cell and row to begin with (default 20)
    ratio: 2                         # a plausible cell's battles per observed battle (default 2)
    budget: 20000

Each observed row is a setting of the scenario (for example the two sides' counts); a
battle is fought at a **cell** (one value of each unknown on the prior's grid,
:mod:`sim.search.calibrate.posterior`) and a row. The first batch fights ``start`` battles at every
cell and row. After each batch the posterior of the cells is computed from every battle
so far; the cells holding all but :data:`LEFT_OUT` of it are the plausible ones, and the
next batch doubles their battles at each row, up to ``ratio`` times the row's observed
battles (so the simulation adds at most ``1/ratio`` to the variance the observations
have). The search ends when every plausible cell has them, or when the budget is spent.
The answer (:mod:`sim.search.calibrate.answer`): each unknown's fitted value and 95%
interval, their pairwise plot, and the posterior predictive check of every observation.

Why a grid and not a sampler: an interval may leave out only values whose battles show
they do not fit, so every cell is fought before any is left out; ABC-SMC (pyabc) and
Optuna's samplers leave regions unvisited, and pyabc spent over a million battles on a
stand-in of this problem (``docs/calibration.md``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sim.scenario import Issue, read_yaml
from sim.search.calibrate import covariates, dispersion
from sim.search.calibrate import observed as obs
from sim.search.calibrate import posterior as post
from sim.search.calibrate.dispersion import Dispersion
from sim.search.space import Param, read_param
from sim.search.spec import Bad, Search

KEYS = (
    "observed",
    "covariates",
    "dispersion",
    "weights",
    "distance",
    "method",
    "levels",
    "start",
    "ratio",
    "wave",
    "waves",
)
BUDGET = 20_000
"""The default budget of battles."""
ROW = "observed"
"""The runs column (and the search's parameter) naming each battle's observed row."""
METHODS = ("grid", "match")
DISTANCES = ("uncertainty",)


@dataclass(frozen=True, slots=True)
class Settings:
    """A calibration's own keys, checked: the observed table and the grid."""

    table: obs.Observed
    grid: post.Grid
    start: int
    ratio: float
    method: str
    distance: str
    dispersion: Dispersion = Dispersion()
    weights: dict[str, float] = field(default_factory=dict)
    """Each statistic's weight in the likelihood (default 1)."""
    wave: int | None = None
    """``method: match``: design points a wave (None: ten per numeric unknown and one)."""
    waves: int = 6
    """``method: match``: the most waves."""


def read(
    doc: dict[str, Any], sides: tuple[str, ...], budget: int, bad: Bad, source: str
) -> tuple[list[Param], Settings]:
    """The unknowns (and the rows' parameter) and settings of a calibration."""
    unknowns = _params(doc.get("parameters"), bad)
    levels = _whole(doc.get("levels", 9), "levels", 2, 101, bad)
    start = _whole(doc.get("start", 20), "start", 2, 100_000, bad)
    ratio = doc.get("ratio", 2)
    if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or not 0.1 <= ratio <= 1000:
        bad("ratio", f"expected a number 0.1..1000 (simulated per observed battle), got {ratio!r}")
        ratio = 2
    method = str(doc.get("method", "grid"))
    if method not in METHODS:
        bad("method", f"unknown method {method!r}; calibrate knows {', '.join(METHODS)}")
    distance = str(doc.get("distance", "uncertainty"))
    if distance not in DISTANCES:
        bad("distance", f"unknown distance {distance!r}; calibrate knows {', '.join(DISTANCES)}")
    mapped = covariates.read(doc.get("covariates"), bad)
    table = obs.read(doc.get("observed"), source, sides, bad, mapped)
    grid = post.Grid(tuple(unknowns), tuple(post.grid_values(p, levels) for p in unknowns))
    if method == "match":
        _match_keys(doc, unknowns, bad)
    elif grid.size > post.MAX_CELLS:
        bad(
            "parameters",
            f"the grid has {grid.size:,} cells; at most {post.MAX_CELLS:,}: lower levels",
        )
    first = grid.size * len(table.rows) * start
    if method != "match" and table.rows and unknowns and first > budget:
        bad(
            "budget",
            f"{budget} battles cannot pay for the first batch ({grid.size} cells x "
            f"{len(table.rows)} rows x {start} battles = {first}); raise budget or lower start",
        )
    for p in unknowns:
        if p.name in table.paths or any(
            path in table.paths for c in p.checked() for path in p.paths(c)
        ):
            bad(p.where, "the observed table sets this path in every row: it cannot be unknown")
    params = [*unknowns]
    if table.rows:
        labels = tuple(r.label for r in table.rows)
        params.append(
            Param(ROW, "bundle", choices=labels, sets=tuple(r.setting for r in table.rows))
        )
    disp = dispersion.read(doc.get("dispersion"), bad)
    if method == "match" and disp.fitted:
        bad("dispersion", "method: match takes a stated dispersion (a number), not fit")
    weights = dispersion.read_weights(doc.get("weights"), table, bad)
    wave = _whole(doc["wave"], "wave", 2, 1000, bad) if "wave" in doc else None
    waves = _whole(doc.get("waves", 6), "waves", 1, 50, bad)
    settings = Settings(
        table, grid, start, float(ratio), method, distance, disp, weights, wave, waves
    )
    return params, settings


def _match_keys(doc: dict[str, Any], unknowns: list[Param], bad: Bad) -> None:
    """``method: match`` emulates numeric unknowns: one at least, and few choices."""
    if unknowns and not any(p.kind in ("whole", "real") for p in unknowns):
        bad("method", "match emulates numeric unknowns; with only choices use method: grid")
    combos = 1
    for p in unknowns:
        if p.kind not in ("whole", "real"):
            combos *= len(p.choices)
    if combos > 16:
        bad("parameters", f"match fits emulators per combination of choices: {combos}; at most 16")


def _params(spec: Any, bad: Bad) -> list[Param]:
    if not isinstance(spec, dict) or not spec:
        bad("parameters", "a calibration has one unknown or more, each with its prior range")
        return []
    out = []
    for name, value in spec.items():
        p = read_param(str(name), value, bad, ("whole", "real", "choices", "bundle"))
        if p is None:
            continue
        if p.name in (ROW, "batch", "point", "cell", "run_id", "seed", "label"):
            bad(p.where, f"{p.name!r} names a column of the runs table; choose another name")
        out.append(p)
    return out


def _whole(value: Any, where: str, low: int, high: int, bad: Bad) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        bad(where, f"expected a whole number {low}..{high}, got {value!r}")
        return low
    return value


def check(search: Search) -> list[Issue]:
    """The observed table's problems: its cells, and each row's setting in the scenario.

    Each located where the row is (the CSV file's line, or the experiment's).
    """
    from sim.experiment.checks import check_design
    from sim.experiment.model import Experiment

    table: obs.Observed = search.settings.table
    if table.issues:
        return list(table.issues)
    if not table.rows:
        return []
    exp = Experiment(
        name=search.name,
        path=table.source,
        text=search.text,
        scenario_path=search.scenario_path,
        scenario_text=search.scenario_text,
        overrides=search.overrides,
        parameters=table.paths,
        points=tuple(dict(r.setting) for r in table.rows),
        replicates=1,
        seed=search.seed,
        tables=search.tables,
        chunk=1,
        design="list",
    )
    locate = _locator(search, table)
    out: list[Issue] = []
    for issue in check_design(exp, locate, 0):
        if not issue.path.startswith("points["):
            continue  # the set: entries or the scenario: the search's own checks say
        k, _, rest = issue.path[len("points[") :].partition("]")
        column = rest.lstrip(".")
        missing = _missing(search, table, column)
        if missing is not None:
            if all(i.message != missing.message for i in out):
                out.append(missing)
            continue
        where = f"{ROW}[{k}].{column}" if table.inline else column
        out.append(Issue(issue.source, issue.line, where, issue.message))
    return out


def _missing(search: Search, table: obs.Observed, path: str) -> Issue | None:
    """A setting's path that names nothing in the scenario (where the rows failed): once."""
    from sim.experiment.checks import _missing_step

    base, _ = read_yaml(search.scenario_text, search.scenario_path)
    message = _missing_step(base, path) if isinstance(base, dict) and path else None
    if message is None:
        return None
    if table.inline:
        _, locate = read_yaml(search.text, search.path)
        where = f"{ROW}[0].{path}"
        return Issue(search.path, locate(where), where, message)
    return Issue(table.source, table.header, path, message)


def _locator(search: Search, table: obs.Observed) -> Any:
    """Lines of the rows: the CSV's, or the experiment file's ``observed[k]``."""
    if table.inline:
        _, yaml_locate = read_yaml(search.text, search.path)

        def inline(where: str) -> int | None:
            return yaml_locate(where.replace("points[", f"{ROW}[", 1))

        return inline
    lines = [r.line for r in table.rows]

    def in_csv(where: str) -> int | None:
        if not where.startswith("points["):
            return None
        k = int(where[len("points[") :].split("]")[0])
        return lines[k] if k < len(lines) else None

    return in_csv
