"""Hostile stored values found by the round-60 probe, on the real server: a property written by hand with a
type graphmem never writes (a list, a number, a text) fails no later write, read or job of its tenant."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graphmem import GraphMemory, ValidationError
from graphmem.adapters import dashboard


def cypher(mem: GraphMemory, statement: str, **params: Any) -> list[dict[str, Any]]:
    return mem.runtime.store.run_statement(statement, params)


@pytest.mark.parametrize("expression", ["[1, 2]", "['rex', 'dog']", "-1", "true", "date('2020-01-01')"])
def test_an_entity_key_of_another_type_fails_no_later_write(
    mem: GraphMemory, user_id: str, expression: str
) -> None:
    """Formation reads the user's known entity keys; one set by hand to a list or a number failed every later
    ``remember`` and ``add_messages`` of the user with a TypeError (unhashable list, ``len()`` of an int)."""
    mem.add_messages(["My dog Rex loves Berlin", "Anna lives in Paris"], user_id=user_id, session_id="s")
    cypher(mem, f"MATCH (e:Entity) WHERE e.user_id = $u SET e.key = {expression}", u=user_id)
    assert mem.remember("Rex and Anna met in Berlin", user_id=user_id).content
    assert len(mem.add_messages(["Rex visited Paris"], user_id=user_id, session_id="s")) == 1


@pytest.mark.parametrize(
    "expression", ["'x'", "[1, 2]", "['a', 'b']", "true", "duration('P1D')", "date('2020-01-01')"]
)
def test_feedback_reads_a_mistyped_importance_and_access_count_as_missing(
    mem: GraphMemory, user_id: str, expression: str
) -> None:
    """``memories.feedback`` converted the stored importance and access count with ``float()``/``int()``: a
    text or a list set by hand raised a raw ValueError/TypeError; it added one to the stored confirmed or
    disputed count, which failed (a StoreError) for a count of another type."""
    memory = mem.remember("I like hiking in the Alps", user_id=user_id)
    cypher(
        mem,
        f"MATCH (m:Memory {{id: $id}}) SET m.importance = {expression}, m.access_count = {expression}, "
        f"m.confirmed = {expression}, m.disputed = {expression}",
        id=memory.id,
    )
    mem.memories.feedback(memory.id, user_id=user_id, useful=True, query="Where do I hike?")
    mem.memories.feedback(memory.id, user_id=user_id, useful=False)
    assert mem.memories.get(memory.id, user_id=user_id) is not None


@pytest.mark.parametrize("prop", ["recorded_at", "updated_at"])
def test_the_topics_job_reads_a_time_of_another_type(mem: GraphMemory, user_id: str, prop: str) -> None:
    """The topics job's signature turned each latest time into text with ``toString()``, which refuses a list
    (set by hand): the job failed for the tenant."""
    trips = [f"I like hiking in the Alps, trip {i}" for i in range(3)]
    mem.add_messages(trips, user_id=user_id, session_id="s")
    cypher(mem, f"MATCH (m:Memory) WHERE m.user_id = $u SET m.{prop} = [1, 2]", u=user_id)
    run = mem.jobs.run("topics", user_id=user_id)
    assert run.status == "success", run.error


@pytest.mark.parametrize("expression", ["-1", "[1, 2]", "true"])
def test_a_fact_key_of_another_type_fails_no_recall_and_no_adaptation(
    mem: GraphMemory, user_id: str, expression: str
) -> None:
    """Recall's pool reads the relation of each fact a memory backs with ``split(f.key, '/')``, which refuses
    a number or a list (set by hand): the adapt job, replaying the recalls feedback judged, failed."""
    memories = mem.add_messages(
        ["I live in Berlin and love hiking", "I work at Acme as a nurse"], user_id=user_id, session_id="s"
    )
    assert cypher(mem, "MATCH (f:Fact) WHERE f.user_id = $u RETURN count(f) AS n", u=user_id)[0]["n"] > 0
    mem.recall("where do I live", user_id=user_id)
    mem.memories.feedback(memories[0].id, user_id=user_id, useful=True, query="where do I live")
    cypher(mem, f"MATCH (f:Fact) WHERE f.user_id = $u SET f.key = {expression}", u=user_id)
    assert mem.recall("where do I live", user_id=user_id, k=5)
    run = mem.jobs.run("adapt", user_id=user_id)
    assert run.status == "success", run.error


@pytest.mark.parametrize("ids", [None, 123, 1.5, object()])
def test_restore_refuses_ids_of_another_type_with_a_validation_error(
    mem: GraphMemory, user_id: str, ids: Any
) -> None:
    """``jobs.restore`` listed whatever was not a text: None or a number raised a raw TypeError (not
    iterable) instead of graphmem's ValidationError."""
    mem.remember("I like hiking", user_id=user_id)
    with pytest.raises(ValidationError, match="memory_id"):
        mem.jobs.restore(ids, user_id=user_id)
    with pytest.raises(ValidationError, match="memory_id"):
        mem.jobs.restore(["x", ids], user_id=user_id)


