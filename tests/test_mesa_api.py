"""sim uses Mesa through its public API only, so that a newer Mesa does not break it unseen.

Private means a name with one leading underscore. Mesa's private names are read from its
own source (every ``_name`` a Mesa class defines or sets on ``self``/``cls``), without
importing it; sim's source may not name one of them (as an attribute, or as a name in a
class body, which would override Mesa's), import a Mesa module or name that starts with an
underscore, or import a name a Mesa module leaves out of its ``__all__``.

One exception, named with its reason in :data:`ALLOWED`; a test fails once Mesa no longer
has the name, so that the workaround goes when the bug does.
"""

import ast
import importlib
from pathlib import Path

import mesa

from sim.frame.agents import Fighter

ROOT = Path(__file__).resolve().parents[1]
SIM = ROOT / "sim"
MESA = Path(mesa.__file__).parent

ALLOWED = {
    "_ids": "sim.frame.agents.Fighter._ids: Mesa 3.3's class-level Agent._ids keeps every "
    "model ever built alive (upstream issue 3179), a sweep's worker would hold every battle "
    "it fought; Fighter's weak-keyed table lets finished battles go (tests/test_agents.py, "
    "tests/test_battle_stats.py). Mesa 3.4 numbers agents on the model and has no Agent._ids, "
    "so Fighter sets it only on a Mesa that has it: drop the override with Mesa 3.3.",
}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _class_body_names(cls: ast.ClassDef | ast.If) -> list[tuple[str, int]]:
    """Names a class body defines: methods and assigned names (under an ``if`` too), with lines."""
    out = []
    for s in [*cls.body, *(cls.orelse if isinstance(cls, ast.If) else ())]:
        if isinstance(s, ast.If):
            out += _class_body_names(s)
        elif isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef):
            out.append((s.name, s.lineno))
        elif isinstance(s, ast.Assign):
            out += [(t.id, s.lineno) for t in s.targets if isinstance(t, ast.Name)]
        elif isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name):
            out.append((s.target.id, s.lineno))
    return out


def mesa_private_names(root: Path = MESA) -> set[str]:
    """Every private name a Mesa class defines, or a Mesa method sets on ``self``/``cls``."""
    names: set[str] = set()
    for path in root.rglob("*.py"):
        if "examples" in path.relative_to(root).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                names.update(n for n, _ in _class_body_names(node) if _private(n))
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AnnAssign | ast.AugAssign):
                targets = [node.target]
            for t in targets:
                if (
                    isinstance(t, ast.Attribute)
                    and isinstance(t.value, ast.Name)
                    and t.value.id in ("self", "cls")
                    and _private(t.attr)
                ):
                    names.add(t.attr)
    return names


def private_uses(text: str, where: str, mesa_names: set[str]) -> list[tuple[str, str]]:
    """``(name, place)`` of every use of a Mesa private name or module in ``text``."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Attribute) and node.attr in mesa_names:
            found.append((node.attr, f"{where}:{node.lineno}"))
        elif isinstance(node, ast.ClassDef):
            found += [
                (n, f"{where}:{line}") for n, line in _class_body_names(node) if n in mesa_names
            ]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "mesa" and any(_private(p) for p in parts):
                    found.append((alias.name, f"{where}:{node.lineno}"))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "mesa":
            parts = node.module.split(".") + [a.name for a in node.names]
            found += [(p, f"{where}:{node.lineno}") for p in parts if _private(p)]
    return found


def mesa_from_imports(text: str) -> list[tuple[str, str, int]]:
    """``(module, name, line)`` of every ``from mesa... import name``."""
    return [
        (node.module, alias.name, node.lineno)
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "mesa"
        for alias in node.names
    ]


def guarded_lines(text: str) -> set[int]:
    """Lines of the imports in a ``try`` whose handler catches ``ImportError``."""
    lines = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Try) and any(
            isinstance(h.type, ast.Name) and h.type.id in ("ImportError", "ModuleNotFoundError")
            for h in node.handlers
        ):
            body = [n for s in node.body for n in ast.walk(s)]
            lines |= {n.lineno for n in body if isinstance(n, ast.ImportFrom)}
    return lines


def _sim_sources() -> list[tuple[str, str]]:
    return [
        (str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in sorted(SIM.rglob("*.py"))
    ]


def test_mesa_has_private_names_to_check():
    names = mesa_private_names()
    assert {"_agent_records", "_all_agents", "_agents"} <= names, sorted(names)


def test_sim_uses_no_private_mesa_name_but_the_allowed_one():
    names = mesa_private_names()
    found = [u for where, text in _sim_sources() for u in private_uses(text, where, names)]
    unexpected = [(n, at) for n, at in found if n not in ALLOWED]
    assert not unexpected, f"sim uses private Mesa names: {unexpected}"
    assert {n for n, _ in found} == set(ALLOWED), "an allowed exception is no longer used: drop it"


def test_the_workaround_is_there_exactly_on_a_mesa_with_the_bug():
    # Mesa 3.3's Agent._ids; Mesa 3.4 and later number agents on the model, and Fighter
    # then leaves Mesa's Agent as it is
    assert ("_ids" in vars(Fighter)) == ("_ids" in vars(mesa.Agent))
    assert set(ALLOWED) <= mesa_private_names(), "Mesa dropped it: drop sim's workaround"


def test_sim_imports_only_names_mesa_exports():
    for where, text in _sim_sources():
        for module, name, line in mesa_from_imports(text):
            try:
                exported = getattr(importlib.import_module(module), "__all__", None)
            except ImportError:  # a newer Mesa's module (Mesa 3.5's scenarios on Mesa 3.3)
                assert line in guarded_lines(text), f"{where}:{line}: {module} is not Mesa's"
                continue
            assert exported is None or name in exported, f"{where}:{line}: {module}.{name}"


def test_the_finder_finds_private_uses():
    names = mesa_private_names()
    cases = {
        "dc._agent_records[3] = []": "_agent_records",
        "class F(mesa.Agent):\n    _ids = {}": "_ids",
        "class F(mesa.Agent):\n    if OLD:\n        _ids = {}": "_ids",
        "n = len(model._all_agents)": "_all_agents",
        "import mesa.discrete_space._private": "mesa.discrete_space._private",
        "from mesa.space import _Grid": "_Grid",
    }
    for text, name in cases.items():
        assert [n for n, _ in private_uses(text, "x.py", names)] == [name], text
    assert private_uses("self._status = 1\nfrom mesa import Model", "x.py", names) == []
    assert mesa_from_imports("from mesa.discrete_space import CellAgent") == [
        ("mesa.discrete_space", "CellAgent", 1)
    ]
    text = "try:\n    from mesa.new import A\nexcept ImportError:\n    A = None\nfrom mesa import B"
    assert guarded_lines(text) == {2}
