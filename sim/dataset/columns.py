"""What every column of every dataset table means: the text ``docs/columns.md`` is made from.

:data:`COLUMNS` describes each field of :data:`sim.dataset.records.BASE_FIELDS`, table by
table, and :data:`PARTS` the fields of the two nested types (a ``runs`` row's ``sides``, an
``aftermath`` row's ``wounds``); :func:`markdown` renders them with each column's Arrow type.
``tests/test_docs.py`` holds the page to it, and the descriptions to the schemas: a column
added to a table without a word here fails the tests.
"""

from __future__ import annotations

from collections.abc import Mapping

import pyarrow as pa

from sim.dataset import records

TABLES: dict[str, str] = {
    "runs": "one row per run: a battle (a campaign's run: its last battle), or a run that failed",
    "rounds": "one row per round and side, from round 1",
    "fighters": "one row per fighter of the run's (last) battle: its final state",
    "events": "one row per logged roll or decision (the narrative of `sim run --events`)",
    "aftermath": "one row per fighter per aftermath day (scenarios with `aftermath:`; every "
    "battle of a campaign)",
    "campaign": "one row per company member per battle of a campaign (scenarios with `campaign:`)",
}
"""Each table: what one row is."""

_OUTCOME = (
    "the battle's outcome: the winning side's name, or \"draw\" when no side won; null for a "
    "failed run. Count this, not `winner`, for shares of all battles: `winner` is null for "
    "a draw, and most tools drop nulls when they count"
)

COLUMNS: dict[str, dict[str, str]] = {
    "runs": {
        "run_id": "the run's number in the sweep: design point `run_id // replicates`",
        "seed": "the seed the run was fought with (`sim replay` fights it again)",
        "scenario": "the scenario's name",
        "rules": "the rule system the battle was fought under (`wargame`, `2w2p`, "
        "`deathwish`, `d6`)",
        "winner": "the side that won; null for a draw (and for a failed run)",
        "outcome": _OUTCOME,
        "decisive": "true when a side won; false for a draw or a failed run. The share of "
        "the decisive battles a side won is its wins among the rows where this is true",
        "end_reason": "how the battle ended: `defeat`, `goal_achieved`, `goal_failed` (a "
        "side won); `mutual_defeat`, `mutual_rout`, `max_rounds` (a draw); `error` (failed)",
        "rounds": "rounds fought",
        "scale_switches": "times the battle switched between small and large scale",
        "sides": "one entry per side, in the scenario's order (below)",
        "error": "the error of a run that raised (its other figures are null); null for a "
        "run that finished",
    },
    "rounds": {
        "run_id": "the run",
        "round": "the round, from 1",
        "side": "the side",
        "scale": "`small` or `large` (the War Game frame's scale in that round)",
        **{s: f"the side's fighters {s} at the end of the round" for s in records.STATUSES},
        "hd": "the hit dice of the side's fighters still in the fight (active or fleeing)",
        "armor": "the armor pools of the side's fighters still in the fight",
        "pool_hd": "the side's faction pool's hit dice (`battle.large_scale: pools`); null "
        "otherwise",
        "wounds_dealt": "wounds the side dealt in the round (each system's own wounds)",
        "wounds_taken": "wounds the side took in the round",
    },
    "fighters": {
        "run_id": "the run",
        "name": "the fighter (a troop's `NAME 1` .. `NAME N`)",
        "side": "its side",
        "role": "its role (`fighter` unless the scenario names one)",
        "leader": "whether it leads its side",
        "status": "its status at the end: one of " + ", ".join(records.STATUSES),
        "arrived_round": "the round it joined (0: from the start; later: a reinforcement)",
        "hd_start": "War Game hit dice at the start",
        "hd_end": "War Game hit dice at the end",
        "armor_end": "War Game armor pool at the end",
        "wounds_taken": "wounds it took (each system's own wounds)",
        "wounds_dealt": "wounds it dealt",
        "conditions": "War Game lingering conditions and lost limbs at the end, "
        "comma-separated (empty for none, and under the other systems)",
        "fights_before": "2W2P fight count before the battle (its tier)",
        "fights_after": "fight count after it: one more if it fought and survived",
        "tier_before": "2W2P tier before the battle (`green` .. `hero`)",
        "tier_after": "tier after the battle",
        "rolled_weapon": "the weapon it rolled as it joined (`weapon: {roll: d12}`); null: "
        "as written",
        "rolled_armor": "the armor it rolled as it joined (`armor: {roll: d6}`); null: as written",
    },
    "events": {
        "run_id": "the run",
        "seq": "the event's place in the run's log, from 0",
        "round": "the round",
        "actor": "who acted (a fighter, a side, or `battle`)",
        "action": "what it did (`attack`, `dodge`, `morale`, `initiative` ...)",
        "target": "whom at (empty for none)",
        "dice": "the dice rolled, as the narrative shows them",
        "result": "what came of it",
    },
    "aftermath": {
        "run_id": "the run",
        "battle": "the battle the days follow (1, or the campaign's battle)",
        "battle_status": "the fighter's status when the battle ended",
        "wounded": "alive after the battle and hurt",
        "recovered": "up, with no open wound, at the end of the day",
        "day": "the day (0: the battle's day)",
        "name": "the fighter",
        "side": "its side",
        "status": "its status at the end of the day",
        "fights": "its fight count",
        "dice": "2W2P: the dice of its recovery roll that day (null: none rolled)",
        "treated_by": "the healers who treated it that day",
        "wounds": "its wounds at the end of the day, one entry each (below)",
        "infections": "2W2P infections (D6: a poison not yet resisted counts as one)",
        "infections_known": "those a healer has spotted",
        "hd": "War Game hit dice (null under the other systems)",
        "condition": "D6 tiers condition (`none`, `stunned`, `wounded` ... `dead`; "
        "`resurrected` the day it is raised); null under the other systems",
    },
    "campaign": {
        "run_id": "the run",
        "battle": "the battle: 1, 2 ... in the campaign's order",
        "battle_label": 'the battle entry\'s name, or "battle N"',
        "day": "the campaign day the battle is fought on",
        "winner": "the battle's winner (null: a draw)",
        "name": "the company member",
        "fought": "whether it fought the battle (unfit members sit out)",
        "status_before": "its status before the battle (after the last aftermath)",
        "battle_status": "its status at the battle's end (null: did not fight)",
        "status": "its status after the battle's aftermath days",
        "fit": "whether it fights the next battle (`campaign.options`)",
        "fights_before": "fight count before the battle",
        "fights_after": "fight count after it",
        "tier_before": "2W2P tier before the battle",
        "tier_after": "tier after the battle",
        "wounds": "open wounds carried on (War Game: hit dice lacking; 0 for the dead)",
        "wounding": "2W2P: wounding blows carried (null under the other systems)",
        "felling": "2W2P: felling blows carried (null under the other systems)",
        "dw_wounds": "Deathwish: the wound levels carried",
        "condition": "D6 tiers: the condition carried (null under the other systems)",
        "hd": "War Game: hit dice carried (null under the other systems)",
        "conditions": "War Game: lingering conditions and lost limbs carried, "
        "comma-separated (empty for none, and under the other systems)",
    },
}
"""Every column of every table, in the schema's order."""

