"""A search's answer as its dataset keeps it: ``DIR/search/answer.json``, read and checked.

The search (:mod:`sim.search.journal`) writes it; ``sim analyze``, the HTML report and a
resumed search read it back here, whatever the design, without importing the search. Its
shape (:func:`check`)::

    design   text            the design that answered (balance, optimize, ...)
    status   text            answered, or why not
    exit     0 or 1          0: an answer; 1: the search cannot answer
    lines    [text, ...]     the answer in words
    tables   [{title: text, headers: [text, ...], rows: [[text, ...], ...]}, ...]
             every row as long as its headers
    charts   [{file: "search/NAME.png", title: text}, ...]   PNG files beside it
    data     {...}           the figures, for programs (any JSON)

A file that is not so (hand-edited, cut short, replaced) is refused in one located line,
``DIR/search/answer.json:LINE: tables[0].rows[2]: ...``, with what to do: never a
traceback. It is read as every file of a dataset is (:func:`sim.files.read_inside`: no
link, a regular file), at most :data:`MAX_ANSWER` bytes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sim import files
from sim.errors import SimError

FOLDER = "search"
ANSWER = "answer.json"
MAX_ANSWER = 1 << 20
"""The largest answer file read (1 MB, as an experiment file): a search's answer is a few
kilobytes of words, tables and figures."""
DEPTH = 32
"""The deepest nesting of arrays and objects read (the answer's own figures nest 4 deep)."""
KEYS = ("design", "status", "exit", "lines", "tables", "charts", "data")
CHART = re.compile(r"search/[A-Za-z0-9][A-Za-z0-9_.-]{0,100}\.png")
"""A chart's file: a PNG in the answer's own folder, named plainly."""

Where = tuple[str | int, ...]
"""A place in the document: keys and indexes from the top."""


class Damaged(Exception):
    """A place in the answer that is not as its shape says, and what is wrong there."""

    def __init__(self, where: Where, message: str) -> None:
        super().__init__(message)
        self.where, self.message = where, message


def again(root: Path, experiment: Any) -> str:
    """What to do about a damaged answer: resume the search, which writes it again."""
    return f"sim sweep {experiment or 'EXPERIMENT'} --out {root} --resume writes it again"


def read(root: Path, hint: str) -> dict[str, Any] | None:
    """The answer of the search in the dataset ``root`` (None if there is none yet).

    ``hint`` says what to do about a damaged one (:func:`again`; it ends the error).

    Raises:
        SimError: ``FILE:LINE: PLACE: what is wrong; HINT``, one line.
    """
    path = root / FOLDER / ANSWER
    data = files.read_inside(path, root, MAX_ANSWER)
    if data is None:
        return None
    return parse(data, str(path), hint)


def parse(data: bytes, source: str, hint: str) -> dict[str, Any]:
    """The answer in ``data`` (the bytes of ``source``), checked against its shape."""

    def bad(line: int, message: str) -> SimError:
        return SimError(f"{source}:{line}: {message}; {hint}")

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise bad(data.count(b"\n", 0, err.start) + 1, "not UTF-8 text") from None
    deep = _too_deep(text)
    if deep:
        raise bad(deep, f"nested more than {DEPTH} deep")
    try:
        doc = json.loads(text, parse_int=_whole)
    except json.JSONDecodeError as err:
        raise bad(err.lineno, f"not valid JSON ({err.msg})") from None
    except _TooLong as err:
        raise bad(text.count("\n", 0, max(text.find(err.digits), 0)) + 1, str(err)) from None
    try:
        check(doc)
    except Damaged as err:
        place = dotted(err.where) or "the answer"
        raise bad(line_of(text, err.where), f"{place}: {err.message}") from None
    return dict(doc)


class _TooLong(ValueError):
    def __init__(self, digits: str) -> None:
        super().__init__(f"a number of {len(digits):,} digits")
        self.digits = digits


def _whole(digits: str) -> int:
    """A JSON integer, refused past 30 digits (no figure of an answer has more)."""
    if len(digits.lstrip("-")) > 30:
        raise _TooLong(digits)
    return int(digits)


def check(doc: Any) -> None:
    """Refuse a document that is not an answer's shape (see the module's docstring).

    Raises:
        Damaged: the first place that is not as it should be.
    """
    if not isinstance(doc, dict):
        raise Damaged((), f"expected an object, got {_kind(doc)}")
    for key in doc:
        if key not in KEYS:
            raise Damaged((key,), f"unknown key; an answer has {', '.join(KEYS)}")
    for key in KEYS:
        if key not in doc:
            raise Damaged((), f"no {key!r}")
    for key in ("design", "status"):
        _text(doc[key], (key,))
    if isinstance(doc["exit"], bool) or doc["exit"] not in (0, 1):
        raise Damaged(("exit",), f"expected 0 or 1, got {_short(doc['exit'])}")
    _texts(doc["lines"], ("lines",))
    _list(doc["tables"], ("tables",))
    for i, table in enumerate(doc["tables"]):
        _table(table, ("tables", i))
    _list(doc["charts"], ("charts",))
    for i, chart in enumerate(doc["charts"]):
        at: Where = ("charts", i)
        _keys(chart, at, ("file", "title"))
        if not isinstance(chart["file"], str) or not CHART.fullmatch(chart["file"]):
            raise Damaged((*at, "file"), "expected a PNG beside the answer, search/NAME.png")
        _text(chart["title"], (*at, "title"))
    if not isinstance(doc["data"], dict):
        raise Damaged(("data",), f"expected an object, got {_kind(doc['data'])}")


def _table(table: Any, at: Where) -> None:
    _keys(table, at, ("title", "headers", "rows"))
    _text(table["title"], (*at, "title"))
    _texts(table["headers"], (*at, "headers"))
    _list(table["rows"], (*at, "rows"))
    width = len(table["headers"])
    for r, row in enumerate(table["rows"]):
        _texts(row, (*at, "rows", r))
        if len(row) != width:
            raise Damaged((*at, "rows", r), f"{len(row)} cells under {width} headers")


def _keys(value: Any, at: Where, keys: Sequence[str]) -> None:
    if not isinstance(value, dict):
        raise Damaged(at, f"expected an object of {', '.join(keys)}, got {_kind(value)}")
    for key in keys:
        if key not in value:
            raise Damaged(at, f"no {key!r}")


def _list(value: Any, at: Where) -> None:
    if not isinstance(value, list):
        raise Damaged(at, f"expected a list, got {_kind(value)}")


def _texts(value: Any, at: Where) -> None:
    _list(value, at)
    for i, item in enumerate(value):
        _text(item, (*at, i))


def _text(value: Any, at: Where) -> None:
    if not isinstance(value, str):
        raise Damaged(at, f"expected text, got {_kind(value)}")


def _kind(value: Any) -> str:
    """What a JSON value is, in words, with a glimpse of it."""
    names = {dict: "an object", list: "a list", str: "text", bool: "true or false"}
    if value is None:
        return "null"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"the number {_short(value)}"
    return names.get(type(value), type(value).__name__)


def _short(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, float) else repr(value)
    return text if len(text) <= 24 else text[:21] + "..."


def dotted(where: Where) -> str:
    """``tables[0].rows[2]``."""
    out = ""
    for step in where:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.S)


