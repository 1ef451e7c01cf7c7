"""``python -m benchmarks.validity``: see :mod:`benchmarks.validity.cli`."""

import sys

from benchmarks.validity.cli import main

sys.exit(main())
