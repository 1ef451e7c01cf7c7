"""Every file sim writes, written safely: whole or not at all, never through a link.

The ground floor of writing (the standard library and :mod:`sim.errors` only); every writer
(dataset parts and manifest, lock, export, report, plots, replay page, frames, schema)
comes here:

* :func:`write_file` writes a finished temporary file beside the target (created with
  ``O_EXCL | O_NOFOLLOW``, synced), then links it into place: ``link`` fails when the name
  is taken, so "refuse an existing file unless ``--force``" is decided at the moment of
  writing, not before a long battle. A replacement is a ``rename``, which replaces a name
  and never writes through it. A symbolic link where the file belongs is refused.
* ``within``: a path inside a folder of ours (a dataset) is reached folder by folder from
  that folder with ``O_NOFOLLOW``, so a link planted for a table folder (``rounds/`` to
  somewhere else) is refused, not followed: nothing is written outside the chosen folder.
* :func:`new_folder` builds a folder of several files beside its place and renames it
  into place once whole.
* :func:`remove` and :func:`remove_matching` delete only inside a real folder (never
  through a link), and :func:`inside` says whether a path resolves inside a folder.

Every file of a dataset is read the same way, by :func:`read_inside` (its bytes, with a
size limit) or :func:`check_inside` (a part handed to Arrow, a study to SQLite): reached
from the dataset's folder step by step with ``O_NOFOLLOW``, a regular file, never waiting
on a FIFO. A link planted anywhere in a dataset (``search/`` to another folder, a chart to
a secret) is refused in one line, never followed: nothing outside the dataset is read.

Errors are :class:`~sim.errors.SimError` (one line, the path first) for what the user can
fix by choosing (a link, a file in the way); other filesystem errors stay ``OSError``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from sim.errors import SimError

FILE_MODE = 0o644
"""Files sim writes are meant to be shared (datasets, reports, pictures)."""
DIR_MODE = 0o755
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)

Writer = Callable[[BinaryIO], None]
"""Writes a file's content into the open binary file it is given."""
Replace = bool | Callable[[Path], bool]
"""Whether an existing file may be replaced: always, never, or if the test says yes."""


def link_error(path: str | os.PathLike[str], flag: str = "") -> SimError:
    """The one line for a symbolic link where a file or folder of sim's belongs."""
    head = f"{flag} {path}" if flag else f"{path}"
    return SimError(
        f"{head}: is a symbolic link; sim writes only real files and folders (remove the "
        "link, or choose another name)"
    )


class LinkFound(SimError):
    """A symbolic link where a dataset that sim reads has a file or a folder of its own."""


def read_link_error(path: str | os.PathLike[str]) -> LinkFound:
    """The one line for a symbolic link found in a dataset that sim reads."""
    return LinkFound(
        f"{path}: is a symbolic link; sim reads only a dataset's own files, through no link "
        "(remove the link)"
    )


def exists_error(path: str | os.PathLike[str], flag: str = "") -> SimError:
    """The one line for a file in the way of an output that may not replace it."""
    head = f"{flag} {path}" if flag else f"{path}"
    return SimError(f"{head}: the file exists; choose another name, or add --force to replace it")


def is_link(path: str | os.PathLike[str]) -> bool:
    """True if ``path`` itself is a symbolic link (dangling or not)."""
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


def read_head(path: str | os.PathLike[str], size: int) -> bytes | None:
    """The first ``size`` bytes of the regular file ``path``; None for anything else.

    Never follows a link and never waits (a FIFO is not opened for a read that blocks).
    """
    try:
        fd = os.open(path, os.O_RDONLY | NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return os.read(fd, size)
    except OSError:
        return None
    finally:
        os.close(fd)


def inside(root: str | os.PathLike[str], path: str | os.PathLike[str]) -> bool:
    """True if ``path`` resolves (links followed) to ``root`` or a place inside it."""
    real_root = os.path.realpath(root)
    real = os.path.realpath(path)
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)


