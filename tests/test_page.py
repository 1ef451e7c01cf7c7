"""sim run/replay --html: the replay page, one self-contained HTML file (sim.page).

The page's data is checked here against the battle's own rows; tests/test_page_browser.py
opens the page in a real headless Chromium.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from sim import page
from sim.run.core import fight
from sim.scenario import load_scenario
from tests.test_cli_run import run

ROOT = Path(__file__).resolve().parents[1]
BRIDGE = ROOT / "scenarios/bridge.yaml"
SKIRMISH = ROOT / "scenarios/skirmish.yaml"


def data_of(path: Path) -> dict:
    """The JSON data block of a written page."""
    text = path.read_text(encoding="utf-8")
    blob = re.search(r'<script type="application/json" id="battle-data">(.*?)</script>', text, re.S)
    assert blob is not None
    return json.loads(blob.group(1))


def test_run_writes_a_self_contained_page(capsys, tmp_path):
    out = tmp_path / "replay.html"
    code, stdout, err = run(capsys, "run", BRIDGE, "--seed", "1", "--html", out)
    assert code == 0, err
    assert err == f"replay page: {out}\n"
    assert stdout.startswith("bridge (wargame), seed 1: raiders won")
    html = out.read_text(encoding="utf-8")
    # nothing fetched from anywhere: no external script, style, image or font
    assert not re.search(r"<(script|link|img|iframe)[^>]*\b(src|href)=", html)
    assert "@import" not in html and "url(" not in html
    assert re.findall(r"https?://[^\"' ]+", html) == ["http://www.w3.org/2000/svg"]
    assert "function drawMap" in html and "#controls" in html, "script and styles inline"
    for part in ("play", "slider", "field", "narrative", "chart-active", "chart-hd", "details"):
        assert f'id="{part}"' in html


def test_the_page_data_are_the_battles_own_rows(tmp_path):
    fought = fight(load_scenario(BRIDGE), 1, events=True)
    b = fought.battle
    data = page.page_data(fought, 1)["battles"][0]
    assert data["rounds"] == b.outcome().rounds == len(data["states"]) - 1
    for r, row in enumerate(b.states):
        for f, st, shown in zip(b.roster, row, data["states"][r], strict=True):
            assert shown[:5] == [st[0].value, st[1], st[2], st[3], st[4]], (r, f.name)
    for rr in b.round_rows:
        c = data["counts"][rr["side"]]
        assert (c["active"][rr["round"]], c["hd"][rr["round"]]) == (rr["active"], rr["hd"])
    told = [f"round {r}: {line}" for r, rnd in enumerate(data["narrative"]) for line in rnd]
    assert told == list(b.narrative())
    assert data["map"]["width"] == b.field.spec.width


def test_a_mapless_battle_has_no_map_and_no_cells(capsys, tmp_path):
    out = tmp_path / "s.html"
    assert run(capsys, "run", SKIRMISH, "--seed", "3", "--html", out)[0] == 0
    battle = data_of(out)["battles"][0]
    assert battle["map"] is None
    assert {tuple(s[5:]) for rnd in battle["states"] for s in rnd} == {(None, None)}


def test_the_page_never_overwrites_without_force(capsys, tmp_path):
    out = tmp_path / "replay.html"
    out.write_text("mine")
    code, stdout, err = run(capsys, "run", SKIRMISH, "--seed", "3", "--html", out)
    assert (code, stdout) == (2, "")
    assert err == (
        f"sim run: error: --html {out}: the file exists; choose another name, or add --force "
        "to replace it\n"
    )
    assert out.read_text() == "mine"
    assert run(capsys, "run", SKIRMISH, "--seed", "3", "--html", out, "--force")[0] == 0
    assert data_of(out)["battles"][0]["seed"] == 3
    code, _, err = run(capsys, "run", SKIRMISH, "--html", tmp_path)
    assert err == f"sim run: error: --html {tmp_path}: is a directory, not a file name\n"


def test_replay_writes_the_page_of_a_stored_run_and_a_campaign_has_each_battle(capsys, tmp_path):
    ds = tmp_path / "ds"
    assert run(capsys, "run", ROOT / "scenarios/campaign.yaml", "--seed", "2", "--out", ds)[0] == 0
    out = tmp_path / "c.html"
    code, stdout, err = run(capsys, "replay", ds, "--run", "0", "--html", out)
    assert code == 0, err
    battles = data_of(out)["battles"]
    fought = fight(load_scenario(ROOT / "scenarios/campaign.yaml"), 2)
    assert len(battles) == len(fought.battles) > 1
    assert [b["rounds"] for b in battles] == [x.outcome().rounds for x in fought.battles]
    assert all(b["label"] for b in battles)
