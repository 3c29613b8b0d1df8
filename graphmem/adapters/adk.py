"""A Google ADK ``BaseMemoryService`` backed by graphmem.

Use it as ``Runner(..., memory_service=GraphMemMemoryService(mem))``.

``add_session_to_memory`` ingests a session's events with text: those not stored before go in one
``add_messages`` call (a batch of at most ``MAX_BATCH`` messages per call), and each event is recorded as
stored under a key of its session and id (:mod:`graphmem.store.imports`, as ``graphmem import`` records
messages), so adding a session again, or after it gained events, stores only the events it did not store
before, without reinforcing the others (an event longer than the content limit is stored in parts of at most
the limit); ``add_events_to_memory`` ingests events the same way, its ``custom_metadata`` in each message's
metadata; ``add_memory`` remembers explicit entries and
``delete_memory`` forgets one; ``search_memory`` recalls and returns ADK ``MemoryEntry`` results with
graphmem's score and explanation in ``custom_metadata``. The graphmem tenant is ``tenant(app_name,
user_id)`` (default ``"<app_name>:<user_id>"``).

Install with ``pip install 'graphmem[adk]'``. The ADK calls are async; graphmem's sync calls run in a
thread so the event loop never blocks.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from google.adk.events.event import Event
from google.adk.memory.base_memory_service import BaseMemoryService, SearchMemoryResponse
from google.adk.memory.memory_entry import MemoryEntry
from google.adk.sessions.session import Session
from google.genai import types

from graphmem.adapters.ops import sync_memory
from graphmem.config import MAX_BATCH
from graphmem.memory import GraphMemory
from graphmem.model import validation as check
from graphmem.models import Hit, Source
from graphmem.store import imports

logger = logging.getLogger(__name__)


def default_tenant(app_name: str, user_id: str) -> str:
    return f"{app_name}:{user_id}"


def event_message(event: Event) -> dict[str, Any] | None:
    """An ADK event as a graphmem message, or None when it carries no text (pure)."""
    if event.content is None or not event.content.parts:
        return None
    text = "\n".join(p.text for p in event.content.parts if p.text and p.text.strip())
    if not text:
        return None
    role = event.content.role or ("user" if event.author == "user" else "model")
    return {
        "role": role,
        "content": text,
        "name": event.author or None,
        "timestamp": datetime.fromtimestamp(event.timestamp, UTC),
        "metadata": {"adk_event_id": event.id, "adk_invocation_id": event.invocation_id},
    }


def event_messages(message: dict[str, Any], limit: int, event_id: str) -> list[dict[str, Any]]:
    """``message`` as the messages it is stored as: itself, or, when its text is longer than ``limit``
    characters, its text in parts of at most ``limit`` (cut at a space where one is near the end of a part),
    each with ``adk_part`` (1-based) and ``adk_parts`` in its metadata (WARNING naming the event). An event
    longer than the content limit was refused, and with it every later event of its session."""
    text = unicodedata.normalize("NFC", message["content"])  # as graphmem counts it
    if len(text) <= limit:
        return [message]
    parts = split_text(text, limit)
    logger.warning(
        "ADK event %s has %d characters, more than the %d a memory holds: stored in %d parts",
        event_id,
        len(text),
        limit,
        len(parts),
    )
    metadata = message["metadata"]
    return [
        message | {"content": part, "metadata": metadata | {"adk_part": i, "adk_parts": len(parts)}}
        for i, part in enumerate(parts, 1)
    ]


def split_text(text: str, limit: int) -> list[str]:
    """``text`` in parts of at most ``limit`` characters, none blank, each cut after the last whitespace of
    its second half when it has one (pure)."""
    parts: list[str] = []
    while text:
        if len(text) <= limit:
            cut = len(text)
        else:
            space = max(text.rfind(c, limit // 2, limit) for c in " \n\t")
            cut = space + 1 if space > 0 else limit
        part, text = text[:cut].strip(), text[cut:]
        if part:
            parts.append(part)
    return parts


def event_batches(
    events: Sequence[tuple[str, list[dict[str, Any]]]], size: int
) -> list[list[tuple[str, list[dict[str, Any]]]]]:
    """Events (key, messages) in consecutive batches of at most ``size`` messages, an event's parts never
    split across two (one event of more parts is a batch of its own) (pure)."""
    out: list[list[tuple[str, list[dict[str, Any]]]]] = []
    count = 0
    for event in events:
        if not out or count + len(event[1]) > size:
            out.append([])
            count = 0
        out[-1].append(event)
        count += len(event[1])
    return out


def _moment(timestamp: str | None) -> datetime | None:
    """A ``MemoryEntry.timestamp`` as a time (ISO 8601; without a zone, UTC), or None when it is not one:
    ADK passes the text on to the model as it is and prescribes no format."""
    try:
        when = datetime.fromisoformat(timestamp) if timestamp else None
    except ValueError:
        return None
    return when.replace(tzinfo=UTC) if when is not None and when.tzinfo is None else when


def memory_entry(hit: Hit) -> MemoryEntry:
    memory = hit.memory
    when = memory.occurred_at or memory.created_at
    return MemoryEntry(
        id=memory.id,
        content=types.Content(role=memory.role or "user", parts=[types.Part(text=memory.content)]),
        author=memory.speaker or memory.role,
        timestamp=when.isoformat() if when else None,
        custom_metadata={
            "score": hit.score,
            "search_level": hit.explanation.search_level,
            "components": hit.explanation.components,
            "memory_type": memory.memory_type.value,
            "session_id": memory.session_id,
        },
    )


class GraphMemMemoryService(BaseMemoryService):
    """ADK long-term memory on graphmem."""

    def __init__(
        self,
        mem: GraphMemory,
        *,
        k: int = 10,
        tenant: Callable[[str, str], str] = default_tenant,
    ) -> None:
        self._mem = sync_memory(mem, "GraphMemMemoryService")
        self._k = k
        self._tenant = tenant

    def _ingest(
        self,
        app_name: str,
        user_id: str,
        session_id: str,
        events: Sequence[Event],
        custom_metadata: Mapping[str, object] | None = None,
    ) -> None:
        """Store the events with text that were not stored before, in as few ``add_messages`` calls as
        ``MAX_BATCH`` allows, and record each as stored (its key: ``adk:<session>:<event id>``, the key each
        event's own ``add_messages`` call had before, so a session stored that way is not stored again)."""
        uid = self._tenant(app_name, user_id)
        found: dict[str, tuple[Event, dict[str, Any]]] = {}
        for event in events:
            message = event_message(event)
            if message is not None:
                message["metadata"] = dict(custom_metadata or {}) | message["metadata"]
                found.setdefault(f"adk:{session_id}:{event.id}", (event, message))
        done = imports.imported(self._mem.runtime, uid, list(found))
        limit = self._mem.runtime.settings.max_content_chars
        todo = [(key, event_messages(m, limit, e.id)) for key, (e, m) in found.items() if key not in done]
        for batch in event_batches(todo, MAX_BATCH):
            self._store(uid, session_id, batch)

    def _store(self, uid: str, session_id: str, batch: list[tuple[str, list[dict[str, Any]]]]) -> None:
        """One ``add_messages`` call for the events of ``batch`` (key, messages), then each event recorded
        with the memories its messages became. The call's own key names the batch's events: a retry of the
        same events after a failure between the two replays the call (writing nothing) and records them. Not
        atomic with the write: a session that gained events before that retry, or two overlapping calls for
        one session, store the unrecorded events again (as ``graphmem import`` with another ``--batch``)."""
        digest = hashlib.sha256("\n".join(key for key, _ in batch).encode()).hexdigest()[:32]
        memories = self._mem.add_messages(
            [m for _, messages in batch for m in messages],
            user_id=uid,
            session_id=session_id,
            idempotency_key=f"adk-batch:{digest}",
        )
        ids = iter(m.id for m in memories)
        imports.record(self._mem.runtime, uid, [(key, [next(ids) for _ in ms]) for key, ms in batch])

    async def add_session_to_memory(self, session: Session) -> None:
        await asyncio.to_thread(
            self._ingest, session.app_name, session.user_id, session.id, list(session.events)
        )

    async def add_events_to_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        events: Sequence[Event],
        session_id: str | None = None,
        custom_metadata: Mapping[str, object] | None = None,
    ) -> None:
        await asyncio.to_thread(
            self._ingest, app_name, user_id, session_id or "adk", list(events), custom_metadata
        )

    def _remember(
        self, app_name: str, user_id: str, entries: list[MemoryEntry], extra: Mapping[str, object] | None
    ) -> None:
        uid = self._tenant(app_name, user_id)
        for entry in entries:
            text = "\n".join(p.text for p in entry.content.parts or () if p.text and p.text.strip())
            ids = {"adk_memory_id": entry.id} if entry.id else {}
            author = {"adk_author": entry.author} if entry.author else {}
            self._mem.remember(
                text,
                user_id=uid,
                metadata=dict(extra or {}) | entry.custom_metadata | ids | author,
                occurred_at=_moment(entry.timestamp),
                source=Source.AGENT,
                idempotency_key=f"adk-memory:{entry.id}" if entry.id else None,
            )

    async def add_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        memories: Sequence[MemoryEntry],
        custom_metadata: Mapping[str, object] | None = None,
    ) -> None:
        """Remember each entry for the tenant (its text; ``custom_metadata``, the entry's own metadata, id
        and author in the memory's metadata; its ISO timestamp as when it happened), idempotently by the
        entry's id when it has one."""
        await asyncio.to_thread(self._remember, app_name, user_id, list(memories), custom_metadata)

    async def delete_memory(self, *, app_name: str, user_id: str, memory_id: str | None = None) -> None:
        """Forget (softly) the tenant's memory ``memory_id``, a ``MemoryEntry.id`` from ``search_memory``."""
        wanted = str(check.identifier(memory_id, "memory_id"))
        await asyncio.to_thread(self._mem.forget, wanted, user_id=self._tenant(app_name, user_id))

    async def search_memory(self, *, app_name: str, user_id: str, query: str) -> SearchMemoryResponse:
        uid = self._tenant(app_name, user_id)
        hits = await asyncio.to_thread(self._mem.recall, query, user_id=uid, k=self._k)
        return SearchMemoryResponse(memories=[memory_entry(h) for h in hits])
