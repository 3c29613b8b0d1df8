"""Recall as a use case: search, then let the result change memory (reinforcement and retrieval-induced
forgetting), and record what was asked and returned."""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from graphmem.config import RetrievalPreset, Settings, resolve_preset
from graphmem.dynamics.evolution import tuned_preset
from graphmem.embedding import embed_checked
from graphmem.errors import EmbedderError, MemoryNotFound
from graphmem.formation.writer import user_key
from graphmem.model import metamemory
from graphmem.model import validation as check
from graphmem.model.intent import resolve_views
from graphmem.model.keys import asked_key
from graphmem.model.recall_filter import RecallFilter, check_filters
from graphmem.model.relations import Named, named_relatives
from graphmem.model.scopes import Caller
from graphmem.model.scoring import reinforced_strength, suppressed_strength
from graphmem.models import Explanation, Hit
from graphmem.retrieval.effects import RecallEffects, effects_of
from graphmem.retrieval.profile import tenant_profile
from graphmem.retrieval.ranked import Ranked, RankedHit
from graphmem.retrieval.reconstruct import reconstruct
from graphmem.retrieval.search import SearchRequest, embed_queries, search
from graphmem.store.driver import Tx
from graphmem.store.records import memory_from_row
from graphmem.store.runtime import Runtime

logger = logging.getLogger(__name__)

RECENCY_DAYS = 30.0
FREQUENCY_REF = 10


@dataclass(frozen=True)
class RecallRequest:
    query: str
    user_id: str
    k: int
    as_of: datetime | None
    hops: int
    views: Mapping[str, float] | None
    reinforce: bool
    preset: str | RetrievalPreset | None = None
    known_at: datetime | None = None  # transaction time; ``as_of`` is valid time (docs/temporal.md)
    reconstruct: bool = False  # readings of hits that cannot stand alone (graphmem.retrieval.reconstruct)
    tenants: tuple[str, ...] = ()  # the tenant keys the caller may read (docs/scopes.md); () = user_id's
    conversation: tuple[str, ...] = ()  # the turns the question comes from (context-dependent recall)
    filters: RecallFilter | None = None  # which memories it may return (graphmem.model.recall_filter)

    @property
    def readable(self) -> list[str]:
        return list(self.tenants) or [self.user_id]


MAX_HOPS = 5


def checked_request(
    settings: Settings,
    query: str,
    who: Caller,
    *,
    k: int,
    reinforce: bool,
    conversation: str | list[str] | None,
    as_of: datetime | None,
    known_at: datetime | None,
    hops: int = 3,
    views: dict[str, float] | None = None,
    preset: str | RetrievalPreset | None = None,
    reconstruct: bool = False,
    filters: object = None,
) -> RecallRequest:
    """A recall's arguments as the public API takes them, validated (graphmem.model.validation)."""
    return RecallRequest(
        query=check.text(query, "query", max_chars=settings.max_content_chars),
        user_id=who.principal,
        tenants=tuple(t for _, t in who.readable()),
        k=check.k(k),
        as_of=check.aware_datetime(as_of, "as_of"),
        hops=check.bounded_int(hops, "hops", 0, MAX_HOPS),
        views=check.views(views),
        reinforce=check.boolean(reinforce, "reinforce"),
        known_at=check.aware_datetime(known_at, "known_at"),
        preset=None if preset is None else resolve_preset(preset),
        reconstruct=check.boolean(reconstruct, "reconstruct"),
        conversation=check.conversation(conversation, max_chars=settings.max_content_chars),
        filters=check_filters(filters, max_metadata_bytes=settings.max_metadata_bytes),
    )


