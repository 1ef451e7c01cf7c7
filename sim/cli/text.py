"""Text for people and programs: tables, a run's outcome, a dataset's summary.

Everything ``sim`` prints is made here, as strings; :mod:`sim.cli` only parses arguments and
prints. Tables come as aligned text (:func:`render_table`), Markdown, CSV or JSON
(:func:`emit` picks by ``--format``). Sections: tables; exact odds (``sim odds``); the option
catalogue (``sim options``); a scenario (``sim validate``); one run (``sim run``, ``sim
replay``); a dataset (``sim analyze``, ``sim sweep``).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping, Sequence
from itertools import accumulate
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sim.battle.battle import Battle
    from sim.cli.catalogue import Listing
    from sim.run.core import Fought
    from sim.scenario import Scenario

# ---------------------------------------------------------------------------------------
# tables


def pct(p: float) -> str:
    """A probability as a percentage that stays readable for tiny values."""
    if p == 0:
        return "0%"
    if p >= 0.0001:
        return f"{100 * p:.2f}%"
    return f"{100 * p:.2g}%"


_NUMERIC = re.compile(r"^-?[\d.]+(e-?\d+)?%?$")


def render_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Rows as aligned text columns: numbers right-aligned, text left-aligned."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    numeric = [
        bool(rows) and all(_NUMERIC.match(row[i]) for row in cells[1:]) for i in range(len(headers))
    ]

    def line(row: Sequence[str]) -> str:
        parts = [
            c.rjust(w) if num else c.ljust(w)
            for c, w, num in zip(row, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(cells[0]), rule, *(line(r) for r in cells[1:])])


def render_markdown(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Rows as a Markdown table (for docs)."""

    def cell(v: Any) -> str:
        return str(v).replace("|", "\\|")

    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def render_csv(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Rows as CSV text with a header line."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(headers)
    writer.writerows(rows)
    return buf.getvalue().rstrip("\n")


def emit(
    fmt: str, data: Any, headers: Sequence[str], rows: Sequence[Sequence[Any]], title: str = ""
) -> str:
    """Text for ``--format``: JSON of ``data``, or ``rows`` as CSV or an aligned table."""
    if fmt == "json":
        return json.dumps(data)
    if fmt == "csv":
        return render_csv(headers, rows)
    if fmt == "markdown":
        return render_markdown(headers, rows)
    table = render_table(headers, rows)
    return f"{title}\n\n{table}" if title else table


# ---------------------------------------------------------------------------------------
# exact odds (sim odds; the numbers come from sim.odds.exact)


def deathwish_tt(tt: int) -> str:
    """A target's trauma tolerance with its wound thresholds, as the Deathwish titles say it."""
    from sim.rules import deathwish

    thr = deathwish.thresholds(tt)
    return f"TT {tt} (thresholds {thr.slight}/{thr.moderate}/{thr.serious}/{thr.critical})"


def deathwish_table_text(rows: Sequence[Mapping[str, Any]], fmt: str, title: str) -> str:
    """Every weapon's odds (:func:`sim.odds.exact.deathwish_table`) in ``fmt``."""
    from sim.odds.exact import WOUND_LEVELS

    if fmt == "json":
        return json.dumps(rows)
    headers = ["weapon", "pen", "leth", "armor", "mean", "P(0)", *WOUND_LEVELS[1:]]
    show: Any = pct if fmt == "table" else (lambda v: v)  # csv: the numbers as they are
    mean: Any = (lambda m: f"{m:.3f}") if fmt == "table" else (lambda v: v)
    body = [
        [
            r["weapon"],
            r["penetration"],
            r["lethality"],
            r["armor"],
            mean(r["mean"]),
            show(r["p_zero"]),
            *(show(r["wounds"][w]) for w in WOUND_LEVELS[1:]),
        ]
        for r in rows
    ]
    return emit(fmt, rows, headers, body, title)


def deathwish_odds_text(data: Mapping[str, Any], fmt: str, title: str) -> str:
    """One attack's damage and wound odds (:func:`sim.odds.exact.deathwish_odds`) in ``fmt``.

    The table format ends its title with the mean damage and P(0) and adds the wound table.
    """
    from sim.odds.exact import WOUND_LEVELS

    headers = ["damage", "P", "P(at least)"]
    probs = list(data["damage"].values())
    tails = list(accumulate(reversed(probs)))[::-1]  # P(damage >= d)
    show = pct if fmt == "table" else float
    dmg_rows = [
        [int(d), show(p), show(t)] for d, p, t in zip(data["damage"], probs, tails, strict=True)
    ]
    if fmt != "table":
        return emit(fmt, data, headers, dmg_rows)
    wounds = render_table(["wound", "P"], [[w, pct(data["wounds"][w])] for w in WOUND_LEVELS])
    title += f"\nmean damage {data['mean']:.4g}, P(0 damage) {pct(data['p_zero'])} (exact)"
    return f"{emit('table', data, headers, dmg_rows, title)}\n\n{wounds}"


def twowp_odds_text(data: Mapping[str, Any], defence: int, fmt: str) -> str:
    """Felling and wounding hits through defence dice (:func:`sim.odds.exact.twowp_odds`)."""
    if fmt == "json":
        return json.dumps({"attack_dice": data["attack_dice"], "outcomes": data["outcomes"]})
    rows = [
        [o["felling"], o["wounding"], pct(o["p"]) if fmt == "table" else o["p"]]
        for o in data["outcomes"]
    ]
    title = (
        f"2W2P melee: {data['attack_dice']} attack dice against {defence} defence dice; hits "
        f"that get through (exact)\nmean felling {data['mean_felling']:.4g}, "
        f"mean wounding {data['mean_wounding']:.4g}"
    )
    return emit(fmt, data, ["felling", "wounding", "P"], rows, title)


def wargame_odds_text(data: Mapping[str, Any], dice: int, armor: int, mode: str, fmt: str) -> str:
    """Damage of spent HD against an armor pool (:func:`sim.odds.exact.wargame_odds`)."""
    rows = [[int(k), pct(p) if fmt == "table" else p] for k, p in data["damage"].items()]
    title = (
        f"War Game: {dice} HD spent ({mode}) against an armor pool of {armor}\n"
        f"mean damage {data['mean']:.4g}, P(wound) {pct(data['p_wound'])} (exact)"
    )
    return emit(fmt, data, ["damage", "P"], rows, title)


def d6_odds_text(data: Mapping[str, Any], fmt: str) -> str:
    """The chance of each damage-table tier (:func:`sim.odds.exact.d6_odds`)."""
    rows = [[t, pct(p) if fmt == "table" else p] for t, p in data["tiers"].items()]
    title = f"D6 tiers: damage {data['damage']} against body {data['body']} (exact; ties to body)"
    return emit(fmt, data, ["tier", "P"], rows, title)


def dice_odds_text(data: Mapping[str, Any], fmt: str) -> str:
    """Any dice expression's odds (:func:`sim.odds.exact.dice_odds`) in ``fmt``."""
    probs = data["p"]
    if data["opposed"]:
        rows = [[k, pct(p) if fmt == "table" else p] for k, p in probs.items()]
        headers = ["outcome", "P"]
        title = f"{data['expression']}: {data['describe']} (exact, icepool)"
    else:
        tails = data["p_at_least"]
        show: Any = pct if fmt == "table" else (lambda v: v)
        rows = [[int(k), show(p), show(tails[k])] for k, p in probs.items()]
        headers = ["value", "P", "P(at least)"]
        title = (
            f"{data['expression']}: {data['describe']} (exact, icepool)\n"
            f"mean {data['mean']:.4g}, sd {data['sd']:.4g}"
        )
    return emit(fmt, data, headers, rows, title)


def check_text(check: Mapping[str, Any], fmt: str, headline: tuple[str, str] | None = None) -> str:
    """A simulated cross-check (:func:`sim.odds.exact.cross_check`): a table and a verdict.

    ``headline`` (a label and an outcome) adds the one-line form, "P(first higher): exact
    43.75%, simulated 43.6% ± 0.4".
    """
    if fmt == "json":
        return json.dumps(check)
    rows = [
        [r["outcome"], pct(r["exact"]), pct(r["simulated"]), f"{100 * r['band']:#.2g}".rstrip(".")]
        for r in check["rows"]
    ]
    n = check["rolls"]
    table = render_table(["outcome", "exact", "simulated", "± (95%)"], rows)
    lines = [
        f"simulated: {n:,} rolls (seed {check['seed']}) through {check['via']}, "
        f"the battles' own code",
        "",
        table,
        "",
        f"{check['outside']} of {len(rows)} outcomes outside their 95% band "
        "(by chance alone, up to about 1 in 20 may be)",
    ]
    if check["impossible"]:
        lines.append(f"simulated outcomes the exact table lacks: {', '.join(check['impossible'])}")
    if headline is not None:
        label, key = headline
        r = next(r for r in check["rows"] if r["outcome"] == key)
        lines.append(
            f"{label}: exact {pct(r['exact'])}, simulated {100 * r['simulated']:.1f}% "
            f"± {100 * r['band']:.1f}"
        )
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------
# the option catalogue (sim options)


def options_text(rows: Sequence[Mapping[str, Any]], fmt: str) -> str:
    """The catalogue's rows (:func:`sim.cli.catalogue.option_rows`) in ``fmt``."""
    if fmt == "json":
        return json.dumps(rows, default=str)
    table = [
        [
            r["system"],
            r["name"],
            r["default"],
            r["tag"] or "",
            ", ".join(map(str, r["choices"])) if r["choices"] else "",
            r["doc"],
        ]
        for r in rows
    ]
    return emit(fmt, rows, ["group", "option", "default", "tag", "choices", "meaning"], table)


def tables_text(listings: Sequence[Listing], fmt: str) -> str:
    """``sim tables``: each listing (:func:`sim.cli.catalogue.table_listings`) in ``fmt``."""
    if fmt == "json":
        return json.dumps([t.as_dict() for t in listings])
    parts = []
    for t in listings:
        notes = [
            f"scenario: {t.field}" if t.field else "",
            f"spelling: {t.spelling}" * bool(t.spelling),
        ]
        head = f"{t.title} [{t.system}]" + "".join(f"\n{n}" for n in notes if n)
        body = (
            render_markdown(t.headers, t.rows)
            if fmt == "markdown"
            else render_table(t.headers, t.rows)
        )
        parts.append(f"{head}\n\n{body}")
    return "\n\n".join(parts)


# ---------------------------------------------------------------------------------------
# a scenario (sim validate)


def scenario_line(file: str, sc: Scenario) -> str:
    """``sim validate``'s line for a good file: its name, rules, fighters and map."""
    where = ""
    if sc.map is not None:
        m = sc.map
        where = f", map {m.width} x {m.height} cells of {m.cell_size:g} {m.unit}"
    fighters = sum(len(s.fighters) for s in sc.sides)
    return f"{file}: ok ({sc.name}, {sc.rules}, {fighters} fighters{where})"


def experiment_line(file: str, exp: Any) -> str:
    """``sim validate``'s line for a good experiment: its design, points, runs and seeds."""
    seeds = "shared seeds" if exp.shared_seeds else "independent seeds"
    return (
        f"{file}: ok (experiment {exp.name}, {exp.design} design, {len(exp.points)} points "
        f"x {exp.replicates} replicates = {exp.planned_runs} runs, {seeds}; every point "
        f"checked against {exp.scenario_path})"
    )


def search_line(file: str, search: Any) -> str:
    """``sim validate``'s line for a good search: its design, parameters and budget."""
    names = ", ".join(search.parameters)
    return (
        f"{file}: ok ({search.design} search {search.name} over {names}, at most "
        f"{search.budget:,} battles; every value checked against {search.scenario_path})"
    )


# ---------------------------------------------------------------------------------------
# one run (sim run, sim replay)


def run_json(fought: Fought, seed: int) -> str:
    """``sim run --format json``: the outcome, and the aftermath or campaign summaries."""
    data = {**outcome_json(fought.battle, seed), **after_json(fought)}
    return json.dumps(data, sort_keys=True)


def outcome_json(battle: Battle, seed: int) -> dict[str, Any]:
    """A battle's outcome as ``sim run --format json`` prints it (with its scenario and seed)."""
    return {
        "scenario": battle.spec.name,
        "rules": battle.rules,
        "seed": seed,
        **battle.outcome().to_dict(),
    }


def render_outcome(battle: Battle, seed: int) -> str:
    """A readable outcome: who won and why, then one line per side."""
    from sim.battle.battle import headline

    out = battle.outcome()
    head = headline(battle, seed)
    statuses = ["active", "fleeing", "fled", "surrendered", "incapacitated", "dead"]
    rows = [
        [
            name,
            c["fighters"],
            *(c[s] for s in statuses),
            c["leader_status"] or "-",
            c["wounds_dealt"],
            c["hd_lost"],
        ]
        for name, c in out.sides.items()
    ]
    table = render_table(["side", "fighters", *statuses, "leader", "wounds dealt", "HD lost"], rows)
    return f"{head}\n\n{table}"


def after_json(fought: Fought) -> dict[str, Any]:
    """The ``aftermath`` and ``campaign`` summaries of a run for ``--format json`` (or {})."""
    from sim.run.campaign import aftermath_summary, campaign_summary

    out: dict[str, Any] = {}
    if fought.campaign:
        out["campaign"] = campaign_summary(fought.campaign)
    if fought.aftermath:  # per battle and side
        out["aftermath"] = aftermath_summary(fought.aftermath)
    return out


def after_text(fought: Fought) -> str:
    """The aftermath or campaign table after a run's outcome ("" for a plain battle)."""
    from sim.run.campaign import aftermath_summary, campaign_summary

    if fought.campaign:
        rows = campaign_summary(fought.campaign)
        head = (
            f"Campaign: {len(rows)} battle{'s' if len(rows) != 1 else ''} over "
            f"{fought.days} days (the outcome above is the last battle's); the company "
            "after each battle and its aftermath days"
        )
        table = render_table(
            ["battle", "day", "winner", "fought", "killed", "died of wounds", "alive", "fit",
             "veterans"],
            [
                [r["label"], r["day"], r["winner"] or "draw", r["fought"], r["killed"],
                 r["died_of_wounds"], r["alive"], r["fit"], r["veterans"]]
                for r in rows
            ],
        )  # fmt: skip
        return f"\n\n{head}\n\n{table}"
    if fought.aftermath:
        rows = aftermath_summary(fought.aftermath)
        days = max(r["days"] for r in rows)
        head = (
            f"Aftermath: {days} day{'s' if days != 1 else ''} (day 0 is the battle's); "
            "fighters alive after the battle and hurt"
        )
        table = render_table(
            ["side", "wounded", "died of wounds", "recovered", "still wounded"],
            [
                [r["side"], r["wounded"], r["died_of_wounds"], r["recovered"], r["still_wounded"]]
                for r in rows
            ],
        )
        return f"\n\n{head}\n\n{table}"
    return ""


# ---------------------------------------------------------------------------------------
# a dataset (sim analyze, sim sweep)


def analyze_text(root: Any, by: Sequence[str] | None = None, fmt: str = "table") -> str:
    """``sim analyze``'s summary of the dataset at ``root`` in ``fmt``."""
    from sim import analysis

    ds = analysis.load(root)
    s = analysis.summarize(ds, by)
    return summary_text(ds, s, fmt)


def summary_text(ds: Any, s: Any, fmt: str) -> str:
    """The summary ``s`` of dataset ``ds`` as ``sim analyze`` prints it in ``fmt``."""
    from sim import analysis

    pairs = analysis.paired(ds, s)  # with shared seeds (common random numbers)
    if fmt == "json":
        objects = analysis.groups_json(ds, s)
        if pairs is not None:
            analysis.paired_json(s, pairs, objects)
        return json.dumps(objects)
    if fmt == "csv":
        return render_csv(*analysis.flat_rows(s))
    name = ds.manifest.get("experiment_name") or ds.root.name
    runs, failed = int(s.frame["runs"].sum()), int(s.frame["failed"].sum())
    groups = len(s.frame)
    head = f"{name}: {runs} runs" + (f" ({failed} failed)" if failed else "")
    if s.by:
        head += f" in {groups} group{'s' if groups != 1 else ''} by {', '.join(s.by)}"
    return "\n\n".join(
        [
            head,
            analysis.outcome_caption(s),
            render_table(*analysis.outcome_rows(s)),
            "Losses: mean fighters per battle by final status; leader lost: share of battles",
            render_table(*analysis.loss_rows(s)),
            *_paired_section(s, pairs),
            *_after_sections(ds, s.by, s.names),
        ]
    )


def answer_text(answer: Mapping[str, Any], root: Any) -> str:
    """A search's answer (``DIR/search/answer.json``) as ``sim sweep`` and ``analyze`` print it."""
    parts = ["\n".join(answer.get("lines", []))]
    for table in answer.get("tables", []):
        parts += [f"{table['title']}:", render_table(table["headers"], table["rows"])]
    charts = [f"{root}/{c['file']}" for c in answer.get("charts", [])]
    if charts:
        parts.append("charts: " + ", ".join(charts))
    return "\n\n".join(parts)


def sensitivity_text(ds: Any, sens: Any, fmt: str) -> str:
    """``sim analyze --sensitivity``'s indices in ``fmt``."""
    from sim.analysis import sensitivity as sa

    if fmt == "json":
        return json.dumps(sa.sensitivity_json(sens))
    if fmt == "csv":
        return render_csv(*sa.sensitivity_rows(sens))
    name = ds.manifest.get("experiment_name") or ds.root.name
    what = {
        "sobol": "Sobol indices: S1 first order, ST total, each with a 95% bootstrap interval",
        "fast": "FAST indices: S1 first order, ST total (95% bootstrap intervals, indicative)",
        "morris": "Morris elementary effects: mu* with a 95% bootstrap interval, sigma",
    }[sens.method]
    head = (
        f"{name}: {sens.method} sensitivity over {sens.points} design points x "
        f"{sens.replicates} replicates (each point's outcome: its mean over its replicates)"
    )
    parts = [head, what, render_table(*sa.sensitivity_rows(sens))]
    if sens.second:
        parts += [
            "Second-order Sobol indices S2 (each pair's interaction), 95% bootstrap intervals",
            render_table(*sa.second_order_rows(sens)),
        ]
    return "\n\n".join(parts)


def _paired_section(s: Any, pairs: Any) -> list[str]:
    """The paired differences of a sweep with shared seeds (none otherwise)."""
    from sim import analysis

    if pairs is None:
        return []
    return [
        "Paired differences from the reference point (seeds: shared, so replicate r met the "
        "same dice at every point): mean per-replicate difference, 95% t interval over pairs",
        render_table(*analysis.paired_rows(s, pairs)),
    ]


def _after_sections(ds: Any, by: Sequence[str], names: Any = None) -> list[str]:
    """The aftermath and campaign tables of ``sim analyze`` (none without those tables)."""
    from sim import analysis

    out = []
    for title, caption, headers, rows in analysis.extra_tables(ds, by, names):
        out += [f"{title}: {caption}", render_table(headers, rows)]
    return out
