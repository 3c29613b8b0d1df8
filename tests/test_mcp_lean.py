"""The MCP tools answer compactly unless asked for ``detail``, and their list is lean: a model's context
window pays for every byte (round 58's probe: memory_recall sent ~4.7 KB of indented JSON, ~27 fields a hit,
for 5 hits of 145 characters of text; the tool list was ~11 KB)."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Any

from mcp import Client

from graphmem import GraphMemory
from graphmem.adapters.mcp import build_server
from graphmem.adapters.mcp_wire import lean_schema

MEMORY_KEYS = {"id", "content", "memory_type", "scope", "occurred_at", "session_id", "speaker", "tags"}
MEMORY_KEYS |= {"metadata", "version"}
FACT_KEYS = {"key", "value", "fact_type", "scope", "status", "valid_from", "valid_to", "recorded_at"}
FACT_KEYS |= {"expired_at", "planned_at", "revoked_at"}
READS = {"memory_recall", "memory_list", "memory_context", "fact_get", "fact_list", "fact_history"}


def _calls(mem: GraphMemory, user_id: str, calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Each call's result, checked: its text is the structured content as JSON on one line."""

    async def run() -> list[dict[str, Any]]:
        out = []
        async with Client(build_server(mem, user_id)) as client:
            for name, args in calls:
                result = await client.call_tool(name, args)
                assert not result.is_error, result.content
                text = result.content[0].text
                assert "\n" not in text and json.loads(text) == result.structured_content, name
                out.append(result.structured_content)
        return out

    return asyncio.run(run())


def _bare(record: dict[str, Any]) -> None:
    assert all(v not in (None, "", [], {}) for v in record.values()), record


def test_recall_and_list_are_compact_unless_detail_is_asked(mem: GraphMemory, user_id: str) -> None:
    said = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)
    mem.remember("I adopted a dog named Rex", user_id=user_id, occurred_at=said)
    mem.remember(
        "Rex is a beagle", user_id=user_id, tags=["pets"], metadata={"source": "crm"}, session_id="s1"
    )
    recall = {"query": "what is my dog called?", "k": 2}
    compact, full, listed, listed_full = _calls(
        mem,
        user_id,
        [
            ("memory_recall", recall),
            ("memory_recall", recall | {"detail": True}),
            ("memory_list", {}),
            ("memory_list", {"detail": True}),
        ],
    )
    hits = compact["hits"]
    assert [h["content"] for h in hits] == ["I adopted a dog named Rex", "Rex is a beagle"]
    assert all(set(h) <= MEMORY_KEYS | {"confidence"} and 0 <= h["confidence"] <= 1 for h in hits)
    assert hits[0]["occurred_at"] == "2026-03-01T09:30:00Z" and "session_id" not in hits[0]
    assert hits[1]["session_id"] == "s1" and hits[1]["tags"] == ["pets"]
    assert hits[1]["metadata"] == {"source": "crm"}
    for h in hits:
        _bare(h)
    assert [h["memory"]["id"] for h in full["hits"]] == [h["id"] for h in hits]
    assert all(h["memory"]["user_id"] == user_id for h in full["hits"])
    assert all({"score", "confidence", "explanation"} <= set(h) for h in full["hits"])
    assert len(json.dumps(compact)) * 3 < len(json.dumps(full))
    assert listed["total"] == 2 and all(set(m) <= MEMORY_KEYS for m in listed["memories"])
    assert {m["id"] for m in listed["memories"]} == {h["id"] for h in hits}
    assert all(m["user_id"] == user_id and "strength" in m for m in listed_full["memories"])


def test_facts_context_and_writes_are_compact(mem: GraphMemory, user_id: str) -> None:
    mem.core.set(user_id, "persona", "A friendly assistant.")
    mem.remember("I adopted a dog named Rex", user_id=user_id)
    out = _calls(
        mem,
        user_id,
        [
            ("fact_set", {"key": "favorite:color", "value": "green"}),
            ("fact_set", {"key": "favorite:color", "value": "blue"}),
            ("fact_get", {"key": "favorite:color"}),
            ("fact_list", {}),
            ("fact_history", {"key": "favorite:color"}),
            ("fact_history", {"key": "favorite:color", "detail": True}),
            ("memory_context", {"query": "my dog", "token_budget": 300}),
            ("memory_context", {"query": "my dog", "token_budget": 300, "detail": True}),
            ("memory_remember", {"content": "I like hiking"}),
            ("core_memory_append", {"label": "persona", "text": "Speaks French."}),
        ],
    )
    made, _, got, listed, history, history_full, context, context_full, remembered, block = out
    facts = [made, got["fact"], *listed["facts"], *history["versions"]]
    assert all(set(f) <= FACT_KEYS for f in facts) and {"key", "value", "valid_from"} <= set(got["fact"])
    for f in facts:
        _bare(f)
    assert [(v["value"], v["status"]) for v in history["versions"]] == [
        ("green", "superseded"),
        ("blue", "current"),
    ]
    assert "valid_to" in history["versions"][0] and "valid_to" not in history["versions"][1]
    assert all(v["user_id"] == user_id and "id" in v for v in history_full["versions"])
    assert set(context) == {"text", "tokens", "budget"} and "Rex" in context["text"]
    assert context_full["text"] == context["text"] and context_full["kept"]
    assert set(remembered) <= MEMORY_KEYS and remembered["content"] == "I like hiking"
    assert block == {
        "label": "persona",
        "value": "A friendly assistant.\nSpeaks French.",
        "limit": 2000,
        "version": 2,
    }


def test_the_tool_list_is_lean(mem: GraphMemory, user_id: str) -> None:
    async def tools() -> list[dict[str, Any]]:
        async with Client(build_server(mem, user_id)) as client:
            listed = await client.list_tools()
        return [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listed.tools]

    listed = asyncio.run(tools())
    assert len(json.dumps(listed, separators=(",", ":"))) < 7000  # 9,828 before
    for tool in listed:
        assert "\n" not in tool["description"] and "  " not in tool["description"], tool["name"]
        assert "title" not in json.dumps(tool["inputSchema"]), tool["name"]
        assert "outputSchema" not in tool, tool["name"]
        assert ("detail" in tool["inputSchema"]["properties"]) == (tool["name"] in READS), tool["name"]
    recall = next(t for t in listed if t["name"] == "memory_recall")["inputSchema"]
    assert recall["required"] == ["query"] and recall["properties"]["filters"]["type"] == "object"
    assert "scope: user (default), agent (shared with every user of this agent" in next(
        t["description"] for t in listed if t["name"] == "memory_remember"
    )


def test_lean_schema_keeps_what_validation_needs() -> None:
    schema = {
        "title": "fArguments",
        "type": "object",
        "properties": {
            "title": {"title": "Title", "type": "string"},
            "maybe": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None, "title": "Maybe"},
            "needed": {"anyOf": [{"type": "integer"}, {"type": "null"}], "title": "Needed"},
            "when": {"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "null"}], "default": None},
        },
        "required": ["title", "needed"],
    }
    assert lean_schema(schema) == {
        "type": "object",
        "properties": {
            "title": {"type": "string"},  # a parameter called title stays
            "maybe": {"type": "integer"},  # null is its default: omitting it says the same
            "needed": {"anyOf": [{"type": "integer"}, {"type": "null"}]},  # null must be sent: kept
            "when": {"anyOf": [{"type": "string"}, {"type": "number"}]},
        },
        "required": ["title", "needed"],
    }
