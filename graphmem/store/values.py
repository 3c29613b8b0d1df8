"""Records as plain Python values: one pass over what the driver returns, safe against whatever a stored
value holds (text with lone surrogates, non-finite or mistyped numbers), so stored data can never make a
later read fail."""

from __future__ import annotations

import functools
import logging
import math
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import neo4j
import numpy as np
from neo4j.time import Date, DateTime, Duration

from graphmem.errors import StoreError
from graphmem.store.queries import variant
from graphmem.store.records import clean_text, text

try:  # the driver's VECTOR value (neo4j 6+, Bolt 6)
    from neo4j.vector import Vector as PackedVector
except ImportError:  # pragma: no cover - an older driver never receives one (graphmem asks only if it has it)
    PackedVector = None  # type: ignore[assignment,misc]

try:  # what the driver leaves in a list or map for a value it cannot decode (a date beyond Python's years)
    from neo4j._codec.hydration import BrokenHydrationObject
except ImportError:  # pragma: no cover - a driver that moved it: such a value then passes as it is
    BrokenHydrationObject = None  # type: ignore[assignment,misc]

__all__ = [
    "INVALID_VECTOR",
    "NUMERIC_PROPERTIES",
    "TEXT_PROPERTIES",
    "TIME_PROPERTIES",
    "FloatList",
    "PackedVector",
    "finite_vectors",
    "list_map",
    "read_packed",
    "record_values",
    "to_native",
    "wire",
]


INVALID_VECTOR = "22NBG"
"""GQL status of Cypher 25's ``vector()`` refusing a non-finite coordinate or one beyond float32's range (a
read asking for packed vectors fails with it, and reads the same rows as lists instead)."""


logger = logging.getLogger(__name__)

Rows = list[dict[str, Any]]


def read_packed(read: Callable[..., Rows], name: str, *, packed: bool, **params: Any) -> Rows:
    """The rows of ``name`` (run by ``read``) with their vectors as packed Cypher 25 ``VECTOR`` values where
    ``packed`` (its ``[vector filter]`` variant: numpy arrays, no float objects decoded per coordinate),
    else as lists. A stored vector that ``vector()`` refuses (a non-finite coordinate, written by hand)
    fails the packed statement, and the same rows are read as lists."""
    if packed and PackedVector is not None:
        try:
            return read(variant(name, filtered=True), **params)
        except StoreError as exc:
            if INVALID_VECTOR not in str(exc):
                raise
            logger.warning("%s: a stored vector is not finite in float32; reading lists", name)
    return read(name, **params)


def list_map(**lists: Iterable[Any]) -> dict[str, list[Any]]:
    """The lists of a statement that writes several kinds of rows (``formation_write``, ``fact_write``,
    ``recall_write``), as the fields of one map parameter (``$plan``). Neo4j keys its plan cache on each
    list parameter's size range as well as its type (an empty list, and 1, 10, 100 and 1,000 items, plan
    apart: ~170 ms each for ``formation_write``), so a statement with seven list parameters plans once per
    combination of their sizes; a map is planned once. Every part of such a statement seeks its nodes by
    id, so the sizes the planner no longer sees change nothing in its plan."""
    return {k: list(v) for k, v in lists.items()}


def finite_vectors(rows: Rows, dimension: int, key: str = "embedding") -> tuple[Rows, np.ndarray]:
    """``rows`` whose vector (``key``: a list or a packed one) is finite in float32, and those vectors as one
    float32 matrix (a coordinate stored by hand as NaN or infinity reads as None or NaN: that row is left
    out; so is one beyond float32's range)."""
    if not rows:
        return [], np.empty((0, dimension), dtype=np.float32)
    with np.errstate(over="ignore"):
        matrix = np.asarray([r[key] for r in rows], dtype=np.float32)
    finite = np.isfinite(matrix).all(axis=1)
    if finite.all():
        return rows, matrix
    keep = np.flatnonzero(finite)
    return [rows[i] for i in keep.tolist()], matrix[keep]


def to_native(value: Any) -> Any:
    """A record's values as plain Python, in one pass (what ``Record.data()`` exports, without its second
    walk): nodes as property maps, relationships as ``(start, type, end)``, paths as node/type lists;
    Neo4j temporal values as Python ones; text made safe to encode (lone surrogates stored by hand become
    U+FFFD) and non-finite numbers None, so stored data cannot make a later read fail. The common types
    are dispatched on their exact type first: recall reads ~14,000 values per query. Maps and lists are
    cleaned **in place** (the driver decodes a fresh object for every value it returns, which nothing else
    holds): no copy of a recall pool's thousands of containers (3.5 -> 2.2 ms a pool, and half the objects
    for Python's collector to track)."""
    kind = type(value)
    if kind is str:
        return value if value.isascii() else clean_text(value)
    if kind is int or kind is bool or value is None:
        return value
    if kind is float:
        return value if math.isfinite(value) else None
    if kind is list:
        if len(value) >= VECTOR_MIN and type(value[0]) is float and _finite_numbers(value):
            return value  # a vector: every element a finite number already (checked in C, not walked)
        for i, v in enumerate(value):
            clean = to_native(v)
            if clean is not v:
                value[i] = clean
        return value
    if kind is dict:
        if PROPERTIES in value or (PACKED_TIME in value and len(value) == 1):
            return _unpacked(value)
        return _walk_map(value)
    if isinstance(value, neo4j.graph.Node):
        return {k: _typed(k, to_native(v)) for k, v in value.items()}
    return _to_native_other(value)


