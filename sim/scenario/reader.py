"""Reading scenario YAML safely, with the line of every value, and the issues it reports.

PyYAML composes nodes with ``SafeLoader`` and :func:`read_yaml` builds plain values from them
itself (mappings, lists, strings, numbers, booleans, null; no tags that make objects, no
code). Mapping keys are text as written (``yes:`` is the key ``"yes"``); anchors, aliases and
``<<`` merge keys work; a key given twice is an error. Limits: a file of at most 5 MB, at
most 200,000 values once aliases are expanded (an alias bomb is refused before anything is
built), at most 64 levels of nesting.

Hostile text is refused where it is read: control characters (an ANSI escape's ESC, NUL,
DEL; a tab or line break is fine in a value, but not in a key or a name) and lone
surrogates (half a UTF-16 pair, made with a YAML escape) in any key or text value, empty
keys (a side named ``""``), and YAML 1.1's base-60 numbers (``1:30`` would read as 90).
Keys and names may hold no invisible or bidirectional control character (a zero-width
space, a right-to-left override), and are kept in Unicode NFC, so two names that differ
only in their Unicode form (``café`` composed or not) are one name: a duplicate.
Files are read by :func:`read_text_file`: regular files only (a FIFO would block), at most
5 MB, in UTF-8.

A problem is an :class:`Issue` (``file:line: field.path: message``); a
:class:`ScenarioError` carries every issue found. The small helpers here name paths and
values the way every message shows them.
"""

from __future__ import annotations

import errno
import os
import stat
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from sim.errors import SimError

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_NODES",
    "Issue",
    "Locate",
    "ScenarioError",
    "fail",
    "join_path",
    "parent_path",
    "quote_name",
    "read_text_file",
    "read_yaml",
    "show",
    "size_message",
]

MB = 1024 * 1024
MAX_BYTES = 5 * MB
"""Largest file read (5 MB)."""
MAX_NODES = 200_000
"""Most values a document may hold once aliases are expanded."""
MAX_DEPTH = 64
"""Deepest nesting of mappings and lists."""

Locate = Callable[[str], "int | None"]
"""Gives the 1-based line of a dotted path, or None."""


# --------------------------------------------------------------------------- issues
@dataclass(frozen=True, slots=True)
class Issue:
    """One problem in a file: where it is (source, 1-based line, field path) and what."""

    source: str
    line: int | None
    path: str
    message: str

    def __str__(self) -> str:
        where = self.source if self.line is None else f"{self.source}:{self.line}"
        return f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"


class ScenarioError(SimError):
    """Every problem found in a scenario file; ``str()`` gives one line per issue."""

    def __init__(self, issues: Iterable[Issue]) -> None:
        self.issues: tuple[Issue, ...] = tuple(issues)
        super().__init__("\n".join(str(i) for i in self.issues))

    def __reduce__(self) -> tuple[Any, ...]:
        return (ScenarioError, (self.issues,))


def fail(source: str, message: str, line: int | None = None, path: str = "") -> ScenarioError:
    """A :class:`ScenarioError` of one issue."""
    return ScenarioError([Issue(source, line, path, message)])


