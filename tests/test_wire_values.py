"""Parameters as sent and values as read (graphmem.store.values): vectors take the fast paths both ways and
come out exactly as the element-wise rules would make them."""

from __future__ import annotations

import math

from graphmem.store.records import clean_text
from graphmem.store.values import VECTOR_MIN, FloatList, to_native, wire


def test_a_vector_is_read_as_it_is_and_a_bad_element_still_reads_as_none() -> None:
    vector = [0.25] * 384
    assert to_native(vector) is vector  # no walk, no copy
    assert to_native([0.5] * 9 + [math.nan])[-1] is None
    assert to_native([0.5] * 9 + [math.inf, -math.inf])[-2:] == [None, None]
    big = [1e308] * 9  # finite values whose sum overflows: element-wise, unchanged
    assert to_native(big) == big
    assert to_native([0.5] * 9 + ["text", True, None]) == [0.5] * 9 + ["text", True, None]
    assert to_native([0.5] * 9 + [[math.nan]])[-1] == [None]


def test_wire_sends_vectors_with_a_short_repr_and_nothing_else_changes() -> None:
    vector = [0.125] * 384
    params = {
        "rows": [{"id": "a", "embedding": vector, "props": {"tags": ["x"] * 20, "n": [1] * 20}}],
        "embedding": vector,
        "short": [0.5] * (VECTOR_MIN - 1),
        "text": "t",
    }
    sent = wire(params)
    assert sent == params  # the same values: a FloatList is a list
    assert isinstance(sent["embedding"], FloatList) and isinstance(sent["rows"][0]["embedding"], FloatList)
    assert repr(sent["embedding"]) == "<384 floats>" and len(repr(sent)) < 400
    assert type(sent["short"]) is list and type(sent["rows"][0]["props"]["tags"]) is list
    assert params["rows"][0]["embedding"] is vector  # the caller's values are not touched


def test_a_mistyped_number_or_time_in_a_map_reads_as_missing() -> None:
    from datetime import UTC, datetime

    at = datetime(2024, 1, 1, tzinfo=UTC)
    row = {
        "access_count": "many",
        "similarity": True,
        "recorded_at": "yesterday",
        "last_accessed_at": 42,
        "created_at": at,
        "strength": 0.5,
        "content": "kept",
        "status": "zombie",
    }
    assert to_native(row) == {
        "access_count": None,
        "similarity": None,
        "recorded_at": None,
        "last_accessed_at": None,
        "created_at": at,
        "strength": 0.5,
        "content": "kept",
        "status": "zombie",
    }


def test_maps_and_lists_are_cleaned_in_place() -> None:
    """The driver's fresh containers are cleaned where they are, not copied (a recall pool has thousands)."""
    inner = {"content": "a\ud800b", "strength": math.nan, "recorded_at": "last spring", "ids": ["x", 1]}
    row = {"memories": [inner], "scores": [[0.5, math.inf]]}
    out = to_native(row)
    assert out is row and out["memories"][0] is inner
    assert inner == {
        "content": clean_text("a\ud800b"),
        "strength": None,
        "recorded_at": None,
        "ids": ["x", 1],
    }
    inner["content"].encode("utf-8")  # the lone surrogate replaced
    assert row["scores"] == [[0.5, None]]


def test_a_packed_time_reads_as_the_drivers_would_at_its_offset() -> None:
    from datetime import UTC, datetime, timedelta, timezone

    from graphmem.store.values import PACKED_TIME

    plus2 = datetime(2026, 1, 1, 10, 0, 0, 123456, tzinfo=timezone(timedelta(hours=2)))
    packed = [int(plus2.timestamp()), 123456789, 7200]
    out = to_native({"created_at": {PACKED_TIME: packed}})["created_at"]
    assert out == plus2 and out.utcoffset() == timedelta(hours=2) and out.microsecond == 123456
    utc = to_native({PACKED_TIME: [0, 0, 0]})
    assert utc == datetime(1970, 1, 1, tzinfo=UTC) and utc.utcoffset() == timedelta(0)
    # the calendar's first instant at +05:00 lies in year 0 in UTC (the driver fails the whole record there)
    first = to_native({PACKED_TIME: [-62135596800 - 5 * 3600, 0, 5 * 3600]})
    assert first == datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=5)))
    assert to_native({PACKED_TIME: [-62135596800 - 1, 0, 0]}) is None  # before the calendar: missing
    assert to_native({PACKED_TIME: ["soon", 0, 0]}) is None
    assert to_native({PACKED_TIME: [1, 2]}) is None
    # a map with the key and more is not a packed time, and not decoded as one
    assert to_native({PACKED_TIME: [0, 0, 0], "x": 1}) == {PACKED_TIME: [0, 0, 0], "x": 1}


def test_property_pairs_read_as_one_map_with_the_same_rules_as_any_map() -> None:
    from datetime import UTC, datetime

    from graphmem.store.values import PACKED_TIME, PROPERTIES

    row = {
        PROPERTIES: [
            ["content", "a\ud800b"],
            ["recorded_at", {PACKED_TIME: [86400, 0, 0]}],
            ["created_at", "last spring"],  # a time property of another type reads as missing
            ["strength", 3.0],
            ["tags", ["x"]],
        ],
        "strength": 0.5,  # the map's own keys add to the properties or replace them
        "retention": math.nan,
    }
    assert to_native(row) == {
        "content": clean_text("a\ud800b"),
        "recorded_at": datetime(1970, 1, 2, tzinfo=UTC),
        "created_at": None,
        "strength": 0.5,
        "tags": ["x"],
        "retention": None,
    }
    assert to_native({PROPERTIES: None, "id": "m"}) == {"id": "m"}


def test_malformed_property_pairs_are_skipped_not_raised() -> None:
    from graphmem.store.values import PROPERTIES

    row = {PROPERTIES: [["ok", 1], "a", ["x"], [1, 2], ["y", 2, 3], None], "id": "m"}
    assert to_native(row) == {"ok": 1, "id": "m"}
    assert to_native({PROPERTIES: ["a", "b"], "content": "kept"}) == {"content": "kept"}
