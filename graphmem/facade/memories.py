"""``mem.memories``: reading a scope's memories (one, a page, how many), and one memory at a time:
versioned updates, links, governance decisions, feedback, and the proactive preload of a session's first
memories."""

from __future__ import annotations

import builtins
from datetime import datetime
from typing import Any

from graphmem.errors import ValidationError
from graphmem.facade._write import audited_write
from graphmem.formation import edges
from graphmem.governance import users as governance
from graphmem.governance import versioning
from graphmem.model import validation as check
from graphmem.model.dynamics import LIVE_STATUSES
from graphmem.model.scopes import Scope
from graphmem.models import Hit, Memory, MemoryStatus, MemoryType, Priority
from graphmem.retrieval import recall as recall_use_case
from graphmem.store.idempotency import Step
from graphmem.store.records import memory_from_row
from graphmem.store.runtime import Runtime

__all__ = ["Memories"]

MAX_PAGE = 1000
"""Most memories :meth:`Memories.list` returns at a time (page with ``offset``)."""

FLUSH_SECONDS = 2.0
"""Feedback without a query judges the latest recall that returned the memory; under deferred recall effects
that recall's record may still be queued, so feedback waits for the queue first, at most this long (it drains
in milliseconds; the bound keeps a backlog from stalling the call, which then judges the latest recorded)."""


def _unchanged(current: Memory, change: versioning.MemoryUpdate) -> bool:
    return (
        (change.content is None or change.content == current.content)
        and (change.metadata is None or change.metadata == current.metadata)
        and (change.priority is None or change.priority == current.priority)
    )


def _filters(status: object, memory_type: object, session_id: object, tags: object) -> dict[str, Any]:
    """The validated filters of :meth:`Memories.list` and :meth:`Memories.count` as query parameters
    (``cypher/fragments/memory_listed``)."""
    wanted = [status] if isinstance(status, str) else status
    if wanted is not None and not isinstance(wanted, list | tuple):
        raise ValidationError("status", f"must be a list of statuses, not {type(wanted).__name__}")
    kind = None if memory_type is None else check.enum(memory_type, MemoryType, "memory_type").value
    return {
        "statuses": [check.enum(s, MemoryStatus, "status").value for s in wanted or LIVE_STATUSES],
        "memory_type": kind,
        "session_id": check.identifier(session_id, "session_id", required=False),
        "tags": list(check.tags(tags)),
    }


