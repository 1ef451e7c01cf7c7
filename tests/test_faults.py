"""Fault injection: a dataset ends complete, resumable, or refused with a clear message.

Each fault of issue 16 is made on purpose and the dataset is then compared row for row with
a clean sweep: the sweep's process killed alone (its workers must stop before writing
another part), SIGTERM, two sweeps into one folder, each table's part truncated or deleted,
a stray part, a code change before a resume, a lost or garbage manifest, a read-only and a
full filesystem.
"""

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from sim.dataset import store
from sim.experiment import load_experiment
from sim.experiment.runner import done_run_ids, sweep
from tests import test_runner
from tests.test_runner import (
    BIG,
    SMALL,
    assert_same_data,
    cli,
    finish,
    forkservers,
    pool_workers,
    run_ids,
    start,
    wait_for_parts,
    write,
)

small_ref = test_runner.small_ref  # the fixtures: a clean sweep of SMALL, of BIG
big_ref = test_runner.big_ref
HAS_PROC = Path("/proc/self/stat").exists()


def alive(pid):
    """True while ``pid`` runs (a zombie, dead but not yet reaped, does not count)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def kill_left(proc, pids):
    """After a test: SIGKILL each of ``pids`` still running, and ``proc``'s group if it runs."""
    for pid in pids:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)


def parts_on_disk(out):
    return {p.relative_to(out).as_posix(): p.stat().st_mtime_ns for p in out.glob("*/part-*")}


# --------------------------------------------------------------------------- the parent dies


def kill_parent_alone(tmp_path, sig):
    """Start a 2-worker sweep, signal its process alone (not the group): what happened."""
    path = write(tmp_path, BIG)
    out = tmp_path / "out"
    args = ("sweep", path, "--out", out, "--executor", "processes", "--workers", 2)
    proc = start(*args)
    workers, servers = [], []
    try:
        assert wait_for_parts(proc, out, 3), "the sweep ended before it could be killed"
        workers = pool_workers(proc.pid)
        assert len(workers) == 2, workers
        servers = forkservers(proc.pid)  # where the workers were forked from, if anywhere
        os.kill(proc.pid, sig)
        killed = time.monotonic()
        while any(alive(w) for w in workers) and time.monotonic() - killed < 30:
            time.sleep(0.002)
        stopped = time.monotonic() - killed
        assert not any(alive(w) for w in workers), "workers still running 30 s after"
        while any(alive(s) for s in servers) and time.monotonic() - killed < 30:
            time.sleep(0.01)
        assert not any(alive(s) for s in servers), "the forkserver outlived its sweep"
        stdout, err = finish(proc)
        after = parts_on_disk(out)
        time.sleep(1.0)  # a worker left running would write its next part by now
        assert parts_on_disk(out) == after, "a part was written after the workers stopped"
        return args, out, proc.returncode, stdout, err, stopped
    finally:
        kill_left(proc, [*workers, *servers])


@pytest.mark.slow
@pytest.mark.skipif(not HAS_PROC, reason="finds the pool's workers in /proc")
def test_workers_stop_when_the_sweep_is_killed_alone(tmp_path, big_ref):
    args, out, code, _, _, stopped = kill_parent_alone(tmp_path, signal.SIGKILL)
    assert code == -signal.SIGKILL
    assert stopped < 2.0, f"workers took {stopped:.2f} s to stop"
    done = done_run_ids(out)
    assert 0 < len(done) < 300
    proc = start(*args[:-4], "--executor", "serial", "--resume")
    stdout, err = finish(proc)
    assert proc.returncode == 0, err
    assert run_ids(out) == list(range(300))
    assert_same_data(out, big_ref)


@pytest.mark.slow
@pytest.mark.skipif(not HAS_PROC, reason="finds the pool's workers in /proc")
def test_sigterm_to_the_sweep_alone_is_ctrl_c(tmp_path, big_ref):
    args, out, code, stdout, err, _ = kill_parent_alone(tmp_path, signal.SIGTERM)
    assert code == 130, err
    assert "interrupted" in err and "--resume" in err and "Traceback" not in err
    m = json.loads((out / "manifest.json").read_text())
    listed = sorted(n for n in m["parts"] if n.startswith("runs/"))
    assert listed == sorted(n for n in parts_on_disk(out) if n.startswith("runs/"))
    proc = start(*args, "--resume")
    stdout, err = finish(proc)
    assert proc.returncode == 0, err
    assert run_ids(out) == list(range(300))
    assert_same_data(out, big_ref)