def show(value: Any) -> str:
    """A value as an error message quotes it: ``'three'``, ``2.5``, ``true``, ``a list``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str) and len(value) > 40:
        return repr(value[:37] + "...")
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def quote_name(text: str) -> str:
    """A name as paths and messages show it: as is, or quoted if it has odd characters."""
    return text if text.isprintable() else repr(text)


def join_path(path: str, key: str) -> str:
    """The path of ``key`` inside ``path`` (``sides.red`` + ``fighters``)."""
    key = quote_name(key)
    return f"{path}.{key}" if path else key


def parent_path(path: str) -> str:
    """The path one step up: ``a.b[2]`` -> ``a.b``, ``a.b`` -> ``a``."""
    if path.endswith("]"):
        return path[: path.rindex("[")]
    return path.rpartition(".")[0]


# --------------------------------------------------------------------------- reading YAML
_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_TAG + t for t in ("null", "bool", "int", "float", "str")}
# Plain ``<<`` and ``=`` as values are just text, and so is a date (2001-12-14): no field
# takes a date, and a datetime is no value a --set override or a dataset column can hold.
_AS_TEXT = {_TAG + "merge", _TAG + "value", _TAG + "timestamp"}
_MERGE = _TAG + "merge"


class _TooBig(Exception):
    pass


class _Reader:
    """Builds plain Python values from a composed node graph, noting each path's line."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.issues: list[Issue] = []
        self.lines: dict[str, int] = {}
        self.sizes: dict[int, tuple[int, int]] = {}
        self.constructor = yaml.constructor.SafeConstructor()

    def issue(self, node: Node, path: str, message: str) -> None:
        self.issues.append(Issue(self.source, node.start_mark.line + 1, path, message))

    # Sizing first: the expanded size and height of every node (a shared node counts once per
    # use), so an alias bomb or an alias chain too deep is found from its few distinct nodes,
    # before anything is built.
    def size(self, node: Node, depth: int, active: set[int], used: Node) -> tuple[int, int]:
        """Expanded (size, height) of ``node``, used inside ``used`` at ``depth``."""
        known = self.sizes.get(id(node))
        if known is None:
            if depth > MAX_DEPTH:
                raise _TooBig(f"nesting deeper than {MAX_DEPTH} levels", node)
            if id(node) in active:
                raise _TooBig("an alias refers to a node that contains it", node)
            total, height = 1, 1
            if isinstance(node, (MappingNode, SequenceNode)):
                active.add(id(node))
                children: list[Node] = []
                if isinstance(node, MappingNode):
                    for key, value in node.value:
                        children += [key, value]
                else:
                    children = list(node.value)
                for child in children:
                    child_size, child_height = self.size(child, depth + 1, active, node)
                    total += child_size
                    height = max(height, child_height + 1)
                    if total > MAX_NODES:
                        break
                active.discard(id(node))
            known = self.sizes[id(node)] = (total, height)
        total, height = known
        if depth + height > MAX_DEPTH + 1:
            raise _TooBig(f"nesting deeper than {MAX_DEPTH} levels once aliases are expanded", used)
        if total > MAX_NODES:
            raise _TooBig(
                f"the document holds more than {MAX_NODES} values once aliases are expanded "
                "(an alias bomb?)",
                node,
            )
        return known

    def build(self, node: Node, path: str) -> Any:
        if isinstance(node, ScalarNode):
            return self.scalar(node, path)
        if isinstance(node, SequenceNode):
            if node.tag != _TAG + "seq":
                self.issue(node, path, f"unsupported tag {_tag(node.tag)}")
                return None
            out = []
            for i, item in enumerate(node.value):
                item_path = f"{path}[{i}]"
                self.lines.setdefault(item_path, item.start_mark.line + 1)
                out.append(self.build(item, item_path))
            return out
        if isinstance(node, MappingNode):
            if node.tag != _TAG + "map":
                self.issue(node, path, f"unsupported tag {_tag(node.tag)}")
                return None
            result: dict[str, Any] = {}
            for key, (key_node, value_node) in self.pairs(node, path).items():
                key_path = join_path(path, key)
                self.lines.setdefault(key_path, key_node.start_mark.line + 1)
                result[key] = self.build(value_node, key_path)
            return result
        self.issue(node, path, "unsupported node")  # pragma: no cover - PyYAML has no other
        return None

    def pairs(self, node: MappingNode, path: str) -> dict[str, tuple[Node, Node]]:
        """A mapping's entries by key text; ``<<`` merges resolved, duplicates reported."""
        own: dict[str, tuple[Node, Node]] = {}
        merged: dict[str, tuple[Node, Node]] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE:
                sources = value_node.value if isinstance(value_node, SequenceNode) else [value_node]
                for source in sources:
                    if not isinstance(source, MappingNode):
                        self.issue(value_node, path, "'<<' merges a mapping or a list of mappings")
                        continue
                    for key, pair in self.pairs(source, path).items():
                        merged.setdefault(key, pair)  # earlier sources win
                continue
            if not isinstance(key_node, ScalarNode):
                self.issue(key_node, path, "a key must be plain text, not a list or mapping")
                continue
            raw = str(key_node.value)
            problem = bad_text(raw, allow_breaks=False)
            if not raw or problem:
                what = f"the key {show(raw)} {problem}" if raw else "an empty key"
                self.issue(key_node, path, what)
                continue
            key = name_form(raw)
            if key in own:
                first = own[key][0].start_mark.line + 1
                twin = "" if own[key][0].value == raw else ": the same name in another Unicode form"
                self.issue(
                    key_node, join_path(path, key), f"duplicate key (first on line {first}{twin})"
                )
                continue
            own[key] = (key_node, value_node)
        return {**merged, **own}

    def scalar(self, node: ScalarNode, path: str) -> Any:
        if node.tag in _AS_TEXT:
            return str(node.value)
        if node.tag not in _SCALAR_TAGS:
            self.issue(node, path, f"unsupported tag {_tag(node.tag)}")
            return None
        if node.tag in _NUMBER_TAGS and node.style is None and ":" in node.value:
            self.issue(
                node,
                path,
                f"bad value {node.value[:40]!r}: a YAML 1.1 base-60 number; write the "
                "number you mean, or quote it if it is text",
            )
            return None
        try:
            value = self.constructor.construct_object(node, deep=True)
        except (yaml.YAMLError, ValueError, OverflowError) as err:
            detail = getattr(err, "problem", None) or str(err).partition(":")[0]
            if "limit" in detail and "integer string conversion" in detail:
                detail = f"a whole number of {len(node.value):,} digits: far too large"
            self.issue(node, path, f"bad value {node.value[:40]!r}: {_one_line(detail)}")
            return None
        if isinstance(value, str):
            strict = path.rpartition(".")[2] in NAME_KEYS
            problem = bad_text(value, allow_breaks=not strict)
            if problem:
                self.issue(node, path, f"the text {show(value)} {problem}")
                return None
            if strict:
                value = name_form(value)
        return value


