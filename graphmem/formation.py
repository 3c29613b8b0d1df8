"""The write path: drafts of memories become Memory nodes linked into the user's graph, in one transaction."""

from __future__ import annotations

import hashlib
import itertools
import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from .models import Memory, MemoryType, Priority, Source
from .records import dump_metadata, memory_from_row
from .runtime import Runtime
from .store import Tx

logger = logging.getLogger(__name__)

DEFAULT_PRIORITY: dict[MemoryType, Priority] = {
    MemoryType.EPISODIC: Priority.P2,
    MemoryType.SEMANTIC: Priority.P1,
    MemoryType.PROCEDURAL: Priority.P1,
    MemoryType.PREFERENCE: Priority.P1,
}


@dataclass(frozen=True)
class MemoryDraft:
    """A validated memory that is not stored yet."""

    content: str
    user_id: str
    session_id: str | None = None
    agent_id: str | None = None
    org_id: str | None = None
    memory_type: MemoryType = MemoryType.EPISODIC
    priority: Priority | None = None
    importance: float = 0.5
    occurred_at: datetime | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    tags: list[str] = field(default_factory=list)
    source: Source = Source.USER
    confidence: float = 1.0


def user_key(user_id: str) -> str:
    """A digits-only token for a tenant, indexed in the full-text index so Lucene can require the tenant.

    Only an optimisation: every query still filters on ``user_id`` itself, so a hash collision cannot leak.
    """
    digest = hashlib.blake2b(user_id.encode("utf-8"), digest_size=8).digest()
    return "u" + str(int.from_bytes(digest, "big"))


def session_uid(user_id: str, session_id: str) -> str:
    """A session key unique across tenants (length-prefixed, so no two pairs collide)."""
    return f"{len(user_id)}:{user_id}/{session_id}"


def _props(draft: MemoryDraft, now: datetime) -> dict[str, Any]:
    priority = draft.priority or DEFAULT_PRIORITY[draft.memory_type]
    return {
        "memory_type": draft.memory_type.value,
        "priority": priority.value,
        "importance": draft.importance,
        "strength": 1.0,
        "retention": 1.0,
        "access_count": 0,
        "status": "active",
        "layer": "working",
        "source": draft.source.value,
        "confidence": draft.confidence,
        "tags": list(draft.tags),
        "metadata": dump_metadata(draft.metadata),
        "session_id": draft.session_id,
        "agent_id": draft.agent_id,
        "org_id": draft.org_id,
        "user_key": user_key(draft.user_id),
        "occurred_at": draft.occurred_at or now,
        "created_at": now,
    }


def form(rt: Runtime, drafts: Sequence[MemoryDraft], *, now: datetime | None = None) -> list[Memory]:
    """Store drafts of one user and one session (or none) as memories, atomically.

    Consecutive drafts are chained with FOLLOWS edges; the first one follows the session's previous memory,
    or, for a new session, the last memory of the user's previous session.
    """
    if not drafts:
        return []
    now = now or datetime.now(UTC)
    user_id, session_id = drafts[0].user_id, drafts[0].session_id
    if any(d.user_id != user_id or d.session_id != session_id for d in drafts):
        raise ValueError("form() takes drafts of one user and one session")  # internal invariant
    vectors = rt.embedder.embed([d.content for d in drafts])
    suid = session_uid(user_id, session_id) if session_id is not None else None
    rows: list[dict[str, Any]] = [
        {
            "id": str(uuid.uuid4()),
            "user_id": d.user_id,
            "content": d.content,
            "embedding": vec,
            "session_uid": suid,
            "props": _props(d, now),
        }
        for d, vec in zip(drafts, vectors, strict=True)
    ]
    ids = [r["id"] for r in rows]
    pairs = [
        {
            "src": a,
            "dst": b,
            "weight": 1.0,
            "kind": "session",
            "valid_from": rows[i + 1]["props"]["occurred_at"],
        }
        for i, (a, b) in enumerate(itertools.pairwise(ids))
    ]

    def work(tx: Tx) -> None:
        # A unit of work may be retried by the driver: it must not mutate anything outside itself.
        links = list(pairs)
        if suid is not None:
            session = {
                "uid": suid,
                "user_id": user_id,
                "session_id": session_id,
                "agent_id": drafts[0].agent_id,
                "first_id": ids[0],
                "last_id": ids[-1],
            }
            tails = tx.run("memory_tails", sessions=[session], now=now)
            if tails and tails[0]["prev_id"]:
                cross = bool(tails[0]["is_new"])
                links.insert(
                    0,
                    {
                        "src": tails[0]["prev_id"],
                        "dst": ids[0],
                        "weight": 0.5 if cross else 1.0,
                        "kind": "cross_session" if cross else "session",
                        "valid_from": rows[0]["props"]["occurred_at"],
                    },
                )
        tx.run("memory_create", rows=rows, now=now)
        if links:
            tx.run("follows_create", pairs=links, user_id=user_id, now=now)

    rt.store.unit_of_work(work)
    logger.debug("formed %d memories for one user", len(rows))
    return [
        memory_from_row({"id": r["id"], "user_id": r["user_id"], "content": r["content"], **r["props"]})
        for r in rows
    ]