def recall(rt: Runtime, req: RecallRequest, *, now: datetime | None = None) -> list[Hit]:
    """search (one read) → hits; then reinforcement, retrieval-induced forgetting and the recall record in
    one write transaction that reads the hits back (``recall_effects="inline"``), or a plain read of the
    hits while those effects wait for the runtime's background writer (``"deferred"``,
    graphmem.store.deferred)."""
    inline = rt.settings.recall_effects == "inline"
    held = _recall(rt, req, now or datetime.now(UTC), write_inline=inline)
    if not inline:
        commit(rt, req.user_id, held.effects)
    elif _changes(rt, req):
        rt.changes.touch(req.user_id)
    return held.hits


@dataclass(frozen=True)
class Held:
    """A recall whose effects are not written yet (:func:`recall_held`)."""

    hits: list[Hit]
    effects: RecallEffects | None  # None: nothing to write (nothing found, or neither a change nor a record)
    query_vector: list[float] | None = None  # what the query was embedded as (context() ranks facts by it)


Fetch = Callable[[list[str], datetime, list[float] | None], list[dict[str, Any]]]
"""Reads the rows of the memories a recall returns (their ids, the recall's clock, the query's vector), as
memory_fetch does."""


def recall_held(
    rt: Runtime, req: RecallRequest, *, now: datetime | None = None, fetch: Fetch | None = None
) -> Held:
    """A recall that leaves its effects to the caller, who may add to the record before :func:`commit`
    (``context()`` adds the tokens its assembly used and dropped). The hits are read before the effects are
    written, as in the deferred mode; ``fetch`` reads them in place of memory_fetch (``context()`` reads
    what else it needs in the same round trip), and is not called when nothing was found."""
    return _recall(rt, req, now or datetime.now(UTC), write_inline=False, fetch=fetch)


def commit(rt: Runtime, user_id: str, effects: RecallEffects | None, **record: Any) -> None:
    """Write a held recall's effects as the settings say (inline: now; deferred: by the background writer),
    ``record`` added to its RecallEvent."""
    if effects is None:
        return
    if record and effects.event is not None:
        effects.event.update(record)
    if rt.settings.recall_effects == "inline":
        rt.store.unit_of_work(effects.apply)
        if effects.reinforced:
            rt.changes.touch(user_id)
    else:
        _defer(rt, user_id, effects)


def _changes(rt: Runtime, req: RecallRequest) -> bool:
    return req.reinforce and req.as_of is None and req.known_at is None and rt.settings.reinforce_on_recall


def _recall(
    rt: Runtime, req: RecallRequest, now: datetime, *, write_inline: bool, fetch: Fetch | None = None
) -> Held:
    started = time.perf_counter()
    ranked, intent = run_search(rt, req, now)
    latency_ms = round((time.perf_counter() - started) * 1000, 1)
    if not ranked.hits:  # nothing found writes nothing (a recall must not create a user's first node)
        return Held([], None, ranked.query_vector)
    changes = _changes(rt, req)
    effects = None  # nothing to write: neither a change nor a record
    if changes or rt.settings.record_recalls:
        effects = effects_of(
            rt, req, ranked, ranked.hits, intent, now, changes=changes, latency_ms=latency_ms
        )
    if effects is not None and write_inline:
        rows = rt.store.unit_of_work(with_rows(effects, ranked.hits, req.readable, now))
        effects = None  # written
    else:  # the rows are read first, so hits show the state before this recall's effects
        ids = fetched(ranked.hits)
        if fetch is not None:
            rows = fetch(ids, now, ranked.query_vector)
        else:
            rows = rt.store.read("memory_fetch", ids=ids, tenants=req.readable, embedding=None, now=now)
    full = {r["memory"]["id"]: r["memory"] for r in rows}
    hits = [to_hit(h, full, ranked, now) for h in ranked.hits if h.id in full]
    if req.reconstruct:
        hits = reconstruct(rt, hits, user_id=req.user_id, tenants=req.readable, query=req.query, now=now)
    return Held(hits, effects, ranked.query_vector)


def _defer(rt: Runtime, user_id: str, effects: RecallEffects) -> None:
    """Hand ``effects`` to the runtime's background writer (graphmem.store.deferred); when its queue is full,
    write them here at once (back-pressure: nothing is dropped)."""
    if not rt.deferred.submit(effects, on_written=lambda: rt.changes.touch(user_id)):
        rt.store.unit_of_work(effects.apply)
        rt.changes.touch(user_id)


