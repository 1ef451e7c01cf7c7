"""Hostile names through every page, report, chart and export (issue 34).

A name may hold anything a scenario reader lets through: ``</script>``, ``<!--``, a
template's placeholder, an ``onerror`` attribute, ``$...$`` mathtext, a spreadsheet formula.
The replay page and the analysis report are parsed by a real HTML5 parser (html5lib): the
page's scripts and data must be intact and every name must come back as text, never as
markup; every chart must draw each text literally; a CSV cell a spreadsheet would run is
neutralised.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim import analysis
from sim.analysis import report
from tests.test_analysis import make_dataset, run, side

html5lib = pytest.importorskip("html5lib", reason="html5lib (the test extra)")

NS = "{http://www.w3.org/1999/xhtml}"
ROOT = Path(__file__).resolve().parents[1]

FRAGMENTS = [
    "</script><script>window.__pwned=1</script>",
    "<script>window.__pwned=1</script>",
    "<img src=x onerror=window.__pwned=1>",
    "<!--",
    "-->",
    "<!--<script>",
    "</title><script>window.__pwned=1</script>",
    "</style>",
    "/*DATA*/",
    "/*SCRIPT*/",
    "/*STYLE*/",
    "<!--TITLE-->",
    "{{ 7*7 }}",
    "{% raw %}",
    "&amp;",
    "&lt;b&gt;",
    "\"'`",
    "]]>",
    "<![CDATA[",
    "$\\alpha$",
    "$x^2$",
    "$",
    '=HYPERLINK("http://x")',
    "@SUM(A1)",
    "+1",
    "-1",
    "\\",
    "\u00e9",
    "\u05d0",  # a right-to-left letter (not a control character)
]
PRINTABLE = st.characters(blacklist_categories=("Cs", "Cc", "Cf", "Zl", "Zp", "Co", "Cn"))
HOSTILE = st.lists(
    st.sampled_from(FRAGMENTS) | st.text(PRINTABLE, min_size=1, max_size=4), min_size=1, max_size=4
).map("".join)
"""A name a scenario reader accepts, made of pieces that break pages and charts."""
NAME = HOSTILE.filter(lambda s: s.strip() == s and s and "." not in s)


def parse(text: str) -> Any:
    """The page as an html5lib element tree."""
    return html5lib.parse(text, treebuilder="etree", namespaceHTMLElements=True)


def texts(tree: Any) -> str:
    """Every text node of the page's body, joined."""
    return "".join(tree.find(f"{NS}body").itertext())


def assert_no_markup_from_data(tree: Any, allowed: set[str]) -> None:
    """Only the template's own elements, and no event-handler attributes."""
    for el in tree.iter():
        tag = str(el.tag).removeprefix(NS)
        assert tag in allowed, f"an element <{tag}> that the template does not have"
        assert not any(str(a).lower().startswith("on") for a in el.attrib), el.attrib


# --------------------------------------------------------------------------- the replay page


def battle(names: list[str]) -> dict[str, Any]:
    """A battle's page data (the shape of :func:`sim.page.battle_data`) full of ``names``."""
    a, b, c, d = (names * 4)[:4]
    return {
        "title": f"{a} (wargame), seed 1: won by {b}",
        "label": c,
        "scenario": d,
        "rules": "wargame",
        "seed": 1,
        "winner": b,
        "end_reason": "defeat",
        "rounds": 1,
        "sides": [{"name": a, "color": "#1f77b4"}, {"name": b, "color": "#d62728"}],
        "fighters": [
            {
                "name": c,
                "side": a,
                "role": "",
                "leader": True,
                "tier": "green",
                "hd_start": 2,
                "arrived": None,
            },
            {
                "name": d,
                "side": b,
                "role": d,
                "leader": False,
                "tier": "green",
                "hd_start": 2,
                "arrived": None,
            },
        ],  # fmt: skip
        "state_fields": ["status", "hd", "armor", "wounds_taken", "wounds_dealt", "x", "y"],
        "states": [[["active", 2, 0, 0, 0, None, None]] * 2] * 2,
        "counts": {s: {"active": [1, 1], "fleeing": [0, 0], "hd": [2, 2]} for s in (a, b)},
        "narrative": [[], [f"{c} attack {d}: {a}"]],
        "map": None,
    }


