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
