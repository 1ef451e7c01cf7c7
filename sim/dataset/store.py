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
import sys
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from sim import __version__
from sim.errors import SimError

LOCK_NAME = ".lock"
"""The lock file in a dataset folder (it stays there; the lock is the ``flock`` on it)."""


def now() -> str:
    """The time now, in UTC, as the manifest and the lock file write it."""
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


@contextlib.contextmanager
def locked(root: Path) -> Iterator[None]:
    """Hold the dataset folder ``root``'s exclusive lock for the block (``root`` must exist).

    Raises:
        SimError: another process holds it; the message names that process.
    """
    path = root / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as err:
        raise SimError(f"{root}: cannot lock the dataset: {err.strerror or err}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            raise SimError(
                f"{root}: in use by another sweep ({holder}); wait for it to end or stop it, "
                "then try again"
            ) from None
        info = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "started": now(),
            "command": " ".join(["sim", *sys.argv[1:]]),
        }
        os.ftruncate(fd, 0)
        os.pwrite(fd, (json.dumps(info) + "\n").encode(), 0)
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


def open_manifest(root: Path) -> tuple[dict[str, Any], list[str]]:
    """The checked manifest of the dataset at ``root``, and the part files it does not list.

    Every listed part must be as recorded (a manifest of an older sim lists none: then
    every part on disk is read, unchecked).

    Raises:
        SimError: not a dataset, a damaged manifest, or damaged parts (named).
    """
    from sim.dataset import records

    m = records.read_manifest(root)
    records.check_manifest(root, m)
    if "parts" not in m:
        return m, []
    bad = damage(root, m["parts"])
    if bad:
        again = (
            f"sim sweep {m.get('experiment_file')} --out {root} --resume"
            if m.get("kind") in ("sweep", "search")
            else "sim run again with --out into a new folder"
        )
        raise SimError(f"{root}: damaged parts: {describe(bad)}; to run them again: {again}")
    return m, unlisted(root, m["parts"], m.get("tables", ()))
