"""``graphmem mcp``: a Model Context Protocol server (stdio) with tools for an agent to manage its memory.

The tenant comes from the server's configuration (``--user`` / ``GRAPHMEM_MCP_USER_ID``), never from the
model's arguments. graphmem errors come back as MCP tool errors (``is_error``) naming the problem; arguments
that do not fit a tool's input schema are refused by the SDK the same way. Results are compact unless a read
tool is asked for ``detail`` (graphmem.adapters.mcp_results); the tool list is lean, and a stdio line that is
not a JSON-RPC message gets a JSON-RPC error (graphmem.adapters.mcp_wire).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult

from graphmem.adapters import mcp_results as shape
from graphmem.adapters import ops
from graphmem.adapters.mcp_wire import LeanServer
from graphmem.adapters.moments import Moment
from graphmem.errors import CoreBlockNotFound, GraphMemError
from graphmem.memory import GraphMemory
from graphmem.model import validation as check
from graphmem.models import CoreBlock

logger = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

INSTRUCTIONS = (
    "Long-term memory for the current user. Call memory_context at the start of a task, memory_recall to "
    "look something up, memory_feedback to say whether a recalled memory helped, memory_remember for "
    "anything worth keeping, fact_set for stable key/value facts (fact_list shows them), "
    "and core_memory_append / core_memory_replace to edit the pinned core memory blocks."
)


def _tool_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """graphmem errors become MCP tool errors with their message (no traceback reaches the model)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except GraphMemError as exc:
            logger.info("tool %s refused: %s", fn.__name__, type(exc).__name__)
            raise ToolError(f"{type(exc).__name__}: {exc}") from exc

    return wrapper


def build_server(
    mem: GraphMemory, user_id: str, *, agent_id: str | None = None, org_id: str | None = None
) -> MCPServer:
    """An MCP server whose tools act on ``user_id``'s memory through ``mem``; with ``agent_id``/``org_id``
    its reads also merge that agent's and organisation's shared scopes, and its writes may name them
    (``scope``; docs/scopes.md)."""
    who = check.caller(user_id, None, agent_id, org_id)
    uid = who.user_id
    assert uid is not None
    aid, oid = who.agent_id, who.org_id
    server = LeanServer("graphmem", instructions=INSTRUCTIONS)
    _memory_tools(server, mem, uid, aid, oid)
    _editing_tools(server, mem, uid)
    _listing_tools(server, mem, uid, aid, oid)
    _fact_tools(server, mem, uid, aid, oid)
    _core_tools(server, mem, uid, aid, oid)
    return server


def _memory_tools(server: MCPServer, mem: GraphMemory, uid: str, aid: str | None, oid: str | None) -> None:
    @server.tool()
    @_tool_errors
    def memory_recall(
        query: str,
        k: int = 5,
        conversation: list[str] | None = None,
        filters: dict[str, Any] | None = None,
        as_of: Moment | None = None,
        known_at: Moment | None = None,
        detail: bool = False,
    ) -> CallToolResult:
        """The user's memories most relevant to the query, best first, each with its confidence (0 to 1) that
        it answers it. conversation: the latest turns, oldest first (a similar context ranks higher);
        filters: {memory_type, tags, metadata}; as_of: only what had happened by then, known_at: only what
        had been recorded by then (ISO 8601); detail: every stored field and the score's parts."""
        hits = mem.recall(
            query,
            user_id=uid,
            k=k,
            agent_id=aid,
            org_id=oid,
            conversation=conversation,
            filters=filters,
            as_of=as_of,
            known_at=known_at,
        )
        return shape.reply({"hits": [shape.hit(h, detail=detail) for h in hits]})

    @server.tool()
    @_tool_errors
    def memory_remember(
        content: str,
        memory_type: str | None = None,
        importance: float = 0.5,
        tags: list[str] | None = None,
        scope: str = "user",
        metadata: dict[str, Any] | None = None,
        session_id: str | None = None,
    ) -> CallToolResult:
        """Store a memory. memory_type: episodic, semantic, procedural or preference; scope: user (default),
        agent (shared with every user of this agent, e.g. a procedure learned) or org (shared knowledge);
        metadata: JSON fields recall's filters can match; session_id: the conversation it belongs to."""
        memory = mem.remember(
            content,
            user_id=uid,
            session_id=session_id,
            metadata=metadata,
            memory_type=memory_type,
            importance=importance,
            tags=tags,
            source="agent",
            scope=scope,
            agent_id=aid,
            org_id=oid,
        )
        return shape.reply(shape.memory(memory))


def _editing_tools(server: MCPServer, mem: GraphMemory, uid: str) -> None:
    @server.tool()
    @_tool_errors
    def memory_update(memory_id: str, content: str, expected_version: int | None = None) -> CallToolResult:
        """Correct a memory's text (the previous version is kept). expected_version: the version recall
        returned, to refuse the edit if the memory changed since (omitted: edit the latest)."""
        memory = ops.update_memory(mem, memory_id, content, user_id=uid, expected_version=expected_version)
        return shape.reply(shape.memory(memory))

    @server.tool()
    @_tool_errors
    def memory_feedback(memory_id: str, useful: bool, query: str | None = None) -> CallToolResult:
        """Say whether a memory recall returned helped answer the user's question (useful=false: wrong or
        beside the point); query: that question (default: the latest recall that returned it). This user's
        recall tunes itself from the feedback."""
        mem.memories.feedback(memory_id, user_id=uid, useful=useful, query=query)
        return shape.reply({"memory_id": memory_id, "useful": useful})

    @server.tool()
    @_tool_errors
    def memory_forget(memory_id: str) -> CallToolResult:
        """Forget one memory (soft: it leaves recall but can be restored)."""
        mem.forget(memory_id, user_id=uid)
        return shape.reply({"forgotten": memory_id})


