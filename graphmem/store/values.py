"""Records as plain Python values: one pass over what the driver returns, safe against whatever a stored
value holds (text with lone surrogates, non-finite or mistyped numbers), so stored data can never make a
later read fail."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import neo4j
from neo4j.time import Date, DateTime

from graphmem.store.records import clean_text

__all__ = ["NUMERIC_PROPERTIES", "record_values", "to_native"]


def to_native(value: Any) -> Any:
    """A record's values as plain Python, in one pass (what ``Record.data()`` exports, without its second
    walk): nodes as property maps, relationships as ``(start, type, end)``, paths as node/type lists;
    Neo4j temporal values as Python ones; text made safe to encode (lone surrogates stored by hand become
    U+FFFD) and non-finite numbers None, so stored data cannot make a later read fail. The common types
    are dispatched on their exact type first: recall reads thousands of values per query."""
    kind = type(value)
    if kind is str:
        return clean_text(value)
    if kind is int or kind is bool or value is None:
        return value
    if kind is float:
        return value if math.isfinite(value) else None
    if kind is list:
        return [to_native(v) for v in value]
    if kind is dict or isinstance(value, neo4j.graph.Node):
        return {k: _numeric(k, to_native(v)) for k, v in value.items()}
    return _to_native_other(value)


def _to_native_other(value: Any) -> Any:
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, DateTime | Date):
        return value.to_native()
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, neo4j.graph.Relationship):
        start, end = value.start_node, value.end_node
        return (to_native(dict(start or {})), type(value).__name__, to_native(dict(end or {})))
    if isinstance(value, neo4j.graph.Path):
        out = [to_native(value.start_node)]
        for rel, node in zip(value.relationships, value.nodes[1:], strict=True):
            out += [type(rel).__name__, to_native(node)]
        return out
    if isinstance(value, list | tuple):
        return type(value)(to_native(v) for v in value)
    if isinstance(value, Mapping):
        return {k: _numeric(k, to_native(v)) for k, v in value.items()}
    return value


def record_values(record: neo4j.Record) -> dict[str, Any]:
    """One record as a plain dict (:func:`to_native` of its raw values)."""
    return {key: to_native(v) for key, v in zip(record.keys(), record.values(), strict=True)}


NUMERIC_PROPERTIES = frozenset(
    {"strength", "importance", "retention", "confidence", "access_count", "version", "weight", "score"}
)
"""Properties graphmem reads as numbers: a stored value of another type (written by hand) reads as missing."""


def _numeric(key: str, value: Any) -> Any:
    if key in NUMERIC_PROPERTIES and not (isinstance(value, int | float) and not isinstance(value, bool)):
        return None
    return value
