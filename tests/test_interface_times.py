"""Valid time and transaction time over REST and MCP, as in Python: ``as_of`` / ``known_at`` on recall and
context, and every time field reading a number as POSIX seconds (graphmem.adapters.moments)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from mcp import Client

from graphmem import GraphMemory
from graphmem.adapters.mcp import build_server
from graphmem.adapters.rest import create_app

KEY = "test-key"
SAID = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def client(mem: GraphMemory) -> Iterator[TestClient]:
    with TestClient(create_app(mem, KEY), headers={"X-API-Key": KEY}, raise_server_exceptions=False) as c:
        yield c


def _kayak(mem: GraphMemory, user_id: str) -> datetime:
    """One memory said at ``SAID``; returns a moment before graphmem recorded it."""
    before = datetime.now(UTC) - timedelta(seconds=1)
    mem.add_messages(
        [{"role": "user", "content": "I bought a green kayak", "timestamp": SAID}],
        user_id=user_id,
        session_id="s",
    )
    return before


def test_rest_recall_and_context_take_as_of_and_known_at(
    client: TestClient, mem: GraphMemory, user_id: str
) -> None:
    unknown = _kayak(mem, user_id)
    url = f"/users/{user_id}"

    def recalled(**at: str) -> list[str]:
        reply = client.post(f"{url}/recall", json={"query": "my kayak", "k": 3, **at})
        assert reply.status_code == 200, reply.text
        return [h["memory"]["content"] for h in reply.json()]

    assert recalled() == ["I bought a green kayak"]
    assert recalled(known_at=unknown.isoformat()) == []  # was refused: "Extra inputs are not permitted"
    assert recalled(as_of=(SAID - timedelta(days=1)).isoformat()) == []
    assert recalled(as_of=SAID.isoformat(), known_at=datetime.now(UTC).isoformat()) == [
        "I bought a green kayak"
    ]

    def context(**at: str) -> str:
        reply = client.post(f"{url}/context", json={"query": "my kayak", "token_budget": 400, **at})
        assert reply.status_code == 200, reply.text
        return str(reply.json()["text"])

    assert "green kayak" in context()
    assert "green kayak" not in context(known_at=unknown.isoformat())
    assert "green kayak" not in context(as_of=(SAID - timedelta(days=1)).isoformat())


def test_rest_time_fields_read_numbers_as_seconds(client: TestClient, user_id: str) -> None:
    url = f"/users/{user_id}"
    year_one = client.post(
        f"{url}/memories", json={"content": "An old clay pot", "occurred_at": -62135596800}
    )
    assert year_one.status_code == 422, year_one.text  # was stored as 1968-01-12 (read as milliseconds)
    seconds = client.post(f"{url}/memories", json={"content": "A new canoe", "occurred_at": SAID.timestamp()})
    assert seconds.status_code == 201 and seconds.json()["occurred_at"].startswith("2024-03-01T09:00:00")
    millis = client.post(f"{url}/recall", json={"query": "canoe", "as_of": SAID.timestamp() * 1000})
    assert millis.status_code == 422, millis.text  # milliseconds are not seconds (was read as 2024)
    query_millis = client.get(
        f"{url}/facts", params={"key": "diet", "as_of": str(int(SAID.timestamp() * 1000))}
    )
    assert query_millis.status_code == 422, query_millis.text  # a query parameter alike
    query_seconds = client.get(f"{url}/facts", params={"key": "diet", "as_of": str(int(SAID.timestamp()))})
    assert query_seconds.status_code == 404, query_seconds.text  # read, and no value then


def test_mcp_recall_and_context_take_as_of_and_known_at(mem: GraphMemory, user_id: str) -> None:
    unknown = _kayak(mem, user_id)
    server = build_server(mem, user_id)

    async def calls() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with Client(server) as c:
            for name, args in {
                "now": {"query": "my kayak", "k": 3},
                "unknown": {"query": "my kayak", "k": 3, "known_at": unknown.isoformat()},
                "before": {"query": "my kayak", "k": 3, "as_of": (SAID - timedelta(days=1)).isoformat()},
            }.items():
                result = await c.call_tool("memory_recall", args)
                assert not result.is_error, result.content
                out[name] = [h["content"] for h in json.loads(result.content[0].text)["hits"]]
            ctx = await c.call_tool("memory_context", {"query": "my kayak", "known_at": unknown.isoformat()})
            assert not ctx.is_error, ctx.content
            out["context"] = json.loads(ctx.content[0].text)["text"]
        return out

    out = asyncio.run(calls())
    assert out["now"] == ["I bought a green kayak"]
    assert out["unknown"] == [] and out["before"] == []
    assert "green kayak" not in out["context"]
