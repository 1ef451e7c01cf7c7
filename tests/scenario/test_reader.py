"""Reading YAML safely with line numbers (sim.scenario.reader), and the issues it reports."""

import pickle
import time
from pathlib import Path
from textwrap import dedent

import pytest
import yaml

import sim.scenario
from sim.errors import SimError
from sim.scenario import (
    Issue,
    ScenarioError,
    load_scenario,
    parse_scenario,
    read_yaml,
)
from tests.scenario.helpers import errors


def test_issue_formats():
    assert str(Issue("f.yaml", 3, "sides.red", "bad")) == "f.yaml:3: sides.red: bad"
    assert str(Issue("<--set>", None, "max_rounds", "bad")) == "<--set>: max_rounds: bad"
    assert str(Issue("f.yaml", None, "", "file not found")) == "f.yaml: file not found"
    assert str(Issue("f.yaml", 2, "", "malformed")) == "f.yaml:2: malformed"
    err = ScenarioError([Issue("a", 1, "x", "one"), Issue("a", 2, "y", "two")])
    assert isinstance(err, SimError) and str(err) == "a:1: x: one\na:2: y: two"
    copied = pickle.loads(pickle.dumps(err))
    assert copied.issues == err.issues and str(copied) == str(err)


def test_malformed_yaml_is_one_issue_at_its_line():
    assert errors("sides:\n  red: [a, b\n  blue: 3\n") == [
        "t.yaml:3: malformed YAML: while parsing a flow sequence: expected ',' or ']', but got ':'"
    ]
    assert errors("a: b: c\n") == ["t.yaml:1: malformed YAML: mapping values are not allowed here"]
    assert errors("a: 1\n---\nb: 2\n") == [
        "t.yaml:2: malformed YAML: expected a single document in the stream: but found another "
        "document"
    ]


def test_yaml_tricks_are_refused():
    assert errors("a: !!python/object/apply:os.system [echo hi]\n") == [
        "t.yaml:1: a: unsupported tag !!python/object/apply:os.system"
    ]
    assert errors("a: 1\nb: 2\na: 3\n") == ["t.yaml:3: a: duplicate key (first on line 1)"]
    assert errors("a: &x [*x]\n") == ["t.yaml:1: an alias refers to a node that contains it"]
    assert errors("a: \x00\n") == [
        "t.yaml:1: unacceptable character #x0000 (special characters are not allowed)"
    ]
    deep = "a: " + "[" * 70 + "]" * 70 + "\n"
    assert errors(deep) == ["t.yaml:1: nesting deeper than 64 levels"]
    assert errors("a: " + "[" * 2000 + "]" * 2000 + "\n") == ["t.yaml: nesting is too deep"]
    chain = "x0: &x0 " + "[" * 30 + "]" * 30 + "\n"
    for i in range(1, 5):
        chain += f"x{i}: &x{i} " + "[" * 30 + f"*x{i - 1}" + "]" * 30 + "\n"
    assert errors(chain) == ["t.yaml:3: nesting deeper than 64 levels once aliases are expanded"]


BILLION_LAUGHS = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h,*h]
j: &j [*i,*i,*i,*i,*i,*i,*i,*i,*i,*i]
"""


def test_alias_bomb_is_refused_before_it_is_expanded(tmp_path):
    """Expanded, the document would hold 10**9 values: minutes and gigabytes. Refused at the
    count, it takes a fraction of a second; the bound here only tells the two apart, on any
    machine however loaded (timings belong in benchmarks/)."""
    path = tmp_path / "bomb.yaml"
    path.write_text(BILLION_LAUGHS)
    start = time.perf_counter()
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert time.perf_counter() - start < 20
    assert str(info.value) == (
        f"{path}:6: the document holds more than 200000 values once aliases are expanded "
        "(an alias bomb?)"
    )


def test_aliases_and_merge_keys_within_the_limits_work():
    doc, locate = read_yaml("base: &v {hit_dice: 5}\nuse: {<<: *v, name: a}\n")
    assert doc["use"] == {"hit_dice": 5, "name": "a"}
    text = dedent(
        """\
        templates:
          vet: &vet {hit_dice: 5, weapon: axe}
        sides:
          red:
            fighters:
              - {<<: *vet, name: a}
              - {<<: *vet, name: b, weapon: maul}
          blue:
            fighters: [{name: c}]
        """
    )
    sc = parse_scenario(text)
    a, b = sc.sides[0].fighters
    assert (a.hit_dice, a.weapon, b.hit_dice, b.weapon) == (5, "axe", 5, "maul")


def test_big_file_is_refused_before_it_is_parsed(tmp_path, monkeypatch):
    path = tmp_path / "big.yaml"
    with path.open("w") as handle:
        handle.write("description: |\n")
        line = "  " + "x" * 98 + "\n"
        handle.write(line * (6 * 1024 * 1024 // len(line)))

    def no_parsing(*args, **kwargs):
        raise AssertionError("the file was parsed")

    monkeypatch.setattr(yaml, "compose", no_parsing)
    monkeypatch.setattr(Path, "read_text", no_parsing)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert str(info.value) == f"{path}: file is 6.0 MB; the limit is 5 MB"
    with pytest.raises(ScenarioError) as info:
        parse_scenario("x" * (6 * 1024 * 1024), "big.yaml")
    assert str(info.value) == "big.yaml: file is 6.0 MB; the limit is 5 MB"


def test_read_yaml_locates_paths():
    doc, locate = read_yaml("a:\n  b:\n    - x\n    - {c: 1,\n       d: 2}\n", "f.yaml")
    assert doc == {"a": {"b": ["x", {"c": 1, "d": 2}]}}
    assert locate("a") == 1 and locate("a.b") == 2 and locate("a.b[0]") == 3
    assert locate("a.b[1]") == 4 and locate("a.b[1].d") == 5
    assert locate("a.b[1].missing") == 4  # falls back to the nearest parent
    assert locate("zzz") is None
    doc, _ = read_yaml("1: yes\nno: 2\n")
    assert doc == {"1": True, "no": 2}  # keys are taken as written


def test_loader_uses_only_safe_yaml():
    package = Path(sim.scenario.__file__).parent
    for path in package.rglob("*.py"):
        source = path.read_text()
        for unsafe in ("yaml.load(", "full_load", "unsafe_load", "yaml.Loader", "FullLoader"):
            assert unsafe not in source, path
