"""The architecture is checked, not hoped for (issue 17): the import rules of the package.

Module-level imports only (those inside ``if TYPE_CHECKING:`` and inside functions are how a
module asks for a type or defers a heavy import; they make no circle at import time).
"""

from __future__ import annotations

import ast
from pathlib import Path

SIM = Path(__file__).resolve().parents[1] / "sim"


def _module(path: Path) -> str:
    parts = path.relative_to(SIM.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _top_level_imports(tree: ast.Module) -> set[str]:
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        for sub in ast.walk(node) if isinstance(node, ast.If | ast.Try) else [node]:
            if isinstance(sub, ast.Import):
                out |= {a.name for a in sub.names}
            elif isinstance(sub, ast.ImportFrom) and sub.module and not sub.level:
                out.add(sub.module)
                out |= {f"{sub.module}.{a.name}" for a in sub.names}
    return out


def import_graph() -> dict[str, set[str]]:
    """Each sim module and the sim modules it imports at module level."""
    modules = {_module(p): p for p in SIM.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        wanted = _top_level_imports(ast.parse(path.read_text()))
        graph[name] = {m for m in wanted if m in modules and m != name}
    return graph


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


def test_no_import_circle():
    assert _cycles(import_graph()) == []


def test_nothing_imports_the_cli():
    users = [m for m, deps in import_graph().items() if "sim.cli" in deps and m != "sim.__main__"]
    assert users == []


def test_the_pure_rules_import_nothing_of_the_battle():
    graph = import_graph()
    allowed = ("sim.rules", "sim.dice", "sim.errors", "sim.options")
    bad = {
        m: sorted(d for d in deps if not d.startswith(allowed))
        for m, deps in graph.items()
        if m.startswith("sim.rules")
    }
    assert {m: d for m, d in bad.items() if d} == {}


def test_the_rule_systems_do_not_import_the_battle_frame():
    graph = import_graph()
    bad = {
        m: deps & {"sim.battle", "sim.cli", "sim.runner"}
        for m, deps in graph.items()
        if m.startswith("sim.systems")
    }
    assert {m: d for m, d in bad.items() if d} == {}


def test_the_circle_finder_finds_circles():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


MODULE_LINES = 600
FUNCTION_LINES = 60
LONG_MODULES = {
    # issue 17 splits it next (aftermath by rule system); it must go from here then
    "sim/aftermath.py",
    # the analysis of datasets; issue 15 reworks it (headers, order, intervals)
    "sim/analysis.py",
}


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