PAGE_TAGS = {"html", "head", "meta", "title", "style", "body", "header", "h1", "select", "nav"}
PAGE_TAGS |= {"button", "input", "span", "main", "section", "div", "figure", "figcaption", "svg"}
PAGE_TAGS |= {"table", "aside", "p", "h2", "ol", "footer", "code", "script"}
PAGE_TAGS |= {"{http://www.w3.org/2000/svg}svg"}


def assert_page_keeps(data: dict[str, Any]) -> None:
    from sim import page

    tree = parse(page.render(data))
    scripts = list(tree.iter(f"{NS}script"))
    assert [s.get("type") for s in scripts] == ["application/json", None], "two scripts, intact"
    assert scripts[0].get("id") == "battle-data"
    assert json.loads(scripts[0].text) == data, "the data comes back as it went in"
    assert "JSON.parse" in scripts[1].text and "window.__pwned" not in scripts[1].text
    title = tree.find(f"{NS}head/{NS}title")
    assert title.text == data["battles"][0]["title"]
    assert_no_markup_from_data(tree, PAGE_TAGS)


@pytest.mark.parametrize("fragment", FRAGMENTS)
def test_every_hostile_fragment_stays_data_on_the_page(fragment):
    assert_page_keeps({"battles": [battle([fragment, f"x{fragment}y", "b", "c"])]})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(HOSTILE, min_size=4, max_size=4))
def test_any_names_stay_data_on_the_page(names):
    assert_page_keeps({"battles": [battle(names), battle(names[::-1])]})


def test_the_json_block_has_no_markup_characters():
    from sim import page

    text = page.render({"battles": [battle(["<&>", "</script>", "<!--", "\u2028"])]})
    block = text.split('id="battle-data">', 1)[1].split("</script>", 1)[0]
    assert not set("<>&") & set(block) and "\u2028" not in block
    assert "\\u003c/script\\u003e" in block


HOSTILE_SCENARIO = """\
name: "</title><script>window.__pwned=1</script>"
map:
  cell: 5 ft
  picture: |
    11.....22
    11..#..22
sides:
  "</script><script>window.__pwned=1</script>":
    fighters:
      - {name: "<!--<script>", hit_dice: 3, weapon: axe}
      - {name: "$\\\\alpha$ <!--TITLE-->", hit_dice: 2, weapon: spear}
  "<img src=x onerror=window.__pwned=1>":
    fighters:
      - {name: "/*DATA*/ {{ 7*7 }}", hit_dice: 3, weapon: sword}
      - {name: "=HYPERLINK(\\"http://x\\")", hit_dice: 2, weapon: dagger}
"""


def hostile_scenario(tmp_path: Path) -> Path:
    path = tmp_path / "hostile.yaml"
    path.write_text(HOSTILE_SCENARIO, encoding="utf-8")
    return path


def test_sim_run_html_with_hostile_names_is_the_battles_data(tmp_path, capsys):
    from sim import page
    from sim.run.core import fight
    from sim.scenario import load_scenario
    from tests.test_runner import cli

    path = hostile_scenario(tmp_path)
    out = tmp_path / "page.html"
    code, _, err = cli(capsys, "run", path, "--seed", 3, "--html", out)
    assert code == 0, err
    tree = parse(out.read_text(encoding="utf-8"))
    scripts = list(tree.iter(f"{NS}script"))
    assert len(scripts) == 2
    want = page.page_data(fight(load_scenario(path), 3, events=True), 3)
    assert json.loads(scripts[0].text) == json.loads(json.dumps(want))
    assert_no_markup_from_data(tree, PAGE_TAGS)


# --------------------------------------------------------------------------- the report

REPORT_TAGS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "b", "code"}
REPORT_TAGS |= {"div", "table", "thead", "tbody", "tr", "th", "td", "img", "pre"}


