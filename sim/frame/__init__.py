"""The War Game frame: the state of a battle and the moves every rule system makes on it.

Fighters (:mod:`~sim.frame.agents`, Mesa agents), sides, the battlefield on a map, harm and
the event log (:mod:`~sim.frame.core`), status, morale and the end (:mod:`~sim.frame.morale`),
turn order (:mod:`~sim.frame.turns`) and the seed's faction pools (:mod:`~sim.frame.pools`).
The rule systems (:mod:`sim.systems`) act on it; :class:`sim.battle.Battle` runs it.

May import: the ground floor (``sim.dice``, ``sim.errors``, ``sim.options``), ``sim.rules``,
``sim.aftermath``, ``sim.space``, ``sim.scenario``; never a rule system or anything above.
"""
