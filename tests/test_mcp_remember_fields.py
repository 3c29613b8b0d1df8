"""MCP's memory_remember takes metadata and a session, so memory_recall's metadata filter can find what an
agent stored over MCP (round 57's probe: memory_remember took neither, and a metadata filter never matched a
memory written over MCP)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from mcp import Client

from graphmem import GraphMemory
from graphmem.adapters.mcp import build_server


def test_remember_with_metadata_and_session_over_mcp(mem: GraphMemory, user_id: str) -> None:
    server = build_server(mem, user_id)

    async def calls() -> dict[str, Any]:
        async with Client(server) as c:
            made = await c.call_tool(
                "memory_remember",
                {
                    "content": "The kayak is stored in the blue shed",
                    "metadata": {"source": "crm"},
                    "session_id": "s7",
                },
            )
            assert not made.is_error, made.content
            await c.call_tool("memory_remember", {"content": "The kayak paddles are in the garage"})
            found = await c.call_tool(
                "memory_recall",
                {"query": "where is the kayak?", "k": 5, "filters": {"metadata": {"source": "crm"}}},
            )
            assert not found.is_error, found.content
            return {"made": json.loads(made.content[0].text), "found": json.loads(found.content[0].text)}

    out = asyncio.run(calls())
    assert out["made"]["session_id"] == "s7" and out["made"]["metadata"] == {"source": "crm"}
    assert [h["content"] for h in out["found"]["hits"]] == ["The kayak is stored in the blue shed"]