def hostile_dataset(root: Path, names: list[str]) -> Any:
    """A hand-made dataset whose sides, parameter values and manifest texts are ``names``."""
    a, b, c, d = (names * 4)[:4]
    rows = [
        run(0, c, a, 3, [side(a, dead=1), side(b, dead=2)]),
        run(1, d, b, 4, [side(a, dead=3, active=0), side(b)]),
        run(2, c, None, 5, [side(a, dead=3, active=0), side(b, dead=3, active=0)]),
        run(3, d, a, 2, [side(a), side(b, dead=3)]),
    ]
    make_dataset(root, rows)
    path = root / "manifest.json"
    m = json.loads(path.read_text())
    m.update(
        experiment_name=a,
        sim_version=b,
        scenario_file=c,
        experiment_text=f"{d}\n{a}",
        labels={"arms": d},
    )
    path.write_text(json.dumps(m))
    return analysis.load(root)


def assert_report_keeps(ds: Any, names: list[str]) -> None:
    tree = parse(report.render(ds, analysis.summarize(ds)))
    assert not list(tree.iter(f"{NS}script")), "a report has no script"
    assert_no_markup_from_data(tree, REPORT_TAGS)
    shown = texts(tree) + tree.find(f"{NS}head/{NS}title").text
    for name in names:
        assert name.strip() in shown


def test_a_crafted_manifest_cannot_script_the_report(tmp_path):
    names = [
        "<script>window.__pwned=1</script>",
        "<img src=x onerror=window.__pwned=1>",
        "</title><script>x</script>",
        "{{ 7*7 }} <!--",
    ]
    assert_report_keeps(hostile_dataset(tmp_path / "ds", names), names)


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(NAME, min_size=4, max_size=4, unique=True))
def test_any_names_in_a_dataset_stay_text_in_the_report(tmp_path_factory, names):
    root = tmp_path_factory.mktemp("report") / "ds"
    assert_report_keeps(hostile_dataset(root, names), names)


# --------------------------------------------------------------------------- charts

MATH = ["$\\alpha$", "$x^2$ wins", "$\\undefinedmacro{$", "a $ b $ c"]
"""Names that matplotlib would draw as mathtext, or fail to parse as it."""


def assert_literal(fig: Any, names: list[str]) -> None:
    """The figure draws (every text laid out), each name as written, none as mathtext."""
    from matplotlib.text import Text

    from sim.analysis.plots import png_bytes

    png_bytes(fig)  # draws every text: a name that is bad mathtext would raise here
    shown = [t for t in fig.findobj(Text) if t.get_text()]
    assert not [t.get_text() for t in shown if "$" in t.get_text() and t.get_parse_math()]
    drawn = " ".join(t.get_text() for t in shown)
    assert all(n in drawn for n in names), (names, drawn)


def test_summary_charts_draw_names_literally(tmp_path):
    from sim.analysis import plots

    ds = hostile_dataset(tmp_path / "ds", MATH)
    s = analysis.summarize(ds)
    assert_literal(plots.figure(s, MATH[0], ds), MATH[:2])
    for kind in ("win", "casualties"):
        assert_literal(plots.chart(s, kind), MATH[:2])


def test_frames_draw_names_literally(tmp_path):
    from sim.page import frames
    from sim.run.core import fight
    from sim.scenario import load_scenario

    path = hostile_scenario(tmp_path)
    path.write_text(path.read_text().replace("/*DATA*/ {{ 7*7 }}", "$\\\\undefinedmacro{$"))
    battle = fight(load_scenario(path), 3).battle
    spec, rounds = battle.field.spec, battle.field.snapshots
    sides = list(battle.sides)
    fig = frames.draw(spec, rounds[0], frames.round_title(0, rounds[0], sides, MATH[1]), sides)
    assert_literal(fig, [MATH[1], "$\\undefinedmacro", "$\\alpha$"])  # long names shortened
    # a side's name in the round's title: the title wraps, and matplotlib measures a wrapped
    # line as mathtext whatever text.parse_math says (sim run --gif ended in a traceback)
    title = f"round 1 — {MATH[2]} 3 up, {MATH[3]} 2 up, {MATH[0]} 1 up"
    assert_literal(frames.draw(spec, rounds[0], title, sides), [MATH[2], MATH[0]])


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(NAME, min_size=4, max_size=4, unique=True))
def test_any_names_are_drawn_literally_in_every_chart(tmp_path_factory, names):
    from sim.analysis import plots

    ds = hostile_dataset(tmp_path_factory.mktemp("charts") / "ds", names)
    s = analysis.summarize(ds)
    assert_literal(plots.figure(s, names[0], ds), names[:2])
