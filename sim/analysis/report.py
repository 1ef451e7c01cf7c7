"""One self-contained HTML report of a dataset: what made it, its tables and its charts.

Charts are embedded as base64 PNG images and the style sheet is inline, so the file can be
mailed or opened anywhere with nothing beside it. The page is built from data by a template
with autoescape (``report.html`` beside this module, Jinja2), so no name or field of a
dataset's manifest can end up as markup.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from markupsafe import Markup

from sim import analysis, files
from sim.analysis import plots
from sim.errors import SimError
from sim.version import __version__

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px;
       color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ddd; }
p.meta { color: #555; margin-top: 0; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
th, td { padding: 0.25em 0.6em; border-bottom: 1px solid #eee; white-space: nowrap; }
th { background: #f4f4f4; text-align: left; white-space: normal; vertical-align: bottom; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
img { max-width: 100%; height: auto; border: 1px solid #eee; }
.scroll { overflow-x: auto; }
"""


MAX_CHART = 16 << 20
"""The largest chart embedded (16 MB; the searches' charts are about 100 KB)."""

Part = dict[str, Any]
"""One piece of the report's body: a heading, a paragraph, a table, an image."""


def _h2(text: str) -> Part:
    return {"kind": "h2", "text": text}


def _p(text: str) -> Part:
    return {"kind": "p", "text": text}


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]], keys: int) -> Part:
    """A table; the first ``keys`` columns are the group's parameters, the rest numbers."""
    return {
        "kind": "table",
        "headers": [str(h) for h in headers],
        "rows": [[str(c) for c in row] for row in rows],
        "lead": keys,  # the columns before the first number
    }


def _img(fig: Any, alt: str) -> Part:
    data = base64.b64encode(plots.png_bytes(fig)).decode("ascii")
    return {"kind": "img", "alt": alt, "data": data}


def render(ds: analysis.Dataset, s: analysis.Summary) -> str:
    """The report's HTML text.

    Built from data by a template with autoescape (Jinja2): every text from the dataset
    (names, the manifest's fields, the experiment's text) is escaped where it lands.
    """
    import jinja2

    m = ds.manifest
    name = m.get("experiment_name") or Path(str(m.get("scenario_file", ds.root))).stem
    parts = [
        _h2("Outcomes"),
        _p(f"{analysis.outcome_caption(s).split(': ', 1)[1]}."),
        _table(*analysis.outcome_rows(s), keys=len(s.by)),
        _img(plots.chart(s, "win"), "win rates"),
        _h2("Battle length"),
        _img(plots.chart(s, "length"), "battle length"),
        _h2("Losses"),
        _p(
            "Mean fighters per battle by final status, and the share of battles in which "
            "each side's leader ended not active."
        ),
        _table(*analysis.loss_rows(s), keys=len(s.by)),
        _img(plots.chart(s, "casualties"), "casualties"),
        *_aftermath_sections(ds, s),
        *_design_sections(ds, s),
    ]
    if m.get("experiment_text"):
        parts += [_h2("Experiment"), {"kind": "pre", "text": str(m["experiment_text"])}]
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    text = resources.files("sim.analysis").joinpath("report.html").read_text(encoding="utf-8")
    return (
        env.from_string(text).render(
            name=str(name),
            style=Markup(STYLE),
            runs=int(s.frame["runs"].sum()),
            failed=int(s.frame["failed"].sum()),
            planned=m.get("planned_runs", "?"),
            seed=m.get("master_seed", "?"),
            made_by=m.get("sim_version", "?"),
            root=str(ds.root),
            by=", ".join(s.by) or "none (all runs together)",
            answer=_answer_sections(ds),
            parts=parts,
            version=__version__,
        )
        + "\n"
    )


def _answer_sections(ds: analysis.Dataset) -> list[Part]:
    """A search's answer (``search/answer.json``), as ``sim analyze`` prints it, charts inline.

    Read from the dataset folder, whatever the design: the report knows no search. Only
    the dataset's own charts are embedded: PNG files in its ``search/`` folder, read
    through no link (:func:`sim.files.read_inside`).
    """
    answer = ds.answer
    if answer is None:
        return []
    out = [_h2(f"Answer ({answer.get('design', 'search')} search)")]
    out += [_p(str(line)) for line in answer.get("lines", [])]
    for table in answer.get("tables", []):
        out += [
            {"kind": "h3", "text": str(table["title"])},
            _table(table["headers"], table["rows"], keys=1),
        ]
    for chart in answer.get("charts", []):  # search/NAME.png (sim.dataset.answer), no link
        data = files.read_inside(ds.root / chart["file"], ds.root, MAX_CHART)
        if data is not None:
            text = base64.b64encode(data).decode("ascii")
            out.append({"kind": "img", "alt": chart["title"] or chart["file"], "data": text})
    return out


def _aftermath_sections(ds: analysis.Dataset, s: analysis.Summary) -> list[Part]:
    """The aftermath and campaign tables and charts, where the dataset has them."""
    out = []
    charts = dict(plots.extra_charts(ds, s))
    for title, caption, headers, rows in analysis.extra_tables(ds, s.by, s.names):
        out += [
            _h2(title),
            _p(f"{caption[0].upper() + caption[1:]}."),
            _table(headers, rows, keys=len(s.by) + 1),
        ]
        if title.lower() in charts:
            out.append(_img(charts[title.lower()], title.lower()))
    return out


def _design_sections(ds: analysis.Dataset, s: analysis.Summary) -> list[Part]:
    """Paired differences (shared seeds) and sensitivity indices, where the sweep has them."""
    from sim.analysis import sensitivity as sa
    from sim.analysis import sensplot

    out = []
    pairs = analysis.paired(ds, s)
    if pairs is not None:
        out += [
            _h2("Paired differences"),
            _p(
                "Seeds were shared: replicate r met the same dice at every design point. "
                "Each point's mean per-replicate difference from the first design point, "
                "with a 95% Student-t interval over the pairs (win: percentage points)."
            ),
            _table(*analysis.paired_rows(s, pairs), keys=len(s.by)),
        ]
        if pairs.alike:
            out.append(_p(analysis.alike_text(s, pairs)))
    try:
        sens = sa.sensitivity(ds)  # a sweep with a sobol, morris or fast design
    except SimError:
        return out
    out += [
        _h2("Sensitivity"),
        _p(
            f"{sens.method} indices (SALib) of each point's mean outcome over "
            f"{sens.points} design points x {sens.replicates} replicates; 95% bootstrap "
            "confidence intervals."
        ),
        _table(*sa.sensitivity_rows(sens), keys=2),
        _img(sensplot.figure(sens, str(ds.manifest.get("experiment_name") or "")), "indices"),
    ]
    return out


def write(ds: analysis.Dataset, s: analysis.Summary, path: str | Path, force: bool = False) -> Path:
    """Write the report to ``path``, whole; an existing file only with ``force``."""
    path = Path(path)
    files.write_file(path, render(ds, s).encode("utf-8"), replace=force, flag="--report")
    return path
