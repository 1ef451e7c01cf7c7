"""Fuzz a search's own files: mutated answer, journal, study and observed files (issue 37).

Hypothesis spoils one file of a finished search's dataset (a value anywhere in its JSON
replaced, a key dropped, the bytes cut, flipped or replaced; the file swapped for a link to
a secret beside the dataset) and runs one of ``sim analyze`` (plain, ``--report``,
``--plot``), ``sim export`` and ``sim sweep --resume`` on it, in this process. Every run
ends in exit 0 or 1 (harmless, or a resume that answers again), or exit 2 with one line on
stderr, located where it can be; never an exception, and the secret is never read: it is
in no output and no file the run writes. An observed table is mutated line by line and read
as a calibration reads it: one located error, or none.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.cli import main
from tests.search.helpers import DUEL, write
from tests.search.test_files import BALANCED, OPTIMIZED

SECRET = "the-users-secret-7f3a"
FILES = {
    "b": ["search/answer.json", "search/journal.json", "manifest.json"],
    "o": ["search/answer.json", "search/journal.json", "search/study.db"],
}
COMMANDS = ["analyze", "report", "plot", "export", "resume"]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished balance and a finished optimize search, fought once for the module."""
    from sim.search import load_search, run_search

    root = tmp_path_factory.mktemp("fuzzed")
    write(root, "duel.yaml", DUEL)
    for name, text in (("b", BALANCED), ("o", OPTIMIZED)):
        run_search(load_search(write(root, f"{name}.yaml", text)), root / name, progress=False)
    return root


VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.sampled_from(["__HUGE__", "__DEEP__", -1, 0, 2**63, 1e308]),
    st.floats(allow_nan=False),
    st.text(max_size=8),
    st.sampled_from(["search/../manifest.json", "/etc/hostname", "search/x.png", "$\\alpha$"]),
    st.lists(st.integers(0, 3), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)


def paths(doc: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document, the top included."""
    out = [at]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += paths(v, (*at, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:6]):
            out += paths(v, (*at, i))
    return out


def put(doc: Any, at: tuple[Any, ...], value: Any, drop: bool) -> Any:
    """``doc`` with the value at ``at`` replaced (or, in an object, dropped)."""
    if not at:
        return value
    parent = doc
    for step in at[:-1]:
        parent = parent[step]
    if drop and isinstance(parent, dict):
        del parent[at[-1]]
    else:
        parent[at[-1]] = value
    return doc


@st.composite
def spoiled(draw: Any, data: bytes) -> bytes | None:
    """``data`` spoiled: a JSON value replaced or dropped, or its bytes cut, flipped,
    replaced; None: the file becomes a link to the secret."""
    way = draw(st.sampled_from(["value", "value", "value", "cut", "flip", "bytes", "link"]))
    if way == "link":
        return None
    if way == "cut":
        return data[: draw(st.integers(0, max(0, len(data) - 1)))]
    if way == "flip":
        i = draw(st.integers(0, max(0, len(data) - 1)))
        return data[:i] + bytes([data[i] ^ draw(st.integers(1, 255))]) + data[i + 1 :]
    if way == "bytes":
        return draw(st.binary(max_size=64))
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError):  # a SQLite study: its bytes instead
        return draw(st.binary(max_size=64)) + data[64:]
    at = draw(st.sampled_from(paths(doc)))
    doc = put(doc, at, draw(VALUES), draw(st.booleans()))
    text = json.dumps(doc, indent=1)  # a 5,000-digit number, arrays 100,000 deep:
    text = text.replace('"__HUGE__"', "9" * 5000).replace('"__DEEP__"', "[" * 10**5 + "]" * 10**5)
    return text.encode()


def run(argv: list[str]) -> tuple[int, str, str]:
    """``sim ARGV`` in this process: exit code, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def argv(command: str, design: str, work: Path) -> list[str]:
    ds = str(work / design)
    return {
        "analyze": ["analyze", ds],
        "report": ["analyze", ds, "--report", str(work / "r.html")],
        "plot": ["analyze", ds, "--plot", str(work / "p.png")],
        "export": ["export", ds, "--out", str(work / "x")],
        "resume": [
            "sweep",
            str(work / f"{design}.yaml"),
            "--out",
            ds,
            "--resume",
            "--workers",
            "1",
        ],
    }[command]


@pytest.mark.slow
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_a_spoiled_search_file_is_one_line_or_harmless_never_a_traceback(made, data):
    design = data.draw(st.sampled_from(sorted(FILES)))
    name = data.draw(st.sampled_from(FILES[design]))
    command = data.draw(st.sampled_from(COMMANDS))
    work = Path(tempfile.mkdtemp(dir=made))
    try:
        shutil.copytree(made / design, work / design)
        for f in ("duel.yaml", f"{design}.yaml"):
            shutil.copy(made / f, work / f)
        (work / "secret.txt").write_text(SECRET)
        target = work / design / name
        new = data.draw(spoiled(target.read_bytes()))
        target.unlink()
        if new is None:
            target.symlink_to(work / "secret.txt")
        else:
            target.write_bytes(new)
        code, out, err = run(argv(command, design, work))
        lines = [x for x in err.splitlines() if x.strip() and not x.startswith("search: batch")]
        assert code in (0, 1, 2), (code, err)
        if code == 2:
            assert len(lines) == 1, err
        assert SECRET not in out + err
        written = [p for p in work.rglob("*") if p.is_file() and not p.is_symlink()]
        assert not [
            p for p in written if p.name != "secret.txt" and SECRET.encode() in p.read_bytes()
        ]
    finally:
        shutil.rmtree(work, ignore_errors=True)


OBSERVED = "max_rounds,battles,draws\n4,40,45%\n6,40,30%\n"
CALIBRATED = """\
name: fuzz_calibrate
scenario: duel.yaml
design: calibrate
parameters:
  rules.options.incapacitate_serious: {choices: [0.25, 0.75]}
observed: observed.csv
budget: 400
seed: 2
"""


@st.composite
def csv_mutated(draw: Any) -> bytes:
    """The observed table with a line or a cell changed (text, numbers, odd bytes)."""
    lines = OBSERVED.splitlines()
    i = draw(st.integers(0, len(lines) - 1))
    cells = lines[i].split(",")
    j = draw(st.integers(0, len(cells) - 1))
    cells[j] = draw(
        st.one_of(
            st.text(max_size=8),
            st.sampled_from(["9" * 5000, "-1", "1e999", "nan", "101%", '"', "\r", ",,", ""]),
        )
    )
    lines[i] = ",".join(cells)
    if draw(st.booleans()):
        lines.insert(draw(st.integers(0, len(lines))), lines[draw(st.integers(0, len(lines) - 1))])
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=csv_mutated())
def test_a_mutated_observed_table_is_one_located_line_or_none(table):
    from sim.scenario import ScenarioError
    from sim.search import load_search

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write(folder, "duel.yaml", DUEL)
        (folder / "observed.csv").write_bytes(table)
        try:
            load_search(write(folder, "c.yaml", CALIBRATED))
        except ScenarioError as err:
            assert err.issues and all(
                i.source.endswith(("observed.csv", "c.yaml")) for i in err.issues
            )
