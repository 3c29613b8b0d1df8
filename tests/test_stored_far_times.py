"""Stored date-times at the ends of Neo4j's calendar (years ±999,999,999, written by hand with raw Cypher) on
the real server: a statement that turned one into epoch seconds or moved it by a duration overflowed, and
the write or job that ran it failed for the tenant. Such a time reads as missing (``fragments/typed_time``).

Probed on every path users hit (recall, context, timeline, list, export, stats, feedback, every job) with
every date-time property of a tenant's nodes and edges set so; only the statements below failed."""

from __future__ import annotations

from typing import Any

import pytest

from graphmem import GraphMemory
from graphmem.formation import neighbours

LATEST = "datetime('+999999999-12-31T23:59:59.999999999Z')"  # the calendar's last instant
EARLIEST = "datetime('-999999999-01-01T00:00:00Z')"
TEXTS = ["I live in Berlin and love hiking", "My dog Rex loves hiking too", "Anna lives in Paris"]


def cypher(mem: GraphMemory, statement: str, **params: Any) -> list[dict[str, Any]]:
    return mem.runtime.store.run_statement(statement, params)


@pytest.mark.parametrize("far", [LATEST, EARLIEST, "datetime('+300000-01-01T00:00:00Z')"])
def test_a_far_occurred_at_fails_no_later_write(mem: GraphMemory, user_id: str, far: str) -> None:
    """Formation reads its neighbours' times as epoch microseconds (``epochSeconds * 1000000``), which
    overflow on the server past year ~292,000: every later ``remember`` and ``add_messages`` of the tenant
    failed with a StoreError ('long overflow'), whichever plan found the neighbours (the vector index, the
    tenant's vectors read once for a batch of ten, the exact scan)."""
    mem.add_messages(TEXTS, user_id=user_id, session_id="s")
    cypher(mem, f"MATCH (m:Memory) WHERE m.user_id = $u SET m.occurred_at = {far}", u=user_id)
    assert mem.remember("Rex and Anna met in Berlin", user_id=user_id).content
    batch = [f"I went hiking with Rex near Berlin, trip {i}" for i in range(neighbours.BATCH_SCAN)]
    assert len(mem.add_messages(batch, user_id=user_id, session_id="s2")) == neighbours.BATCH_SCAN
    vector = mem.embedder.embed(["Rex hikes in Berlin"])[0]
    assert neighbours.exact(mem.runtime, user_id, [vector], 5)[0]


@pytest.mark.parametrize("prop", ["created_at", "last_accessed_at", "reviewed_at"])
def test_the_review_job_reads_a_time_at_the_calendar_s_end_as_missing(
    mem: GraphMemory, user_id: str, prop: str
) -> None:
    """The review job schedules the next review at its anchor (the last recall, else the last review or the
    creation) plus the stability: from the calendar's last instant (set by hand) that is past year
    999,999,999, and the job failed for the tenant (a StoreError, 'Invalid value for Year')."""
    mem.add_messages(TEXTS, user_id=user_id, session_id="s")
    mem.recall("hiking Berlin", user_id=user_id)
    unreviewed = f"SET m.{prop} = {LATEST}, m.next_review_at = null"
    cypher(mem, f"MATCH (m:Memory) WHERE m.user_id = $u {unreviewed}", u=user_id)
    run = mem.jobs.run("review", user_id=user_id)
    assert run.status == "success", run.error
    due = cypher(mem, "MATCH (m:Memory) WHERE m.user_id = $u RETURN m.next_review_at.year AS year", u=user_id)
    assert due and all(row["year"] < 9999 for row in due)
