"""What the MCP tools return: compact by default, since a model's context window pays for every byte.

A memory keeps what an agent acts on (its id and text, when it happened, its scope, session, speaker, tags
and metadata, and the version ``memory_update`` may check), a recall hit adds its calibrated ``confidence``,
a fact its key, value and times; absent (null or empty) fields are left out. ``detail=True`` gives every
stored field instead, as the REST API returns it (a hit with its score and explanation). The reply's text is
the JSON without indentation; the same object is its structured content.
"""

from __future__ import annotations

import json
from typing import Any

from mcp.types import CallToolResult, TextContent

from graphmem.adapters import ops
from graphmem.models import CoreBlock, Fact, Hit, Memory
from graphmem.retrieval.context import Context

MEMORY_FIELDS = (
    "id",
    "content",
    "memory_type",
    "scope",
    "occurred_at",
    "session_id",
    "speaker",
    "tags",
    "metadata",
    "version",
)
FACT_FIELDS = (
    "key",
    "value",
    "fact_type",
    "scope",
    "status",
    "valid_from",
    "valid_to",
    "recorded_at",
    "expired_at",
    "planned_at",
    "revoked_at",
)
BLOCK_FIELDS = ("label", "value", "limit", "version")


def reply(out: dict[str, Any]) -> CallToolResult:
    """A tool's result: ``out`` as compact JSON text and as structured content."""
    text = json.dumps(out, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=out)


def _kept(full: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    """``fields`` of ``full`` in that order, without the null or empty ones."""
    return {f: full[f] for f in fields if full.get(f) not in (None, "", [], {})}


def memory(m: Memory, *, detail: bool = False) -> dict[str, Any]:
    full = ops.memory_json(m)
    return full if detail else _kept(full, MEMORY_FIELDS)


def hit(h: Hit, *, detail: bool = False) -> dict[str, Any]:
    """A recall hit: the memory's compact fields and ``confidence`` (the calibrated estimate that it answers
    the query); an inferred reading and a summary's sources when there are some. ``detail``: the REST shape
    with the explanation, and the confidence."""
    if detail:
        return ops.hit_json(h, explain=True) | {"confidence": h.confidence}
    out = memory(h.memory) | {"confidence": round(h.confidence, 2)}
    if h.reconstruction is not None:
        out["reconstruction"] = h.reconstruction.text
    if h.details:
        out["details"] = [memory(d) for d in h.details]
    return out


def fact(f: Fact | None, *, detail: bool = False) -> dict[str, Any] | None:
    full = ops.fact_json(f)
    return full if detail or full is None else _kept(full, FACT_FIELDS)


def block(b: CoreBlock) -> dict[str, Any]:
    return _kept(ops.block_json(b), BLOCK_FIELDS)


def context(c: Context, *, detail: bool = False) -> dict[str, Any]:
    """The context's text and size; ``dropped``: how many items the budget left out (when any). ``detail``:
    every item kept and dropped."""
    if detail:
        return ops.context_json(c)
    out: dict[str, Any] = {"text": c.text, "tokens": c.tokens, "budget": c.budget}
    if c.dropped:
        out["dropped"] = len(c.dropped)
    return out
