"""sim.analysis.report: one self-contained HTML file with every group, table and chart."""

from __future__ import annotations

import base64
import html
import re
from html.parser import HTMLParser

from sim import analysis
from sim.analysis import report
from tests.test_analysis import hand  # noqa: F401  (a fixture)
from tests.test_plots import KINDS, assert_png, sweep_dataset


class Parts(HTMLParser):
    """Collects the tags, image sources and table cells of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.images: list[str] = []
        self.cells: list[str] = []
        self._in_cell = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "img":
            self.images.append(dict(attrs)["src"])
        self._in_cell = tag in ("td", "th")

    def handle_data(self, data):
        if self._in_cell:
            self.cells.append(data)

    def handle_endtag(self, tag):
        self._in_cell = False


def test_the_report_holds_every_group_and_embedded_charts(tmp_path):
    ds = sweep_dataset(tmp_path, KINDS["two parameters"])
    s = analysis.summarize(ds)
    path = report.write(ds, s, tmp_path / "report.html")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    assert 100_000 < len(text) < 2_000_000
    page = Parts()
    page.feed(text)
    assert page.tags.count("table") == 2
    # each group's parameter values appear as a row of both tables
    for _, row in s.frame.iterrows():
        values = [str(row["sides.red.count"]), str(row["sides.blue.tactic"])]
        rows = [page.cells[i : i + 2] for i in range(len(page.cells) - 1)]
        assert rows.count(values) == 2, f"group {values} is not in both tables"
    assert len(page.images) == 3
    for src in page.images:
        prefix = "data:image/png;base64,"
        assert src.startswith(prefix)
        data = base64.b64decode(src[len(prefix) :])
        assert_png(data, 1000, 550)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", text), "external resource"


def test_the_report_escapes_what_it_shows(tmp_path):
    ds = sweep_dataset(tmp_path, {"sides.red.tactic": ["<b>bold</b>", "plain"]})
    text = report.render(ds, analysis.summarize(ds))
    assert "<b>bold</b>" not in text and html.escape("<b>bold</b>") in text


def test_the_report_adds_aftermath_and_campaign_tables(tmp_path, hand):  # noqa: F811
    from sim.dataset import records
    from tests.test_analysis import after_row, camp_row

    rows = [after_row(i, "x", 0, "dead", True, False) for i in range(5)]
    records.write_part(hand.root, "aftermath", rows, "000000")
    records.write_part(hand.root, "campaign", [camp_row(1, 1, "x", "active", "hero")], "000000")
    page = Parts()
    page.feed(report.render(hand, analysis.summarize(hand)))
    assert page.tags.count("table") == 4
    assert any("battle 1" in c for c in page.cells), "the campaign table's battle"
    assert "red" in page.cells, "the aftermath table's side"