AUDIT = {"asked_keys": False, "state_weight": 0.0}
"""What a ``known_at`` read (an audit: what the engine knew then) ranks without, because each holds what use
taught after it: the asked key (the questions feedback marked a memory useful for, kept without a date per
question) and the memory state (retention and strength grow with every later recall). Nor does it take the
user's tuned weights (learnt from feedback up to now), and ranking skips the metamemory factor (inhibition and
conflicts recorded later): an audit ranks what was recorded by what it says (docs/temporal.md)."""


def run_search(rt: Runtime, req: RecallRequest, now: datetime | None = None) -> tuple[Ranked, str]:
    """Embed the query and run :func:`search` with the request's preset (or the settings' one)."""
    preset = rt.settings.preset() if req.preset is None else resolve_preset(req.preset)
    if req.known_at is not None:  # an audit: ranked by what was recorded, not by what use taught since
        preset = preset.model_copy(update=AUDIT)
    elif req.preset is None and rt.settings.adaptive_retrieval:  # the user's tuned weights (self-evolution)
        preset = tuned_preset(rt, req.user_id, preset)
    named = Named(req.query, req.query, req.query, ())
    if req.known_at is None:  # an audit reads the question as asked: the people as known now came later
        people = tenant_profile(rt, req.readable).people  # "my sister" is Ana (graphmem.model.relations)
        named = named_relatives(req.query, people, at=req.as_of)
    try:
        embedding: list[float] | None = embed_queries(rt, [named.vector], req.readable)[0]
    except EmbedderError as exc:  # the pool is then full-text only
        logger.warning("embedding the query failed; recall continues without vectors: %s", exc)
        embedding = None
    situation: list[float] | None = None
    if req.conversation and embedding is not None:  # a passage, like the context keys it is compared with
        try:
            situation = embed_checked(rt.embedder, ["\n".join(req.conversation)])[0]
        except EmbedderError as exc:
            logger.warning("embedding the conversation failed; recall continues without it: %s", exc)
    decision = resolve_views(req.query, req.views)
    ranked = search(
        rt,
        SearchRequest(
            query=named.text,
            named=named,
            user_id=req.user_id,
            user_key=tenant_keys(req.readable),
            tenants=tuple(req.readable),
            k=req.k,
            preset=preset,
            embedding=embedding,
            as_of=req.as_of,
            known_at=req.known_at,
            graph=req.hops > 0,
            views=decision.views,
            now=now,
            situation=situation,
            filters=req.filters,
        ),
    )
    return replace(ranked, query_vector=embedding), decision.intent.value


def tenant_keys(tenants: list[str]) -> str:
    """The full-text tenant clause's value: one tenant's token, or any of several (Lucene ``(a b)``)."""
    keys = [user_key(t) for t in tenants]
    return keys[0] if len(keys) == 1 else "(" + " ".join(keys) + ")"


def fetched(returned: list[RankedHit]) -> list[str]:
    """The ids recall reads back: its hits, and the sources each summary among them was found by (details)."""
    return list(dict.fromkeys([h.id for h in returned] + [d for h in returned for d in h.details]))


def to_hit(
    h: RankedHit, rows: Mapping[str, dict[str, Any]], ranked: Ranked, now: datetime | None = None
) -> Hit:
    """The public hit of ranked memory ``h`` from the fetched full rows by id (its own and its details')."""
    row = rows[h.id]
    via_graph = not h.sources
    meta = metamemory.of(row, now or datetime.now(UTC))
    details = [memory_from_row(rows[d]) for d in h.details if d in rows]
    return Hit(
        memory=memory_from_row(row),
        details=details,
        score=h.score,
        confidence=metamemory.confidence(h.confidence, meta),
        explanation=Explanation(
            search_level="graph" if via_graph else ranked.level,
            score_type="pagerank" if via_graph else ranked.fusion,
            raw_score=h.components["pagerank"] if via_graph else h.components["fused"],
            seed_sources=dict(h.sources),
            path=list(h.path),
            edge_types=list(h.edge_types),
            components=dict(h.components),
            metamemory=meta.as_dict(),
        ),
    )


