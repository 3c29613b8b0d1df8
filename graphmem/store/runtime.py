"""What every use-case module needs: the store, the embedder and the settings."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Generic, TypeVar

from graphmem.config import Settings
from graphmem.embedding import Embedder
from graphmem.store.deferred import DeferredWriter
from graphmem.store.driver import QueryStore

V = TypeVar("V")


@dataclass(frozen=True)
class TenantProfile:
    """What recall needs to know of the tenants it reads before it searches: their size, the size of the
    whole store (the vector planner's input), the lower-cased names of their speakers and the people in the
    user's life (their current relation facts as (key, value): graphmem.model.relations)."""

    user_count: int
    total: int
    speakers: frozenset[str] = frozenset()
    people: tuple[tuple[str, str, datetime | None], ...] = ()  # key, value, valid from


class TtlCache(Generic[V]):
    """Values read from the store, kept per key for ``ttl`` seconds (at most ``limit`` keys, the oldest
    written dropped first). Thread-safe: one client serves many threads."""

    def __init__(self, ttl: float, limit: int = 100_000) -> None:
        self._ttl = ttl
        self._limit = limit
        self._lock = threading.Lock()
        self._entries: dict[str, tuple[float, V]] = {}

    def get(self, key: str) -> V | None:
        with self._lock:
            entry = self._entries.get(key)
        if entry is None or time.monotonic() - entry[0] > self._ttl:
            return None
        return entry[1]

    def put(self, key: str, value: V) -> None:
        with self._lock:
            self._entries.pop(key, None)  # re-inserted last: the dict's order is the order of writing
            self._entries[key] = (time.monotonic(), value)
            while len(self._entries) > self._limit:
                del self._entries[next(iter(self._entries))]

    def drop(self, key: str) -> None:
        with self._lock:
            self._entries.pop(key, None)


class TenantProfiles(TtlCache[TenantProfile]):
    """Recently read tenant profiles for the recall planner (a stale count only changes the plan, and the
    planner falls back to the exact scan when the index returns too few; a speaker added since is matched
    by full text as well until the entry expires). The people in a user's life are read with them: a
    relation written through this client drops the user's entries (:meth:`forget`); one written by another
    client is seen when the entry expires."""

    def __init__(self, ttl: float = 30.0) -> None:
        super().__init__(ttl)

    def forget(self, tenant: str) -> None:
        """Drop every entry whose readable tenants include ``tenant`` (its people changed)."""
        with self._lock:
            for key in [k for k in self._entries if tenant in k.split("\x1f")]:
                del self._entries[key]


class TunedParams(TtlCache[dict[str, float]]):
    """Recently read per-user tuned retrieval parameters (graphmem.dynamics.evolution): recall reads them at
    most once per ``ttl`` seconds per user; an adaptation or rollback through this client drops the entry."""

    def __init__(self, ttl: float = 60.0) -> None:
        super().__init__(ttl)


class TermCounts(TtlCache[int]):
    """Document frequencies of query terms in the readable tenants, by the full-text query that counted them
    (``recall_pool``'s ``df_queries``; the query names the tenants). Recall's BM25 needs each query term's
    count; counting costs the server one row per memory that holds the term (up to
    :data:`graphmem.retrieval.bm25.DF_CAP`), so a common term of a large tenant is the dearest part of a
    recall's full-text work (6 of 33 ms of a 100,000-memory tenant's pool query). Only counts of at least
    ``COMMON`` are kept: such a count moves by under 1 % per new memory holding the term, and BM25's idf by
    less (d idf / d df ≈ -1 / df); a rarer term is cheap to count and counted again each time."""

    COMMON = 100

    def __init__(self, ttl: float = 600.0) -> None:
        super().__init__(ttl)


VECTOR_INDEXES = ("memory_embedding", "memory_context_embedding")
"""The two vector indexes recall searches (own key and context key); formation searches the first."""

ENTITY_INDEXES = ("entity_embedding",)
"""The vector index of entity names, which formation's entity resolution asks where it filters by tenant."""

TENANT_FILTER = "user_id"
TIME_FILTERS = ("occurred_at", "recorded_at")
"""The filter properties both vector indexes list (``WITH [m.user_id, m.occurred_at, m.recorded_at]``,
Neo4j 2026.01+): the tenant, then the valid and transaction time an ``as_of`` / ``known_at`` read bounds."""


class VectorFilter:
    """The state of a set of vector indexes (``names``: by default the memories' two, ``VECTOR_INDEXES``),
    read once and kept: whether all of them are online (:meth:`online`), and
    what they can filter by inside the index (Neo4j 2026.01+, created by init() with
    ``WITH [m.user_id, m.occurred_at, m.recorded_at]``): by tenant (:meth:`ready`), then recall and formation
    ask them for a tenant's k nearest directly instead of over-fetching and filtering; and by time
    (:meth:`times`), then a time-scoped recall asks them too instead of scanning the tenant.

    An index that is missing or still populating (a migration rebuilds it) is never queried: Neo4j would
    block the query ~30 s and then fail it ("Expected index to come online within a reasonable time"), so
    recall and formation scan the tenant exactly and the associate job waits for its next run. Online is
    kept for the client's life; a caller whose index query fails anyway (another process rebuilds the
    index) calls :meth:`reset` and plans again. Not online is asked again after ``retry`` seconds, so the
    indexes are used again soon after they are populated."""

    def __init__(self, retry: float = 10.0, names: tuple[str, ...] = VECTOR_INDEXES) -> None:
        self._retry = retry
        self._names = names
        self._lock = threading.Lock()
        self._state: tuple[bool, frozenset[str]] | None = None
        self._read_at = 0.0

    def _read(self, store: QueryStore) -> tuple[bool, frozenset[str]]:
        with self._lock:
            known, read_at = self._state, self._read_at
        if known is not None and (known[0] or time.monotonic() - read_at < self._retry):
            return known
        rows = store.read("vector_index_filter", names=list(self._names))
        online = len(rows) == len(self._names) and all(r["state"] == "ONLINE" for r in rows)
        found = (
            frozenset.intersection(*(frozenset(r["properties"] or ()) for r in rows))
            if online
            else frozenset()
        )
        with self._lock:
            self._state, self._read_at = (online, found), time.monotonic()
        return online, found

    def online(self, store: QueryStore) -> bool:
        """Whether every index of the set exists and is online (may be queried)."""
        return self._read(store)[0]

    def properties(self, store: QueryStore) -> frozenset[str]:
        """The filter properties every index of the set lists, empty unless all are online."""
        return self._read(store)[1]

    def ready(self, store: QueryStore) -> bool:
        """Whether every index of the set filters by tenant."""
        return TENANT_FILTER in self.properties(store)

    def times(self, store: QueryStore) -> bool:
        """Whether all the indexes filter by tenant and both times: a time-scoped read may use them."""
        found = self.properties(store)
        return TENANT_FILTER in found and found.issuperset(TIME_FILTERS)

    def reset(self) -> None:
        with self._lock:
            self._state = None


class UserChanges:
    """A per-user change counter, bumped by every audited mutation (by graphmem.store.audit.record, or by the
    caller once a write with an in-transaction graphmem.store.audit.append has committed) and by recall:
    caches of derived per-user results (the proactive preload) compare it instead of being invalidated
    by hand at each write site."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._versions: dict[str, int] = {}

    def touch(self, user_id: str) -> None:
        with self._lock:
            self._versions[user_id] = self._versions.get(user_id, 0) + 1

    def version(self, user_id: str) -> int:
        with self._lock:
            return self._versions.get(user_id, 0)


@dataclass(frozen=True)
class Runtime:
    store: QueryStore
    embedder: Embedder
    settings: Settings
    tenant_profiles: TenantProfiles = field(default_factory=TenantProfiles, compare=False)
    changes: UserChanges = field(default_factory=UserChanges, compare=False)
    tuned: TunedParams = field(default_factory=TunedParams, compare=False)
    term_counts: TermCounts = field(default_factory=TermCounts, compare=False)
    vector_filter: VectorFilter = field(default_factory=VectorFilter, compare=False)
    entity_index: VectorFilter = field(
        default_factory=lambda: VectorFilter(names=ENTITY_INDEXES), compare=False
    )
    stranded_claims: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    """Idempotency claims this process could not release after its write failed (the server was gone):
    key id -> token, released by this process's next call with the key (graphmem.store.idempotency)."""
    deferred: DeferredWriter = field(init=False, compare=False, repr=False)
    """Writes taken off the request path (recall's effects under ``recall_effects="deferred"``)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "deferred", DeferredWriter(self.store))  # frozen: set once, here