def _too_deep(text: str) -> int:
    """The line where the nesting first goes past :data:`DEPTH`; 0 if it never does."""
    if text.count("[") + text.count("{") <= DEPTH:
        return 0
    depth = 0
    for m in _STRING.finditer(text):
        ch = m.group()
        if ch in "[{":
            depth += 1
            if depth > DEPTH:
                return text.count("\n", 0, m.start()) + 1
        elif ch in "]}":
            depth -= 1
    return 0


_SPACE = re.compile(r"[ \t\n\r]*")


def line_of(text: str, where: Where) -> int:
    """The line of ``text`` (a JSON document) where the value at ``where`` starts.

    As far as the place can be followed (a key that is not there: the object's line).
    """
    decoder = json.JSONDecoder()
    i = _SPACE.match(text, 0).end()  # type: ignore[union-attr]
    try:
        for step in where:
            start = i
            if text[i] == "{" and isinstance(step, str):
                i = _SPACE.match(text, i + 1).end()  # type: ignore[union-attr]
                while text[i] == '"':
                    key, i = json.decoder.scanstring(text, i + 1)  # type: ignore[attr-defined]
                    i = _SPACE.match(text, _SPACE.match(text, i).end() + 1).end()  # type: ignore[union-attr]
                    if key == step:
                        break
                    i = _skip(decoder, text, i)
                else:
                    i = start
                    break
            elif text[i] == "[" and isinstance(step, int):
                i = _SPACE.match(text, i + 1).end()  # type: ignore[union-attr]
                for _ in range(step):
                    i = _skip(decoder, text, i)
            else:
                break
    except (IndexError, ValueError):
        pass
    return text.count("\n", 0, min(i, len(text))) + 1


def _skip(decoder: json.JSONDecoder, text: str, i: int) -> int:
    """Past the value at ``i`` and the comma after it."""
    _, i = decoder.raw_decode(text, i)
    i = _SPACE.match(text, i).end()  # type: ignore[union-attr]
    if text[i] == ",":
        i = _SPACE.match(text, i + 1).end()  # type: ignore[union-attr]
    return i
