"""Imported first by a sweep's forkserver (and only there): no library thread to fork.

A process is forked safely only if no other thread runs in it (a thread may hold a lock
that the fork copies held). NumPy's and SciPy's OpenBLAS start a pool of threads when they
load, and pyarrow's jemalloc a background thread; with these settings, made before any of
them loads, they start none, and the forkserver stays single-threaded. The workers inherit
them: one BLAS thread each, which a worker fighting scalar battles never misses. A value
already set in the environment is kept.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("JE_ARROW_MALLOC_CONF", "background_thread:false")
