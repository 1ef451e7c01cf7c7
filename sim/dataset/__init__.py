"""A dataset on disk: its tables, its manifest, and what keeps it safe.

:mod:`~sim.dataset.records` writes and reads the Parquet tables and the manifest;
:mod:`~sim.dataset.store` keeps the lock, the record of the checked parts, and the code
that made them.

May import: the ground floor only; every stage that writes or reads a dataset imports it.
"""
