"""Fuzz the command line with hostile experiment files and scenarios (issue 16).

Hypothesis mutates a working experiment and a working scenario line by line (a value
replaced by a huge number, a control character, a lone surrogate, a YAML tag, an alias, a
base-60 number; a line deleted, doubled or cut; bytes that are not UTF-8) and runs
``sim validate`` and ``sim sweep`` on them in this process. Every run must end with exit 0
or with exit 2 and a located message (``file:line: ...`` or ``sim sweep: error: ...``),
never an exception (a traceback).
"""

import contextlib
import io
import json
import os
import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.cli import main

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = (ROOT / "scenarios" / "skirmish.yaml").read_text(encoding="utf-8")
EXPERIMENT = """\
name: fuzz
scenario: s.yaml
set: [max_rounds=5]
design: grid
parameters:
  sides.guards.tactic: [balanced, defensive]
  max_rounds: [3, 4]
replicates: 1
seed: 7
tables: [runs, fighters]
chunk: 2
"""

ODD = [
    "[]",
    "{}",
    "null",
    "~",
    "1:30",
    "-1:30:00",
    "!!python/object/apply:os.system ['true']",
    "!!binary aGk=",
    "*nowhere",
    "&a [*a]",
    "'",
    '"',
    "- x",
    "0x1F",
    "0o17",
    "1e999",
    ".nan",
    "-.inf",
    "yes",
    "''",
    '"\\e[31m"',
    '"\\ud800"',
    '"a\\x00b"',
    "../../escaped",
    "/abs/path",
    "x" * 200,
]
SCALARS = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.floats().map(repr),
    st.text(max_size=12).map(json.dumps),  # JSON escapes are YAML escapes: surrogates too
    st.sampled_from(ODD),
)


@st.composite
def mutated(draw, text):
    """``text`` with a few lines changed, as bytes (sometimes not UTF-8)."""
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["value", "value", "delete", "double", "cut", "insert"]))
        line = lines[i]
        if kind == "value" and ":" in line:
            lines[i] = line.split(":", 1)[0] + ": " + draw(SCALARS)
        elif kind == "delete" and len(lines) > 1:
            del lines[i]
        elif kind == "double":
            lines.insert(i, line)
        elif kind == "cut":
            lines[i] = line[: draw(st.integers(0, len(line)))]
        elif kind == "insert":
            lines.insert(i, draw(st.sampled_from(ODD + ["  indented: 1", "\tx: 1", "key"])))
    data = ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 9)) == 0:
        at = draw(st.integers(0, len(data)))
        data = (
            data[:at]
            + draw(st.sampled_from([b"\xff", b"\xc3", b"\x00", b"\xed\xa0\x80"]))
            + data[at:]
        )
    return data


def run(*argv):
    """``sim ARGV`` in this process: (exit code, stderr). An exception fails the test."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:  # argparse
            code = exc.code
    return code, err.getvalue()


LOCATED = re.compile(r"^(\S.*?:(\d+:)? |sim \w+: error: )")


def assert_clean(code, err, source):
    assert "Traceback" not in err
    assert code in (0, 2), (code, err)
    if code == 2:
        lines = [line for line in err.splitlines() if not line.startswith("progress:")]
        assert lines, "exit 2 says why"
        for line in lines:
            assert line.startswith(str(source)) or LOCATED.match(line), line


FUZZ = settings(
    max_examples=int(os.environ.get("SIM_FUZZ_EXAMPLES", 60)),  # more: explore
    deadline=None,
    derandomize="SIM_FUZZ_EXAMPLES" not in os.environ,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZ
@given(mutated(SCENARIO))
def test_hostile_scenarios_end_in_a_located_error(data):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "s.yaml"
        path.write_bytes(data)
        code, err = run("validate", path)
        assert_clean(code, err, path)


@FUZZ
@given(mutated(EXPERIMENT), mutated(SCENARIO) | st.just(SCENARIO.encode()))
def test_hostile_experiments_end_in_a_located_error(experiment, scenario):
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "s.yaml").write_bytes(scenario)
        path = Path(tmp) / "e.yaml"
        path.write_bytes(experiment)
        out = Path(tmp) / "out"
        code, err = run("sweep", path, "--out", out, "--limit", 2, "--executor", "serial")
        assert_clean(code, err, path)
        if code == 0:
            code, err = run("analyze", out)
            assert_clean(code, err, out)
