"""Date-times read packed (cypher/fragments/property_pairs, decoded by graphmem.store.values.to_native) come
out as the driver decodes them, instant and offset, on every path that reads a memory's properties."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from graphmem import GraphMemory

HAND_TIMES = """
MATCH (m:Memory {id: $id})
SET m.confirmed_at = datetime('2025-03-04T05:06:07.123456789+05:30'),
    m.inhibited_at = datetime('2024-02-29T23:59:59.999999999Z'),
    m.reviewed_at = datetime('2020-06-01T12:00:00[Europe/London]'),
    m.planned_at = localdatetime('2021-01-01T08:00:00'),
    m.outdated_at = 'not a time'
"""


def _driver_props(mem: GraphMemory, memory_id: str) -> dict[str, Any]:
    st = mem.runtime.store
    with st.driver.session(database=st.database) as s:
        record = s.run("MATCH (m:Memory {id: $id}) RETURN m {.*} AS m", id=memory_id).single()
        assert record is not None
        props = dict(record["m"])
    props.pop("embedding", None)
    props.pop("context_embedding", None)
    return {k: v.to_native() if hasattr(v, "to_native") else v for k, v in props.items()}


def test_a_memorys_times_read_packed_equal_the_drivers(mem: GraphMemory, user_id: str) -> None:
    said = datetime(2023, 5, 25, 13, 14, 1, 250000, tzinfo=timezone(timedelta(hours=-7)))
    memory = mem.remember("I moved the sourdough starter to the cellar", user_id=user_id, occurred_at=said)
    mem.runtime.store.run_statement(HAND_TIMES, {"id": memory.id})
    expected = _driver_props(mem, memory.id)
    assert isinstance(expected["planned_at"], datetime) and expected["planned_at"].tzinfo is None

    row = mem.runtime.store.read("memory_fetch", ids=[memory.id], tenants=[user_id], embedding=None, now=None)
    got = row[0]["memory"]
    for key, value in expected.items():
        if key in ("retention_scale", "retention_rate", "strength_rate", "strength_floor"):
            assert key not in got  # left out: recall derives retention and strength once
        elif key == "outdated_at":
            assert got[key] is None  # a time property holding text reads as missing, as before
        elif isinstance(value, datetime):
            if value.tzinfo is None:  # a local date-time set by hand reads at UTC (it would fail comparisons)
                value = value.replace(tzinfo=UTC)
            assert got[key] == value, key
            assert got[key].utcoffset() == value.utcoffset(), key
            assert got[key].microsecond == value.microsecond, key
        elif key not in ("retention", "strength"):
            assert got[key] == value, key
    assert got["confirmed_at"].utcoffset() == timedelta(hours=5, minutes=30)
    # graphmem stores its own times in UTC (graphmem.store.values.in_utc): the same instant, offset 0
    assert got["occurred_at"] == said and got["occurred_at"].utcoffset() == timedelta(0)

    fetched = mem.memories.get(memory.id, user_id=user_id)
    assert fetched.occurred_at == said and fetched.occurred_at.utcoffset() == timedelta(0)
    listed = mem.memories.list(user_id=user_id)
    assert [m.occurred_at for m in listed] == [said]
    [event] = [e for e in mem.temporal.timeline(user_id) if e.kind == "memory"]
    assert event.at == said and event.at.utcoffset() == timedelta(0)
    exported = mem.users.export(user_id)["memories"][0]
    assert exported["occurred_at"] == said.astimezone(UTC).isoformat() and exported[
        "confirmed_at"
    ].startswith("2025-03-04T05:06:07.123456")


def test_a_time_the_driver_cannot_decode_reads_in_utc_instead_of_failing_the_read(
    mem: GraphMemory, user_id: str
) -> None:
    """The calendar's first instant stored at a positive offset lies in year 0 in UTC: the driver fails the
    whole record; the packed read keeps it, at its offset."""
    memory = mem.remember("The oldest thing I own is a clay pot", user_id=user_id)
    mem.runtime.store.run_statement(
        "MATCH (m:Memory {id: $id}) SET m.reviewed_at = datetime('0001-01-01T00:00:00+05:00')",
        {"id": memory.id},
    )
    row = mem.runtime.store.read("memory_fetch", ids=[memory.id], tenants=[user_id], embedding=None, now=None)
    assert row[0]["memory"]["reviewed_at"] == datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=5)))
    assert mem.memories.get(memory.id, user_id=user_id).content == "The oldest thing I own is a clay pot"


def test_properties_named_like_the_packing_read_as_plain_properties(mem: GraphMemory, user_id: str) -> None:
    """A node given `__properties__` or `__time__` by hand (any value) is read as any other: nothing fails,
    nothing else of it changes."""
    memory = mem.remember("My bike is a green Brompton", user_id=user_id)
    mem.runtime.store.run_statement(
        "MATCH (m:Memory {id: $id}) SET m.__properties__ = ['a', 'b'], m.__time__ = [1, 2, 3]",
        {"id": memory.id},
    )
    row = mem.runtime.store.read("memory_fetch", ids=[memory.id], tenants=[user_id], embedding=None, now=None)
    got = row[0]["memory"]
    assert got["__properties__"] == ["a", "b"] and got["__time__"] == [1, 2, 3]
    assert got["content"] == "My bike is a green Brompton" and isinstance(got["recorded_at"], datetime)
    assert mem.memories.get(memory.id, user_id=user_id).content == "My bike is a green Brompton"
    assert [h.memory.id for h in mem.recall("green bike", user_id=user_id)] == [memory.id]
    assert mem.users.export(user_id)["memories"][0]["content"] == "My bike is a green Brompton"
    st = mem.runtime.store
    with st.driver.session(database=st.database) as s:  # a map projection elsewhere (the kit, users' Cypher)
        [record] = list(s.run("MATCH (m:Memory {id: $id}) RETURN m {.*, embedding: null} AS m", id=memory.id))
    from graphmem.store.values import record_values

    assert record_values(record)["m"]["content"] == "My bike is a green Brompton"


def test_a_list_holding_a_date_the_driver_cannot_decode_reads_it_as_missing(
    mem: GraphMemory, user_id: str
) -> None:
    """A list property set by hand with a date beyond Python's calendar: the driver leaves a placeholder
    object in the list (whose text is its repr); every read gives None for that element, the rest as
    stored."""
    memory = mem.remember("The time capsule opens in a very distant year", user_id=user_id)
    mem.runtime.store.run_statement(
        "MATCH (m:Memory {id: $id}) SET m.visits = [datetime('+20000-01-01T00:00:00Z'), "
        "datetime('2020-01-01T00:00:00Z')]",
        {"id": memory.id},
    )
    row = mem.runtime.store.read("memory_fetch", ids=[memory.id], tenants=[user_id], embedding=None, now=None)
    assert row[0]["memory"]["visits"] == [None, datetime(2020, 1, 1, tzinfo=UTC)]
    exported = mem.users.export(user_id)["memories"][0]
    assert exported["visits"][0] is None and exported["visits"][1].startswith("2020-01-01")
    assert mem.memories.get(memory.id, user_id=user_id).content.startswith("The time capsule")
    assert [h.memory.id for h in mem.recall("time capsule", user_id=user_id, reinforce=False)] == [memory.id]
