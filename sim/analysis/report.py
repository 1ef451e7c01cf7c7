"""One self-contained HTML report of a dataset: what made it, its tables and its charts.

Charts are embedded as base64 PNG images and the style sheet is inline, so the file can be
mailed or opened anywhere with nothing beside it.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sim import __version__, analysis
from sim.analysis import plots
from sim.dataset.records import atomic_write_bytes
from sim.errors import SimError

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


def html_table(headers: Sequence[str], rows: Sequence[Sequence[Any]], keys: int) -> str:
    """An HTML table; the first ``keys`` columns are the group's parameters."""
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = []
    for row in rows:
        cells = "".join(
            f"<td{'' if i < keys else ' class=num'}>{html.escape(str(c))}</td>"
            for i, c in enumerate(row)
        )
        body.append(f"<tr>{cells}</tr>")
    return (
        f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def _img(fig: Any, alt: str) -> str:
    data = base64.b64encode(plots.png_bytes(fig)).decode("ascii")
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def render(ds: analysis.Dataset, s: analysis.Summary) -> str:
    """The report's HTML text."""
    m = ds.manifest
    name = m.get("experiment_name") or Path(m.get("scenario_file", str(ds.root))).stem
    runs = int(s.frame["runs"].sum())
    failed = int(s.frame["failed"].sum())
    by = ", ".join(s.by) or "none (all runs together)"
    meta = (
        f"{runs} runs ({failed} failed) of {m.get('planned_runs', '?')} planned, "
        f"master seed {m.get('master_seed', '?')}, made by sim {m.get('sim_version', '?')}; "
        f"dataset <code>{html.escape(str(ds.root))}</code>"
    )
    desc = m.get("experiment_text", "")
    sections = [
        f"<h1>{html.escape(str(name))}</h1>",
        f'<p class="meta">{meta}</p>',
        *_answer_sections(ds),
        f"<p>Grouped by: <b>{html.escape(by)}</b>. Win and draw rates carry 95% Wilson "
        "score intervals; battle length (rounds) a 95% t interval of the mean; the shares of "
        "fighters in the aftermath and campaign tables a 95% cluster bootstrap by run. "
        "Failed runs are counted and left out of every rate.</p>",
        "<h2>Outcomes</h2>",
        html_table(*analysis.outcome_rows(s), keys=len(s.by)),
        _img(plots.chart(s, "win"), "win rates"),
        "<h2>Battle length</h2>",
        _img(plots.chart(s, "length"), "battle length"),
        "<h2>Losses</h2>",
        "<p>Mean fighters per battle by final status, and the share of battles in which "
        "each side's leader ended not active.</p>",
        html_table(*analysis.loss_rows(s), keys=len(s.by)),
        _img(plots.chart(s, "casualties"), "casualties"),
    ]
    sections += _aftermath_sections(ds, s)
    sections += _design_sections(ds, s)
    if desc:
        sections += ["<h2>Experiment</h2>", f"<pre>{html.escape(desc)}</pre>"]
    return (
        "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
        f"<title>{html.escape(str(name))}: sim analyze</title><style>{STYLE}</style></head>"
        f"<body>{''.join(sections)}"
        f'<p class="meta">sim analyze, sim {__version__}</p></body></html>\n'
    )


def _answer_sections(ds: analysis.Dataset) -> list[str]:
    """A search's answer (``search/answer.json``), as ``sim analyze`` prints it, charts inline.

    Read from the dataset folder, whatever the design: the report knows no search. Only
    charts inside the dataset's ``search/`` folder are embedded.
    """
    answer = ds.answer
    if answer is None:
        return []
    out = [f"<h2>Answer ({html.escape(str(answer.get('design', 'search')))} search)</h2>"]
    out += [f"<p>{html.escape(str(line))}</p>" for line in answer.get("lines", [])]
    for table in answer.get("tables", []):
        out += [
            f"<h3>{html.escape(str(table['title']))}</h3>",
            html_table(table["headers"], table["rows"], keys=1),
        ]
    folder = (ds.root / "search").resolve()
    for chart in answer.get("charts", []):
        path = (ds.root / str(chart["file"])).resolve()
        if path.is_file() and path.parent == folder:
            data = base64.b64encode(path.read_bytes()).decode("ascii")
            alt = html.escape(str(chart.get("title") or chart["file"]))
            out.append(f'<img alt="{alt}" src="data:image/png;base64,{data}">')
    return out


def _aftermath_sections(ds: analysis.Dataset, s: analysis.Summary) -> list[str]:
    """The aftermath and campaign tables and charts, where the dataset has them."""
    out = []
    charts = dict(plots.extra_charts(ds, s))
    for title, caption, headers, rows in analysis.extra_tables(ds, s.by, s.names):
        out += [
            f"<h2>{html.escape(title)}</h2>",
            f"<p>{html.escape(caption[0].upper() + caption[1:])}.</p>",
            html_table(headers, rows, keys=len(s.by) + 1),
        ]
        if title.lower() in charts:
            out.append(_img(charts[title.lower()], title.lower()))
    return out


def _design_sections(ds: analysis.Dataset, s: analysis.Summary) -> list[str]:
    """Paired differences (shared seeds) and sensitivity indices, where the sweep has them."""
    from sim.analysis import sensitivity as sa
    from sim.analysis import sensplot

    out = []
    pairs = analysis.paired(ds, s)
    if pairs is not None:
        out += [
            "<h2>Paired differences</h2>",
            "<p>Seeds were shared: replicate r met the same dice at every design point. Each "
            "point's mean per-replicate difference from the first design point, with a 95% "
            "Student-t interval over the pairs (win: percentage points).</p>",
            html_table(*analysis.paired_rows(s, pairs), keys=len(s.by)),
        ]
    try:
        sens = sa.sensitivity(ds)  # a sweep with a sobol, morris or fast design
    except SimError:
        return out
    out += [
        "<h2>Sensitivity</h2>",
        f"<p>{sens.method} indices (SALib) of each point's mean outcome over "
        f"{sens.points} design points x {sens.replicates} replicates; 95% bootstrap "
        "confidence intervals.</p>",
        html_table(*sa.sensitivity_rows(sens), keys=2),
        _img(sensplot.figure(sens, str(ds.manifest.get("experiment_name") or "")), "indices"),
    ]
    return out


def write(ds: analysis.Dataset, s: analysis.Summary, path: str | Path) -> Path:
    """Write the report to ``path`` atomically."""
    path = Path(path)
    atomic_write_bytes(path, render(ds, s).encode("utf-8"))
    return path
