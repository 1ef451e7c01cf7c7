"""The architecture is checked, not hoped for (issues 17 and 29).

**The rule.** The package is laid out by the stages of its data flow (scenario -> battle ->
rows -> dataset -> analysis): each stage is a package (or a ground-floor module) that imports
only the stages below it, in the order of :data:`LAYERS`, and no module imports one that
imports it back. Every import counts, wherever it is written: at module level, inside a
function, and under ``if TYPE_CHECKING:`` (a type named from above is a circle that waits for
a caller). Importing ``sim.a.b`` also runs the package ``sim.a``'s ``__init__``, so it counts as
an import of ``sim.a`` too (unless the importer is inside ``sim.a``). ``from sim.a import b``
imports the module ``sim.a.b`` when there is one. The same holds for ``benchmarks/``.

Also checked: only the rule systems test a system's name, and modules and functions stay short.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIM = ROOT / "sim"

LAYERS: tuple[tuple[str, ...], ...] = (
    # the ground floor (sim.intervals and sim.charts: what the summaries and searches share)
    (
        "sim.errors",
        "sim.version",
        "sim.dice",
        "sim.files",
        "sim.workers",
        "sim.intervals",
        "sim.charts",
        "sim.games",  # two-sided games solved with their sampling error (search and analysis)
        "sim.gamereport",
    ),
    ("sim.rules",),  # pure rules per seed
    ("sim.options",),  # option groups of the frame
    ("sim.aftermath", "sim.space"),  # days after a battle; map geometry
    ("sim.scenario",),  # the frozen battle description and its tactics
    ("sim.frame",),  # the War Game frame: fighters, sides, field, harm, morale, turns
    ("sim.systems",),  # the rule systems, acting on the frame
    ("sim.battle",),  # the Battle that runs the frame under a system
    ("sim.dataset",),  # tables, manifest, lock
    ("sim.run",),  # one run: fight, campaign, replay
    ("sim.experiment",),  # experiments, designs, sweeps
    ("sim.odds",),  # exact odds: each system's tables, a whole small battle
    ("sim.search",),  # searches: balance, optimize, calibrate (the answer is a file)
    ("sim.analysis",),  # summaries, intervals, charts, report, export
    ("sim.page",),  # the replay page and frames
    ("sim.cli",),  # argparse and printing
    ("sim", "sim.__main__"),  # the package's two calls (sim.sweep, sim.load); python -m sim
)
"""The stages, lowest first: a module may import its own stage and those above it here."""


def _modules(root: Path) -> dict[str, Path]:
    out = {}
    for p in root.rglob("*.py"):
        parts = p.relative_to(root.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = p
    return out


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of ``modules`` that ``name`` imports: anywhere in it, by the rule above."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            wanted = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
            wanted = subs + ([base] if len(subs) < len(node.names) else [])
        else:
            continue
        for target in wanted:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if not target:
                continue
            out.add(target)
            parts = target.split(".")
            for i in range(1, len(parts)):  # its packages' __init__ run first
                above = ".".join(parts[:i])
                if above in modules and not (name == above or name.startswith(above + ".")):
                    out.add(above)
    out.discard(name)
    return out


def import_graph(root: Path = SIM) -> dict[str, set[str]]:
    """Each module under ``root`` and the modules under ``root`` it imports."""
    modules = _modules(root)
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found, state, stack = [], {}, []

    def visit(n: str) -> None:
        state[n] = 1
        stack.append(n)
        for m in sorted(graph[n]):
            if state.get(m) == 1:
                found.append(stack[stack.index(m) :] + [m])
            elif m not in state:
                visit(m)
        stack.pop()
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            visit(n)
    return found


def _layer(module: str) -> int:
    best = None
    for i, names in enumerate(LAYERS):
        for stage in names:
            if module == stage or (stage != "sim" and module.startswith(stage + ".")):
                if best is None or len(stage) > best[1]:
                    best = (i, len(stage))
    assert best is not None, f"{module} is in no stage of LAYERS: add it"
    return best[0]


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """``a -> b`` for every import of a stage above ``a``'s own."""
    return [
        f"{a} -> {b}"
        for a, deps in sorted(graph.items())
        for b in sorted(deps)
        if _layer(b) > _layer(a)
    ]


def test_no_import_circle_in_sim():
    assert _cycles(import_graph()) == []


def test_no_import_circle_in_the_benchmarks():
    assert _cycles(import_graph(ROOT / "benchmarks")) == []


def test_each_stage_imports_only_the_stages_below_it():
    assert upward_imports(import_graph()) == []


def test_every_stage_package_says_what_it_is_and_what_it_may_import():
    for names in LAYERS:
        for stage in names:
            init = SIM.joinpath(*stage.split(".")[1:], "__init__.py")
            if stage != "sim" and init.exists():
                doc = ast.get_docstring(ast.parse(init.read_text())) or ""
                assert "May import" in doc, f"{init}: its docstring says not what it may import"


