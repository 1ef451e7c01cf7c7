"""Agent-based battle simulator for four tabletop combat systems.

See README.md for the tour, docs/rules.md for the rules as the program follows them (and
where each one is in the code), and docs/python-api.md for using it from Python.
"""

__version__ = "0.1.0"