@contextlib.contextmanager
def folder(
    path: Path, within: Path | None = None, create: bool = False, reading: bool = False
) -> Iterator[int]:
    """An open descriptor of the folder ``path``, closed after the block.

    With ``within``, ``path`` must be ``within`` or inside it, and every step below
    ``within`` is opened without following links (``within`` itself is the user's choice and
    may be reached through one). ``create`` makes missing folders; ``reading`` words a
    link's error for a reader (:func:`read_link_error`).

    Raises:
        SimError: a step is a symbolic link, or ``path`` is not inside ``within``.
        OSError: a step cannot be opened or made (not a folder, no permission ...).
    """
    if within is None:
        if create:
            path.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, _DIR_FLAGS)
    else:
        try:
            steps = path.relative_to(within).parts
        except ValueError:
            raise SimError(f"{path}: not inside {within}") from None
        if any(s in (".", "..") for s in steps):
            raise SimError(f"{path}: not inside {within}")
        if create:
            within.mkdir(parents=True, exist_ok=True)
        fd = os.open(within, _DIR_FLAGS)
        here = within
        for step in steps:  # each step closes the folder it opened the next one from
            here = here / step
            fd = _step(fd, step, here, create, reading)
    try:
        yield fd
    finally:
        os.close(fd)


def _step(fd: int, name: str, where: Path, create: bool, reading: bool = False) -> int:
    """Open the folder ``name`` in the folder ``fd`` without following a link; close ``fd``."""
    try:
        try:
            nfd = os.open(name, _DIR_FLAGS | NOFOLLOW, dir_fd=fd)
        except FileNotFoundError:
            if not create:
                raise
            with contextlib.suppress(FileExistsError):
                os.mkdir(name, DIR_MODE, dir_fd=fd)
            nfd = os.open(name, _DIR_FLAGS | NOFOLLOW, dir_fd=fd)
    except OSError as err:
        if err.errno in (errno.ELOOP, errno.ENOTDIR) and _lstat_is_link(name, fd):
            raise (read_link_error if reading else link_error)(where) from None
        if err.filename is None:
            err.filename = str(where)
        raise
    finally:
        os.close(fd)
    return nfd


def _lstat_is_link(name: str, dir_fd: int) -> bool:
    try:
        return stat.S_ISLNK(os.lstat(name, dir_fd=dir_fd).st_mode)
    except OSError:
        return False


def write_file(
    path: str | os.PathLike[str],
    data: bytes | Writer,
    *,
    replace: Replace = False,
    within: str | os.PathLike[str] | None = None,
    flag: str = "",
    sync: bool = True,
) -> Path:
    """Write ``data`` (bytes, or a :data:`Writer`) to ``path``: whole, or not at all.

    A temporary file in the same folder is written and synced (unless not ``sync``: a
    dataset's parts, whose checksums the manifest keeps, are not), then linked into place;
    an existing file is replaced only if ``replace`` allows it (a rename: never through a
    link). Missing folders are made; with ``within`` they are reached as :func:`folder`
    does. ``flag`` (``--html``) starts the error messages.

    Raises:
        SimError: a symbolic link where the file belongs, or a file there that may not
            be replaced (``exists_error``).
        OSError: the file cannot be written (a folder there, a full or read-only disk).
    """
    path = Path(path)
    if not path.name or path.name in (".", ".."):
        raise IsADirectoryError(errno.EISDIR, "is a directory, not a file name", str(path))
    root = Path(within) if within is not None else None
    with folder(path.parent, root, create=True) as dfd:
        if _lstat_is_link(path.name, dfd):
            raise link_error(path, flag)
        tmp = _temporary(path.name, dfd, data, path, sync)
        try:
            _commit(tmp, path, dfd, replace, flag)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp, dir_fd=dfd)
    return path