PARTS: dict[str, tuple[pa.StructType, dict[str, str]]] = {
    "runs.sides": (
        records.SIDE_TYPE,
        {
            "side": "the side",
            "fighters": "its fighters (reinforcements included)",
            **{s: f"its fighters {s} at the end" for s in records.STATUSES},
            "leader_status": "its leader's status at the end (null: no leader)",
            "wounds_dealt": "wounds it dealt",
            "hd_lost": "War Game hit dice it lost",
        },
    ),
    "aftermath.wounds": (
        records.AFTERMATH_WOUND_TYPE,
        {
            "kind": "2W2P `wounding` or `felling`; Deathwish the wound level",
            "state": "2W2P `recovering`, `needs_reset` (known) or `recovered`; Deathwish "
            "`open`, `treated` or `untreated`",
            "advances": "2W2P recovery advances so far (three recover it)",
            "needs_reset": "2W2P: it still needs re-setting (whether anyone knows or not)",
            "reset_known": "someone knows it needs re-setting",
            "infected": "2W2P: infected",
            "infection_known": "a healer has spotted the infection",
        },
    ),
}
"""The fields of the nested types: each ``sides`` entry, each ``wounds`` entry."""


def type_name(t: pa.DataType) -> str:
    """A column's Arrow type in a word: ``int32``, ``string``, ``list<string>`` ..."""
    if pa.types.is_list(t):
        inner = t.value_type
        return f"list<{'struct' if pa.types.is_struct(inner) else type_name(inner)}>"
    return "bool" if pa.types.is_boolean(t) else str(t)


def _table(rows: list[tuple[str, str, str]]) -> list[str]:
    lines = ["| column | type | meaning |", "|---|---|---|"]
    lines += [f"| {n if n.startswith('*') else f'`{n}`'} | {t} | {m} |" for n, t, m in rows]
    return lines


def _fields(fields: list[pa.Field], text: Mapping[str, str]) -> list[tuple[str, str, str]]:
    return [(f.name, type_name(f.type), text[f.name]) for f in fields]


def markdown() -> str:
    """The generated part of ``docs/columns.md``: every table's columns, types, meanings."""
    out: list[str] = []
    for table, about in TABLES.items():
        out += [f"### {table}", "", f"`{table}/`: {about}.", ""]
        rows = _fields(records.BASE_FIELDS[table], COLUMNS[table])
        if table == "runs":
            rows[2:2] = [
                ("label", "string", "a `list` design's point label (when its points have one)"),
                (
                    "*a parameter*",
                    "as its values",
                    "one column per swept parameter, named by its path "
                    "(`sides.guards.tactic`): bool, int64, float64, or text (anything else "
                    "as JSON); null where a `list` point left it at the base scenario's value",
                ),
            ]
        out += _table(rows) + [""]
        for name, (struct, text) in PARTS.items():
            if name.startswith(f"{table}."):
                out += [f"Each entry of `{name.split('.')[1]}`:", ""]
                out += _table(_fields(list(struct), text)) + [""]
    return "\n".join(out).rstrip("\n") + "\n"
