"""The notebooks of examples/ run from top to bottom, and show what they print.

Each notebook is executed afresh in a Jupyter kernel (nbclient) from the examples/ folder,
with this checkout's ``sim`` importable; no cell may fail, and every text output stored
in the notebook must be what the fresh run prints (so the committed outputs stay real).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="nbformat (the test extra)")
nbclient = pytest.importorskip("nbclient", reason="nbclient (the test extra)")

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
NOTEBOOKS = sorted(EXAMPLES.glob("*.ipynb"))


def texts(nb: object) -> list[str]:
    """Every text a notebook's code cells show: streams and plain-text results."""
    out = []
    for cell in nb.cells:  # type: ignore[attr-defined]
        if cell.cell_type != "code":
            continue
        for o in cell.outputs:
            if o.output_type == "stream":
                out.append(o.text)
            elif "data" in o and "text/plain" in o["data"]:
                out.append(o["data"]["text/plain"])
    return out


def test_there_are_the_example_notebooks():
    assert {p.name for p in NOTEBOOKS} >= {"first_battle.ipynb", "sweep_analysis.ipynb"}


@pytest.mark.slow  # a kernel and a battle or a 180-run sweep: 10-20 s each
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_notebook_runs_and_shows_what_it_prints(path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    stored = nbformat.read(path, as_version=4)
    fresh = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        fresh, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(EXAMPLES)}}
    )
    client.execute()  # raises CellExecutionError on the first failing cell
    assert texts(fresh) == texts(stored), f"{path.name}: re-run it and save the outputs"
    assert all(
        o.output_type != "error" for c in fresh.cells if c.cell_type == "code" for o in c.outputs
    )
