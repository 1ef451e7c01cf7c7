"""Write abstract_outcomes.json: a digest of every table of every shipped scenario, 20 seeds.

Made with the code from before battlefield space (issue 9, commit 99991c4):
``PYTHONPATH=<that checkout> python tests/data/make_abstract_outcomes.py``. The test
``tests/test_field.py::test_scenarios_without_a_map_fight_exactly_as_before`` recomputes the
digests with today's code.
"""

import hashlib
import json
import sys
from pathlib import Path

from sim import records
from sim.campaign import fight
from sim.loader import load_scenario

HERE = Path(__file__).resolve().parent
SEEDS = range(20)


SYSTEMS = ("wargame", "2w2p", "deathwish", "d6")


def digest(path: Path, overrides: tuple[str, ...] = ()) -> str:
    """sha256 of every table row (events included) of the scenario's runs over SEEDS."""
    sc = load_scenario(path, overrides)
    h = hashlib.sha256()
    for seed in SEEDS:
        got = fight(sc, seed, events=True)
        rows = records.run_rows(got.battle, seed, seed, events=True, extra=got.tables())
        h.update(json.dumps(rows, sort_keys=True, default=str).encode())
    return h.hexdigest()


if __name__ == "__main__":
    root = HERE.parents[1]
    paths = sorted((root / "scenarios").glob("*.yaml"))
    out = {p.stem: digest(p) for p in paths if "map:" not in p.read_text()}
    for name in ("mirror", "skirmish_all_rules"):  # statted for every system
        for system in SYSTEMS:
            out[f"{name}@{system}"] = digest(
                root / "scenarios" / f"{name}.yaml", (f"rules.system={system}",)
            )
    (HERE / "abstract_outcomes.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(json.dumps(out, indent=1), file=sys.stderr)
