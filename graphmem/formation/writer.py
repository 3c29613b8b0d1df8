"""The write path: drafts of memories become Memory nodes linked into the user's graph, in one transaction.

``form()`` runs in three steps: :func:`graphmem.formation.gather.gather` does every read (known entities,
the session's last turn, embeddings, nearest memories, close entities) into one
:class:`~graphmem.formation.plan.FormationContext`; the pure
:func:`~graphmem.formation.plan.plan_formation` decides every write (duplicates, links, causes, entity
merges, fact inputs, which draft becomes which memory); :func:`apply` writes the
:class:`~graphmem.formation.plan.FormationPlan` in one transaction: a failure leaves nothing half-written.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from graphmem.errors import TransientError
from graphmem.formation.drafts import MemoryDraft, embedding_text, entity_id, session_uid, user_key
from graphmem.formation.gather import KNOWN_ENTITY_LIMIT, gather
from graphmem.formation.plan import FormationPlan, plan_formation
from graphmem.model.anchors import DUE_NOW
from graphmem.model.extraction import Extractor
from graphmem.model.fact_keys import is_relation_key
from graphmem.model.heuristics import REINFORCEMENT
from graphmem.model.importance import DEFAULT_PRIORITY
from graphmem.model.messages import Turn
from graphmem.models import Memory
from graphmem.store.driver import Tx
from graphmem.store.failures import EntityGone
from graphmem.store.records import memory_from_row
from graphmem.store.runtime import Runtime
from graphmem.store.values import list_map, props_in_utc
from graphmem.temporal import facts as factbase

logger = logging.getLogger(__name__)

T = TypeVar("T")

__all__ = [
    "DEFAULT_PRIORITY",
    "KNOWN_ENTITY_LIMIT",
    "MemoryDraft",
    "add_turns",
    "apply",
    "embedding_text",
    "entity_id",
    "form",
    "formation_params",
    "session_uid",
    "user_key",
]


def form(
    rt: Runtime,
    drafts: Sequence[MemoryDraft],
    *,
    now: datetime | None = None,
    extractor: Extractor | None = None,
    on_commit: Callable[[Tx, list[str]], None] | None = None,
) -> list[Memory]:
    """Store drafts of one user and one session (or none) as memories, atomically; one Memory per draft.
    ``on_commit`` runs inside the same transaction with the resulting memory ids, in draft order (the
    caller's audit event and idempotency key commit with the memories, or not at all).

    A near-duplicate of an existing memory (or of an earlier draft) reinforces it instead, and is returned
    in its place. Consecutive new memories are chained with FOLLOWS edges; the first one follows the
    session's previous memory, or, for a new session, the user's latest memory at or before it in valid time
    (history can arrive in any order), and the last one is followed by the next memory of another session,
    if one is stored (``formation_write``).
    """
    if not drafts:
        return []
    now = now or datetime.now(UTC)
    user_id, session_id = drafts[0].user_id, drafts[0].session_id
    if any(d.user_id != user_id or d.session_id != session_id for d in drafts):
        raise ValueError("form() takes drafts of one user and one session")  # internal invariant
    drafts = said_now(drafts, now)
    for attempt in range(1, FORM_ATTEMPTS + 1):
        plan = plan_formation(gather(rt, drafts, now, extractor), rt.settings)
        try:
            merged = rt.store.unit_of_work(_work(plan, on_commit))
            if any(is_relation_key(f.key) for f in plan.facts):  # recall reads the people with the profile
                rt.tenant_profiles.forget(user_id)
            break
        except (RepeatGone, EntityGone):  # rolled back whole: planned again on what the store holds now
            if attempt == FORM_ATTEMPTS:
                raise
            logger.info("a memory the turns repeat was deleted while they were written; planning again")
    logger.debug(
        "formed %d memories (%d merged into existing) for one user", len(plan.rows), len(plan.merges)
    )
    existing = {r["i"]: memory_from_row(r["memory"]) for r in merged}
    created = {
        r["id"]: memory_from_row(
            {
                "id": r["id"],
                "user_id": r["user_id"],
                "content": r["content"],
                "recorded_at": plan.now,
                **props_in_utc(r["props"]),  # as stored
            }
        )
        for r in plan.rows
    }
    return [existing[i] if i in existing else created[mid] for i, mid in enumerate(plan.memory_ids)]


FORM_ATTEMPTS = 3
"""Plans of one ``form`` call: a near-duplicate's memory deleted between planning and writing (another
caller's delete or forget-and-purge) rolls the write back and the turns are planned again."""


class RepeatGone(TransientError):
    """The memory a turn repeats was deleted after the turn was planned as its near-duplicate."""


def _work(plan: FormationPlan, on_commit: Callable[[Tx, list[str]], None] | None) -> Callable[[Tx], Any]:
    """The write transaction of ``plan``, then ``on_commit`` with its memory ids."""

    def work(tx: Tx) -> list[dict[str, Any]]:
        merged = apply(tx, plan)
        if on_commit is not None:
            on_commit(tx, list(plan.memory_ids))
        return merged

    return work


def _as_sent(row: dict[str, Any], now: datetime) -> dict[str, Any]:
    """A memory row as sent: without the times ``formation_write`` sets itself (created_at = $now, decay_due =
    the epoch). Each datetime parameter costs the driver ~40 µs to encode, as much as the rest of the row."""
    props = {
        k: v
        for k, v in row["props"].items()
        if not (k == "created_at" and v == now) and not (k == "decay_due" and v == DUE_NOW)
    }
    return {**row, "props": props}


def _in_lock_order(rows: Sequence[dict[str, Any]], *keys: str) -> list[dict[str, Any]]:
    """Edge rows sorted by the existing node they attach to: every formation takes the locks on shared nodes
    (an old memory, an entity) in the same order, so two concurrent ones of a user cannot deadlock on them
    (under 20 REST clients they did, 15 times in 1,000 requests, each retried by the driver after 1 s)."""
    return sorted(rows, key=lambda r: tuple(str(r[k]) for k in keys))


def apply(tx: Tx, plan: FormationPlan) -> list[dict[str, Any]]:
    """Write ``plan`` inside ``tx``; the rows of the stored memories that near-duplicates reinforced.

    The session's tail, the memories and their edges and entities are one statement (``formation_write``:
    one round trip where there were seven); near-duplicates and facts follow, when the plan has any. A unit of
    work may be retried by the driver: this must not mutate anything outside itself (the plan included).
    """
    user_id, now = plan.user_id, plan.now
    params = formation_params(
        user_id,
        now,
        sessions=() if plan.session is None else (plan.session,),
        rows=[_as_sent(r, now) for r in plan.rows],
        follows=plan.follows,
        related=_in_lock_order(plan.related, "dst", "src"),
        causes=_in_lock_order(plan.causes, "dst", "src"),
        entities=plan.entities,
        links=_in_lock_order(plan.entity_links, "entity_id", "memory_id"),
    )
    if any(params["plan"].values()):  # every turn a near-duplicate: nothing new to write
        tx.run("formation_write", **params)
    merged = (
        tx.run(
            "memory_merge_duplicate",
            merges=list(plan.merges),
            user_id=user_id,
            now=now,
            r=REINFORCEMENT.cypher(),
        )
        if plan.merges
        else []
    )
    if len(merged) < len(plan.merges):  # without this, the turn was stored nowhere and the call committed
        raise RepeatGone(
            "a memory these turns repeat was deleted while they were written; nothing was written"
        )
    factbase.apply(tx, list(plan.facts), now)
    return merged


def formation_params(
    user_id: str,
    now: datetime,
    *,
    sessions: Sequence[dict[str, Any]] = (),
    rows: Sequence[dict[str, Any]] = (),
    follows: Sequence[dict[str, Any]] = (),
    related: Sequence[dict[str, Any]] = (),
    causes: Sequence[dict[str, Any]] = (),
    entities: Sequence[dict[str, Any]] = (),
    links: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """The parameters of ``formation_write`` (its header names each list's rows; an empty list writes
    nothing), its lists in one map (:func:`graphmem.store.values.list_map`)."""
    plan = list_map(
        sessions=sessions,
        rows=rows,
        follows=follows,
        related=related,
        causes=causes,
        entities=entities,
        links=links,
    )
    return {"user_id": user_id, "now": now, "plan": plan}


def add_turns(
    rt: Runtime,
    turns: Sequence[Turn],
    *,
    user_id: str,
    session_id: str | None,
    agent_id: str | None,
    extractor: Extractor | None = None,
    on_commit: Callable[[Tx, list[str]], None] | None = None,
    org_id: str | None = None,
) -> list[Memory]:
    """A conversation's validated turns as memories of one session (speaker, role and metadata kept);
    ``user_id`` is the owning scope's tenant key, ``session_id`` None for a shared scope (docs/scopes.md)."""
    order = said_order(turns)
    drafts = [
        MemoryDraft(
            content=t.content,
            user_id=user_id,
            session_id=session_id,
            agent_id=agent_id,
            org_id=org_id,
            occurred_at=t.timestamp,
            metadata=t.metadata,
            tags=t.tags,
            source=t.source,
            role=t.role,
            speaker=t.speaker,
            subject=t.name,
        )
        for t in (turns[i] for i in order)
    ]
    commit = None if on_commit is None else lambda tx, ids: on_commit(tx, as_given(ids, order))
    return as_given(form(rt, drafts, extractor=extractor, on_commit=commit), order)


def said_now(drafts: Sequence[MemoryDraft], now: datetime) -> list[MemoryDraft]:
    """Drafts without a time happen now, in the order given: the i-th of n at ``now`` less n - 1 - i
    microseconds (the last at ``now``). With one time for all, their order in valid time was a tie, and
    the next session's place in the temporal view (``formation_write`` reads the latest turn by time) fell on
    any turn of the batch, not its last."""
    n = len(drafts)
    return [
        d if d.occurred_at is not None else replace(d, occurred_at=now - timedelta(microseconds=n - 1 - i))
        for i, d in enumerate(drafts)
    ]


def said_order(turns: Sequence[Turn]) -> list[int]:
    """The turns' positions in the order they were said: by timestamp (stable: ties keep their order) when
    every turn has one, else as given. A batch is formed in that order (the session's chain, each turn's
    previous one, each fact key's history): "I moved to Manchester" (1 January) listed after "I moved to
    Leeds" (1 March) made Manchester a conflict of the current Leeds and left February without a value."""
    stamps = [t.timestamp for t in turns if t.timestamp is not None]
    if len(stamps) < len(turns):
        return list(range(len(turns)))
    return sorted(range(len(turns)), key=stamps.__getitem__)


def as_given(items: Sequence[T], order: Sequence[int]) -> list[T]:
    """``items`` made in ``order`` (positions of the caller's list), back in the caller's order."""
    return [item for _, item in sorted(zip(order, items, strict=True), key=lambda pair: pair[0])]
