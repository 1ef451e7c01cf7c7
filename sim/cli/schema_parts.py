"""The pieces every JSON Schema of ``sim schema`` is built from (:mod:`sim.cli.schema`)."""

from __future__ import annotations

from typing import Any

SCHEMA_URI = "https://json-schema.org/draft/2020-12/schema"

Schema = dict[str, Any]


def _whole(low: int | None = None, high: int | None = None, doc: str = "") -> Schema:
    out: Schema = {"type": "integer"}
    if low is not None:
        out["minimum"] = low
    if high is not None:
        out["maximum"] = high
    if doc:
        out["description"] = doc
    return out


def _text(doc: str = "", examples: list[str] | None = None) -> Schema:
    out: Schema = {"type": "string"}
    if doc:
        out["description"] = doc
    if examples:
        out["examples"] = examples
    return out


def _closed(properties: dict[str, Schema], doc: str = "", **more: Any) -> Schema:
    """An object with these keys and no others."""
    out: Schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if doc:
        out["description"] = doc
    out.update(more)
    return out
