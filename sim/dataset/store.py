"""A dataset's safety: its lock, the record of its parts, and the code that made them.

* **The lock.** A sweep (and its resume) holds an exclusive ``fcntl.flock`` on the file
  ``.lock`` in the dataset folder from before it reads the manifest until it ends; a
  second sweep into the folder is refused with a message naming the holder (process id,
  host, start time, command line), which the holder writes into the lock file. The kernel
  drops the lock when the holder dies, even by SIGKILL, so a lock is never stale. (The
  ``filelock`` package takes the same ``flock``, but it truncates the lock file while
  opening it, before it holds the lock, so the holder's name could not be kept in it.)
* **The parts.** The manifest's ``parts`` maps each part file (``fighters/part-000003.parquet``)
  to its ``rows``, ``bytes`` and ``sha256``; a ``runs`` part also records the run ids it
  holds (``first``, ``stop``). Only listed parts belong to the dataset: resume and analyze
  check every one (present, same size, same checksum) and re-run or refuse the damaged
  ones, naming them; other files in the table folders are ignored, and said so.
* **The code.** ``code`` is the package version and a hash of the ``sim`` sources
  (:func:`code_fingerprint`); a resume under other code is refused unless forced, and
  a forced resume is recorded in ``forced``.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import hashlib
import json
import os
import socket
import stat
import sys
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from sim import files
from sim.errors import SimError
from sim.version import __version__

LOCK_NAME = ".lock"
"""The lock file in a dataset folder (it stays there; the lock is the ``flock`` on it)."""


def now() -> str:
    """The time now, in UTC, as the manifest and the lock file write it."""
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


@contextlib.contextmanager
def locked(root: Path) -> Iterator[None]:
    """Hold the dataset folder ``root``'s exclusive lock for the block (``root`` must exist).

    The lock file is opened without following a link, and must be a regular file that is
    empty or holds a holder's record: another tool's ``.lock`` is refused untouched.

    Raises:
        SimError: another process holds it (the message names that process), or the lock
            file is a link, not a regular file, or not sim's.
    """
    path = root / LOCK_NAME
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = files.open_new_or_own(path, root, flags)
    except OSError as err:
        raise SimError(f"{root}: cannot lock the dataset: {err.strerror or err}") from None
    try:
        why = _not_a_lock(os.fstat(fd))
        if why is not None:
            raise SimError(f"{path}: {why}")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            raise SimError(
                f"{root}: in use by another sweep ({holder}); wait for it to end or stop it, "
                "then try again"
            ) from None
        if not _ours(fd):
            raise SimError(f"{path}: {NOT_OUR_LOCK}")
        me = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "started": now(),
            "command": " ".join(["sim", *sys.argv[1:]]),
        }
        os.ftruncate(fd, 0)
        os.pwrite(fd, (json.dumps(me) + "\n").encode(), 0)
        yield
    finally:
        os.close(fd)  # closing the only descriptor releases the flock


def _holder(fd: int) -> str:
    """Who holds the lock, as its holder wrote it into the lock file."""
    try:
        info = json.loads(os.pread(fd, 4096, 0).decode() or "{}")
        return (
            f"process {int(info['pid'])} on {info['host']}, started {info['started']}: "
            f"{str(info['command'])[:200]}"
        )
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        return "a process that has not said who it is yet"


NOT_A_DATASET = "this folder is not a sim dataset: choose another --out"
NOT_A_FILE = f"not a regular file (a FIFO, socket or device), so not sim's lock; {NOT_A_DATASET}"
HARD_LINKED = f"has other names (a hard link), so not sim's lock; {NOT_A_DATASET}"
NOT_OUR_LOCK = f"not sim's lock (it holds something else); {NOT_A_DATASET}"
HOLDER_KEYS = ("pid", "host", "started", "command")


def _not_a_lock(info: os.stat_result) -> str | None:
    """Why a file with ``info`` cannot be sim's lock file (not regular, hard-linked), or None."""
    if not stat.S_ISREG(info.st_mode):
        return NOT_A_FILE
    if info.st_nlink > 1:
        return HARD_LINKED
    return None


