"""Hostile input ends in a one-line located error and exit 2, never a traceback (issue 16).

The scenario reader refuses control characters, lone surrogates, empty keys and YAML 1.1's
base-60 numbers; files are read only when they are regular UTF-8 files; an experiment's
name is a name, not a path; the command line turns every filesystem error into one line.
"""

import os
import re
import textwrap
from pathlib import Path

import pytest

from sim.cli import main
from sim.experiment import load_experiment
from sim.scenario import ScenarioError, load_scenario
from tests.scenario.helpers import TWO_SIDES, errors

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = ROOT / "scenarios" / "skirmish.yaml"


def cli(capsys, *argv):
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def one_error(capsys, *argv):
    """Run ``sim ARGV``: it must fail with exit 2 and one line on stderr; that line."""
    code, out, err = cli(capsys, *argv)
    assert code == 2, (code, out, err)
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


# --------------------------------------------------------------------------- the reader


def test_control_characters_in_text_are_refused():
    assert errors('name: "a\\e[31mred"\n' + TWO_SIDES) == [
        "t.yaml:1: name: the text 'a\\x1b[31mred' holds the control character U+001B; text "
        "must be printable"
    ]


def test_a_line_break_is_fine_in_a_description_but_not_in_a_name():
    assert errors('description: "two\\nlines"\nname: "two\\nlines"\n' + TWO_SIDES) == [
        "t.yaml:2: name: the text 'two\\nlines' holds the control character U+000A; text "
        "must be printable"
    ]


def test_control_characters_in_a_fighter_name_are_refused():
    text = TWO_SIDES.replace("{name: a}", '{name: "\\x07bell"}')
    assert errors(text) == [
        "t.yaml:4: sides.red.fighters[0].name: the text '\\x07bell' holds the control "
        "character U+0007; text must be printable"
    ]


def test_a_lone_surrogate_is_refused():
    text = TWO_SIDES.replace("{name: a}", '{name: "a\\ud800"}')
    assert errors(text) == [
        "t.yaml:4: sides.red.fighters[0].name: the text 'a\\ud800' holds a lone surrogate "
        "U+D800, which is not a character"
    ]


def test_control_characters_in_a_key_are_refused():
    text = TWO_SIDES.replace("  blue:", '  "bl\\tue":')
    assert errors(text) == [
        "t.yaml:5: sides: the key 'bl\\tue' holds the control character U+0009; text must be "
        "printable"
    ]


def test_an_empty_side_name_is_refused():
    assert errors(TWO_SIDES.replace("  blue:", '  "":')) == ["t.yaml:5: sides: an empty key"]


def test_a_number_of_thousands_of_digits_is_said_to_be_too_large():
    """Before: Python's 'Exceeds the limit (4300 digits) for integer string conversion'."""
    text = TWO_SIDES.replace("{name: a}", "{name: a, count: " + "9" * 5000 + "}")
    assert errors(text) == [
        f"t.yaml:4: sides.red.fighters[0].count: bad value {'9' * 40!r}: a whole number of "
        "5,000 digits: far too large"
    ]


@pytest.mark.parametrize("value", ["1:30", "-1:30", "1:30:00", "1:30.5"])
def test_base_60_numbers_are_refused(value):
    text = TWO_SIDES.replace("{name: a}", f"{{name: a, hit_dice: {value}}}")
    assert errors(text) == [
        f"t.yaml:4: sides.red.fighters[0].hit_dice: bad value {value!r}: a YAML 1.1 base-60 "
        "number; write the number you mean, or quote it if it is text"
    ]


def test_quoted_text_with_a_colon_is_text():
    text = 'description: "1:30"\n' + TWO_SIDES
    assert load_scenario_text(text).name == "t"


def load_scenario_text(text):
    from sim.scenario import parse_scenario

    return parse_scenario(text, "t.yaml")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_refused_not_read(tmp_path, capsys):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(ScenarioError, match=r"pipe.yaml: not a regular file \(a FIFO"):
        load_scenario(fifo)  # it would block forever if it were opened for reading
    line = one_error(capsys, "validate", fifo)
    assert line == f"{fifo}: not a regular file (a FIFO, socket or device); give a file"


