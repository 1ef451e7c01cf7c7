"""Loading a scenario stays light: no Mesa, pandas, pyarrow or matplotlib, no battle."""

import os
import subprocess
import sys

import pytest

from tests.scenario.helpers import ROOT

HEAVY = ("mesa", "pandas", "pyarrow", "matplotlib")


def _modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running ``code``."""
    script = f"{code}\nimport sys\nprint('\\n'.join(sorted(sys.modules)))"
    paths = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, env=env
    )
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


@pytest.mark.parametrize(
    "code",
    [
        "import sim.scenario; sim.scenario.load_scenario('scenarios/ford.yaml')",
        "import sim.scenario; sim.scenario.load_scenario('scenarios/campaign.yaml')",
        "import sim.scenario; sim.scenario.load_scenario('scenarios/bridge.yaml')",
        "import sim.options",
    ],
)
def test_loading_a_scenario_imports_no_mesa_pandas_or_matplotlib(code):
    loaded = _modules_after(code)
    assert "sim.scenario" in loaded or "sim.options" in loaded
    heavy = sorted(m for m in loaded if m.split(".")[0] in HEAVY)
    assert heavy == []
    assert not {"sim.battle.battle", "sim.frame.agents", "sim.frame.field", "sim.cli"} & loaded
