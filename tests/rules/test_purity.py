"""sim/rules stays pure (DESIGN.md habit 2): numpy, the standard library and sim's own ground.

Every module of sim/rules may import only numpy, the standard library, sim.dice, sim.errors
and sim.rules.*; importing all of them loads no Mesa, pandas, pyarrow or matplotlib.
"""

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "sim" / "rules"
HEAVY = ("mesa", "pandas", "pyarrow", "matplotlib")
ALLOWED_SIM = ("sim.dice", "sim.errors", "sim.rules")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).parent.parts)


def rule_modules() -> list[str]:
    return sorted(module_name(p) for p in RULES.rglob("*.py"))


def imported(source: str, package: str) -> list[str]:
    """Every module (or module.name) ``source`` imports; relative imports resolved."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            out += [f"{base}.{a.name}" for a in node.names]
    return out


def bad_imports(source: str, package: str) -> list[str]:
    """The imports of ``source`` that a module of sim/rules may not make."""
    bad = []
    for name in imported(source, package):
        top = name.split(".")[0]
        if top == "sim":
            if not any(name == a or name.startswith(a + ".") for a in ALLOWED_SIM):
                bad.append(name)
        elif top != "numpy" and top not in sys.stdlib_module_names:
            bad.append(name)
    return bad


def test_the_import_check_catches_what_it_should():
    source = (
        "from __future__ import annotations\nimport numpy as np\nfrom fractions import Fraction\n"
        "from sim.dice import Dist\nfrom sim.rules.common import Table\nfrom sim import errors\n"
        "from . import tables\nfrom ..common import Status\n"
        "import pandas as pd\nfrom sim.battle.battle import Battle\nimport sim.scenario\n"
        "from sim import tactics\nfrom ... import agents\n"
        "def f():\n    from mesa import Model\n"
    )
    assert bad_imports(source, "sim.rules.wargame") == [
        "pandas",
        "sim.battle.battle.Battle",
        "sim.scenario",
        "sim.tactics",
        "sim.agents",
        "mesa.Model",
    ]


def test_rules_modules_import_only_numpy_stdlib_and_sim_ground():
    modules = rule_modules()
    assert "sim.rules.wargame.attacks" in modules and "sim.rules.common" in modules
    found = {}
    for path in sorted(RULES.rglob("*.py")):
        bad = bad_imports(path.read_text(), package_of(path))
        if bad:
            found[str(path.relative_to(ROOT))] = bad
    assert found == {}


def test_importing_every_rules_module_loads_no_heavy_library():
    code = (
        "import importlib, json, sys\n"
        f"for name in {rule_modules()!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert json.loads(result.stdout) == []
