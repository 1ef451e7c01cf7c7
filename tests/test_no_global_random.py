"""Every draw in sim/ must come from a passed-in Generator (DESIGN.md habit 3)."""

import re
from pathlib import Path

SIM = Path(__file__).resolve().parents[1] / "sim"

GLOBAL_RANDOM = re.compile(
    r"^\s*import random\b|^\s*from random import|"
    r"(?<![\w.])(np|numpy)\.random\.(?!Generator\b|default_rng\b|SeedSequence\b|PCG64\b)\w+"
)


def offending_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if GLOBAL_RANDOM.search(line)]


def test_pattern_catches_global_random():
    bad = "import random\nx = np.random.randint(3)\ny = numpy.random.choice([1])\n"
    assert len(offending_lines(bad)) == 3
    ok = "rng: np.random.Generator\nnp.random.default_rng(1)\nnp.random.SeedSequence(3)\n"
    assert offending_lines(ok) == []


def test_sim_never_uses_global_random():
    files = sorted(SIM.rglob("*.py"))
    assert files, "no sources found"
    found = {str(p.relative_to(SIM)): offending_lines(p.read_text()) for p in files}
    assert {k: v for k, v in found.items() if v} == {}