FAR = "datetime('+999999999-12-31T00:00:00Z')"  # beyond Python's years: the driver cannot decode it


@pytest.mark.parametrize("prop", ["status", "memory_type", "priority"])
def test_a_column_the_driver_cannot_decode_reads_as_missing(
    mem: GraphMemory, user_id: str, prop: str
) -> None:
    """A property read as a column of its own (the stats' status, type and priority) set by hand to a
    date-time beyond Python's years raised the driver's BrokenRecordError, not a graphmem error."""
    memory = mem.remember("I like hiking in the Alps", user_id=user_id)
    cypher(mem, f"MATCH (m:Memory {{id: $id}}) SET m.{prop} = {FAR}", id=memory.id)
    assert dashboard.memory_stats(mem.runtime, user_id).model_dump_json()
    assert mem.recall("hiking", user_id=user_id)


def test_an_error_quoting_a_huge_value_keeps_its_message_short(mem: GraphMemory, user_id: str) -> None:
    """A refused value is quoted in the message: an unknown memory type of 200,000 characters made a
    200,000-character message (every log line, every CLI or MCP error). It keeps its start and end."""
    with pytest.raises(ValidationError) as refused:
        mem.remember("I like hiking", user_id=user_id, memory_type="a" * 200_000)
    text = str(refused.value)
    assert len(text) < 2100 and text.startswith("memory_type: must be one of") and text.endswith("aaa'")
    assert "characters left out" in text
    with pytest.raises(ValidationError, match="memory_type: must be one of"):
        mem.remember("I like hiking", user_id=user_id, memory_type="x")


@pytest.mark.parametrize("name", [["decay"], {"decay": 1}, None, 3])
def test_a_job_name_of_another_type_is_a_validation_error(mem: GraphMemory, name: Any) -> None:
    """``jobs.run(["decay"])`` raised a raw TypeError (unhashable list) from the name lookup."""
    for call in (mem.jobs.run, mem.jobs.status, mem.jobs.enable, mem.jobs.disable):
        with pytest.raises(ValidationError, match="unknown job"):
            call(name)


def test_a_memory_whose_id_was_removed_fails_no_recall(mem: GraphMemory, user_id: str) -> None:
    """A memory without an id (removed by hand) reached recall's ranking: sorting the ids to reinforce
    raised a raw TypeError (None < str) in recall and context. It is left out; the others are found."""
    memories = mem.add_messages(
        ["I live in Berlin and love hiking", "My dog Rex loves hiking too", "Hiking in Berlin is flat"],
        user_id=user_id,
        session_id="s",
    )
    cypher(mem, "MATCH (m:Memory {id: $id}) REMOVE m.id", id=memories[0].id)
    hits = mem.recall("hiking Berlin", user_id=user_id)
    assert hits and {h.memory.id for h in hits} <= {m.id for m in memories[1:]}
    assert mem.context("hiking Berlin", user_id=user_id).model_dump_json()


