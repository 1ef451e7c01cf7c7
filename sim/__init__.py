"""Agent-based battle simulator for four tabletop combat systems.

See README.md for the tour and ../shared/RULES.md (in the project's shared folder) for the
rules each module implements.
"""

__version__ = "0.1.0"
