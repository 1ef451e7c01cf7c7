"""Nothing written outside the chosen folder, over a user's file, or half (issue 34).

A symbolic link planted where sim writes (a dataset's ``.lock``, a table folder, the
manifest, an output file) is refused with one line and exit 2, never followed; no clean-up
deletes through a link; every output refuses an existing file unless ``--force``, checked
when the file is written; an export appears whole or not at all; a rebuilt manifest lists
only chunks with every table the experiment asked for; a folder that is not sim's is read
and refused before anything is written in it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.test_runner import SMALL, assert_same_data, cli, write

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = ROOT / "scenarios" / "skirmish.yaml"
LINKED = "is a symbolic link; sim writes only real files and folders"


def one_error(capsys, *argv):
    """Run ``sim ARGV``: exit 2 and one line on stderr; that line."""
    code, out, err = cli(capsys, *argv)
    assert code == 2, (code, out, err)
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if not line.startswith("progress:")]
    assert len(lines) == 1, err
    return lines[0]


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder``: a file's bytes, a link's target, a folder's mark."""
    out: dict[str, bytes | str] = {}
    for p in sorted(folder.rglob("*")):
        key = p.relative_to(folder).as_posix()
        if p.is_symlink():
            out[key] = "-> " + os.readlink(p)
        elif p.is_dir():
            out[key] = "dir"
        else:
            out[key] = p.read_bytes()
    return out


@pytest.fixture
def victim(tmp_path):
    """A folder of the user's, outside the dataset, that nothing may touch."""
    where = tmp_path / "victim"
    where.mkdir()
    (where / "precious.txt").write_text("mine\n")
    (where / ".part-000001.parquet.abcd.tmp").write_text("looks like a part's temporary\n")
    return where


# --------------------------------------------------------------------------- a dataset


def test_a_linked_lock_is_refused_and_its_target_untouched(tmp_path, capsys, victim):
    path = write(tmp_path, SMALL)
    out = tmp_path / "out"
    out.mkdir()
    (out / ".lock").symlink_to(victim / "precious.txt")
    line = one_error(capsys, "sweep", path, "--out", out, "--executor", "serial", "--limit", 4)
    assert line == f"sim sweep: error: {out / '.lock'}: {LINKED} (remove the link, or choose " + (
        "another name)"
    )
    assert (victim / "precious.txt").read_text() == "mine\n"
    assert sorted(p.name for p in out.iterdir()) == [".lock"]


def test_a_fifo_as_the_lock_is_one_located_line(tmp_path, capsys):
    path = write(tmp_path, SMALL)
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / ".lock")
    line = one_error(capsys, "sweep", path, "--out", out, "--executor", "serial", "--limit", 4)
    assert line == (
        f"sim sweep: error: {out / '.lock'}: not a regular file (a FIFO, socket or device), "
        "so not sim's lock; this folder is not a sim dataset: choose another --out"
    )


@pytest.mark.parametrize("table", ["rounds", "runs"])
def test_a_linked_table_folder_is_refused_on_resume(tmp_path, capsys, victim, table):
    path = write(tmp_path, SMALL)
    out = tmp_path / "out"
    assert cli(capsys, "sweep", path, "--out", out, "--executor", "serial", "--limit", 8)[0] == 0
    # the table folder moved away and linked back; parts of a killed writer lie in it
    moved = victim / "moved"
    (out / table).rename(moved)
    (out / table).symlink_to(moved)
    before = snapshot(victim)
    line = one_error(capsys, "sweep", path, "--out", out, "--executor", "serial", "--resume")
    assert line.startswith(f"sim sweep: error: {out / table}: {LINKED}")
    assert snapshot(victim) == before, "nothing written or deleted through the link"