class Memories:
    """Read a scope's memories (one, a page, how many); update, trace, link, govern and rate single
    memories (``mem.memories``)."""

    def __init__(self, rt: Runtime) -> None:
        self._rt = rt
        self._preload = recall_use_case.PreloadCache(rt)

    def update(
        self,
        memory_id: str,
        *,
        user_id: str,
        expected_version: int,
        content: str | None = None,
        metadata: dict[str, Any] | None = None,
        priority: Priority | str | None = None,
        idempotency_key: str | None = None,
    ) -> Memory:
        """Change a memory's content, metadata or priority if it is still at ``expected_version`` (else
        ``VersionConflict``, nothing written); the previous version stays readable in ``history``.
        A change that changes nothing writes nothing and returns the current version.
        A repeat with the same ``idempotency_key`` returns the first result and writes nothing."""
        uid = check.user_id(user_id)
        limit = self._rt.settings.max_content_chars
        change = versioning.MemoryUpdate(
            content=None if content is None else check.text(content, "content", max_chars=limit),
            metadata=None
            if metadata is None
            else check.stored_metadata(metadata, max_bytes=self._max_metadata),
            priority=None if priority is None else check.enum(priority, Priority, "priority"),
        )
        mid = check.identifier(memory_id, "memory_id") or ""
        expected = check.bounded_int(expected_version, "expected_version", 1, 2**62)
        current = versioning.current(self._rt, mid, user_id=uid)
        if current.version == expected and _unchanged(current, change):
            return current

        def write(step: Step) -> Memory:
            return versioning.update(
                self._rt, mid, user_id=uid, change=change, expected_version=expected, on_commit=step
            )

        return audited_write(
            self._rt,
            "update_memory",
            user_id=uid,
            actor=None,
            key=check.identifier(idempotency_key, "idempotency_key", required=False),
            write=write,
            replay=lambda ids: versioning.history(self._rt, mid, user_id=uid)[int(ids[1]) - 1],
        )

    @property
    def _max_metadata(self) -> int:
        return self._rt.settings.max_metadata_bytes

    def get(
        self,
        memory_id: str,
        *,
        user_id: str | None = None,
        scope: Scope | str = Scope.USER,
        session_id: str | None = None,
        agent_id: str | None = None,
        org_id: str | None = None,
    ) -> Memory:
        """One memory of the scope, current version, whatever its status (``MemoryNotFound`` if the scope
        has no memory of that id). ``scope`` (``user``, ``session``, ``agent``, ``org``; docs/scopes.md)
        says whose memory it is; the other scopes need their id (``session_id``, ``agent_id``, ``org_id``),
        as in ``mem.facts``."""
        tenant, _ = check.owner(user_id, scope, session_id, agent_id, org_id)
        return versioning.current(self._rt, check.identifier(memory_id, "memory_id") or "", user_id=tenant)

    def list(
        self,
        user_id: str | None,
        *,
        limit: int = 100,
        offset: int = 0,
        after: str | None = None,
        status: builtins.list[MemoryStatus | str] | MemoryStatus | str | None = None,
        memory_type: MemoryType | str | None = None,
        session_id: str | None = None,
        tags: builtins.list[str] | None = None,
        scope: Scope | str = Scope.USER,
        agent_id: str | None = None,
        org_id: str | None = None,
    ) -> builtins.list[Memory]:
        """The scope's memories, the latest first by when they happened (``occurred_at``, as the timeline
        orders them), ``limit`` (at most 1,000) from ``offset``, after the memory ``after`` when given (the
        previous page's last id: a cursor, which reads from its place on, where a deep ``offset`` reads the
        memories it skips; an id that is not a memory of the scope is a :class:`ValidationError`);
        only those in ``status`` (default: the live ones, active, weak and dormant), of ``memory_type``, of
        ``session_id`` and carrying every one of ``tags``. ``scope`` and its ids as for :meth:`get`
        (``user_id`` may be None for an agent's or an organisation's; their memories carry no session, so a
        ``session_id`` filter finds none of them). :meth:`count` says how many match. Read-only: listing
        reinforces nothing."""
        tenant, _ = check.owner(user_id, scope, session_id, agent_id, org_id)
        cursor = check.identifier(after, "after", required=False)
        page = {
            "user_id": tenant,
            **_filters(status, memory_type, session_id, tags),
            "offset": check.bounded_int(offset, "offset", 0, 10**9),
            "limit": check.bounded_int(limit, "limit", 1, MAX_PAGE),
            "now": None,
        }
        if cursor is None:
            return [memory_from_row(r["memory"]) for r in self._rt.store.read("memory_list", **page)]
        [row] = self._rt.store.read("memory_list_after", **page, after=cursor)
        if not row["cursor_found"]:
            if row["cursor_known"]:  # its occurred_at was set by hand to another type: no place in the order
                raise ValidationError("after", "has no date-time occurred_at to page from; page by offset")
            raise ValidationError("after", "is not a memory of this scope")
        return [memory_from_row(r) for r in row["memories"]]

    def count(
        self,
        user_id: str | None,
        *,
        status: builtins.list[MemoryStatus | str] | MemoryStatus | str | None = None,
        memory_type: MemoryType | str | None = None,
        session_id: str | None = None,
        tags: builtins.list[str] | None = None,
        scope: Scope | str = Scope.USER,
        agent_id: str | None = None,
        org_id: str | None = None,
    ) -> int:
        """How many memories :meth:`list` pages through with the same filters and scope (one read of the
        scope's memories, made only when asked: a page does not count; docs/interfaces.md has its cost)."""
        tenant, _ = check.owner(user_id, scope, session_id, agent_id, org_id)
        rows = self._rt.store.read(
            "memory_count", user_id=tenant, **_filters(status, memory_type, session_id, tags)
        )
        return int(rows[0]["total"])

    def history(self, memory_id: str, *, user_id: str) -> builtins.list[Memory]:
        """Every version of a memory, oldest first."""
        return versioning.history(
            self._rt, check.identifier(memory_id, "memory_id") or "", user_id=check.user_id(user_id)
        )

    def link(
        self,
        src_id: str,
        dst_id: str,
        rel_type: str,
        *,
        weight: float = 1.0,
        valid_from: datetime | None = None,
    ) -> None:
        """Add an edge between two memories of one user; ``rel_type`` from ``linking.LINK_TYPES``. A live edge
        of that type between them (either way round for RELATED_TO and CONFLICTS_WITH; not a conflict already
        settled) takes ``weight`` instead of a second edge, and keeps its own ``valid_from``."""
        edges.link(
            self._rt,
            check.identifier(src_id, "src_id") or "",
            check.identifier(dst_id, "dst_id") or "",
            edges.check_rel_type(rel_type),
            weight=check.unit_interval(weight, "weight"),
            valid_from=check.aware_datetime(valid_from, "valid_from"),
        )

    def govern(self, memory_id: str, *, user_id: str, decision: str, actor: str | None = None) -> None:
        """Apply a governance decision to one memory: ``retain``, ``delete`` or ``anonymize`` (audited)."""
        governance.govern_memory(
            self._rt,
            check.identifier(memory_id, "memory_id") or "",
            user_id=check.user_id(user_id),
            decision=check.enum(decision, governance.Decision, "decision"),
            actor=check.identifier(actor, "actor", required=False),
        )

    def feedback(self, memory_id: str, *, user_id: str, useful: bool, query: str | None = None) -> None:
        """Say whether a memory helped: it is recorded, and the memory gains or loses strength. ``query``:
        the question it was (or should have been) the answer to, else the latest recall that returned it;
        useful makes that question a full-text key of the memory (its asked key, docs/recall.md), not useful
        takes it out, and ``mem.automation.evolution.adapt`` learns the user's retrieval weights from it."""
        uid = check.user_id(user_id)
        mid = check.identifier(memory_id, "memory_id") or ""
        useful_ = check.boolean(useful, "useful")
        limit = self._rt.settings.max_content_chars
        asked = None if query is None else check.text(query, "query", max_chars=limit)
        if asked is None:  # the recall it judges may still be queued (recall_effects="deferred")
            self._rt.deferred.flush(FLUSH_SECONDS)
        recall_use_case.feedback(self._rt, memory_id=mid, user_id=uid, useful=useful_, query=asked)
        self._rt.changes.touch(uid)

    def proactive(self, user_id: str, *, k: int = 10) -> builtins.list[Hit]:
        """Memories to preload at session start, ranked by importance, recency and frequency (cached per user,
        invalidated by this client's writes, refreshed after ``proactive_ttl`` seconds)."""
        return self._preload.get(check.user_id(user_id), check.k(k))