NAME_KEYS = ("name", "leader", "side", "supervisor", "protect", "target")
"""Keys whose text is a name or names one (a leader, a side): read as keys are."""
_NUMBER_TAGS = {_TAG + "int", _TAG + "float"}
_BREAKS = "\t\n\r"


INVISIBLE = frozenset("\u034f\u115f\u1160\u3164\uffa0")
"""Invisible characters that are not format characters (a joiner, Hangul fillers)."""


def bad_text(text: str, allow_breaks: bool = True) -> str | None:
    """Why ``text`` may not be read (a control character, a lone surrogate), or None.

    Tabs and line breaks pass when ``allow_breaks`` (a description), not in keys and names.
    A key or name (``allow_breaks`` false) may also hold no invisible or bidirectional
    control character (Unicode's format characters: zero-width spaces and joiners, the
    direction marks, overrides and isolates; line and paragraph separators): two names
    could print alike, or one show as another.
    """
    for ch in text:
        kind = unicodedata.category(ch)
        if kind == "Cs":
            return f"holds a lone surrogate U+{ord(ch):04X}, which is not a character"
        if kind == "Cc" and not (allow_breaks and ch in _BREAKS):
            return f"holds the control character U+{ord(ch):04X}; text must be printable"
        if not allow_breaks and (kind in ("Cf", "Zl", "Zp") or ch in INVISIBLE):
            what = unicodedata.name(ch, "").lower()
            return (
                "holds the invisible or bidirectional control character "
                f"U+{ord(ch):04X}{f' ({what})' if what else ''}; a name must read as it shows"
            )
    return None


def name_form(text: str) -> str:
    """A name as it is compared and kept: Unicode NFC, so twins (NFC and NFD) are one."""
    return unicodedata.normalize("NFC", text)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _tag(tag: str) -> str:
    return "!!" + tag[len(_TAG) :] if tag.startswith(_TAG) else tag