def test_the_import_rule_finds_a_planted_circle(tmp_path):
    """A circle made only of a function-level import and a type-only import is found."""
    pkg = tmp_path / "pkg"
    (pkg / "low").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "low" / "__init__.py").write_text("from pkg.low.model import Model\n")
    (pkg / "low" / "model.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.high import Battle\n"
    )
    (pkg / "high.py").write_text("def f():\n    from pkg.low import model\n")
    graph = import_graph(pkg)
    assert graph["pkg.high"] == {"pkg.low", "pkg.low.model"}
    assert _cycles(graph) == [["pkg.high", "pkg.low", "pkg.low.model", "pkg.high"]]
    (pkg / "low" / "model.py").write_text("class Model: ...\n")
    assert _cycles(import_graph(pkg)) == []


def test_the_stage_rule_finds_an_upward_import():
    graph = {"sim.rules.wargame": {"sim.battle.battle"}, "sim.battle.battle": {"sim.rules"}}
    assert upward_imports(graph) == ["sim.rules.wargame -> sim.battle.battle"]


def test_the_circle_finder_finds_circles():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_nothing_imports_the_cli():
    users = [
        m
        for m, deps in import_graph().items()
        if any(d == "sim.cli" or d.startswith("sim.cli.") for d in deps)
        and m != "sim.__main__"
        and not m.startswith("sim.cli")
    ]
    assert users == []


def test_the_pure_rules_import_nothing_of_the_battle():
    graph = import_graph()
    allowed = ("sim.rules", "sim.dice", "sim.errors")
    bad = {
        m: sorted(d for d in deps if not d.startswith(allowed))
        for m, deps in graph.items()
        if m.startswith("sim.rules")
    }
    assert {m: d for m, d in bad.items() if d} == {}


def test_the_rule_systems_do_not_import_the_battle_that_asks_them():
    graph = import_graph()
    bad = {
        m: sorted(d for d in deps if d.startswith(("sim.battle", "sim.run", "sim.experiment")))
        for m, deps in graph.items()
        if m.startswith("sim.systems")
    }
    assert {m: d for m, d in bad.items() if d} == {}


MODULE_LINES = 600
FUNCTION_LINES = 60
LONG_MODULES: set[str] = set()


def test_no_module_over_about_600_lines():
    long = {
        str(p.relative_to(SIM.parent)): n
        for p in SIM.rglob("*.py")
        if (n := len(p.read_text().splitlines())) > MODULE_LINES
    }
    assert set(long) <= LONG_MODULES, long


def test_no_function_over_about_60_lines_unless_its_docstring_says_why():
    long = []
    for p in SIM.rglob("*.py"):
        if str(p.relative_to(SIM.parent)) in LONG_MODULES:
            continue
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                doc = ast.get_docstring(node) or ""
                if lines > FUNCTION_LINES and "long on purpose" not in doc.lower():
                    long.append(f"{p.relative_to(SIM.parent)}:{node.name} ({lines} lines)")
    assert long == []


# --- nothing outside the rule systems tests a system's name (issue 17) -------------------------

NAME_OWNERS = ("sim/rules/", "sim/systems/", "sim/cli/")
"""Where a system's name may be spelt out: the systems themselves, and the CLI's argparse."""


def _system_names() -> frozenset[str]:
    from sim.rules import SYSTEMS

    return frozenset(SYSTEMS)


def _name_tests(tree: ast.AST, names: frozenset[str]) -> list[str]:
    """Comparisons (and match cases) of something with a system's name, and lookups keyed by them.

    ``x == "d6"``, ``"2w2p" != x``, ``x in ("d6", "wargame")``, ``case "deathwish":`` and
    ``{"2w2p": ..., "d6": ...}.get(x)`` or ``[x]`` (a lookup in a dict literal keyed by system
    names) all count; a dict keyed by field names that happen to be systems' does not.
    """

    def named(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant):
            return node.value in names
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return any(named(e) for e in node.elts)
        return False

    def _keyed_by_name(node: ast.AST) -> bool:  # {"2w2p": ..., "d6": ...}[x] or .get(x)
        return isinstance(node, ast.Dict) and any(k is not None and named(k) for k in node.keys)

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(named(x) for x in (node.left, *node.comparators)):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.MatchValue) and named(node.value):
            found.append(f"{node.value.lineno}: case {ast.unparse(node.value)}")
        elif isinstance(node, ast.Subscript | ast.Attribute) and _keyed_by_name(node.value):
            found.append(f"{node.lineno}: {ast.unparse(node)[:60]}")
    return found


def test_only_the_rule_systems_spell_out_a_systems_name():
    names = _system_names()
    bad = {}
    for path in sorted(SIM.rglob("*.py")):
        where = path.relative_to(SIM.parent).as_posix()
        if where.startswith(NAME_OWNERS):
            continue
        found = _name_tests(ast.parse(path.read_text()), names)
        if found:
            bad[where] = found
    assert bad == {}


def test_the_name_finder_finds_names():
    names = _system_names()
    code = """
if system == "2w2p" and len(sides) > 2: pass
ok = "d6" != rules or rules in ("wargame", "other")
module = {"deathwish": 1, "d6": 2}.get(system)
match system:
    case "wargame": pass
fine = system == "2w2p-aftermath" or {"x": 1}.get(x) or name == "d7" or {"d6": check}
fast = {"2w2p": 1}[system]
"""
    found = _name_tests(ast.parse(code), names)
    assert sorted(int(f.split(":")[0]) for f in found) == [2, 3, 3, 4, 6, 8]