def test_resume_does_not_clean_up_through_a_linked_table_folder(tmp_path, capsys, victim):
    path = write(tmp_path, SMALL)
    out = tmp_path / "out"
    assert cli(capsys, "sweep", path, "--out", out, "--executor", "serial", "--limit", 8)[0] == 0
    for name in ("rounds", "fighters"):
        (out / name).rename(victim / name)
        (victim / name / ".part-000009.parquet.dead.tmp").write_text("the user's")
        (out / name).symlink_to(victim / name)
    before = snapshot(victim)
    code, _, err = cli(capsys, "sweep", path, "--out", out, "--executor", "serial", "--resume")
    assert code == 2 and LINKED in err
    assert snapshot(victim) == before


def test_a_linked_manifest_is_refused(tmp_path, capsys, victim):
    path = write(tmp_path, SMALL)
    out = tmp_path / "out"
    assert cli(capsys, "sweep", path, "--out", out, "--executor", "serial", "--limit", 8)[0] == 0
    kept = victim / "manifest.json"
    (out / "manifest.json").rename(kept)
    (out / "manifest.json").symlink_to(kept)
    before = snapshot(victim)
    line = one_error(capsys, "sweep", path, "--out", out, "--executor", "serial", "--resume")
    assert line.startswith(f"sim sweep: error: {out / 'manifest.json'}: {LINKED}")
    assert snapshot(victim) == before


# --------------------------------------------------------------------------- a folder not ours


@pytest.mark.parametrize("resume", [[], ["--resume"], ["--resume", "--rebuild-manifest"]])
def test_another_tools_folder_is_refused_before_anything_is_written(tmp_path, capsys, resume):
    path = write(tmp_path, SMALL)
    out = tmp_path / "theirs"
    out.mkdir()
    (out / "manifest.json").write_text('{"name": "their project", "version": 3}\n')
    (out / ".lock").write_text("locked by their tool\n")
    before = snapshot(out)
    line = one_error(capsys, "sweep", path, "--out", out, "--executor", "serial", *resume)
    assert "not a sim dataset" in line and "choose another --out" in line, line
    assert "--rebuild-manifest" not in line, "a recovery that does not apply"
    assert snapshot(out) == before


def test_another_tools_lock_alone_is_refused_untouched(tmp_path, capsys):
    path = write(tmp_path, SMALL)
    out = tmp_path / "theirs"
    out.mkdir()
    (out / ".lock").write_text("locked by their tool\n")
    line = one_error(capsys, "sweep", path, "--out", out, "--executor", "serial", "--limit", 4)
    assert line == (
        f"sim sweep: error: {out / '.lock'}: not sim's lock (it holds something else); this "
        "folder is not a sim dataset: choose another --out"
    )
    assert (out / ".lock").read_text() == "locked by their tool\n"
    assert sorted(p.name for p in out.iterdir()) == [".lock"]


# --------------------------------------------------------------------------- a rebuilt manifest

EVENTS = SMALL.replace("[runs, rounds, fighters]", "[runs, rounds, fighters, events]")


def test_a_rebuild_requires_every_table_the_experiment_asked_for(tmp_path, capsys):
    ref = tmp_path / "ref"
    path = write(tmp_path, EVENTS)
    assert cli(capsys, "sweep", path, "--out", ref, "--executor", "serial", "--limit", 12)[0] == 0
    out = tmp_path / "out"
    assert cli(capsys, "sweep", path, "--out", out, "--executor", "serial", "--limit", 12)[0] == 0
    (out / "manifest.json").unlink()
    (out / "events" / "part-000001.parquet").unlink()
    code, stdout, err = cli(
        capsys, "sweep", path, "--out", out, "--executor", "serial", "--resume",
        "--rebuild-manifest", "--limit", 12,
    )  # fmt: skip
    assert code == 0, err
    assert "rebuilt the manifest from 2 whole chunks (8 runs)" in stdout
    assert_same_data(out, ref)
    events = [pq.read_table(d / "events").sort_by([("run_id", "ascending"), ("seq", "ascending")])
              for d in (out, ref)]  # fmt: skip
    assert events[0].equals(events[1])


# --------------------------------------------------------------------------- outputs