# --------------------------------------------------------------------------- the lock


def test_a_second_sweep_into_the_folder_is_refused_naming_the_first(tmp_path, capsys, big_ref):
    path = write(tmp_path, BIG)
    other = write(tmp_path, BIG.replace("name: big", "name: other"), name="other.yaml")
    out = tmp_path / "out"
    proc = start("sweep", path, "--out", out, "--executor", "serial")
    try:
        assert wait_for_parts(proc, out, 1)
        for exp in (path, other):
            for extra in ([], ["--resume"]):
                code, stdout, err = cli(
                    capsys, "sweep", exp, "--out", out, "--executor", "serial", *extra
                )
                assert code == 2, err
                assert err.startswith(f"sim sweep: error: {out}: in use by another sweep (process")
                assert f"process {proc.pid} on " in err and "sim sweep" in err
                assert len(err.splitlines()) == 1
        stdout, err = finish(proc)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 0, err
    assert_same_data(out, big_ref)
    assert (
        cli(capsys, "sweep", path, "--out", out, "--executor", "serial")[0] == 0
    )  # the lock went with its holder


def test_the_lock_is_held_for_the_whole_sweep(tmp_path):
    path = write(tmp_path, SMALL)
    out = tmp_path / "out"
    out.mkdir()
    with store.locked(out):
        with pytest.raises(Exception, match="in use by another sweep"):
            sweep(load_experiment(path), out, progress=False)
    assert sorted(p.name for p in out.iterdir()) == [".lock"], "nothing written"


# --------------------------------------------------------------------------- damaged parts


@pytest.fixture
def small_copy(tmp_path, small_ref):
    path, ref = small_ref
    out = tmp_path / "out"
    shutil.copytree(ref, out)
    return path, out, ref


