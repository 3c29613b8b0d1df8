"""Stored counts and versions beyond any real use (the largest integer, an infinity, written by hand with raw
Cypher) on the real server: adding one to them or summing them overflowed the server's 64-bit integers, and
feedback, recall, writes, edits and jobs of the tenant failed. A count reads as a whole number from 0 to
2^40 (``cypher/fragments/typed_count``; a larger one saturates there, anything else reads as missing)."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graphmem import GraphMemory
from graphmem.adapters import dashboard
from graphmem.adapters.langgraph import GraphMemStore
from graphmem.model import metamemory
from graphmem.model.fact_versions import COUNT_MAX

LONG_MAX = "9223372036854775807"
HUGE = [LONG_MAX, "toFloat('Infinity')"]
COUNTS = ["confirmed", "disputed", "access_count", "recall_hits", "recall_misses", "merge_count", "version"]


def cypher(mem: GraphMemory, statement: str, **params: Any) -> list[dict[str, Any]]:
    return mem.runtime.store.run_statement(statement, params)


def tenant(mem: GraphMemory, user_id: str) -> list[str]:
    texts = ["I live in Berlin and love hiking", "My dog Rex loves hiking too", "Anna lives in Paris"]
    ids = [m.id for m in mem.add_messages(texts, user_id=user_id, session_id="s")]
    mem.recall("hiking Berlin", user_id=user_id)
    return ids


@pytest.mark.parametrize("value", HUGE)
def test_a_huge_memory_count_fails_no_feedback_recall_or_write(
    mem: GraphMemory, user_id: str, value: str
) -> None:
    """Feedback added one to the stored confirmed or disputed count, recall to the access count and recall
    hits and misses, a restated memory to its merge count, formation to an entity's mention count: each
    failed (a StoreError, 'long overflow') for the largest integer, set by hand."""
    ids = tenant(mem, user_id)
    sets = ", ".join(f"m.{p} = {value}" for p in COUNTS)
    cypher(mem, f"MATCH (m:Memory) WHERE m.user_id = $u SET {sets}", u=user_id)
    cypher(mem, f"MATCH (e:Entity) WHERE e.user_id = $u SET e.mention_count = {value}", u=user_id)
    mem.memories.feedback(ids[0], user_id=user_id, useful=True, query="Where do I live?")
    mem.memories.feedback(ids[1], user_id=user_id, useful=False)
    assert mem.recall("hiking Berlin", user_id=user_id)
    assert mem.recall("Rex the dog", user_id=user_id)
    assert mem.context("hiking Berlin", user_id=user_id).model_dump_json()
    assert mem.remember("I live in Berlin and love hiking", user_id=user_id).id == ids[0]
    assert len(mem.add_messages(["Rex and Anna met in Berlin"], user_id=user_id, session_id="s")) == 1
    counts = cypher(mem, "MATCH (m:Memory {id: $id}) RETURN m.confirmed AS c, m.access_count AS n", id=ids[0])
    assert counts == [{"c": COUNT_MAX + 1 if value == LONG_MAX else 1, "n": counts[0]["n"]}]
    assert counts[0]["n"] <= COUNT_MAX + 2


@pytest.mark.parametrize("value", [*HUGE, "toFloat('NaN')"])
def test_a_huge_version_fails_no_edit(mem: GraphMemory, user_id: str, value: str) -> None:
    """An edit adds one to the stored version: the largest integer overflowed (a memory's update, a core
    block's edit failed with a StoreError; a fact's next version, one more than the largest integer, failed in
    the driver with a raw OverflowError), and an infinity or NaN read as None failed an update with a raw
    TypeError. A version reads as ``memories.get`` shows it, so the update that names it succeeds."""
    memory = mem.remember("My dog Rex loves hiking", user_id=user_id)
    mem.facts.set(user_id, "home/city", "Berlin")
    mem.core.set(user_id, "persona", "curious")
    versioned = "MATCH (n) WHERE n.user_id = $u AND n.version IS NOT NULL"
    cypher(mem, f"{versioned} SET n.version = {value}", u=user_id)
    cypher(mem, f"MATCH (f:Fact) WHERE f.user_id = $u SET f.confirmations = {value}", u=user_id)
    shown = mem.memories.get(memory.id, user_id=user_id)
    assert shown is not None and shown.version in (1, COUNT_MAX)
    updated = mem.memories.update(
        memory.id, user_id=user_id, expected_version=shown.version, content="Rex hikes"
    )
    assert updated.content == "Rex hikes" and updated.version == min(shown.version + 1, COUNT_MAX)
    mem.facts.set(user_id, "home/city", "Berlin")
    assert mem.facts.set(user_id, "home/city", "Munich").version <= COUNT_MAX + 1
    mem.facts.retract(user_id, "home/city")
    assert mem.core.set(user_id, "persona", "calm").value == "calm"


def test_huge_counts_fail_no_job(mem: GraphMemory, user_id: str) -> None:
    """Decay's stability grows with ``log(1 + access count)``, consolidation sums the access counts of two
    duplicates, adds one to the survivor's version and extends a recall rollup's count: each overflowed for
    the largest integer, set by hand, and the job failed for the tenant. (The sums of ``sum()``, the stats'
    recalls per week and the topics job's versions, turn to floats instead: they cannot fail.)"""
    ids = tenant(mem, user_id)
    cypher(  # a duplicate of the first memory, as an import or an older version could leave
        mem,
        "MATCH (m:Memory {id: $id}) CREATE (c:Memory) SET c = m {.*, id: randomUUID(), "
        "created_at: m.created_at + duration('PT1S'), recorded_at: m.recorded_at + duration('PT1S')} "
        "CREATE (m)-[:RELATED_TO {weight: 0.9, recorded_at: m.recorded_at}]->(c)",
        id=ids[0],
    )
    mem.recall("Where does Rex hike?", user_id=user_id)
    later = datetime.now(UTC) + timedelta(days=60)
    cypher(mem, f"MATCH (m:Memory) WHERE m.user_id = $u SET m.access_count = {LONG_MAX}", u=user_id)
    cypher(mem, f"MATCH (m:Memory) WHERE m.user_id = $u SET m.version = {LONG_MAX}", u=user_id)
    failed = {}
    for job in ("decay", "consolidate", "forget", "associate", "promote", "review", "topics", "adapt"):
        run = mem.jobs.run(job, user_id=user_id, now=later)
        if run.status != "success":
            failed[job] = run.error
    survivor = "MATCH (m:Memory {id: $id}) RETURN m.merged_from AS ids, m.access_count AS n"
    merged = cypher(mem, survivor, id=ids[0])
    assert merged[0]["ids"] and merged[0]["n"] == 2 * COUNT_MAX
    cypher(mem, f"MATCH (r:RecallEvent) WHERE r.user_id = $u SET r.events = {LONG_MAX}", u=user_id)
    mem.recall("Where does Anna live?", user_id=user_id)
    run = mem.jobs.run("consolidate", user_id=user_id, now=later + timedelta(days=30))
    if run.status != "success":
        failed["consolidate (rollup)"] = run.error
    assert not failed
    assert dashboard.memory_stats(mem.runtime, user_id).model_dump_json()


def test_a_huge_store_item_version_fails_no_put(mem: GraphMemory, user_id: str) -> None:
    """The LangGraph store adds one to an item's version on each put: the largest integer (set by hand)
    failed every later put of the item with a StoreError."""
    store = GraphMemStore(mem, user_id=user_id)
    store.put(("memories",), "pet", {"text": "The user has a dog named Rex"})
    cypher(mem, f"MATCH (m:StoreItem) WHERE m.user_id = $u SET m.version = {LONG_MAX}", u=user_id)
    store.put(("memories",), "pet", {"text": "The user has a dog named Max"})
    item = store.get(("memories",), "pet")
    assert item is not None and item.value["text"] == "The user has a dog named Max"


def test_a_huge_access_count_fails_no_forgetting_by_capacity(auto: GraphMemory, user_id: str) -> None:
    """Forgetting by capacity ranks by strength × (1 + access count): the largest integer overflowed and the
    forget job failed for the tenant."""
    cfg = auto.automation.get_config()
    auto.automation.set_config(
        cfg.model_copy(update={"dynamics": cfg.dynamics.model_copy(update={"capacity_per_user": 1})})
    )
    tenant(auto, user_id)
    cypher(auto, f"MATCH (m:Memory) WHERE m.user_id = $u SET m.access_count = {LONG_MAX}", u=user_id)
    run = auto.jobs.run("forget", user_id=user_id, now=datetime.now(UTC) + timedelta(days=400))
    assert run.status == "success", run.error


def test_reliability_costs_the_same_for_a_huge_count() -> None:
    """Reliability moved the source trust once per confirmation and dispute in a Python loop: a confirmed
    count of the largest integer (set by hand) hung recall and context in that loop. It is closed-form."""
    start = time.perf_counter()
    assert metamemory.reliability(0.6, 10**8, 0, 0) == pytest.approx(1.0)
    assert metamemory.reliability(0.6, 10**8, 10**8, 0) < 1e-300
    assert time.perf_counter() - start < 0.05
    assert metamemory.reliability(0.6, 2, 1, 0) == pytest.approx((1 - 0.4 * (2 / 3) ** 2) * 2 / 3)


@pytest.mark.parametrize("value", [LONG_MAX, "'two'"])
def test_a_huge_tuning_version_fails_no_tuning(mem: GraphMemory, user_id: str, value: str) -> None:
    """A user's tuning (the adapt job's, or ``evolution.set``) is written at the stored version plus one: the
    largest integer, set by hand, made a version the driver cannot send (a raw OverflowError), a text one
    ``int()`` refused (a raw ValueError), and the user's tuning could never change again."""
    evolution = mem.automation.evolution
    assert evolution.set(user_id, {"vector_weight": 0.8}).version == 1
    cypher(mem, f"MATCH (c:AutomationConfig) WHERE c.user_id = $u SET c.version = {value}", u=user_id)
    tuned = evolution.set(user_id, {"vector_weight": 0.2})
    assert tuned.params == {"vector_weight": 0.2} and tuned.version <= COUNT_MAX + 1
    assert evolution.tuning(user_id).version == min(tuned.version, COUNT_MAX)  # a count saturates there
    assert evolution.set(user_id, {"vector_weight": 0.5}).params == {"vector_weight": 0.5}