def _temporary(name: str, dfd: int, data: bytes | Writer, path: Path, sync: bool) -> str:
    """A new, finished, synced temporary file for ``name`` in the folder ``dfd``; its name."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    while True:
        tmp = f".{name[:200]}.{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(tmp, flags, FILE_MODE, dir_fd=dfd)
            break
        except FileExistsError:
            continue
        except OSError as err:
            err.filename = str(path.parent / tmp)
            raise
    try:
        os.fchmod(fd, FILE_MODE)  # not the umask's: shared like every file sim writes
        with os.fdopen(fd, "wb") as fh:
            if isinstance(data, bytes | bytearray | memoryview):
                fh.write(data)
            else:
                data(fh)
            fh.flush()
            if sync:
                os.fsync(fh.fileno())
    except BaseException as err:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=dfd)
        if isinstance(err, OSError) and err.filename is None:
            err.filename = str(path)
        raise
    return tmp


def _commit(tmp: str, path: Path, dfd: int, replace: Replace, flag: str) -> None:
    """Link ``tmp`` to ``path``'s name; replace an existing file only as ``replace`` allows."""
    name = path.name
    try:
        os.link(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd, follow_symlinks=False)
        return
    except FileExistsError:
        pass
    except OSError as err:  # a filesystem without hard links: check, then rename
        if err.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK):
            err.filename = str(path)
            raise
        if not _exists(name, dfd):
            os.replace(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
            return
    info = os.lstat(name, dir_fd=dfd)
    if stat.S_ISLNK(info.st_mode):
        raise link_error(path, flag)
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a directory, not a file name", str(path))
    if not (replace is True or (callable(replace) and replace(path))):
        raise exists_error(path, flag)
    os.replace(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)


def _exists(name: str, dfd: int) -> bool:
    try:
        os.lstat(name, dir_fd=dfd)
    except FileNotFoundError:
        return False
    return True


@contextlib.contextmanager
def new_folder(out: Path) -> Iterator[Path]:
    """A hidden temporary folder beside ``out`` to fill, renamed to ``out`` once the block ends.

    So a folder of several files appears whole or not at all: a kill leaves only the hidden
    folder, never an ``out`` that looks finished. If the block raises, the temporary folder
    is removed.

    Raises:
        FileExistsError: ``out`` holds something by the time of the rename.
    """
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name[:200]}.", suffix=".tmp"))
    try:
        os.chmod(tmp, DIR_MODE)
        yield tmp
        if is_link(out) or (out.exists() and (not out.is_dir() or any(out.iterdir()))):
            raise FileExistsError(errno.EEXIST, "exists", str(out))
        try:
            os.rename(tmp, out)  # replaces at most an empty folder
        except OSError as err:
            if err.errno in (errno.EEXIST, errno.ENOTEMPTY, errno.ENOTDIR, errno.EISDIR):
                raise FileExistsError(errno.EEXIST, "exists", str(out)) from None
            raise
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)  # ours, just made: no link is followed
        raise


def remove(path: str | os.PathLike[str], within: str | os.PathLike[str]) -> bool:
    """Delete the file ``path`` inside the folder ``within`` (a link is removed, not followed).

    Returns:
        True if there was a file to delete.

    Raises:
        SimError: a folder on the way is a symbolic link.
    """
    path = Path(path)
    try:
        with folder(path.parent, Path(within)) as dfd:
            os.unlink(path.name, dir_fd=dfd)
    except FileNotFoundError:
        return False
    return True


def remove_matching(
    where: str | os.PathLike[str], within: str | os.PathLike[str], match: Callable[[str], bool]
) -> list[str]:
    """Delete the files of the folder ``where`` (inside ``within``) whose names ``match``.

    Nothing is deleted through a link: a linked folder is refused, a link is removed
    itself. A missing folder has nothing to delete.

    Raises:
        SimError: ``where`` or a folder on the way is a symbolic link.
    """
    try:
        with folder(Path(where), Path(within)) as dfd:
            gone = []
            for name in os.listdir(dfd):
                if match(name) and not stat.S_ISDIR(os.lstat(name, dir_fd=dfd).st_mode):
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(name, dir_fd=dfd)
                    gone.append(name)
            return gone
    except FileNotFoundError:
        return []