@pytest.fixture
def dataset(tmp_path, capsys):
    out = tmp_path / "ds"
    assert cli(capsys, "run", SKIRMISH, "--seed", 1, "--out", out)[0] == 0
    return out


@pytest.mark.parametrize(("flag", "name"), [("--report", "r.html"), ("--plot", "p.png")])
def test_report_and_plot_refuse_an_existing_file_unless_forced(
    tmp_path, capsys, dataset, flag, name
):
    target = tmp_path / name
    target.write_text("the user's file")
    line = one_error(capsys, "analyze", dataset, flag, target)
    assert line == (
        f"sim analyze: error: {flag} {target}: the file exists; choose another name, or add "
        "--force to replace it"
    )
    assert target.read_text() == "the user's file"
    code, _, err = cli(capsys, "analyze", dataset, flag, target, "--force")
    assert code == 0, err
    assert target.read_bytes() != b"the user's file"


def test_a_report_over_the_manifest_is_refused_and_the_dataset_kept(tmp_path, capsys, dataset):
    manifest = dataset / "manifest.json"
    before = manifest.read_bytes()
    line = one_error(capsys, "analyze", dataset, "--report", manifest)
    assert "the file exists" in line
    assert manifest.read_bytes() == before
    line = one_error(capsys, "analyze", dataset, "--report", manifest, "--force")
    assert line == (
        f"sim analyze: error: --report {manifest}: a file of the dataset {dataset}; choose "
        "another name"
    )
    part = dataset / "runs" / "part-0.parquet"
    part_bytes = part.read_bytes()
    line = one_error(capsys, "analyze", dataset, "--report", part, "--force")
    assert "a file of the dataset" in line
    assert part.read_bytes() == part_bytes
    assert manifest.read_bytes() == before
    assert cli(capsys, "analyze", dataset)[0] == 0


@pytest.mark.parametrize("flag", ["--report", "--plot"])
def test_a_linked_report_or_plot_is_refused_even_forced(tmp_path, capsys, dataset, victim, flag):
    link = tmp_path / ("r.html" if flag == "--report" else "p.png")
    link.symlink_to(victim / "precious.txt")
    line = one_error(capsys, "analyze", dataset, flag, link, "--force")
    assert line == f"sim analyze: error: {flag} {link}: {LINKED} (remove the link, or choose " + (
        "another name)"
    )
    assert (victim / "precious.txt").read_text() == "mine\n"


def test_html_made_during_the_battle_is_not_replaced(tmp_path, capsys, monkeypatch):
    from sim.run import core

    page = tmp_path / "page.html"
    real = core.fight

    def fight(*args, **kwargs):
        page.write_text("made meanwhile")  # after the check before the battle
        return real(*args, **kwargs)

    monkeypatch.setattr(core, "fight", fight)
    line = one_error(capsys, "run", SKIRMISH, "--seed", 1, "--html", page)
    assert line == (
        f"sim run: error: --html {page}: the file exists; choose another name, or add --force "
        "to replace it"
    )
    assert page.read_text() == "made meanwhile"


def test_schema_out_refuses_a_link_and_a_file_it_did_not_write(tmp_path, capsys, victim):
    out = tmp_path / "schemas"
    out.mkdir()
    (out / "scenario.schema.json").symlink_to(victim / "precious.txt")
    line = one_error(capsys, "schema", "--out", out)
    assert line.startswith(f"sim schema: error: {out / 'scenario.schema.json'}: {LINKED}")
    assert (victim / "precious.txt").read_text() == "mine\n"
    (out / "scenario.schema.json").unlink()
    (out / "experiment.schema.json").write_text("my notes")
    line = one_error(capsys, "schema", "--out", out)
    assert "experiment.schema.json: the file exists" in line and "--force" in line
    assert (out / "experiment.schema.json").read_text() == "my notes"
    assert cli(capsys, "schema", "--out", out, "--force")[0] == 0
    assert cli(capsys, "schema", "--out", out)[0] == 0, "sim's own schemas are written again"


