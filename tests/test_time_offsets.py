"""One instant, any UTC offset. Neo4j orders two date-times of one instant by their offsets
(``datetime('2024-06-01T05:45+05:45') > datetime('2024-06-01T00:00Z')``), so a bound and a stored time of the
same instant at different offsets compared as different moments: graphmem sends every time in UTC
(graphmem.store.values.in_utc) and init() converts an older store's times once (graphmem.temporal.migrate).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from graphmem import GraphMemory
from graphmem.temporal import migrate

IST = timezone(timedelta(hours=5, minutes=30))
NPT = timezone(timedelta(hours=5, minutes=45))
NST = timezone(-timedelta(hours=3, minutes=30))


def _fact_value(mem: GraphMemory, user_id: str, key: str, **at: datetime) -> str | None:
    fact = mem.facts.get(user_id, key, **at)
    return None if fact is None else fact.value


def test_a_fact_is_read_at_its_own_instant_whatever_the_offset(mem: GraphMemory, user_id: str) -> None:
    diet = mem.facts.set(user_id, "diet", "vegan")
    assert _fact_value(mem, user_id, "diet", known_at=diet.recorded_at.astimezone(NST)) == "vegan"
    mem.facts.set(user_id, "city", "Leeds", valid_from=datetime(2024, 1, 1, tzinfo=UTC))
    moved = datetime(2024, 6, 1, tzinfo=NPT)
    mem.facts.set(user_id, "city", "Kathmandu", valid_from=moved)
    for as_of in (moved, moved.astimezone(UTC), moved.astimezone(NST)):
        assert _fact_value(mem, user_id, "city", as_of=as_of) == "Kathmandu", as_of
    just_before = (moved - timedelta(microseconds=1)).astimezone(UTC)
    assert _fact_value(mem, user_id, "city", as_of=just_before) == "Leeds"


def test_a_memory_is_found_at_its_own_instant_whatever_the_offset(mem: GraphMemory, user_id: str) -> None:
    said = datetime(2024, 6, 1, 9, 0, tzinfo=IST)
    mem.add_messages(
        [{"role": "user", "content": "I adopted a grey cat called Miso", "timestamp": said}],
        user_id=user_id,
        session_id="s1",
    )
    for at in (said, said.astimezone(UTC), said.astimezone(NST)):
        hits = mem.recall("my cat", user_id=user_id, as_of=at, k=3)
        assert [h.memory.content for h in hits] == ["I adopted a grey cat called Miso"], at
        events = mem.temporal.timeline(user_id, start=at, end=at)
        assert [e.kind for e in events] == ["memory"], at
        nodes = mem.temporal.snapshot(user_id, as_of=at).nodes
        assert any(n.label == "Memory" for n in nodes), at
    earlier = (said - timedelta(microseconds=1)).astimezone(UTC)
    assert mem.recall("my cat", user_id=user_id, as_of=earlier, k=3) == []
    stored = mem.query("MATCH (m:Memory {user_id: $u}) RETURN m.occurred_at.timezone AS zone", {"u": user_id})
    assert stored == [{"zone": "Z"}]


def test_init_converts_an_older_store_times_to_utc_once(mem: GraphMemory, user_id: str) -> None:
    """A store written before round 55 held each caller's offset: the migration moves every date-time
    property of nodes and relationships to the same instant in UTC, and the reads then agree."""
    said = datetime(2024, 6, 1, 9, 0, tzinfo=IST)
    (m,) = mem.add_messages(
        [{"role": "user", "content": "We hiked up Snowdon in the rain", "timestamp": said}],
        user_id=user_id,
        session_id="s1",
    )
    mem.runtime.store.run_statement(  # as an older graphmem stored it: the caller's offset
        "MATCH (m:Memory {id: $id}) SET m.occurred_at = datetime('2024-06-01T09:00+05:30'), "
        "m.created_at = datetime('2024-06-01T09:00[Asia/Kolkata]'), "
        "m.ancient = datetime('0001-01-01T00:00+05:00') "  # year 0 in UTC: left as it is
        "WITH m MATCH (m)-[r]-() SET r.valid_from = datetime('2024-06-01T09:00+05:30')",
        {"id": m.id},
    )
    foreign = f"not-graphmem-{user_id}"  # another application's node in a shared database: untouched
    mem.runtime.store.run_statement(  # and its relationships with a memory, either way: untouched too
        "MATCH (m:Memory {id: $m}) "
        "CREATE (f:LabForeignShift {id: $id, start: datetime('2024-06-01T09:00[Europe/London]')}) "
        "CREATE (f)-[:LAB_SEES {at: datetime('2024-06-01T09:00+05:30')}]->(m) "
        "CREATE (m)-[:LAB_SEEN {at: datetime('2024-06-01T09:00+05:30')}]->(f)",
        {"id": foreign, "m": m.id},
    )
    at_utc = said.astimezone(UTC)
    assert mem.recall("hiking", user_id=user_id, as_of=at_utc, k=3) == []  # the old store's failure
    nodes, relationships = migrate.times_in_utc(mem.runtime)
    assert nodes >= 1 and relationships >= 1
    rows = mem.query(
        "MATCH (m:Memory {id: $id})-[r]-() RETURN m.occurred_at AS at, m.occurred_at.timezone AS zone, "
        "m.created_at.timezone AS created, collect(DISTINCT r.valid_from.timezone) AS edges",
        {"id": m.id},
    )
    assert rows[0]["at"] == said and rows[0]["zone"] == "Z" and rows[0]["created"] == "Z"
    assert rows[0]["edges"] == ["Z"]
    assert [h.memory.id for h in mem.recall("hiking", user_id=user_id, as_of=at_utc, k=3)] == [m.id]
    assert migrate.times_in_utc(mem.runtime) == (0, 0)  # nothing left to move
    kept = mem.query(
        "MATCH (m:Memory {id: $id}) MATCH (f:LabForeignShift {id: $f}) MATCH (f)-[a]-(m) "
        "RETURN m.ancient.offsetSeconds AS ancient, f.start.timezone AS foreign, "
        "collect(a.at.timezone) AS links",
        {"id": m.id, "f": foreign},
    )
    mem.runtime.store.run_statement("MATCH (f:LabForeignShift {id: $f}) DETACH DELETE f", {"f": foreign})
    assert kept == [{"ancient": 5 * 3600, "foreign": "Europe/London", "links": ["+05:30", "+05:30"]}]


class Stamp(datetime):
    """A datetime subclass, as pandas.Timestamp is one."""


def test_times_of_any_kind_and_query_bounds_are_compared_as_instants(mem: GraphMemory, user_id: str) -> None:
    said = Stamp(2024, 6, 1, 9, 0, tzinfo=NPT)
    (m,) = mem.add_messages(
        [{"role": "user", "content": "We planted tomatoes on the balcony", "timestamp": said}],
        user_id=user_id,
        session_id="s1",
    )
    assert m.occurred_at == said and m.occurred_at.utcoffset() == timedelta(0)  # as stored (and read back)
    at_utc = said.astimezone(UTC)
    assert [h.memory.id for h in mem.recall("tomatoes", user_id=user_id, as_of=at_utc, k=3)] == [m.id]
    count = "MATCH (m:Memory {user_id: $u}) WHERE m.occurred_at >= $t RETURN count(m) AS n"
    for bound in (said, at_utc, at_utc.astimezone(NST)):  # query() parameters are sent in UTC too
        assert mem.query(count, {"u": user_id, "t": bound}) == [{"n": 1}], bound


def test_a_date_phrase_outside_the_accepted_years_is_not_a_date(mem: GraphMemory, user_id: str) -> None:
    """ "1 January 0001" said at a positive offset lies before the calendar's first instant in UTC: the write
    failed with the driver's ValueError (REST: 500) and the whole batch was lost."""
    stored = mem.add_messages(
        [
            {"role": "user", "content": "I like chess.", "timestamp": "2024-06-01T11:59:00+00:01"},
            {
                "role": "user",
                "content": "I went to the zoo on 1 January 0001.",
                "timestamp": "2024-06-01T12:00:00+00:01",
            },
        ],
        user_id=user_id,
        session_id="s1",
    )
    assert [m.content for m in stored] == ["I like chess.", "I went to the zoo on 1 January 0001."]


def test_a_phrase_out_of_the_years_is_no_date_and_no_part_of_it_is_one() -> None:
    from graphmem.model.dates import resolve_dates

    said = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)
    assert resolve_dates("We met in May 1899", said) == []  # not "in May": May 2024
    assert resolve_dates("It opens in December 2201", said) == []  # not last December
    assert [r.start.year for r in resolve_dates("It opens in December 2200", said)] == [2200]
