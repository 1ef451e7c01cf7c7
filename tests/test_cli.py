import json
import subprocess
import sys

import pytest

from sim.cli import main
from sim.cli.text import pct, render_table


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_deathwish_json_is_one_object(capsys):
    code, out, err = run(capsys, "odds", "deathwish", "--weapon", "glock 18", "--format", "json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert set(data) == {"mean", "p_zero", "damage", "wounds"}
    assert data["mean"] == 2.0 and data["p_zero"] == 0.36
    assert set(data["wounds"]) == {"none", "slight", "moderate", "serious", "critical"}
    assert all(isinstance(k, str) and k.isdigit() for k in data["damage"])


def test_deathwish_whole_table(capsys):
    code, out, _ = run(capsys, "odds", "deathwish")
    assert code == 0
    assert "Glock 18" in out and "M2HB" in out and "40.96%" in out


def test_deathwish_custom_attack_and_body_strength(capsys):
    code, out, _ = run(
        capsys,
        "odds",
        "deathwish",
        "--penetration",
        "2",
        "--lethality",
        "4",
        "--body",
        "3",
        "--strength",
        "9",
        "--format",
        "json",
    )
    assert code == 0 and json.loads(out)["mean"] == 2.0


def test_deathwish_named_armor_counts_only_on_the_struck_location(capsys):
    args = ("odds", "deathwish", "--weapon", "Glock 20", "--armor", "light vest")
    code, out, _ = run(capsys, *args, "--location", "head")
    assert code == 0
    assert out.splitlines()[0] == (
        "Deathwish: Glock 20 (penetration 2, lethality 8) against armor 0, cover 0, head, "
        "standard; TT 5 (thresholds 1/3/5/10)"
    )
    code, out, _ = run(capsys, *args, "--location", "vitals")
    assert "against armor 1," in out.splitlines()[0]


def test_deathwish_csv(capsys):
    code, out, _ = run(capsys, "odds", "deathwish", "--weapon", "M16", "--format", "csv")
    assert code == 0
    assert out.splitlines()[0] == "damage,P,P(at least)"


def test_2w2p_json(capsys):
    code, out, _ = run(
        capsys, "odds", "2w2p", "--attackers", "fresh=2", "--defence", "1", "--format", "json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["attack_dice"] == 2
    assert sum(o["p"] for o in data["outcomes"]) == pytest.approx(1.0)
    assert set(data["outcomes"][0]) == {"felling", "wounding", "p"}


def test_wargame_and_d6_tables(capsys):
    code, out, _ = run(capsys, "odds", "wargame", "--dice", "2", "--armor", "4")
    assert code == 0 and "P(wound)" in out
    code, out, _ = run(capsys, "odds", "d6", "--damage", "4D+1", "--body", "3D")
    assert code == 0 and "stunned" in out.lower()


def test_options_lists_every_system(capsys):
    code, out, _ = run(capsys, "options", "--format", "json")
    assert code == 0
    systems = {r["system"] for r in json.loads(out)}
    assert systems == {"wargame", "2w2p", "deathwish", "d6", "battle", "tactic"} | {
        "2w2p-aftermath",
        "deathwish-aftermath",
        "d6-aftermath",
        "camp",
        "campaign",
    }


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["odds", "deathwish", "--weapon", "glok 18"], "did you mean 'Glock 18'"),
        (["odds", "d6", "--damage", "4X", "--body", "3D"], "'4X'"),
        (["odds", "wargame", "--dice", "0"], "dice must be"),
        (["odds", "deathwish", "--tt", "0"], "trauma tolerance"),
        (["odds", "deathwish", "--armor", "-2"], "armor"),
        (["odds", "2w2p", "--attack", "-3"], "attack dice"),
        (["odds", "2w2p", "--attackers", "grean=2"], "did you mean"),
        (["odds", "deathwish", "--location", "leg"], "location"),
        (["odds", "wargame", "--dice", "two"], "invalid int value"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys, argv, needle):
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    _, err = capsys.readouterr()
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert needle in err and "Traceback" not in err


def test_console_script_bad_weapon_has_no_traceback():
    proc = subprocess.run(
        [sys.executable, "-m", "sim", "odds", "deathwish", "--weapon", "glok 18"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.strip().count("\n") == 0 and "Traceback" not in proc.stderr


def test_pct_and_table_helpers():
    assert pct(0) == "0%" and pct(0.4096) == "40.96%" and pct(0.0000128) == "0.0013%"
    table = render_table(["a", "b"], [["x", 1], ["yy", 22]])
    assert table.splitlines()[2] == "x    1"
