"""One run: a scenario fought to its end with one seed, its rows, and its exact replay.

:func:`fight` fights a battle, its aftermath days or a whole campaign
(:mod:`~sim.run.campaign`); :func:`run_rows` gives the rows it adds to each dataset table;
:mod:`~sim.run.replay` fights a stored run again and checks it gives the same rows.

May import: the battle and everything below it, and ``sim.dataset`` (to write one run's
dataset); nothing above.
"""

from sim.run.core import Fought, draw_seed, fight, run_rows, write_dataset

__all__ = ["Fought", "draw_seed", "fight", "run_rows", "write_dataset"]