@pytest.mark.parametrize("props", [["occurred_at"], ["event_start", "event_end"], ["inhibited_at"]])
@pytest.mark.parametrize("year", ["+999999999", "-999999999"])
def test_a_memory_time_beyond_the_calendar_fails_no_recall(
    mem: GraphMemory, user_id: str, props: list[str], year: str
) -> None:
    """Recall's pool reads a memory's times as epoch milliseconds, which overflow on the server for a
    date-time set by hand past year ~292 million: recall and context of the whole tenant failed with a
    StoreError ('long overflow'). Such a time reads as missing, as everywhere else."""
    memories = mem.add_messages(
        ["I live in Berlin and love hiking", "My dog Rex loves hiking too"], user_id=user_id, session_id="s"
    )
    sets = ", ".join(f"m.{p} = datetime('{year}-12-31T00:00:00Z')" for p in props)
    cypher(mem, f"MATCH (m:Memory) WHERE m.user_id = $u SET m.inhibition = 0.5, {sets}", u=user_id)
    assert {h.memory.id for h in mem.recall("hiking Berlin", user_id=user_id)} == {m.id for m in memories}
    assert mem.context("hiking Berlin", user_id=user_id).model_dump_json()


def test_a_recall_rollup_of_another_shape_is_extended_afresh(mem: GraphMemory, user_id: str) -> None:
    """Compaction extends the day's rollup RecallEvent: ids, entries or a count of another type (set by
    hand) made a mixed list the store refuses, and the consolidate job failed for the tenant."""
    mem.add_messages(["I like hiking in the Alps", "My dog Rex hikes too"], user_id=user_id, session_id="s")
    mem.recall("hiking", user_id=user_id)
    later = datetime.now(UTC) + timedelta(days=60)
    assert mem.jobs.run("consolidate", user_id=user_id, now=later).status == "success"
    rollups = cypher(
        mem,
        "MATCH (r:RecallEvent) WHERE r.user_id = $u AND r.rollup = true "
        "SET r.memory_ids = [1, 2], r.entries = [1, 2], r.events = 'many', r.at = [1] RETURN count(r) AS n",
        u=user_id,
    )
    assert rollups[0]["n"] == 1
    mem.recall("Where does Rex hike?", user_id=user_id)
    run = mem.jobs.run("consolidate", user_id=user_id, now=later)
    assert run.status == "success", run.error
    rollup = "MATCH (r:RecallEvent) WHERE r.user_id = $u AND r.rollup = true RETURN r.memory_ids AS ids"
    kept = cypher(mem, rollup, u=user_id)
    assert kept and all(isinstance(i, str) for i in kept[0]["ids"])


@pytest.mark.parametrize("expression", ["point({x: 1, y: 2})", "9223372036854775807", "'m1'", "true"])
def test_recalled_ids_of_another_type_fail_no_stats(mem: GraphMemory, user_id: str, expression: str) -> None:
    """The value panel asked whether a recall's returned ids hold a memory with ``IN r.memory_ids``, which
    fails on a point or a number set by hand: the stats of the user, and the dashboard's stats of every
    user (``user_id=None``), failed with a StoreError."""
    mem.add_messages(["I live in Berlin", "My dog is Rex"], user_id=user_id, session_id="s")
    mem.recall("Berlin", user_id=user_id)
    cypher(mem, f"MATCH (r:RecallEvent) WHERE r.user_id = $u SET r.memory_ids = {expression}", u=user_id)
    assert dashboard.memory_stats(mem.runtime, user_id).value is not None
    assert dashboard.memory_stats(mem.runtime, None).value is not None


@pytest.mark.parametrize("expression", ["-1", "true", "date('2020-01-01')", "[1, 2]"])
def test_entity_aliases_and_mention_counts_of_another_type_fail_no_later_write(
    mem: GraphMemory, user_id: str, expression: str
) -> None:
    """Formation extends an entity's aliases and mention count: a number, boolean or date set by hand on
    them (with a key it no longer recognises) made a mixed list or an addition the store refuses, and every
    later write that mentioned the entity failed with a StoreError (REST: 500)."""
    mem.add_messages(["My dog Rex loves Berlin", "Anna lives in Paris"], user_id=user_id, session_id="s")
    cypher(
        mem,
        f"MATCH (e:Entity) WHERE e.user_id = $u SET e.key = {expression}, e.aliases = {expression}, "
        f"e.mention_count = {expression}",
        u=user_id,
    )
    assert len(mem.add_messages(["Rex and Anna met in Berlin"], user_id=user_id, session_id="s")) == 1
    assert mem.remember("Anna walks Rex in Paris", user_id=user_id).content


