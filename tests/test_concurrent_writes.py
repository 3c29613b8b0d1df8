"""Concurrent calls on one user, on the real server (round 53's race probe): writers of the same state take
turns, so the invariants a single writer keeps hold under concurrency too. Each scenario starts its callers
together on a barrier and repeats, since a race is probabilistic; each failed on every repetition before its
fix."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graphmem import GraphMemory
from graphmem.errors import FactNotFound
from graphmem.formation import writer

CURRENT = """
MATCH (f:Fact) WHERE f.user_id = $u AND f.key = $key AND f.status = 'current' AND f.expired_at IS NULL
RETURN f.value AS value
"""


def together(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run ``calls`` on threads released at once; each one's result, or the exception it raised."""
    start = threading.Barrier(len(calls))
    out: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        start.wait()
        try:
            out[i] = calls[i]()
        except Exception as exc:  # reported to the test, which says which ones may fail
            out[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def _setter(mem: GraphMemory, user: str, value: str) -> Callable[[], Any]:
    return lambda: mem.facts.set(user, "location", value)


def test_concurrent_values_of_one_key_leave_one_current_version(mem: GraphMemory, user_id: str) -> None:
    """Eight values of one key at once: one current version, every other one superseded (or, dated before
    the value committed while it waited, placed in the key's past: graphmem.model.fact_history), each
    version closed once. Before, every writer read the same current version and superseded
    it: up to eight current versions, the old one closed eight times (its end overwritten by the last)."""
    for rep in range(2):
        user = f"{user_id}-{rep}"
        mem.facts.set(user, "location", "Leeds")
        results = together([_setter(mem, user, f"City{i}") for i in range(8)])
        assert not [r for r in results if isinstance(r, Exception)], results
        assert len(mem.query(CURRENT, {"u": user, "key": "location"})) == 1
        closed = mem.query(
            "MATCH (f:Fact {user_id: $u, key: 'location'})<-[s:SUPERSEDES]-() "
            "RETURN f.id AS v, count(s) AS n",
            {"u": user},
        )
        assert all(row["n"] == 1 for row in closed), closed
        current = mem.facts.get(user, "location")
        assert (
            current is not None
            and current.value == mem.query(CURRENT, {"u": user, "key": "location"})[0]["value"]
        )


def test_a_retraction_racing_with_new_values_leaves_at_most_one_current_version(
    mem: GraphMemory, user_id: str
) -> None:
    """Values and retractions of one key at once: at most one current version, each retraction stands (a
    value's write does not close the version it retracted again), and a retraction after them all leaves none
    (before, a retraction closed one of several current versions and another stayed)."""
    for rep in range(4):
        user = f"{user_id}-{rep}"
        mem.facts.set(user, "location", "Leeds")
        calls = [_setter(mem, user, f"Town{i}") for i in range(4)]
        calls += [lambda user=user: mem.facts.retract(user, "location") for _ in range(2)]
        results = together(calls)
        assert all(not isinstance(r, Exception) or isinstance(r, FactNotFound) for r in results), results
        assert len(mem.query(CURRENT, {"u": user, "key": "location"})) <= 1
        retracted = [r for r in results[4:] if not isinstance(r, Exception)]
        statuses = mem.query(
            "MATCH (f:Fact {user_id: $u, key: 'location'}) WHERE f.status = 'retracted' RETURN count(f) AS n",
            {"u": user},
        )
        assert statuses[0]["n"] == len(retracted)  # no retraction closed again by a value's write
        if mem.facts.get(user, "location") is not None:
            mem.facts.retract(user, "location")
        assert mem.query(CURRENT, {"u": user, "key": "location"}) == []
        assert mem.facts.get(user, "location") is None


def test_a_repeat_whose_memory_is_deleted_meanwhile_is_stored_as_new(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A turn planned as the near-duplicate of a memory that another call deletes before the write: the write
    rolls back and the turns are planned again, so the turn is stored as a new memory and the idempotency key
    records it. Before, a KeyError escaped after the transaction had committed the key with the deleted id and
    stored the turn nowhere (a retry with the key then failed for good)."""
    text = "My favourite colour is teal, like the sea at Kynance Cove"
    first = mem.remember(text, user_id=user_id)
    planned = writer.plan_formation

    def plan_then_delete(*args: Any, **kwargs: Any) -> Any:
        plan = planned(*args, **kwargs)
        if plan.merges:  # the other caller's delete lands between this planning and the write
            mem.runtime.store.run_statement("MATCH (m:Memory {id: $id}) DETACH DELETE m", {"id": first.id})
        return plan

    monkeypatch.setattr(writer, "plan_formation", plan_then_delete)
    stored = mem.add_messages(
        [{"role": "user", "content": text}], user_id=user_id, session_id="s", idempotency_key="teal-1"
    )
    assert len(stored) == 1 and stored[0].id != first.id and stored[0].content == text
    assert mem.memories.get(stored[0].id, user_id=user_id).content == text
    again = mem.add_messages(
        [{"role": "user", "content": text}], user_id=user_id, session_id="s", idempotency_key="teal-1"
    )
    assert [m.id for m in again] == [stored[0].id]  # the key replays what it stored


def test_concurrent_recalls_of_one_memory_each_count(mem: GraphMemory, user_id: str) -> None:
    """Eight reinforcing recalls at once, each returning the same memory: its access count grows by eight,
    as its recall hits do. Before, the count was read before the memory's lock was taken and most increments
    were lost (+1 to +5 of 8), while the hits, read under the lock, counted eight."""
    for rep in range(2):
        user = f"{user_id}-{rep}"
        wifi = mem.remember("The cabin wifi password is heron-42", user_id=user)
        mem.remember("We cooked paella on the beach last summer", user_id=user)
        results = together(
            [lambda u=user: mem.recall("cabin wifi password", user_id=u, k=1) for _ in range(8)]
        )
        assert all(not isinstance(r, Exception) and r[0].memory.id == wifi.id for r in results), results
        row = mem.query(
            "MATCH (m:Memory {id: $id}) RETURN m.access_count AS n, m.recall_hits AS hits", {"id": wifi.id}
        )[0]
        assert (row["n"], row["hits"]) == (8, 8)


def test_two_consolidate_runs_at_once_summarise_each_memory_once(auto: GraphMemory, user_id: str) -> None:
    """Two runs of the consolidate job for one user at once (a manual run beside the scheduled one): every
    member is summarised once and the runs' counts add up to the summaries made. Before, both runs read the
    same unsummarised members and each wrote its own summary of every cluster."""
    topics = ["hiking in the alps", "my dog Rex", "cooking pasta", "learning piano", "my job at Acme"]
    later = datetime.now(UTC) + timedelta(days=40)  # past summary_min_age_days
    for rep in range(2):
        user = f"{user_id}-{rep}"
        for s in range(6):
            turns = [f"Session {s}: I talked about {t} again, part {s}." for t in topics]
            turns += [f"More about {topics[s % 5]} detail {k}." for k in range(4)]
            auto.add_messages(turns, user_id=user, session_id=f"seed{s}")
        runs = together([lambda u=user: auto.jobs.run("consolidate", user_id=u, now=later) for _ in range(2)])
        assert all(not isinstance(r, Exception) and r.status == "success" for r in runs), runs
        twice = auto.query(
            "MATCH (x:Memory {user_id: $u})<-[:SUMMARIZES]-(s:Memory) WITH x, count(s) AS n WHERE n > 1 "
            "RETURN count(x) AS n",
            {"u": user},
        )[0]["n"]
        made = auto.query(
            "MATCH (s:Memory {user_id: $u})-[:SUMMARIZES]->() RETURN count(DISTINCT s) AS n", {"u": user}
        )[0]["n"]
        assert twice == 0 and made > 0
        assert sum(r.counts["summaries"] for r in runs) == made


def test_linking_a_pair_again_reweights_its_edge_instead_of_adding_one(
    mem: GraphMemory, user_id: str
) -> None:
    """Links of one pair, at once and one after the other: one live edge per type (RELATED_TO either way
    round; CAUSES per direction), carrying the last weight. Before, every call created an edge (two
    sequential CAUSES links gave two; three concurrent RELATED_TO links gave three)."""
    for rep in range(2):
        user = f"{user_id}-{rep}"
        a = mem.remember("I bought a red kayak", user_id=user)
        b = mem.remember(
            "Grandma's lasagne recipe uses nutmeg", user_id=user
        )  # unrelated: formation links none
        calls = [lambda: mem.memories.link(a.id, b.id, "RELATED_TO", weight=0.6) for _ in range(2)]
        results = together([*calls, lambda: mem.memories.link(b.id, a.id, "RELATED_TO", weight=0.6)])
        assert not [r for r in results if isinstance(r, Exception)], results
        for _ in range(2):
            mem.memories.link(a.id, b.id, "CAUSES", weight=0.9)
        mem.memories.link(a.id, b.id, "CAUSES", weight=0.8)
        edges = mem.query(
            "MATCH (x:Memory {user_id: $u})-[r]->(y:Memory {user_id: $u}) "
            "WHERE type(r) IN ['RELATED_TO', 'CAUSES'] AND r.expired_at IS NULL "
            "RETURN type(r) AS t, x.id AS src, r.weight AS w",
            {"u": user},
        )
        assert sorted((e["t"], e["w"]) for e in edges) == [("CAUSES", 0.8), ("RELATED_TO", 0.6)], edges
        assert [e["src"] for e in edges if e["t"] == "CAUSES"] == [a.id]


TOPICS = ["hiking in the alps", "my dog Rex", "cooking pasta", "learning piano", "my job at Acme"]


def test_session_less_writers_of_one_user_take_turns_without_deadlocks(
    mem: GraphMemory, user_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Eight ``remember()`` calls without a session at once, each linking its memory to the user's related
    ones: formation writes the tenant's User node first for every batch, as a session's batch and a fact
    write already did, so the writers take turns instead of locking memories and entities in crossing
    orders. Before, five rounds of this gave 18 deadlocks (each retried by the driver after a pause)."""
    for s in range(3):
        mem.add_messages(
            [f"Session {s}: I talked about {t} again." for t in TOPICS], user_id=user_id, session_id=f"s{s}"
        )
    caplog.set_level("INFO", logger="neo4j")

    def writer(i: int) -> Callable[[], Any]:
        return lambda: [
            mem.remember(f"I talked about {TOPICS[(i + k) % 5]} with Sam, note {i}-{k}.", user_id=user_id)
            for k in range(4)
        ]

    results = together([writer(i) for i in range(8)])
    assert not [r for r in results if isinstance(r, Exception)], results
    assert not [r.getMessage()[:300] for r in caplog.records if "DeadlockDetected" in r.getMessage()]
    ids = {m.id for batch in results for m in batch}  # a near repeat reinforces an earlier memory instead
    stored = mem.query("MATCH (m:Memory) WHERE m.id IN $ids RETURN count(m) AS n", {"ids": list(ids)})
    assert stored[0]["n"] == len(ids)
