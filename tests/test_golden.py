"""Golden digests: a refactor changes no output (see tests/golden/make_golden.py).

A behaviour change regenerates the digests with ``python -m tests.golden.make_golden`` in
its own commit, which says why the outputs moved.
"""

import json

from tests.golden.make_golden import GOLDEN, compute


def test_every_example_output_matches_its_golden_digest():
    want = json.loads(GOLDEN.read_text())
    got = compute()
    changed = [
        f"{group}.{name}"
        for group in want.keys() | got.keys()
        for name in want.get(group, {}).keys() | got.get(group, {}).keys()
        if want.get(group, {}).get(name) != got.get(group, {}).get(name)
    ]
    assert not changed, (
        f"outputs changed: {sorted(changed)}; a refactor must not change them, a behaviour "
        "change regenerates them (python -m tests.golden.make_golden) in its own commit"
    )