@pytest.mark.parametrize("prop", ["recorded_at", "last_accessed_at", "strength_updated_at", "occurred_at"])
def test_a_memory_time_beyond_the_calendar_fails_no_read_and_no_job(
    mem: GraphMemory, user_id: str, prop: str
) -> None:
    """Strength, retention and the consolidate job's serial positions read a memory's times as epoch seconds,
    which overflow on the server for a date-time set by hand past year ~292 million: ``memories.get``, the
    stats and the consolidate job failed with a StoreError ('long overflow'). Such a time reads as missing."""
    memories = mem.add_messages(
        ["I live in Berlin and love hiking", "My dog Rex loves hiking too"], user_id=user_id, session_id="s"
    )
    mem.jobs.run("decay", user_id=user_id)
    cypher(mem, f"MATCH (m:Memory) WHERE m.user_id = $u SET m.{prop} = {FAR}", u=user_id)
    assert mem.memories.get(memories[0].id, user_id=user_id) is not None
    assert dashboard.memory_stats(mem.runtime, user_id).model_dump_json()
    assert mem.recall("hiking Berlin", user_id=user_id)
    later = datetime.now(UTC) + timedelta(days=30)
    for job in ("decay", "consolidate", "forget"):
        run = mem.jobs.run(job, user_id=user_id, now=later)
        assert run.status == "success", (job, run.error)


def test_a_huge_integer_retention_fails_no_stats(mem: GraphMemory, user_id: str) -> None:
    """The stats' retention decile multiplied the stored retention by the integer 10: the largest integer,
    set by hand, overflowed (a StoreError) the stats of the user, and the dashboard's stats of every user."""
    memory = mem.remember("I like hiking in the Alps", user_id=user_id)
    cypher(mem, "MATCH (m:Memory {id: $id}) SET m.retention = 9223372036854775807", id=memory.id)
    assert dashboard.memory_stats(mem.runtime, user_id).total == 1
    assert dashboard.memory_stats(mem.runtime, None).model_dump_json()


@pytest.mark.parametrize(("inhibition", "since"), [("0.5", "'x'"), ("0.5", "[1, 2]"), ("'x'", "datetime()")])
def test_an_inhibition_of_another_type_fails_no_recall(
    mem: GraphMemory, user_id: str, inhibition: str, since: str
) -> None:
    """Recall inhibits the competitors it does not return from their inhibition now (the stored one decayed
    since ``inhibited_at``): a time of another type (``duration.inSeconds`` refuses it) or an inhibition of
    another type (a text times a number), set by hand, failed every recall that met them (a StoreError)."""
    texts = ["I love hiking in the Alps", "Hiking in Norway is great", "I hiked in Spain", "Boots are red"]
    mem.add_messages(texts, user_id=user_id, session_id="s")
    held = f"SET m.inhibition = {inhibition}, m.inhibited_at = {since}"
    cypher(mem, f"MATCH (m:Memory) WHERE m.user_id = $u {held}", u=user_id)
    for query in ("hiking", "hiking in the Alps", "red boots"):
        assert mem.recall(query, user_id=user_id, k=1)
    missed = cypher(mem, "MATCH (m:Memory) WHERE m.user_id = $u RETURN sum(m.recall_misses) AS n", u=user_id)
    assert missed[0]["n"] > 0  # competitors were inhibited


@pytest.mark.parametrize("expression", ["'x'", "[1, 2]"])
def test_a_stability_of_another_type_fails_no_review(mem: GraphMemory, user_id: str, expression: str) -> None:
    """The review job schedules the next review from the stored stability: a text or a list set by hand
    failed the arithmetic, and the job, for the tenant (a StoreError). It reads as missing (the priority's
    initial stability)."""
    mem.add_messages(["I love hiking in the Alps", "Hiking in Norway"], user_id=user_id, session_id="s")
    mem.recall("hiking", user_id=user_id)
    cypher(mem, f"MATCH (m:Memory) WHERE m.user_id = $u SET m.stability = {expression}", u=user_id)
    run = mem.jobs.run("review", user_id=user_id)
    assert run.status == "success", run.error
    scheduled = "MATCH (m:Memory) WHERE m.user_id = $u RETURN m.stability AS s, m.next_review_at AS due"
    assert all(isinstance(r["s"], float) and r["due"] is not None for r in cypher(mem, scheduled, u=user_id))