def _listing_tools(server: MCPServer, mem: GraphMemory, uid: str, aid: str | None, oid: str | None) -> None:
    @server.tool()
    @_tool_errors
    def memory_list(
        limit: int = 20,
        offset: int = 0,
        memory_type: str | None = None,
        tags: list[str] | None = None,
        scope: str = "user",
        detail: bool = False,
    ) -> CallToolResult:
        """The user's memories without a query, latest first ("what do you remember about me?"), and total:
        how many match. memory_type and tags (all of them) narrow it; scope: user (default), agent (this
        agent's shared memories) or org (the organisation's); detail: every stored field."""
        reach: dict[str, Any] = {"user_id": uid, "scope": scope, "agent_id": aid, "org_id": oid}
        narrow: dict[str, Any] = {"memory_type": memory_type, "tags": tags}
        found = mem.memories.list(limit=limit, offset=offset, **narrow, **reach)
        total = mem.memories.count(**narrow, **reach)
        return shape.reply({"memories": [shape.memory(m, detail=detail) for m in found], "total": total})


def _fact_tools(server: MCPServer, mem: GraphMemory, uid: str, aid: str | None, oid: str | None) -> None:
    @server.tool()
    @_tool_errors
    def fact_set(key: str, value: str, fact_type: str = "custom", scope: str = "user") -> CallToolResult:
        """Set a fact (fact_type: preference, profile, rule or custom); earlier values stay in history.
        scope: user (default), agent or org (shared; the user's own value of a key wins in context)."""
        fact = mem.facts.set(
            uid, key, value, fact_type=fact_type, source="agent", scope=scope, agent_id=aid, org_id=oid
        )
        return shape.reply(shape.fact(fact) or {})

    @server.tool()
    @_tool_errors
    def fact_get(
        key: str, as_of: Moment | None = None, known_at: Moment | None = None, detail: bool = False
    ) -> CallToolResult:
        """A fact's current value (null if none), or the one valid at as_of as known at known_at (ISO 8601);
        detail: every stored field."""
        found = mem.facts.get(uid, key, as_of=as_of, known_at=known_at)
        return shape.reply({"fact": shape.fact(found, detail=detail)})

    @server.tool()
    @_tool_errors
    def fact_list(
        as_of: Moment | None = None, known_at: Moment | None = None, detail: bool = False
    ) -> CallToolResult:
        """Every fact's current value, or the values valid at as_of as known at known_at (ISO 8601); detail:
        every stored field."""
        found = mem.facts.list(uid, as_of=as_of, known_at=known_at)
        return shape.reply({"facts": [shape.fact(f, detail=detail) for f in found]})

    @server.tool()
    @_tool_errors
    def fact_retract(key: str, valid_to: Moment | None = None) -> CallToolResult:
        """Retract a fact's current value: wrong all along (no valid_to), or true until valid_to (ISO 8601);
        history keeps it."""
        return shape.reply(shape.fact(mem.facts.retract(uid, key, valid_to=valid_to)) or {})

    @server.tool()
    @_tool_errors
    def fact_history(key: str, limit: int = 50, detail: bool = False) -> CallToolResult:
        """A fact's latest limit versions (1 to 1000), oldest first, with when each was valid and was
        recorded; detail: every stored field."""
        found = mem.facts.history(uid, key, limit=limit)
        return shape.reply({"versions": [shape.fact(f, detail=detail) for f in found]})


def _core_tools(server: MCPServer, mem: GraphMemory, uid: str, aid: str | None, oid: str | None) -> None:
    def edited(edit: Callable[[], CoreBlock]) -> CallToolResult:
        """A block edit's result; a missing block's error names the user's blocks, since the model cannot
        create one (the operator does: `graphmem core set`, ``mem.core.set``)."""
        try:
            return shape.reply(shape.block(edit()))
        except CoreBlockNotFound as exc:
            labels = ", ".join(repr(b.label) for b in mem.core.list(uid)) or "none"
            raise ToolError(
                f"CoreBlockNotFound: {exc}; this user's blocks: {labels} (a block is created outside the "
                "model, e.g. `graphmem core set LABEL TEXT --user USER`)"
            ) from exc

    @server.tool()
    @_tool_errors
    def core_memory_append(label: str, text: str) -> CallToolResult:
        """Append a line to an existing core memory block (e.g. 'human', 'persona')."""
        return edited(lambda: mem.core.append(uid, label, text))

    @server.tool()
    @_tool_errors
    def core_memory_replace(label: str, old: str, new: str) -> CallToolResult:
        """Replace text in an existing core memory block (old must occur in it; new may be empty)."""
        return edited(lambda: mem.core.replace(uid, label, old, new))

    @server.tool()
    @_tool_errors
    def memory_context(
        query: str,
        token_budget: int | None = None,
        as_of: Moment | None = None,
        known_at: Moment | None = None,
        detail: bool = False,
    ) -> CallToolResult:
        """A prompt-ready text: core memory, the known facts most relevant, relevant memories (then possibly
        related ones, marked low confidence), recent history, the other facts, within token_budget tokens
        (default: the configured budget); as_of / known_at (ISO 8601): as it stood, and as it had been
        recorded, then; detail: every item kept and dropped."""
        found = mem.context(
            query,
            user_id=uid,
            token_budget=token_budget,
            agent_id=aid,
            org_id=oid,
            as_of=as_of,
            known_at=known_at,
        )
        return shape.reply(shape.context(found, detail=detail))


def serve(mem: GraphMemory, user_id: str, *, agent_id: str | None = None, org_id: str | None = None) -> None:
    """Serve MCP over stdio until the client disconnects."""
    build_server(mem, user_id, agent_id=agent_id, org_id=org_id).run("stdio")
