"""sim.files: every write whole or not at all, never through a link (issue 34)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from sim import files
from sim.errors import SimError

LINKED = "is a symbolic link; sim writes only real files and folders"


@pytest.fixture
def victim(tmp_path):
    where = tmp_path / "victim"
    where.mkdir()
    (where / "precious.txt").write_text("mine\n")
    (where / ".part-000001.parquet.abcd.tmp").write_text("looks like a part's temporary\n")
    return where


def test_write_file_refuses_a_file_in_the_way_and_a_link(tmp_path):
    target = tmp_path / "out.txt"
    files.write_file(target, b"one")
    assert oct(target.stat().st_mode & 0o777) == oct(files.FILE_MODE)
    with pytest.raises(SimError, match="the file exists"):
        files.write_file(target, b"two")
    assert target.read_bytes() == b"one"
    files.write_file(target, b"two", replace=True)
    assert target.read_bytes() == b"two"
    files.write_file(target, b"three", replace=lambda p: p.read_bytes() == b"two")
    with pytest.raises(SimError, match="the file exists"):
        files.write_file(target, b"four", replace=lambda p: False)
    assert target.read_bytes() == b"three"
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("keep")
    link = tmp_path / "link.txt"
    link.symlink_to(elsewhere)
    for replace in (False, True):
        with pytest.raises(SimError, match=LINKED):
            files.write_file(link, b"evil", replace=replace)
    assert elsewhere.read_text() == "keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["elsewhere.txt", "link.txt", "out.txt"]


def test_a_writer_that_fails_leaves_nothing(tmp_path):
    def broken(fh):
        fh.write(b"half")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        files.write_file(tmp_path / "x.bin", broken)
    assert list(tmp_path.iterdir()) == []


def test_write_file_within_a_folder_never_follows_a_linked_folder(tmp_path, victim):
    root = tmp_path / "ds"
    root.mkdir()
    (root / "rounds").symlink_to(victim)
    with pytest.raises(SimError, match=f"{root / 'rounds'}: {LINKED}"):
        files.write_file(root / "rounds" / "part-1.parquet", b"x", within=root)
    files.write_file(root / "runs" / "part-1.parquet", b"x", within=root)  # made inside
    assert (root / "runs" / "part-1.parquet").read_bytes() == b"x"
    with pytest.raises(SimError, match="not inside"):
        files.write_file(tmp_path / "elsewhere" / "x", b"x", within=root)
    assert sorted(p.name for p in victim.iterdir()) == [
        ".part-000001.parquet.abcd.tmp",
        "precious.txt",
    ]


def test_removal_never_goes_through_a_link(tmp_path, victim):
    root = tmp_path / "ds"
    (root / "runs").mkdir(parents=True)
    (root / "rounds").symlink_to(victim)
    (root / "runs" / ".part-1.parquet.x.tmp").write_text("killed")
    (root / "runs" / "keep.parquet").write_text("kept")
    (root / "runs" / ".part-2.parquet.y.tmp").symlink_to(victim / "precious.txt")

    def killed(name):
        return name.endswith(".tmp")

    assert sorted(files.remove_matching(root / "runs", root, killed)) == [
        ".part-1.parquet.x.tmp",
        ".part-2.parquet.y.tmp",
    ]
    assert sorted(p.name for p in (root / "runs").iterdir()) == ["keep.parquet"]
    assert (victim / "precious.txt").read_text() == "mine\n", "the link went, not its target"
    with pytest.raises(SimError, match=LINKED):
        files.remove_matching(root / "rounds", root, killed)
    with pytest.raises(SimError, match=LINKED):
        files.remove(root / "rounds" / "precious.txt", root)
    assert files.remove_matching(root / "none", root, killed) == []
    assert files.remove(root / "runs" / "keep.parquet", root)
    assert not files.remove(root / "runs" / "keep.parquet", root)
    assert sorted(p.name for p in victim.iterdir()) == [
        ".part-000001.parquet.abcd.tmp",
        "precious.txt",
    ]


def test_inside_follows_links(tmp_path, victim):
    (tmp_path / "ds").mkdir()
    (tmp_path / "ds" / "out").symlink_to(victim)
    assert files.inside(tmp_path / "ds", tmp_path / "ds" / "x")
    assert not files.inside(tmp_path / "ds", tmp_path / "ds" / "out" / "x")
    assert not files.inside(tmp_path / "ds", tmp_path / "ds2")


def test_a_new_folder_appears_whole_or_not_at_all(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(RuntimeError), files.new_folder(out) as tmp:
        (tmp / "a.csv").write_text("a")
        raise RuntimeError("killed half-way")
    assert list(tmp_path.iterdir()) == []
    with files.new_folder(out) as tmp:
        (tmp / "a.csv").write_text("a")
        assert not out.exists()
    assert sorted(p.name for p in out.iterdir()) == ["a.csv"]
    with pytest.raises(FileExistsError), files.new_folder(out) as tmp:
        (tmp / "b.csv").write_text("b")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_read_head_reads_regular_files_only_and_never_waits(tmp_path, victim):
    os.mkfifo(tmp_path / "pipe")
    result = []
    reader = threading.Thread(target=lambda: result.append(files.read_head(tmp_path / "pipe", 9)))
    reader.start()
    reader.join(5)
    assert not reader.is_alive() and result == [None]
    assert files.read_head(victim / "precious.txt", 2) == b"mi"
    (tmp_path / "link").symlink_to(victim / "precious.txt")
    assert files.read_head(tmp_path / "link", 2) is None
    assert files.read_head(tmp_path / "none", 2) is None


def test_open_new_or_own_refuses_a_link(tmp_path, victim):
    (tmp_path / ".lock").symlink_to(victim / "precious.txt")
    with pytest.raises(SimError, match=LINKED):
        files.open_new_or_own(tmp_path / ".lock", tmp_path, os.O_RDWR | os.O_CREAT)
    fd = files.open_new_or_own(tmp_path / "fresh", tmp_path, os.O_RDWR | os.O_CREAT)
    os.close(fd)
    assert Path(tmp_path / "fresh").is_file()