@pytest.mark.parametrize("table", ["runs", "rounds", "fighters"])
@pytest.mark.parametrize("how", ["truncated", "deleted"])
def test_a_damaged_part_is_refused_by_analyze_and_run_again_by_resume(
    small_copy, capsys, table, how
):
    path, out, ref = small_copy
    part = out / table / "part-000002.parquet"
    size = part.stat().st_size
    if how == "deleted":
        part.unlink()
        why = "missing"
    else:
        part.write_bytes(part.read_bytes()[: size // 2])
        why = f"{size // 2} bytes, the manifest says {size}"
    code, stdout, err = cli(capsys, "analyze", out)
    assert (code, stdout) == (2, "")
    assert err == (
        f"sim analyze: error: {out}: damaged parts: {table}/part-000002.parquet ({why}); to "
        f"run them again: sim sweep {path} --out {out} --resume\n"
    )
    code, _, err = cli(capsys, "sweep", path, "--out", out, "--executor", "serial")
    assert code == 2 and "damaged parts" in err and "--resume" in err
    code, stdout, err = cli(capsys, "sweep", path, "--out", out, "--executor", "serial", "--resume")
    assert code == 0, err
    assert stdout.startswith(
        f"running again the chunks of damaged parts: {table}/part-000002.parquet ({why})\n"
        "small: 4 runs in"
    )
    assert "; 36 already done" in stdout
    assert_same_data(out, ref)
    assert cli(capsys, "analyze", out)[0] == 0


def test_a_part_changed_in_place_is_found_by_its_checksum(small_copy, capsys):
    _, out, _ = small_copy
    part = out / "fighters" / "part-000001.parquet"
    data = bytearray(part.read_bytes())
    data[len(data) // 2] ^= 0xFF
    part.write_bytes(bytes(data))
    code, _, err = cli(capsys, "analyze", out)
    assert code == 2
    assert "fighters/part-000001.parquet (its checksum differs from the manifest's)" in err


def test_analyze_reads_only_the_listed_parts_and_says_so(small_copy, capsys, tmp_path):
    path, out, ref = small_copy
    code, before, _ = cli(capsys, "analyze", out, "--format", "json")
    assert code == 0
    shutil.copy(out / "runs" / "part-000001.parquet", out / "runs" / "part-copy.parquet")
    other = write(tmp_path / "o", SMALL.replace("name: small", "name: other"))
    sweep(load_experiment(other), tmp_path / "o" / "out", progress=False, limit=4)
    shutil.copy(tmp_path / "o/out/runs/part-000000.parquet", out / "runs" / "part-000099.parquet")
    code, after, err = cli(capsys, "analyze", out, "--format", "json")
    assert code == 0
    assert after == before, "the stray parts are not counted"
    assert err == (
        f"note: {out}: ignored 2 files the manifest does not list: runs/part-000099.parquet, "
        "runs/part-copy.parquet\n"
    )
    code, stdout, _ = cli(capsys, "sweep", path, "--out", out, "--executor", "serial", "--resume")
    assert code == 0
    assert stdout.startswith("ignored 2 files the manifest does not list")


# --------------------------------------------------------------------------- code changes


def test_a_resume_under_other_code_is_refused_unless_forced(
    tmp_path, capsys, monkeypatch, small_ref
):
    path, ref = small_ref
    out = tmp_path / "out"
    assert cli(capsys, "sweep", path, "--out", out, "--executor", "serial", "--limit", 8)[0] == 0
    made = json.loads((out / "manifest.json").read_text())["code"]
    assert made == store.code_fingerprint()
    monkeypatch.setattr(store, "code_fingerprint", lambda: "0.1.0/0123456789abcdef")
    code, _, err = cli(capsys, "sweep", path, "--out", out, "--executor", "serial", "--resume")
    assert code == 2
    assert err == (
        f"sim sweep: error: {out}: made by other code (sim {made}; this is "
        "0.1.0/0123456789abcdef): resuming would mix rows of two simulators; sweep into "
        "another --out, or add --force to resume anyway (the manifest records it)\n"
    )
    code, stdout, err = cli(
        capsys, "sweep", path, "--out", out, "--executor", "serial", "--resume", "--force"
    )
    assert code == 0, err
    assert stdout.startswith(f"resumed under other code (was {made}, now 0.1.0/0123456789abcdef)")
    m = json.loads((out / "manifest.json").read_text())
    assert m["code"] == "0.1.0/0123456789abcdef"
    assert [(f["from"], f["to"]) for f in m["forced"]] == [(made, "0.1.0/0123456789abcdef")]
    assert_same_data(out, ref)  # the stand-in "change" changed nothing


def test_the_code_fingerprint_follows_the_sources():
    fp = store.code_fingerprint()
    version, digest = fp.split("/")
    assert version == __import__("sim").__version__ and len(digest) == 16


# --------------------------------------------------------------------------- the manifest


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, "not a dataset (no manifest.json), but it holds 6 parts"),
        (b"[]", "manifest.json: not a manifest (a JSON list, not an object)"),
        (b"\xff\xfe{", "manifest.json: not UTF-8 text (byte 0)"),
        (b'{"schema_ver', "manifest.json: not valid JSON (Unterminated string"),
    ],
)
def test_a_lost_manifest_gives_a_hint_and_is_rebuilt(tmp_path, capsys, small_ref, content, problem):
    path, ref = small_ref
    out = tmp_path / "out"
    assert cli(capsys, "sweep", path, "--out", out, "--executor", "serial", "--limit", 8)[0] == 0
    manifest = out / "manifest.json"
    if content is None:
        manifest.unlink()
    else:
        manifest.write_bytes(content)
    code, _, err = cli(capsys, "sweep", path, "--out", out, "--executor", "serial", "--resume")
    assert code == 2 and len(err.splitlines()) == 1
    assert problem in err, err
    assert err.endswith(
        f"to recover its parts: sim sweep {path} --out {out} --resume --rebuild-manifest\n"
    )
    code, _, err = cli(capsys, "analyze", out)
    assert code == 2 and len(err.splitlines()) == 1 and "Traceback" not in err
    code, stdout, err = cli(
        capsys,
        "sweep",
        path,
        "--out",
        out,
        "--executor",
        "serial",
        "--resume",
        "--rebuild-manifest",
    )
    assert code == 0, err
    assert stdout.startswith(f"rebuilt the manifest from 2 whole chunks (8 runs) found in {out}")
    assert "; 8 already done" in stdout
    assert_same_data(out, ref)
    assert json.loads(manifest.read_text())["rebuilt"]["chunks"] == 2