PROPERTIES = "__properties__"
"""The key of a map that is a node's properties as [name, value] pairs (``fragments/property_pairs``)."""

PACKED_TIME = "__time__"
"""The key of a map that is a date-time as [epoch seconds, nanosecond, UTC offset in seconds]
(``fragments/packed_time``)."""

_EPOCH = datetime(1970, 1, 1)  # naive: a packed time's wall time is built from it


def _unpacked(value: dict[str, Any]) -> Any:
    """A packed time as a Python one at its offset (built from its wall time there, so that the calendar's
    first day at a positive offset, which lies in year 0 in UTC and fails the driver's whole record, reads
    too; one beyond Python's calendar reads as missing); a node's property pairs as its property map, the
    map's other keys added (or replacing), walked as any map. Property values cannot be maps, so stored data
    never takes these shapes; a map projection (``n {.*}``) of a node given a property named
    ``__properties__`` by hand leaves that property out, whatever it holds."""
    if PACKED_TIME in value and len(value) == 1:
        try:
            seconds, nanosecond, offset = value[PACKED_TIME]
            wall = _EPOCH + timedelta(seconds=seconds + offset, microseconds=nanosecond // 1000)
            return wall.replace(tzinfo=_zone(offset))
        except (TypeError, ValueError, OverflowError):
            return None
    pairs = value.pop(PROPERTIES, None)  # a property of that name written by hand: any value, read as nothing
    merged = {}
    if isinstance(pairs, list):
        for pair in pairs:
            if type(pair) is list and len(pair) == 2 and type(pair[0]) is str:
                merged[pair[0]] = pair[1]
    merged.update(value)
    return _walk_map(merged)


def _walk_map(value: dict[str, Any]) -> dict[str, Any]:
    typed = _TYPED.get
    for k, v in value.items():  # values replaced, keys untouched: safe while iterating
        clean = to_native(v)
        if clean is not None and typed(k) is not None:
            clean = _typed(k, clean)
        if clean is not v:
            value[k] = clean
    return value


@functools.lru_cache(maxsize=64)  # offsets in use: a handful (whole minutes within ±18 hours at most)
def _zone(offset: int) -> timezone:
    return timezone(timedelta(seconds=offset))


VECTOR_MIN = 8
"""Lists this long that start with a float are checked as a whole first (embeddings: 384 values each)."""


def _finite_numbers(values: list[Any]) -> bool:
    """True when every element is a finite int or float: their sum is then finite (a NaN or infinity
    propagates through it; an overflow of finite values only sends the list down the element-wise path), and
    any element that is not a number (text, None, a list, a Neo4j value) makes ``sum`` raise ``TypeError``.
    Ints and bools come back as they are either way."""
    try:
        return math.isfinite(sum(values))
    except TypeError:
        return False


def _to_native_other(value: Any) -> Any:
    if BrokenHydrationObject is not None and isinstance(value, BrokenHydrationObject):
        return None  # a value the driver could not decode (a date-time beyond Python's years)
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, DateTime | Date):
        return value.to_native()
    if isinstance(value, Duration):  # a tuple by class, but not one its values rebuild: read as ISO text
        return value.iso_format()
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
    if PackedVector is not None and isinstance(value, PackedVector):
        return value.to_numpy()  # a Cypher 25 VECTOR (associate_read_vectors): a numpy array
    if isinstance(value, list | tuple):
        return type(value)(to_native(v) for v in value)
    if isinstance(value, Mapping):
        return {k: _typed(k, to_native(v)) for k, v in value.items()}
    return value


def record_values(record: neo4j.Record) -> dict[str, Any]:
    """One record as a plain dict (:func:`to_native` of its raw values). Read as the tuple it is: a column
    the driver could not decode (a date-time beyond Python's years, set by hand) reads as None, where
    ``Record.values()`` raised the driver's BrokenRecordError for the whole record."""
    return {key: to_native(v) for key, v in zip(record.keys(), tuple.__iter__(record), strict=True)}