def with_rows(
    effects: RecallEffects, returned: list[RankedHit], tenants: list[str], now: datetime
) -> Callable[[Tx], list[dict[str, Any]]]:
    """Recall's inline write as one unit of work (recall runs it; the plan warm-up rehearses it): the
    recall's effects (graphmem.retrieval.effects), then the returned memories' full rows read back (with the
    sources summaries were found by: :func:`fetched`)."""
    ids = fetched(returned)

    def work(tx: Tx) -> list[dict[str, Any]]:
        effects.apply(tx)
        return tx.run("memory_fetch", ids=ids, tenants=tenants, embedding=None, now=now) if ids else []

    return work


def feedback(
    rt: Runtime,
    *,
    memory_id: str,
    user_id: str,
    useful: bool,
    now: datetime | None = None,
    query: str | None = None,
) -> None:
    """Record feedback and move the memory's strength and importance (useful: up; not useful: down);
    ``query``: the question it judges (else the latest recall that returned the memory), the evidence of
    self-evolution (graphmem.dynamics.evolution)."""
    now = now or datetime.now(UTC)

    def work(tx: Tx) -> None:  # one transaction: the fetch locks the memory until the record is written
        rows = tx.run("feedback_fetch", memory_id=memory_id, user_id=user_id, now=now, query=query)
        if not rows:
            raise MemoryNotFound(memory_id)
        memory = rows[0]
        judged = query if query is not None else memory["recalled"]
        strength = float(memory["strength"] or 1.0)
        importance = float(memory["importance"] or 0.5)
        if useful:
            strength = reinforced_strength(strength, int(memory["access_count"] or 0))
            importance = min(1.0, importance + 0.05)
        else:
            strength = suppressed_strength(strength, penalty=0.2)
            importance = max(0.0, importance - 0.05)
        tx.run(
            "feedback_record",
            memory_id=memory_id,
            user_id=user_id,
            useful=useful,
            strength=strength,
            importance=importance,
            id=str(uuid.uuid4()),
            now=now,
            query=query,
            asked=asked_key(memory["asked"], None if judged is None else str(judged), useful),
        )

    rt.store.unit_of_work(work)


class PreloadCache:
    """Per-user cache of the session-start preload: stale once the user changed through this client
    (``Runtime.changes``), and expired after ``ttl`` seconds (for writes by other processes)."""

    def __init__(self, rt: Runtime, ttl: float = 300.0) -> None:
        self._rt = rt
        self._ttl = ttl
        self._entries: dict[str, tuple[float, int, int, list[Hit]]] = {}
        self._lock = threading.Lock()

    def get(self, user_id: str, k: int, *, now: datetime | None = None) -> list[Hit]:
        clock = time.monotonic()
        version = self._rt.changes.version(user_id)
        with self._lock:
            cached = self._entries.get(user_id)
        if cached and clock - cached[0] < self._ttl and cached[1] == version and cached[2] >= k:
            return cached[3][:k]
        rows = self._rt.store.read(
            "proactive_rank",
            user_id=user_id,
            now=now or datetime.now(UTC),
            k=k,
            recency_days=RECENCY_DAYS,
            frequency_ref=FREQUENCY_REF,
        )
        hits = [
            Hit(
                memory=memory_from_row(r["memory"]),
                score=float(r["score"] or 0.0),
                explanation=Explanation(
                    search_level="proactive", score_type="preload", raw_score=float(r["score"] or 0.0)
                ),
            )
            for r in rows
        ]
        with self._lock:
            self._entries[user_id] = (clock, version, k, hits)
        return hits