def test_a_rebuild_runs_a_damaged_chunk_again(tmp_path, capsys, small_ref):
    path, ref = small_ref
    out = tmp_path / "out"
    assert cli(capsys, "sweep", path, "--out", out, "--executor", "serial", "--limit", 12)[0] == 0
    (out / "manifest.json").unlink()
    fighters = out / "fighters" / "part-000001.parquet"
    fighters.write_bytes(fighters.read_bytes()[:100])
    (out / "rounds" / "part-000002.parquet").unlink()  # rounds: every battle has some
    code, stdout, err = cli(
        capsys,
        "sweep",
        path,
        "--out",
        out,
        "--executor",
        "serial",
        "--resume",
        "--rebuild-manifest",
    )
    assert code == 0, err
    assert "rebuilt the manifest from 1 whole chunk (4 runs)" in stdout
    assert_same_data(out, ref)


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        ({"parameters": [None]}, "parameters: expected a list of text"),
        ({"parts": []}, "parts: expected a dict, got list"),
        ({"replicates": 0}, "replicates: expected 1 or more"),
        ({"parts": {"runs/part-000000.parquet": {"rows": "x"}}}, "not a part's record"),
    ],
)
def test_a_garbage_manifest_is_one_line_in_analyze_and_replay(small_copy, capsys, edit, problem):
    _, out, _ = small_copy
    path = out / "manifest.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), **edit}))
    for argv in (["analyze", out], ["replay", out, "--run", 1]):
        code, _, err = cli(capsys, *argv)
        assert code == 2, err
        assert err.startswith(f"sim {argv[0]}: error: {path}: ") and problem in err, err
        assert err.endswith("the manifest is damaged\n")


def test_a_tampered_manifest_in_replay_is_one_line(small_copy, capsys):
    _, out, _ = small_copy
    path = out / "manifest.json"
    m = json.loads(path.read_text())
    m["points"] = m["points"][:1]
    path.write_text(json.dumps(m))
    code, _, err = cli(capsys, "replay", out, "--run", 39)
    assert code == 2
    assert err == (
        f"sim replay: error: {path}: does not describe run 39 (IndexError: list index out of "
        "range); the manifest is damaged\n"
    )


# --------------------------------------------------------------------------- filesystems


def test_a_sweep_into_a_read_only_folder_is_one_line(tmp_path, capsys, small_ref):
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only folders")
    path, _ = small_ref
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        code, _, err = cli(capsys, "sweep", path, "--out", folder / "out")
    finally:
        folder.chmod(0o755)
    assert code == 2
    assert err == f"sim sweep: error: {folder / 'out'}: cannot make the folder: Permission denied\n"


def _mount_tmpfs(where, *options):
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", ",".join(("size=1m", *options)), "tmpfs", str(where)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip() or done.returncode}")
    return where


@pytest.fixture
def tmpfs(tmp_path):
    mounts = []

    def mount(name, *options):
        where = _mount_tmpfs(tmp_path / name, *options)
        mounts.append(where)
        return where

    yield mount
    for where in mounts:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_a_full_filesystem_ends_in_one_line_and_resumes(tmp_path, capsys, tmpfs, small_ref):
    path, ref = small_ref
    disk = tmpfs("full")
    (disk / "ballast").write_bytes(b"\0" * (1024 * 1024 - 40 * 1024))  # leave ~40 kB
    out = disk / "out"
    code, _, err = cli(capsys, "sweep", path, "--out", out, "--executor", "serial")
    assert code == 2, err
    lines = [line for line in err.splitlines() if not line.startswith("progress:")]
    assert len(lines) == 1 and "No space left on device" in err, err
    assert "--resume" in err
    (disk / "ballast").unlink()
    code, _, err = cli(capsys, "sweep", path, "--out", out, "--executor", "serial", "--resume")
    assert code == 0, err
    assert_same_data(out, ref)


def test_a_read_only_filesystem_ends_in_one_line(tmp_path, capsys, tmpfs, small_ref):
    path, _ = small_ref
    disk = tmpfs("ro", "ro")
    for out in (disk / "out", disk):
        code, _, err = cli(capsys, "sweep", path, "--out", out, "--executor", "serial")
        assert code == 2, err
        assert len(err.splitlines()) == 1 and "Read-only file system" in err, err
