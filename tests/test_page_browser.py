"""The replay page in a real browser: headless Chromium driven through chromedriver.

Opens a page written by ``sim run --html``, steps to a round with the page's own buttons,
and checks what the page shows against the battle's own rows; then a screenshot that is
not blank. Skipped only where Chromium or its driver is not installed (``.ci/run`` installs
Debian's ``chromium`` and ``chromium-driver``).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sim.run.core import fight
from sim.scenario import load_scenario
from tests.test_cli_frames import assert_picture
from tests.test_cli_run import run

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="needs Debian's chromium and chromium-driver (apt-get install chromium "
    "chromium-driver; .ci/run does it)",
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module's tests."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium (the test extra)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    options.add_argument("--window-size=1300,1150")
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    yield driver
    driver.quit()


def page_of(capsys: Any, tmp_path: Path, scenario: str, seed: int) -> Path:
    out = tmp_path / f"{Path(scenario).stem}.html"
    code, _, err = run(capsys, "run", ROOT / scenario, "--seed", seed, "--html", out)
    assert code == 0, err
    return out


def texts(driver: Any, css: str) -> list[str]:
    from selenium.webdriver.common.by import By

    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, css)]


def test_stepping_shows_the_battles_own_round(browser, capsys, tmp_path):
    from selenium.webdriver.common.by import By

    path = page_of(capsys, tmp_path, "scenarios/bridge.yaml", 1)
    battle = fight(load_scenario(ROOT / "scenarios/bridge.yaml"), 1, events=True).battle
    browser.get(path.as_uri())
    assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1"
    assert browser.find_element(By.ID, "round-label").text == "deployment (of 4 rounds)"
    for _ in range(2):
        browser.find_element(By.ID, "forward").click()
    assert browser.find_element(By.ID, "round-label").text == "round 2 of 4"
    assert browser.find_element(By.ID, "slider").get_attribute("value") == "2"

    # the sides' counts: the rounds table's row of round 2
    shown = texts(browser, "#counts tr[data-side]")
    rows = [r for r in battle.round_rows if r["round"] == 2]
    assert shown == [f"{r['side']} {r['active']} {r['fleeing']} {r['hd']}" for r in rows]

    # every fighter on the map where and as the battle's state after round 2 says
    marks = browser.find_elements(By.CSS_SELECTOR, "#field .fighter")
    on_map = {m.get_attribute("data-name"): m.get_attribute("data-status") for m in marks}
    expected = {
        f.name: st[0].value
        for f, st in zip(battle.roster, battle.states[2], strict=True)
        if st[0].value != "fled"
    }
    assert on_map == expected

    # the narrative of round 2, line for line
    told = [line.partition(": ")[2] for line in battle.narrative() if line.startswith("round 2:")]
    assert texts(browser, "#narrative li") == told

    # a click on a fighter shows its state after round 2
    i = next(i for i, f in enumerate(battle.roster) if f.name == "Horatius")
    status, hd, armor, taken, dealt = battle.states[2][i]
    browser.find_element(By.CSS_SELECTOR, '#field .fighter[data-name="Horatius"]').click()
    details = dict(
        zip(texts(browser, "#fighter-state th"), texts(browser, "#fighter-state td"), strict=True)
    )
    hd_start = battle.roster[i].hd_start
    assert details["status"] == status.value and details["HD"] == f"{hd} of {hd_start}"
    assert (details["armor"], details["wounds taken"], details["wounds dealt"]) == (
        str(armor),
        str(taken),
        str(dealt),
    )

    shot = tmp_path / "replay.png"
    assert browser.save_screenshot(str(shot))
    assert_picture(shot)


def test_a_battle_without_a_map_shows_its_sides_as_columns(browser, capsys, tmp_path):
    from selenium.webdriver.common.by import By

    path = page_of(capsys, tmp_path, "scenarios/skirmish.yaml", 1)
    battle = fight(load_scenario(ROOT / "scenarios/skirmish.yaml"), 1).battle
    browser.get(path.as_uri())
    last = len(battle.states) - 1
    browser.find_element(By.ID, "forward").click()
    browser.find_element(By.ID, "forward").click()
    browser.find_element(By.ID, "forward").click()  # past the end: stays on the last round
    assert browser.find_element(By.ID, "round-label").text == f"round {last} of {last}"
    assert texts(browser, ".column h3") == list(battle.sides)
    cards = browser.find_elements(By.CSS_SELECTOR, ".column .card")
    assert [c.get_attribute("data-name") for c in cards] == [
        f.name for s in battle.sides for f in battle.roster if f.side == s
    ]
    by_name = {f.name: st for f, st in zip(battle.roster, battle.states[last], strict=True)}
    for c in cards:
        st = by_name[c.get_attribute("data-name")]
        assert c.get_attribute("data-status") == st[0].value
        assert c.find_element(By.CLASS_NAME, "state").text == f"{st[0].value}, {st[1]} HD"


def assert_untouched(browser: Any) -> None:
    """The page ran its own script to the end, and nothing a name injected ran."""
    from selenium.webdriver.common.by import By

    assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1"
    assert browser.execute_script("return document.scripts.length") == 2
    assert browser.execute_script("return window.__pwned === undefined")
    assert browser.execute_script("return document.querySelectorAll('img, iframe').length") == 0


def test_hostile_names_are_shown_as_text_and_nothing_runs(browser, capsys, tmp_path):
    from selenium.webdriver.common.by import By

    from tests.test_hostile_pages import hostile_scenario

    path = hostile_scenario(tmp_path)
    out = tmp_path / "hostile.html"
    code, _, err = run(capsys, "run", path, "--seed", 3, "--html", out)
    assert code == 0, err
    battle = fight(load_scenario(path), 3, events=True).battle
    browser.get(out.as_uri())
    assert_untouched(browser)
    assert browser.title.startswith(battle.spec.name)
    legend = browser.find_element(By.ID, "legend").text
    assert all(side in legend for side in battle.sides)
    marks = browser.find_elements(By.CSS_SELECTOR, "#field .fighter")
    assert {m.get_attribute("data-name") for m in marks} == {f.name for f in battle.roster}
    for _ in range(len(battle.states)):
        browser.find_element(By.ID, "forward").click()
    assert_untouched(browser)


@pytest.mark.slow
def test_any_names_on_the_page_run_nothing_in_the_browser(browser, tmp_path):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from sim import page
    from tests.test_hostile_pages import HOSTILE, battle

    @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(HOSTILE, min_size=4, max_size=4, unique=True))
    def check(names: list[str]) -> None:
        out = tmp_path / "page.html"
        out.write_text(page.render({"battles": [battle(names)]}), encoding="utf-8")
        browser.get(out.as_uri())
        assert_untouched(browser)
        assert browser.execute_script(
            "return JSON.parse(document.getElementById('battle-data').textContent)"
        ) == {"battles": [battle(names)]}

    check()


def readme_screenshot(out: Path) -> None:
    """The README's picture: ``python -m tests.test_page_browser docs/img/replay.png``."""
    import subprocess
    import sys
    import tempfile

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "bridge.html"
        cmd = [sys.executable, "-m", "sim", "run", "scenarios/bridge.yaml", "--html", str(page)]
        subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True)
        options = webdriver.ChromeOptions()
        options.binary_location = str(CHROMIUM)
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1300,1000"):
            options.add_argument(arg)
        driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
        try:
            driver.get(page.as_uri())
            for _ in range(2):
                driver.find_element(By.ID, "forward").click()
            driver.find_element(By.CSS_SELECTOR, '#field .fighter[data-name="Horatius"]').click()
            driver.save_screenshot(str(out))
        finally:
            driver.quit()


if __name__ == "__main__":
    import sys

    readme_screenshot(Path(sys.argv[1]))
