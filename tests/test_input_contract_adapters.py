"""The input contract at the entry points that tests/test_input_contract.py does not drive: MCP tools, the
CLI, the LangGraph store and the ADK memory service. The same hypothesis strategies (text with lone
surrogates or control characters, huge text, non-JSON and nested values, extreme datetimes) must end as a
graphmem refusal in that entry point's own terms (an MCP tool error naming ValidationError, a CLI exit with a
message, a GraphMemError from the adapters), and nothing may be written."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from google.adk.events.event import Event
from google.genai import types
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langgraph.store.base import InvalidNamespaceError
from mcp import Client
from typer.testing import CliRunner

from graphmem import GraphMemError, GraphMemory
from graphmem.adapters.adk import GraphMemMemoryService
from graphmem.adapters.langgraph import GraphMemStore
from graphmem.adapters.mcp import build_server
from graphmem.cli.main import app as cli
from tests.test_input_contract import hostile_metadata, hostile_text, nodes

huge_text = st.integers(1, 3).map(lambda n: "x" * (100_000 * n))
bad_text = st.one_of(hostile_text, huge_text)
EXAMPLES = settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), database=None)


# --- MCP: the tools an agent calls (in-process client of the real SDK)
MCP_CALLS: dict[str, tuple[st.SearchStrategy[Any], Callable[[Any], tuple[str, dict[str, Any]]]]] = {
    "memory_remember.content": (bad_text, lambda v: ("memory_remember", {"content": v})),
    "memory_remember.tags": (
        hostile_text.map(lambda t: [t]),
        lambda v: ("memory_remember", {"content": "ok", "tags": v}),
    ),
    "memory_remember.importance": (
        st.sampled_from([math.nan, math.inf, -1.0, 2.0]),
        lambda v: ("memory_remember", {"content": "ok", "importance": v}),
    ),
    "memory_recall.query": (bad_text, lambda v: ("memory_recall", {"query": v})),
    "fact_set.value": (bad_text, lambda v: ("fact_set", {"key": "k", "value": v})),
    "fact_set.key": (hostile_text, lambda v: ("fact_set", {"key": v, "value": "ok"})),
    "core_memory_append.text": (bad_text, lambda v: ("core_memory_append", {"label": "human", "text": v})),
    "memory_context.query": (bad_text, lambda v: ("memory_context", {"query": v})),
    "memory_feedback.query": (
        bad_text,
        lambda v: ("memory_feedback", {"memory_id": "m1", "useful": True, "query": v}),
    ),
}


@pytest.mark.parametrize("entry", sorted(MCP_CALLS))
def test_mcp_tools_refuse_hostile_values(mem: GraphMemory, user_id: str, entry: str) -> None:
    strategy, call = MCP_CALLS[entry]
    mem.core.set(user_id, "human", "Name: Alice")  # so that core_memory_append has a block to refuse into
    before = nodes(mem, user_id)
    server = build_server(mem, user_id)
    loop = asyncio.new_event_loop()

    async def one(value: Any) -> Any:
        async with Client(server) as client:
            name, arguments = call(value)
            return await client.call_tool(name, arguments)

    @EXAMPLES
    @given(value=strategy)
    def check(value: Any) -> None:
        result = loop.run_until_complete(one(value))
        assert result.is_error, result.content
        text = " ".join(getattr(c, "text", "") for c in result.content)
        assert "ValidationError" in text or "validation error" in text.lower(), text

    try:
        check()
    finally:
        loop.close()
    assert nodes(mem, user_id) == before


# --- CLI: arguments as the shell passes them (undecodable bytes arrive as lone surrogates)
CLI_CALLS: dict[str, tuple[st.SearchStrategy[Any], Callable[[str, Any], list[str]]]] = {
    "remember.text": (bad_text, lambda u, v: ["remember", v, "-u", u]),
    "remember.session": (hostile_text, lambda u, v: ["remember", "ok", "-u", u, "--session", v]),
    "recall.query": (hostile_text, lambda u, v: ["recall", v, "-u", u]),
    "memory.feedback.query": (hostile_text, lambda u, v: ["memory", "feedback", "m1", "-u", u, "-q", v]),
    "facts.set.value": (hostile_text, lambda u, v: ["facts", "set", "k", v, "-u", u]),
    "core.set.value": (hostile_text, lambda u, v: ["core", "set", "human", v, "-u", u]),
    "user": (hostile_text, lambda u, v: ["remember", "ok", "-u", u + v]),
}


@pytest.mark.parametrize("entry", sorted(CLI_CALLS))
def test_cli_refuses_hostile_arguments(mem: GraphMemory, user_id: str, entry: str) -> None:
    strategy, call = CLI_CALLS[entry]
    runner = CliRunner()

    @settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(value=strategy)
    def check(value: Any) -> None:
        result = runner.invoke(cli, call(user_id, value))
        assert isinstance(result.exception, SystemExit), repr(result.exception)  # no traceback
        assert result.exit_code != 0, result.output
        assert "Traceback" not in result.output

    check()
    assert nodes(mem, user_id) == 0


# --- LangGraph: BaseStore.put / search with hostile namespaces, keys and values
_hostile_item = st.one_of(
    hostile_metadata,
    st.dictionaries(st.just("text"), bad_text, min_size=1),
    st.just({"n": math.nan}),
    st.just({"when": datetime(1, 1, 1, tzinfo=UTC)}),
)
LANGGRAPH_CALLS: dict[str, tuple[st.SearchStrategy[Any], Callable[[GraphMemStore, Any], Any]]] = {
    "put.value": (_hostile_item, lambda s, v: s.put(("memories",), "k", v)),
    "put.key": (hostile_text, lambda s, v: s.put(("memories",), v, {"text": "ok"})),
    "put.namespace": (hostile_text, lambda s, v: s.put(("memories", v), "k", {"text": "ok"})),
    "search.query": (bad_text, lambda s, v: s.search(("memories",), query=v)),
    "search.limit": (  # a float or None was a TypeError
        st.sampled_from([2.5, None, -1, math.nan]),
        lambda s, v: s.search(("memories",), query="ok", limit=v),
    ),
    "search.offset": (st.sampled_from([2.5, None, -5]), lambda s, v: s.search(("memories",), offset=v)),
    "list_namespaces.limit": (st.sampled_from([2.5, None, -1]), lambda s, v: s.list_namespaces(limit=v)),
}


@pytest.mark.parametrize("entry", sorted(LANGGRAPH_CALLS))
def test_langgraph_store_refuses_hostile_values(mem: GraphMemory, user_id: str, entry: str) -> None:
    strategy, call = LANGGRAPH_CALLS[entry]
    store = GraphMemStore(mem, user_id=user_id)

    # LangGraph refuses some labels itself ('.', NUL, empty) before graphmem sees them
    refusals = (GraphMemError, InvalidNamespaceError) if entry == "put.namespace" else GraphMemError

    @EXAMPLES
    @given(value=strategy)
    def check(value: Any) -> None:
        with pytest.raises(refusals):
            call(store, value)

    check()
    assert nodes(mem, user_id) == 0


# --- ADK: events whose text or author is hostile, and a hostile search query
def _event(text: str, author: str = "user") -> Event:
    return Event(
        author=author,
        invocation_id="inv-1",
        content=types.Content(role="user", parts=[types.Part(text=text)]),
    )


ADK_CALLS: dict[str, tuple[st.SearchStrategy[Any], Callable[[GraphMemMemoryService, str, Any], Any]]] = {
    # huge text is stored in parts (tests/test_adk_memory.py: an oversize event no longer stops a session)
    "add_events.text": (
        hostile_text.filter(lambda t: t.strip() != ""),
        lambda s, u, v: s.add_events_to_memory(app_name="app", user_id=u, events=[_event(v)], session_id="s"),
    ),
    "add_events.author": (
        hostile_text,
        lambda s, u, v: s.add_events_to_memory(
            app_name="app", user_id=u, events=[_event("ok", author=v)], session_id="s"
        ),
    ),
    "search.query": (bad_text, lambda s, u, v: s.search_memory(app_name="app", user_id=u, query=v)),
    "user_id": (hostile_text, lambda s, u, v: s.search_memory(app_name="app", user_id=u + v, query="ok")),
}


@pytest.mark.parametrize("entry", sorted(ADK_CALLS))
def test_adk_service_refuses_hostile_values(mem: GraphMemory, user_id: str, entry: str) -> None:
    strategy, call = ADK_CALLS[entry]
    service = GraphMemMemoryService(mem)

    @EXAMPLES
    @given(value=strategy)
    def check(value: Any) -> None:
        with pytest.raises(GraphMemError):
            asyncio.run(call(service, user_id, value))

    check()
    assert nodes(mem, f"app:{user_id}") == 0
