"""``python -m sim`` runs the command line."""

from sim.cli import main

raise SystemExit(main())