def test_frames_into_a_linked_folder_or_over_a_linked_frame_are_refused(tmp_path, capsys, victim):
    from tests.test_cli_frames import scenario

    path = scenario(tmp_path)
    frames = tmp_path / "frames"
    frames.symlink_to(victim)
    line = one_error(capsys, "run", path, "--seed", 1, "--frames", frames, "--force")
    assert line == f"sim run: error: --frames {frames}: {LINKED} (remove the link, or choose " + (
        "another name)"
    )
    frames.unlink()
    assert cli(capsys, "run", path, "--seed", 1, "--frames", frames)[0] == 0
    (frames / "round-001.png").unlink()
    (frames / "round-001.png").symlink_to(victim / "precious.txt")
    before = snapshot(victim)
    code, _, err = cli(capsys, "run", path, "--seed", 1, "--frames", frames)
    assert code == 2 and LINKED in err and "Traceback" not in err
    assert snapshot(victim) == before


def test_a_linked_gif_is_refused(tmp_path, capsys, victim):
    from tests.test_cli_frames import scenario

    path = scenario(tmp_path)
    gif = tmp_path / "fight.gif"
    gif.symlink_to(victim / "precious.txt")
    line = one_error(capsys, "run", path, "--seed", 1, "--gif", gif, "--force")
    assert line.startswith(f"sim run: error: --gif {gif}: {LINKED}")
    assert (victim / "precious.txt").read_text() == "mine\n"


# --------------------------------------------------------------------------- export


def test_a_linked_export_target_is_refused(tmp_path, capsys, dataset, victim):
    link = tmp_path / "runs.csv"
    link.symlink_to(victim / "gone.csv")  # dangling: export would create the file it names
    line = one_error(capsys, "export", dataset, "--out", link)
    assert str(link) in line
    assert not (victim / "gone.csv").exists()


KILL_AT_SECOND_TABLE = """
import os, sys
from sim.analysis import export
real = export.table_bytes
calls = []
def table_bytes(frame, fmt):
    calls.append(fmt)
    if len(calls) == 2:
        os._exit(9)  # killed while the export is half written
    return real(frame, fmt)
export.table_bytes = table_bytes
from sim.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_killed_export_leaves_nothing_that_looks_finished(tmp_path, capsys, dataset):
    out = tmp_path / "flat"
    argv = ["export", str(dataset), "--out", str(out), "--table", "runs", "--table", "rounds"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", KILL_AT_SECOND_TABLE, *argv], env=env, capture_output=True
    )
    assert done.returncode == 9, done.stderr
    assert not out.exists(), "a half export is not where the finished one belongs"
    code, stdout, err = cli(capsys, *argv)
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == ["rounds.csv", "runs.csv"]


def test_a_hard_linked_lock_is_refused_and_its_other_name_untouched(tmp_path, capsys, victim):
    path = write(tmp_path, SMALL)
    out = tmp_path / "out"
    out.mkdir()
    empty = victim / "empty.txt"
    empty.write_text("")
    os.link(empty, out / ".lock")
    line = one_error(capsys, "sweep", path, "--out", out, "--executor", "serial", "--limit", 4)
    assert line == (
        f"sim sweep: error: {out / '.lock'}: has other names (a hard link), so not sim's lock; "
        "this folder is not a sim dataset: choose another --out"
    )
    assert empty.read_text() == ""


def test_a_rebuild_with_nothing_to_recover_writes_nothing(tmp_path, capsys):
    path = write(tmp_path, SMALL)
    out = tmp_path / "theirs"
    (out / "runs").mkdir(parents=True)
    (out / "runs" / "part-000000.parquet").write_bytes(b"their own file")
    before = snapshot(out)
    line = one_error(
        capsys, "sweep", path, "--out", out, "--executor", "serial", "--resume",
        "--rebuild-manifest",
    )  # fmt: skip
    assert "nothing to recover" in line and "choose another --out" in line
    assert snapshot(out) == before
