"""Operations the agent-facing interfaces (MCP, REST) share, over the facade, with JSON-ready results; the
check the framework adapters (LangGraph, ADK) make of the memory they are given."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from graphmem.errors import ConfigurationError
from graphmem.memory import GraphMemory
from graphmem.models import CoreBlock, Fact, Hit, Memory
from graphmem.retrieval.context import Context


def sync_memory(mem: object, adapter: str) -> GraphMemory:
    """``mem`` when it is a :class:`GraphMemory`; an AsyncGraphMemory (or anything else) is a
    ConfigurationError: ``adapter``'s async methods run the sync calls in a thread, and an
    AsyncGraphMemory's calls return coroutines (a TypeError after a write had gone through)."""
    if not isinstance(mem, GraphMemory):
        raise ConfigurationError(
            f"{adapter} needs a GraphMemory (`GraphMemory.connect()`), not {type(mem).__name__}: its async "
            "methods already run graphmem's sync calls in a thread"
        )
    return mem


def memory_json(memory: Memory) -> dict[str, Any]:
    return memory.model_dump(mode="json", exclude={"metadata"}) | {"metadata": memory.metadata}


def hit_json(hit: Hit, *, explain: bool = False) -> dict[str, Any]:
    out = {"memory": memory_json(hit.memory), "score": hit.score}
    if explain:
        out["explanation"] = hit.explanation.model_dump(mode="json")
    if hit.reconstruction is not None:
        out["reconstruction"] = hit.reconstruction.model_dump(mode="json")
    if hit.details:  # a summary's sources the query found it by (graphmem.models.Hit.details)
        out["details"] = [memory_json(d) for d in hit.details]
    return out


def fact_json(fact: Fact | None) -> dict[str, Any] | None:
    return None if fact is None else fact.model_dump(mode="json")


def no_value(key: str, as_of: datetime | None = None, known_at: datetime | None = None) -> str:
    """What a fact read that found nothing says, in the read's terms: ``no current value of 'location'``, or
    ``no value of 'location' as of 2000-01-01 00:00 UTC`` (the key may well have a value now)."""
    if as_of is None and known_at is None:
        return f"no current value of {key!r}"
    when = [f"{label} {_utc(t)}" for label, t in (("as of", as_of), ("as known at", known_at)) if t]
    return f"no value of {key!r} " + " ".join(when)


def _utc(t: datetime) -> str:
    """A read's time in UTC, naive read as UTC (as the facade reads it)."""
    return f"{(t.replace(tzinfo=UTC) if t.tzinfo is None else t.astimezone(UTC)):%Y-%m-%d %H:%M} UTC"


def block_json(block: CoreBlock) -> dict[str, Any]:
    return block.model_dump(mode="json")


def context_json(context: Context) -> dict[str, Any]:
    return {
        "text": context.text,
        "tokens": context.tokens,
        "budget": context.budget,
        "kept": [i.model_dump(mode="json") for i in context.kept],
        "dropped": [i.model_dump(mode="json") for i in context.dropped],
    }


def update_memory(
    mem: GraphMemory, memory_id: str, content: str, *, user_id: str, expected_version: int | None = None
) -> Memory:
    """Change a memory's text in place (a new version; the old one stays in ``memory_history``).

    ``expected_version`` (from a recall hit) guards against lost updates (``VersionConflict``); omitted, the
    current version is used: the last writer wins."""
    if expected_version is None:
        expected_version = mem.memories.history(memory_id, user_id=user_id)[-1].version
    return mem.memories.update(memory_id, user_id=user_id, expected_version=expected_version, content=content)
