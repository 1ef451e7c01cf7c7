"""Helpers for tests that edit a dataset's parts on purpose."""

import json
from pathlib import Path

from sim.dataset import store


def relist(root, part):
    """Record ``part`` (edited on purpose) in the manifest as it is now, so it is not damage.

    Stands for rows that other code wrote and listed: what replay must notice by itself.
    """
    root, part = Path(root), Path(part)
    path = root / "manifest.json"
    m = json.loads(path.read_text())
    name = part.relative_to(root).as_posix()
    m["parts"][name] = {**m["parts"][name], **store.part_record(part, m["parts"][name]["rows"])}
    path.write_text(json.dumps(m))