NUMERIC_PROPERTIES = frozenset(
    {
        "strength", "importance", "retention", "confidence", "access_count", "version", "weight", "score",
        "similarity", "emotion", "inhibition", "recall_hits", "recall_misses", "confirmed", "disputed",
        "open_conflicts", "strength_floor", "strength_rate", "retention_scale", "retention_rate",
        "weight_base", "weight_rate",
    }
)  # fmt: skip
"""Properties graphmem reads as numbers: a stored value of another type (written by hand) reads as missing."""

TIME_PROPERTIES = frozenset(
    {
        "created_at", "recorded_at", "occurred_at", "last_accessed_at", "updated_at", "confirmed_at",
        "inhibited_at", "outdated_at", "outdated_from", "strength_updated_at", "weight_updated_at",
        "status_changed_at", "forgotten_at", "superseded_at", "expired_at", "valid_from", "valid_to",
        "next_review_at", "reviewed_at", "planned_at", "reinstated_at", "revoked_at",
    }
)  # fmt: skip
"""Properties graphmem reads as times (memories and edges): a stored value that is not a date-time (written
by hand) reads as missing."""


TEXT_PROPERTIES = frozenset({"id", "content", "session_id", "speaker", "role"})
"""Properties graphmem reads as text (grouped, hashed, sorted, tokenised): another type reads as its JSON
text (an id set by hand to a number would fail a sort among the others, or a model). Only a map's ``id``
key is read so: an id carried under another key or in a list (recall's links, a mention's ``memory``) stays
as stored, and a lookup by it finds nothing rather than failing."""

_TYPED = {
    **dict.fromkeys(NUMERIC_PROPERTIES, "number"),
    **dict.fromkeys(TIME_PROPERTIES, "time"),
    **dict.fromkeys(TEXT_PROPERTIES, "text"),
}


def _typed(key: str, value: Any) -> Any:
    """A map value of a property graphmem reads as a number, time or text, as that type or missing."""
    kind = _TYPED.get(key)
    if kind is None or value is None:
        return value
    if kind == "number":
        return value if isinstance(value, int | float) and not isinstance(value, bool) else None
    if kind == "text":
        return value if isinstance(value, str) else text(value)
    if not isinstance(value, datetime):
        return None
    # a local date-time set by hand (no zone) reads as UTC, as a naive time is taken at the boundary: it
    # would fail every comparison with the engine's zoned times
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


class FloatList(list):  # type: ignore[type-arg]
    """A vector parameter with a short ``repr``. The driver (neo4j 6.4) formats every RUN's parameters for its
    debug log whether or not that log is on: ~0.6 µs per float, 0.22 s for a batch of 500 memories and their
    two vectors, as long as the rest of the write. It sends a list subclass exactly as a list."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<{len(self)} floats>"


def wire(value: Any) -> Any:
    """Query parameters as sent: every list of at least ``VECTOR_MIN`` values that starts with a float (a
    vector) as a :class:`FloatList`; every date-time in UTC (:func:`in_utc`); maps walked, and lists whose
    first item is a map, a list or a date-time (a list is judged by its first item: a cost per item would
    fall on every list of ids); everything else as it is."""
    kind = type(value)
    if kind is dict:
        return {k: wire(v) for k, v in value.items()}
    if isinstance(value, datetime):  # subclasses too (pandas.Timestamp)
        return in_utc(value)
    if kind is list and value:
        first = type(value[0])
        if first is float and len(value) >= VECTOR_MIN:
            return FloatList(value)
        if first is dict or first is list or isinstance(value[0], datetime):
            return [wire(v) for v in value]
    return value


def in_utc(value: datetime) -> datetime:
    """An aware date-time as the same instant in UTC. Neo4j orders two date-times of one instant by their
    offsets (``datetime('2024-06-01T05:45+05:45') > datetime('2024-06-01T00:00Z')``), so a bound and a
    stored time of the same instant at different offsets compared as different moments: everything graphmem
    stores or compares is in UTC (older stores are converted once: graphmem.temporal.migrate). A naive one
    (graphmem's validation never lets one through) and one that cannot move (the calendar's ends) are sent
    as they are. A subclass of datetime is sent as a plain one.
    """
    if value.utcoffset() is None or (value.tzinfo is UTC and type(value) is datetime):
        return value  # naive (a zone without an offset too: astimezone would read it as the local time)
    try:
        moved = value.astimezone(UTC)
    except (OverflowError, ValueError):
        return value
    if type(moved) is datetime:
        return moved
    # a subclass (pandas.Timestamp, the caller's own) as a plain datetime, which the driver always sends
    return datetime(*moved.timetuple()[:6], moved.microsecond, tzinfo=UTC)


def props_in_utc(props: dict[str, Any]) -> dict[str, Any]:
    """A row's properties with every date-time as :func:`wire` sends it (what the store holds)."""
    return {k: in_utc(v) if isinstance(v, datetime) else v for k, v in props.items()}