def open_new_or_own(path: Path, within: Path, flags: int) -> int:
    """Open (or create) the file ``path`` inside ``within`` without following a link.

    Raises:
        SimError: ``path`` or a folder on the way is a symbolic link.
    """
    with folder(path.parent, within) as dfd:
        try:
            return os.open(
                path.name, flags | NOFOLLOW | getattr(os, "O_CLOEXEC", 0), 0o644, dir_fd=dfd
            )
        except OSError as err:
            if err.errno == errno.ELOOP and _lstat_is_link(path.name, dfd):
                raise link_error(path) from None
            err.filename = str(path)
            raise


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


def _kind(mode: int) -> str:
    """What a file that is not a regular one is, in words."""
    return next((word for test, word in _KINDS if test(mode)), "not a regular file")


@contextlib.contextmanager
def _open_inside(path: Path, within: Path) -> Iterator[tuple[int, os.stat_result] | None]:
    """The open regular file ``path`` inside ``within`` and its status; None if it is missing.

    Reached as :func:`folder` does (no link on the way), opened with ``O_NOFOLLOW`` and
    ``O_NONBLOCK`` (a FIFO is never waited on).

    Raises:
        SimError: a link on the way or at ``path`` (:func:`read_link_error`), a step that is
            not a folder, or ``path`` not a regular file.
    """
    flags = os.O_RDONLY | NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        with folder(path.parent, within, reading=True) as dfd:
            try:
                fd = os.open(path.name, flags, dir_fd=dfd)
            except OSError as err:
                if err.errno == errno.ELOOP and _lstat_is_link(path.name, dfd):
                    raise read_link_error(path) from None
                raise
    except FileNotFoundError:
        yield None
        return
    except NotADirectoryError:
        raise SimError(f"{path.parent}: not a folder; the dataset is damaged") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SimError(f"{path}: {_kind(info.st_mode)}, not a file of the dataset")
        yield fd, info
    finally:
        os.close(fd)


def read_inside(
    path: str | os.PathLike[str], within: str | os.PathLike[str], limit: int | None = None
) -> bytes | None:
    """The bytes of the dataset file ``path`` inside the folder ``within``; None if missing.

    The one way a dataset's own files are read (:func:`_open_inside`: no link on the way or
    at the file, a regular file only). At most ``limit`` bytes.

    Raises:
        SimError: a link, not a regular file, or a file over ``limit`` (one line each).
        OSError: it cannot be read (no permission ...).
    """
    path = Path(path)
    with _open_inside(path, Path(within)) as opened:
        if opened is None:
            return None
        fd, info = opened
        if limit is not None and info.st_size > limit:
            raise SimError(f"{path}: {_size(info.st_size)}; the limit is {_size(limit)}")
        chunks, size = [], 0
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
            size += len(chunk)
            if limit is not None and size > limit:  # it grew while being read
                raise SimError(f"{path}: over {_size(limit)}; the limit is {_size(limit)}")
        return b"".join(chunks)


def check_inside(path: str | os.PathLike[str], within: str | os.PathLike[str]) -> bool:
    """Whether the dataset file ``path`` inside ``within`` exists, reached through no link.

    For a file another library opens by its name (a Parquet part, a SQLite study): checked
    as :func:`read_inside` reads.

    Raises:
        SimError: a link on the way or at the file, or not a regular file.
    """
    with _open_inside(Path(path), Path(within)) as opened:
        return opened is not None


def _size(n: int) -> str:
    """A size in words: ``77.0 MB``, ``512 bytes``."""
    return f"{n / 2**20:.1f} MB" if n >= 2**20 else f"{n:,} bytes"