def _yaml_issue(err: yaml.YAMLError, text: str, source: str) -> Issue:
    if isinstance(err, yaml.reader.ReaderError):
        line = text[: err.position].count("\n") + 1
        char = err.character if isinstance(err.character, int) else ord(err.character)
        return Issue(source, line, "", f"unacceptable character #x{char:04x} ({err.reason})")
    if isinstance(err, yaml.MarkedYAMLError):
        mark = err.problem_mark or err.context_mark
        parts = [p for p in (err.context, err.problem) if p]
        message = _one_line(": ".join(parts)) or "malformed YAML"
        if err.context == "while parsing a flow mapping" and "got '['" in (err.problem or ""):
            # {sides.a.fighters[0].count: 3}: in braces, [ starts a list, not part of the key
            message += (
                "; in a mapping written in braces, quote a key holding [ ]: "
                "{'sides.red.fighters[0].count': 3}"
            )
        return Issue(source, mark.line + 1 if mark else None, "", f"malformed YAML: {message}")
    return Issue(source, None, "", f"malformed YAML: {_one_line(str(err))}")


def size_message(size: int) -> str:
    """The message for a file of ``size`` bytes, over the limit."""
    return f"file is {size / MB:.1f} MB; the limit is {MAX_BYTES // MB} MB"


def read_text_file(path: str | os.PathLike[str]) -> str:
    """The text of the file at ``path``: a regular file of at most 5 MB, in UTF-8.

    Opened without blocking and checked before it is read, so a FIFO, a device or a
    directory is refused instead of read (a FIFO would wait forever).

    Raises:
        ScenarioError: one located issue (``file: message`` or ``file:line: message``).
    """
    source = os.fspath(path)
    try:
        fd = os.open(source, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise fail(source, "file not found") from None
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise fail(source, "a loop of symbolic links; give a file") from None
        raise fail(source, f"cannot read: {err.strerror or err}") from None
    info = os.fstat(fd)  # before fdopen, which refuses a folder with a bare OSError
    if stat.S_ISDIR(info.st_mode):
        os.close(fd)
        raise fail(source, "is a directory, not a file")
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(info.st_mode):
            raise fail(source, "not a regular file (a FIFO, socket or device); give a file")
        if info.st_size > MAX_BYTES:
            raise fail(source, size_message(info.st_size))
        try:
            data = handle.read(MAX_BYTES + 1)
        except OSError as err:
            raise fail(source, f"cannot read: {err.strerror or err}") from None
    if len(data) > MAX_BYTES:
        raise fail(source, f"file is over the limit of {MAX_BYTES // MB} MB")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise fail(source, f"not UTF-8 text (byte {err.start})", line) from None


def read_yaml(text: str, source: str = "<string>") -> tuple[Any, Locate]:
    """Parse one YAML document safely; return its plain value and a line finder.

    The value is built from PyYAML's composed nodes (``SafeLoader``): mappings become dicts
    with text keys (a key is taken as written: ``1`` and ``yes`` stay the text ``"1"`` and
    ``"yes"``), lists become lists, scalars the usual YAML 1.1 values. ``<<`` merge keys
    work. ``locate(path)`` gives the 1-based line of a dotted path such as
    ``sides.red.fighters[2].weapon`` (the line of its key, or of a list item), falling back
    to its nearest parent that the document has (but not to the document itself, which
    ``locate("")`` gives); ``None`` if none has a line.

    Raises:
        ScenarioError: malformed YAML (one issue at the line PyYAML reports), a document over
            the limits (size, expanded values, nesting), unsupported tags, duplicate keys,
            keys that are not plain text.
    """
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise fail(source, size_message(len(text.encode("utf-8", "surrogatepass"))))
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as err:
        raise ScenarioError([_yaml_issue(err, text, source)]) from None
    except RecursionError:
        raise fail(source, "nesting is too deep") from None
    reader = _Reader(source)

    def locate(path: str) -> int | None:
        if not path:
            return reader.lines.get("")
        while path:
            line = reader.lines.get(path)
            if line is not None:
                return line
            path = parent_path(path)
        return None

    if root is None:
        return None, locate
    try:
        reader.size(root, 0, set(), root)
    except _TooBig as err:
        message, node = err.args
        raise fail(source, message, node.start_mark.line + 1) from None
    reader.lines[""] = root.start_mark.line + 1
    value = reader.build(root, "")
    if reader.issues:
        raise ScenarioError(reader.issues)
    return value, locate
