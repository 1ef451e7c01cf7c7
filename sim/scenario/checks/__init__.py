"""Checks of a scenario document, one module per section of the format.

Each section's checks are a mixin of :class:`~sim.scenario.checks.base.Checks` (reporting,
plain values, option groups): ``rules``, ``fighters``, ``sides``, ``events``, ``map``,
``aftermath``, ``campaign``; :class:`Checker` (``document``) puts them together and walks a
whole document.
"""

from __future__ import annotations

from sim.scenario.checks.document import Checker

__all__ = ["Checker"]