def test_a_non_utf8_scenario_is_located(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"name: ok\ndescription: caf\xe9\n")
    assert one_error(capsys, "run", bad) == f"{bad}:2: not UTF-8 text (byte 25)"


# --------------------------------------------------------------------------- experiments


def write_exp(tmp_path, body, name="exp.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


EXP = f"""\
name: {{name}}
scenario: {SKIRMISH}
parameters:
  max_rounds: [3]
"""


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("../../../escaped", "'../../../escaped' holds a path separator; a name is not a path"),
        ("/tmp/anywhere", "'/tmp/anywhere' holds a path separator; a name is not a path"),
        ("a\\b", "'a\\\\b' holds a path separator; a name is not a path"),
        ("..", "'..' is not a name"),
        ("'.'", "'.' is not a name"),
        ("x" * 101, f"'{'x' * 39}... is 101 characters long; the limit is 100"),
        ("[a, b]", "expected a name (text), got ['a', 'b']"),
    ],
)
def test_an_experiment_name_is_a_name(tmp_path, capsys, monkeypatch, name, problem):
    monkeypatch.chdir(tmp_path)
    path = write_exp(tmp_path, EXP.format(name=name))
    with pytest.raises(ScenarioError) as err:
        load_experiment(path)
    tail = "" if problem.startswith("expected") else " (it names the folder results/<name>/)"
    assert str(err.value) == f"{path}:1: name: {problem}{tail}"
    assert one_error(capsys, "sweep", path, "--limit", 1) == str(err.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["exp.yaml"], "nothing written"


def test_a_file_name_that_is_no_name_needs_a_name(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = write_exp(tmp_path, EXP.format(name="").replace("name: \n", ""), name="...yaml")
    assert one_error(capsys, "sweep", path, "--limit", 1) == (
        f"{path}:1: the file's name '..' is not a name; give the experiment a name"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["...yaml"]


def test_a_plain_name_still_names_the_default_folder(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = write_exp(tmp_path, EXP.format(name="armor 2"))
    assert load_experiment(path).name == "armor 2"


def test_a_non_utf8_experiment_is_located(tmp_path, capsys):
    path = tmp_path / "exp.yaml"
    path.write_bytes(b"name: x\nscenario: \xff\n")
    assert one_error(capsys, "sweep", path) == f"{path}:2: not UTF-8 text (byte 18)"


def test_a_non_utf8_scenario_through_an_experiment_is_located(tmp_path, capsys):
    (tmp_path / "bad.yaml").write_bytes(b"name: \xff\n")
    path = write_exp(tmp_path, "scenario: bad.yaml\nparameters: {max_rounds: [3]}\n")
    assert one_error(capsys, "sweep", path) == (
        f"{path}:1: scenario: cannot read the scenario: {tmp_path / 'bad.yaml'}:1: "
        "not UTF-8 text (byte 6)"
    )


# --------------------------------------------------------------------------- where we write


def test_run_out_refuses_a_folder_that_is_not_empty(tmp_path, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    assert one_error(capsys, "run", SKIRMISH, "--seed", 1, "--out", out) == (
        f"sim run: error: {out}: exists and is not empty; choose another --out"
    )
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    (tmp_path / "file").write_text("x")
    assert one_error(capsys, "run", SKIRMISH, "--seed", 1, "--out", tmp_path / "file") == (
        f"sim run: error: {tmp_path / 'file'}: is a file, not a folder; choose another --out"
    )


def test_gif_never_overwrites_a_file_sim_did_not_draw(tmp_path, capsys):
    from tests.test_cli_frames import scenario

    path = scenario(tmp_path)
    victim = tmp_path / "victim.yaml"
    victim.write_text("name: precious\n")
    assert one_error(capsys, "run", path, "--seed", 1, "--gif", victim) == (
        f"sim run: error: --gif {victim}: is a file that sim did not draw; choose another "
        "name, or add --force to overwrite it"
    )
    assert victim.read_text() == "name: precious\n"
    gif = tmp_path / "fight.gif"
    for _ in range(2):  # a GIF sim drew may be drawn again
        code, _, err = cli(capsys, "run", path, "--seed", 1, "--gif", gif)
        assert code == 0, err
    code, _, err = cli(capsys, "run", path, "--seed", 1, "--gif", victim, "--force")
    assert code == 0, err
    assert victim.read_bytes().startswith(b"GIF8")


# --------------------------------------------------------------------------- no traceback


def test_a_seed_beyond_the_seed_column_is_refused_with_out(tmp_path, capsys):
    assert one_error(capsys, "run", SKIRMISH, "--seed", 2**64, "--out", tmp_path / "o") == (
        f"sim run: error: seed {2**64} does not fit a dataset's seed column (0 to 2**64-1); "
        "run it without --out, or choose a smaller seed"
    )
    assert not (tmp_path / "o").exists()


def test_a_parameter_beyond_64_bits_is_refused_before_the_first_run(tmp_path, capsys):
    path = write_exp(tmp_path, f"scenario: {SKIRMISH}\nparameters:\n  max_rounds: [{2**63}]\n")
    code, _, err = cli(capsys, "sweep", path, "--out", tmp_path / "o", "--executor", "serial")
    assert code == 2
    assert err.strip() == (
        f"{path}:3: parameters.max_rounds: must be 1..10000, got 9223372036854775808 "
        "(design point 0)"
    )
    assert not (tmp_path / "o").exists()


def test_replay_of_a_run_id_beyond_64_bits_is_one_line(tmp_path, capsys):
    out = tmp_path / "o"
    assert cli(capsys, "run", SKIRMISH, "--seed", 1, "--out", out)[0] == 0
    assert one_error(capsys, "replay", out, "--run", 10**30) == (
        f"sim replay: error: {out}: no run {10**30} (run ids: 0..0)"
    )


@pytest.mark.parametrize("flag", ["--report", "--plot"])
def test_a_report_or_plot_into_a_folder_is_one_line(tmp_path, capsys, flag):
    out = tmp_path / "o"
    assert cli(capsys, "run", SKIRMISH, "--seed", 1, "--out", out)[0] == 0
    assert one_error(capsys, "analyze", out, flag, tmp_path) == (
        f"sim analyze: error: {tmp_path}: is a directory, not a file name"
    )


def test_a_file_name_too_long_is_one_line(tmp_path, capsys):
    path = write_exp(tmp_path, EXP.format(name="long"))
    out = tmp_path / ("x" * 300)
    assert one_error(capsys, "sweep", path, "--out", out) == (
        f"sim sweep: error: {out}: File name too long"
    )


def test_a_malformed_scheduler_leaves_no_dataset(tmp_path, capsys):
    pytest.importorskip("distributed")
    path = write_exp(tmp_path, EXP.format(name="dask"))
    out = tmp_path / "o"
    line = one_error(
        capsys, "sweep", path, "--out", out, "--executor", "dask", "--scheduler", "nope://x"
    )
    assert line.startswith("sim sweep: error: --scheduler nope://x: cannot reach it: unknown ")
    assert not out.exists(), "no manifest-only dataset left behind"


def test_stray_and_garbage_files_in_runs_are_ignored(tmp_path, capsys):
    path = write_exp(tmp_path, EXP.format(name="stray"))
    out = tmp_path / "o"
    assert cli(capsys, "sweep", path, "--out", out, "--executor", "serial")[0] == 0
    (out / "runs" / "part-999999.parquet").write_bytes(b"not parquet")
    (out / "runs" / "part-dir.parquet").mkdir()
    for argv in (["analyze", out], ["replay", out, "--run", 0]):
        code, _, err = cli(capsys, *argv)
        assert code == 0, err
        assert "Traceback" not in err
    code, _, err = cli(capsys, "analyze", out)
    assert "ignored 2 files the manifest does not list" in err
    code, stdout, err = cli(capsys, "sweep", path, "--out", out, "--resume")
    assert code == 0, err


# --------------------------------------------------------------------------- bounds

BIG_AFTERMATH = """\
rules: {system: 2w2p}
aftermath: {days: DAYS}
sides:
  red:
    fighters:
      - {name: a, count: 500}
  blue:
    fighters:
      - {name: b, count: 500}
"""


def test_an_aftermath_is_bounded_in_fighter_days():
    assert errors(BIG_AFTERMATH.replace("DAYS", "3650")) == [
        "t.yaml:2: aftermath.days: 3650 days x 1000 fighters is 3650000 fighter-days (a row "
        "each); the limit is 500000: fewer days or fighters"
    ]
    assert load_scenario_text(BIG_AFTERMATH.replace("DAYS", "500")).aftermath.days == 500


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (
            ["deathwish", "--penetration", 10**9, "--lethality", 10],
            "penetration must be 0..100, got 1000000000",
        ),
        (
            ["2w2p", "--attack", 100, "--defence", 100],
            "100 attack dice x 100 defence dice is over the limit of 2500 (an exact table that "
            "size takes minutes)",
        ),
        (
            ["d6", "--damage", "1000D", "--body", "3D"],
            "1000D against 3D is 1003 dice; the limit is 100 together",
        ),
    ],
)
def test_odds_inputs_are_bounded(capsys, argv, line):
    assert one_error(capsys, "odds", *argv) == f"sim odds: error: {line}"


@pytest.mark.parametrize("workers", [0, -3])
def test_fewer_than_one_worker_is_refused(tmp_path, capsys, workers):
    path = write_exp(tmp_path, EXP.format(name="w"))
    assert one_error(capsys, "sweep", path, "--out", tmp_path / "o", "--workers", workers) == (
        f"sim sweep: error: --workers must be 1 or more, got {workers}"
    )
    assert not (tmp_path / "o").exists()


def test_more_workers_than_cpus_is_a_warning(tmp_path, capsys):
    path = write_exp(tmp_path, EXP.format(name="w"))
    many = (os.cpu_count() or 1) + 1
    code, _, err = cli(
        capsys, "sweep", path, "--out", tmp_path / "o", "--workers", many, "--executor", "serial"
    )
    assert code == 0, err
    assert err.splitlines()[0] == (
        f"warning: --workers {many} is more than the {os.cpu_count()} CPUs"
    )


# --------------------------------------------------------------------------- bounds, round two

BIG_CAMPAIGN = """\
rules: {system: 2w2p}
campaign:
  side: red
  days_between: 3650
  battles: [BATTLES]
sides:
  red:
    fighters:
      - {name: a, count: 10}
  blue:
    fighters:
      - {name: b, count: 10}
"""


def test_a_campaign_is_bounded_in_fighter_days():
    text = BIG_CAMPAIGN.replace("BATTLES", ", ".join(["{}"] * 100))
    assert errors(text) == [
        "t.yaml:4: campaign.days_between: 100 battles, each with 3650 days after it, make "
        "7300000 fighter-days (a row each: every fighter of a battle, every day after it); "
        "the limit is 500000: fewer battles, days or fighters"
    ]
    small = BIG_CAMPAIGN.replace("3650", "7").replace("BATTLES", "{}, {}")
    assert load_scenario_text(small).campaign.days_between == 7


@pytest.mark.parametrize("expr", ["d1000", "d%+d%", "d6!"])
def test_big_dice_are_exact_without_a_traceback(capsys, expr):
    code, out, err = cli(capsys, "odds", "dice", expr)
    assert code == 0 and err == "", err


@pytest.mark.parametrize(
    "expr",
    ["100d1000", "100d6!", "10d100!", "+".join(["d100"] * 100), "100d100kh50", "3d1000kh2"],
)
def test_dice_too_costly_are_refused_at_once(capsys, expr):
    import time

    start = time.monotonic()
    line = one_error(capsys, "odds", "dice", expr)
    assert time.monotonic() - start < 3, "refused before the work"
    assert line.startswith(f"sim odds: error: dice expression {expr!r}: "), line
    assert "the limit is" in line


def test_a_check_too_large_is_refused_before_the_table(capsys):
    assert one_error(capsys, "odds", "dice", "100d6", "--check", 10_000_000) == (
        "sim odds: error: --check 10000000 of '100d6' rolls about 1,000,000,000 dice; the "
        "limit is 100,000,000: fewer rolls"
    )


@pytest.mark.slow
def test_a_check_at_its_limit_runs_in_bounded_memory(tmp_path):
    """100,000,000 dice (800 MB as one array) checked in batches: the peak grows by far less.

    The peak is measured against the same command checking 100,000 dice, so that what the
    process holds anyway (its imports, a coverage tracer under CI) does not count.
    """
    import subprocess
    import sys

    def peak_kb(checks: int) -> int:
        probe = (
            "import resource, sys\n"
            "from sim.cli import main\n"
            f"code = main(['odds', 'dice', '100d6', '--check', '{checks}'])\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
            "sys.exit(code)\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", probe],
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        return int(done.stderr.strip().splitlines()[-1])

    grown = peak_kb(1_000_000) - peak_kb(1_000)
    assert grown < 400_000, f"{grown / 1000:.0f} MB more at the peak for 100,000,000 dice"


LONG_EXP = """\
name: long
scenario: {scenario}
parameters:
  description: ["{text}"]
  max_rounds: [{rounds}]
"""


def test_a_long_text_value_is_stored_once_in_the_manifest(tmp_path, capsys):
    import json

    from sim.dataset import records

    text = "word " * 4_000  # 20 kB
    rounds = ", ".join(str(r) for r in range(1, 21))  # 20 design points
    path = write_exp(tmp_path, LONG_EXP.format(scenario=SKIRMISH, text=text, rounds=rounds))
    out = tmp_path / "o"
    code, _, err = cli(capsys, "sweep", path, "--out", out, "--executor", "serial", "--limit", 2)
    assert code == 0, err
    size = (out / "manifest.json").stat().st_size
    assert size < 4 * len(text), f"{size} bytes: the text once (and the experiment's), not 20x"
    m = records.read_manifest(out)
    assert [p["description"] for p in m["points"]] == [text] * 20
    assert json.loads((out / "manifest.json").read_text())["points"][0] != m["points"][0]
    assert cli(capsys, "replay", out, "--run", 1)[0] == 0
    assert cli(capsys, "analyze", out)[0] == 0


def test_a_symlink_loop_as_the_scenario_is_named(tmp_path, capsys):
    (tmp_path / "loop1").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
    path = write_exp(tmp_path, "name: loop\nscenario: loop1\nparameters: {max_rounds: [3]}\n")
    line = one_error(capsys, "sweep", path, "--out", tmp_path / "o")
    assert line == (
        f"{path}:2: scenario: cannot read the scenario: {tmp_path / 'loop1'}: a loop of "
        "symbolic links; give a file"
    )
    assert one_error(capsys, "run", tmp_path / "loop1") == (
        f"{tmp_path / 'loop1'}: a loop of symbolic links; give a file"
    )


BIG_BATTLE = """\
rules: {system: 2w2p}
sides:
  red:
    fighters:
      - {name: a, count: 1500}
  blue:
    fighters:
      - {name: b, count: 1500}
"""


@pytest.mark.slow
def test_ctrl_c_during_sim_run_is_exit_130_without_a_traceback(tmp_path):
    import signal
    import subprocess
    import sys

    path = tmp_path / "big.yaml"
    # 10,000 a side: 55 s here, so still fighting at the first progress line (5 s) on a
    # machine ten times as fast (3,000 a side ended in under 5 s on CI's)
    path.write_text(BIG_BATTLE.replace("1500", "10000"))
    argv = ["run", str(path), "--seed", "1", "--out", str(tmp_path / "o")]
    with subprocess.Popen(
        [sys.executable, "-m", "sim", *argv],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # a shell without job control starts background jobs with SIGINT ignored, which
        # Python keeps: give the child Ctrl-C's default, as a terminal would
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    ) as proc:  # its pipes closed however the test ends
        try:
            first = proc.stderr.readline()  # the first progress line: it is fighting
            assert re.match(r"progress: round \d+, ", first), first
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=60)
        finally:
            proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == "sim run: interrupted"
    assert not (tmp_path / "o").exists()
    assert not list(tmp_path.glob(".o.*")), "no temporary folder left either"


def test_a_long_battle_shows_progress(tmp_path, capsys, monkeypatch):
    from sim.cli import battles

    monkeypatch.setattr(battles, "PROGRESS_EVERY", 0.05)
    path = tmp_path / "big.yaml"
    path.write_text(BIG_BATTLE.replace("1500", "500"))  # 0.4 s: eight of the ticker's beats
    code, _, err = cli(capsys, "run", path, "--seed", 1)
    assert code == 0, err
    lines = [line for line in err.splitlines() if line.startswith("progress: ")]
    assert lines, err
    assert re.fullmatch(r"progress: round \d+, \d+ fighters active; \d+ s", lines[0]), lines[0]