def _ours(fd: int) -> bool:
    """True if the lock file is empty or holds a holder's record (sim wrote it)."""
    data = os.pread(fd, 4097, 0)
    if not data.strip():
        return True
    try:
        info = json.loads(data.decode())
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(info, dict) and set(info) == set(HOLDER_KEYS)


def lock_is_ours(root: Path) -> str | None:
    """Why ``root``'s lock file is not sim's (a link, not a regular file, other content).

    None if there is no lock file or it is sim's. Read only: nothing is written.
    """
    path = root / LOCK_NAME
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(info.st_mode):
        return str(files.link_error(path))
    why = _not_a_lock(info)
    if why is not None:
        return f"{path}: {why}"
    fd = os.open(path, os.O_RDONLY | files.NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    try:
        if not _ours(fd):
            return f"{path}: {NOT_OUR_LOCK}"
    finally:
        os.close(fd)
    return None


# ---------------------------------------------------------------------------------------
# parts


def part_record(path: Path, rows: int) -> dict[str, Any]:
    """What the manifest keeps of a part just written: rows, size and SHA-256."""
    return {"rows": rows, "bytes": path.stat().st_size, "sha256": sha256(path)}


def sha256(path: Path) -> str:
    """The SHA-256 of the file at ``path``, in hex."""
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def damage(root: Path, parts: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """The listed parts that are not as recorded: name -> what is wrong (none: all sound)."""
    bad: dict[str, str] = {}
    for name, rec in sorted(parts.items()):
        path = root / name
        try:
            here = files.check_inside(path, root)
        except files.LinkFound:
            bad[name] = "a symbolic link, not a file of the dataset"
            continue
        except SimError:
            bad[name] = "not a file"
            continue
        if not here:
            bad[name] = "missing"
            continue
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            bad[name] = "missing"
            continue
        except OSError as err:
            bad[name] = f"unreadable: {err.strerror or err}"
            continue
        if size != rec.get("bytes"):
            bad[name] = f"{size} bytes, the manifest says {rec.get('bytes')}"
            continue
        try:
            digest = sha256(path)
        except OSError as err:
            bad[name] = f"unreadable: {err.strerror or err}"
            continue
        if digest != rec.get("sha256"):
            bad[name] = "its checksum differs from the manifest's"
    return bad


def describe(bad: Mapping[str, str], most: int = 5) -> str:
    """Damaged parts as one short phrase: ``runs/part-000001.parquet (missing), ...``."""
    items = [f"{name} ({why})" for name, why in bad.items()]
    more = f" and {len(items) - most} more" if len(items) > most else ""
    return ", ".join(items[:most]) + more


def unlisted(root: Path, parts: Mapping[str, Any], tables: Any) -> list[str]:
    """Parquet files in the table folders that the manifest does not list (ignored)."""
    extra = []
    for table in tables:
        folder = root / table
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.parquet")):
            name = f"{table}/{path.name}"
            if name not in parts and not path.name.startswith("."):
                extra.append(name)
    return extra


def listed_files(root: Path, parts: Mapping[str, Any], table: str) -> list[Path]:
    """The listed part files of ``table``, in order."""
    prefix = f"{table}/"
    return [root / name for name in sorted(parts) if name.startswith(prefix)]


# ---------------------------------------------------------------------------------------
# the code


@cache
def code_fingerprint() -> str:
    """The package version and a hash of every ``sim`` source file (``0.1.0/3f2a...``).

    Any edit of the simulator's code (a tactic's default, a rule) changes it; a dataset
    made under one fingerprint is not resumed under another unless forced.
    """
    root = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".py", ".csv") or "__pycache__" in path.parts:
            continue
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return f"{__version__}/{h.hexdigest()[:16]}"


# ---------------------------------------------------------------------------------------
# reading a dataset
