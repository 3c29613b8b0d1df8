"""Reads that derive retention and strength take the caller's clock: after a job run at a virtual clock, the
stats (Python, REST, CLI) and the Cypher kit read at that clock show the values derived at it
(graphmem.model.anchors, the specification), not the ones at the server's clock."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from graphmem import GraphMemory
from graphmem.adapters import dashboard
from graphmem.adapters.rest import create_app
from graphmem.cli.main import app
from graphmem.model import anchors
from graphmem.store.queries import query

KEY = "virtual-clock-test-key"


def bucket(retention: float) -> int:
    return min(max(int(retention * 10), 0), 9)


def test_reads_at_a_jobs_virtual_clock_derive_retention_at_it(mem: GraphMemory, user_id: str) -> None:
    m = mem.remember("I went to the cinema yesterday and the film was long", user_id=user_id)
    later = datetime.now(UTC) + timedelta(days=40)
    assert mem.jobs.run("decay", user_id=user_id, now=later).status == "success"
    props = mem.query("MATCH (m:Memory {id: $id}) RETURN m {.*, embedding: null} AS m", {"id": m.id})[0]["m"]
    at_later, at_wall = anchors.retention_now(props, later), anchors.retention_now(props, datetime.now(UTC))
    assert bucket(at_later) != bucket(at_wall)  # else this test could not tell the clocks apart

    expected = [0] * dashboard.BUCKETS
    expected[bucket(at_later)] = 1
    assert dashboard.memory_stats(mem.runtime, user_id, now=later).retention_histogram == expected
    with TestClient(create_app(mem, KEY), headers={"X-API-Key": KEY}) as client:
        body = client.get("/stats", params={"user_id": user_id, "now": later.isoformat()}).json()
    assert body["retention_histogram"] == expected
    shown = CliRunner().invoke(app, ["stats", "--user", user_id, "--now", later.isoformat(), "--json"])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.output)["retention_histogram"] == expected

    [weakest] = mem.query(query("kit/weakest_memories"), {"user_id": user_id, "limit": 5, "now": later})
    assert weakest["retention"] == pytest.approx(at_later, abs=1e-6)
    assert weakest["strength"] == pytest.approx(anchors.strength_now(props, later), abs=1e-6)
    [decay] = mem.query(query("kit/decay_over_time"), {"user_id": user_id, "now": later})
    assert (decay["week"], decay["avg_retention"]) == (5, pytest.approx(at_later, abs=1e-6))
    # no clock given: the server's, as before
    [wall] = mem.query(query("kit/weakest_memories"), {"user_id": user_id, "limit": 5, "now": None})
    assert wall["retention"] == pytest.approx(at_wall, abs=1e-3)


def test_graphmem_stats_reads_as_text(mem: GraphMemory, user_id: str) -> None:
    """The table output names the counts by status and by type, not a Python dict, and says when nothing
    was recorded instead of drawing an empty table."""
    mem.remember("I went to the cinema yesterday", user_id=user_id)
    mem.remember("I prefer window seats", user_id=user_id, memory_type="preference")
    shown = CliRunner().invoke(app, ["stats", "--user", user_id])
    assert shown.exit_code == 0, shown.output
    assert f"2 memories of {user_id}" in shown.output
    assert "by status: active 2" in shown.output
    assert "episodic 1" in shown.output and "preference 1" in shown.output
    assert "{" not in shown.output
    assert "no job runs since" in shown.output
