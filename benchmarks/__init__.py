"""Timed workloads that print figures (not part of the test run).

``python -m benchmarks [--quick] [--only FIG ...]`` measures the seven figures of the
performance issue and writes ``results/benchmarks.json`` (``--out docs/performance.json``
updates the figures the docs quote); see :mod:`benchmarks.__main__`.
The older single-purpose scripts (``battles.py``, ``sweep_memory.py``, ``analyze.py``) still
run on their own; ``profile_battles.py`` prints the profile of skirmish5 through the sweep
that ``docs/performance.md`` quotes.
"""
