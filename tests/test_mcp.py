"""`graphmem mcp` as a subprocess, driven by the MCP SDK's real stdio client against the real server."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

import graphmem
from graphmem import GraphMemory
from graphmem.server import LocalServer

TOOLS = {
    "memory_recall",
    "memory_remember",
    "memory_update",
    "memory_forget",
    "memory_feedback",
    "memory_list",
    "fact_set",
    "fact_get",
    "fact_history",
    "fact_list",
    "core_memory_append",
    "core_memory_replace",
    "memory_context",
}


def _params(user_id: str) -> StdioServerParameters:
    graphmem_cli = Path(sys.executable).with_name("graphmem")
    env = {k: v for k, v in os.environ.items() if k.startswith(("GRAPHMEM_", "NEO4J_", "HOME", "PATH"))}
    env["GRAPHMEM_MCP_USER_ID"] = user_id
    env["PYTHONPATH"] = str(Path(graphmem.__file__).resolve().parents[1])  # the graphmem under test
    return StdioServerParameters(command=str(graphmem_cli), args=["mcp"], env=env)


def _data(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def _session(user_id: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    async with Client(_params(user_id), read_timeout_seconds=120) as client:
        out["tools"] = {t.name for t in (await client.list_tools()).tools}
        rex = _data(await client.call_tool("memory_remember", {"content": "I adopted a dog named Rex"}))
        _data(await client.call_tool("memory_remember", {"content": "My sister lives in Lisbon"}))
        out["recall"] = _data(
            await client.call_tool("memory_recall", {"query": "what is my dog called?", "k": 3})
        )
        out["recall_detail"] = _data(
            await client.call_tool(
                "memory_recall", {"query": "what is my dog called?", "k": 3, "detail": True}
            )
        )
        out["list"] = _data(await client.call_tool("memory_list", {"limit": 1}))
        # no query: it judges the recall above (whose record the server writes off the call: deferred)
        out["feedback"] = _data(
            await client.call_tool("memory_feedback", {"memory_id": rex["id"], "useful": True})
        )
        out["feedback_other"] = await client.call_tool(
            "memory_feedback", {"memory_id": "no-such-memory", "useful": True}
        )
        out["fact"] = _data(await client.call_tool("fact_set", {"key": "favorite:color", "value": "green"}))
        out["fact_get"] = _data(await client.call_tool("fact_get", {"key": "favorite:color"}))
        await client.call_tool("fact_set", {"key": "favorite:color", "value": "blue"})
        out["history"] = _data(await client.call_tool("fact_history", {"key": "favorite:color"}))
        out["facts"] = _data(await client.call_tool("fact_list", {}))
        out["before"] = _data(
            await client.call_tool("fact_get", {"key": "favorite:color", "as_of": "2000-01-01T00:00:00Z"})
        )
        out["append_missing"] = await client.call_tool("core_memory_append", {"label": "human", "text": "x"})
        out["bad_k"] = await client.call_tool("memory_recall", {"query": "dog", "k": 0})
        out["bad_args"] = await client.call_tool("memory_recall", {"k": 3})
        out["forget_other"] = await client.call_tool("memory_forget", {"memory_id": "no-such-memory"})
        out["updated"] = _data(
            await client.call_tool(
                "memory_update", {"memory_id": rex["id"], "content": "My dog is called Max"}
            )
        )
        out["rex_id"] = rex["id"]
        out["stale"] = await client.call_tool(
            "memory_update", {"memory_id": rex["id"], "content": "stale edit", "expected_version": 1}
        )
        out["context"] = _data(
            await client.call_tool("memory_context", {"query": "my dog", "token_budget": 300})
        )
    return out


def test_mcp_server_over_stdio(mem: GraphMemory, server: LocalServer, user_id: str) -> None:
    mem.core.set(user_id, "persona", "A friendly assistant.")
    out = asyncio.run(_session(user_id))
    assert out["tools"] >= TOOLS
    contents = [h["content"] for h in out["recall"]["hits"]]
    assert contents[0] == "I adopted a dog named Rex"
    assert all(h["scope"] == "user" for h in out["recall"]["hits"])
    assert all(h["memory"]["user_id"] == user_id for h in out["recall_detail"]["hits"])
    assert [m["content"] for m in out["list"]["memories"]] == ["My sister lives in Lisbon"]  # the latest
    assert out["list"]["total"] == 3  # the two remembered and the persona block (a P0 memory)
    assert out["fact"]["value"] == "green" and out["fact_get"]["fact"]["value"] == "green"
    assert [f["value"] for f in out["history"]["versions"]] == ["green", "blue"]
    assert [(f["key"], f["value"]) for f in out["facts"]["facts"]] == [("favorite:color", "blue")]
    assert out["before"]["fact"] is None
    assert out["feedback"] == {"memory_id": out["rex_id"], "useful": True}
    asked = mem.query("MATCH (m:Memory {id: $id}) RETURN m.asked AS asked", {"id": out["rex_id"]})
    assert asked[0]["asked"] == "what is my dog called?"  # kept through the later update
    for name in ("append_missing", "bad_k", "bad_args", "forget_other", "feedback_other"):
        assert out[name].is_error, name
    assert "CoreBlockNotFound" in out["append_missing"].content[0].text
    assert "this user's blocks: 'persona'" in out["append_missing"].content[0].text  # what the model may edit
    assert "MemoryNotFound" in out["forget_other"].content[0].text
    assert out["updated"]["id"] == out["rex_id"] and out["updated"]["version"] == 2
    assert out["stale"].is_error and "VersionConflict" in out["stale"].content[0].text
    assert [m.content for m in mem.memories.history(out["rex_id"], user_id=user_id)] == [
        "I adopted a dog named Rex",
        "My dog is called Max",
    ]
    assert out["context"]["text"].startswith("## Core memory\n- [persona] A friendly assistant.")
    assert "Max" in out["context"]["text"]

    # core edits through the tools, with the scope from the server's configuration
    async def edit() -> Any:
        async with Client(_params(user_id), read_timeout_seconds=120) as client:
            return await client.call_tool(
                "core_memory_append", {"label": "persona", "text": "Speaks French."}
            )

    block = _data(asyncio.run(edit()))
    assert block["value"] == "A friendly assistant.\nSpeaks French." and block["version"] == 2
