"""The facade agents use. Thin: each use case lives in its own module."""

from __future__ import annotations

import logging
from datetime import datetime
from types import TracebackType
from typing import Any

import neo4j

from graphmem.automation.control import Automation
from graphmem.automation.scheduler import Scheduler
from graphmem.config import MAX_BATCH, RetrievalPreset, Settings, resolve_preset
from graphmem.dynamics import forgetting
from graphmem.dynamics.jobs import ControlPlane, Jobs
from graphmem.embedding import Embedder, SentenceTransformerEmbedder
from graphmem.errors import ConfigurationError, ConnectionFailed, SchemaError, ValidationError
from graphmem.formation import edges
from graphmem.formation import writer as formation
from graphmem.governance import core_blocks as core_memory
from graphmem.governance import users as governance
from graphmem.governance import versioning
from graphmem.governance.users import DeletionReport
from graphmem.model import messages as inbound
from graphmem.model import validation as check
from graphmem.model.extraction import Extractor
from graphmem.models import CoreBlock, Fact, FactType, Hit, Memory, MemoryType, Priority, Source
from graphmem.retrieval import context as context_use_case
from graphmem.retrieval import recall as recall_use_case
from graphmem.retrieval.context import Context
from graphmem.store import audit, idempotency, migrations
from graphmem.store.audit import AuditEvent
from graphmem.store.driver import QueryStore, Store, translate_errors
from graphmem.store.queries import schema_statements
from graphmem.store.runtime import Runtime
from graphmem.temporal import facts as factbase
from graphmem.temporal import reads as temporal
from graphmem.temporal import snapshots
from graphmem.temporal.snapshots import GraphDiff, GraphSnapshot, TimelineEvent

logger = logging.getLogger(__name__)

VECTOR_INDEX = "memory_embedding"
MAX_HOPS = 5
MAX_TOKEN_BUDGET = 200_000
RECENT_HISTORY = 10


def _resolve_connection(
    uri: str | None, auth: tuple[str, str] | None, settings: Settings
) -> tuple[str, tuple[str, str]]:
    """Explicit arguments, else NEO4J_* settings, else the locally managed server's credentials."""
    uri = uri or settings.neo4j_uri
    if auth is None and settings.neo4j_password is not None:
        auth = (settings.neo4j_username or "neo4j", settings.neo4j_password)
    if uri is not None and auth is not None:
        return uri, auth
    from graphmem.server import LocalServer

    server = LocalServer(settings.home)
    status = server.status()
    if not status.running and uri is None:
        raise ConnectionFailed(
            f"no Neo4j to connect to: the local server in {status.home} is not running "
            "(start it with `graphmem server start`) and NEO4J_URI is not set"
        )
    if auth is None:
        if not status.password_file.exists():
            raise ConfigurationError(
                f"no password: set NEO4J_PASSWORD or start the local server (expected {status.password_file})"
            )
        auth = server.credentials()
    return uri or status.bolt_uri, auth


DRIVER_OPTIONS: dict[str, Any] = {
    # A young graph lacks properties that queries mention (expired_at, ...): not worth a warning.
    "notifications_disabled_classifications": [neo4j.NotificationDisabledClassification.UNRECOGNIZED],
}
"""Options of every driver graphmem opens, sync (GraphMemory) or async (AsyncGraphMemory)."""


def _open_store(
    uri: str | None, auth: tuple[str, str] | None, database: str | None, settings: Settings
) -> Store:
    uri, auth = _resolve_connection(uri, auth, settings)
    driver = neo4j.GraphDatabase.driver(uri, auth=auth, **DRIVER_OPTIONS)
    with translate_errors():
        try:
            driver.verify_connectivity()
        except Exception:
            driver.close()
            raise
    return Store(driver, database or settings.neo4j_database)


def default_embedder(settings: Settings) -> Embedder:
    return SentenceTransformerEmbedder(settings.embedding_model, device=settings.embedding_device)


class GraphMemory:
    """Long-term memory for agents, on Neo4j.

    >>> with GraphMemory.connect() as mem:
    ...     mem.init()
    ...     mem.remember("I adopted a dog named Rex", user_id="alice")
    ...     hits = mem.recall("what is my pet called?", user_id="alice")
    """

    def __init__(
        self, store: QueryStore, embedder: Embedder, settings: Settings, extractor: Extractor | None = None
    ) -> None:
        self._rt = Runtime(store=store, embedder=embedder, settings=settings)
        self._extractor = extractor  # None: graphmem.model.extraction.PatternExtractor (no LLM)
        self._control = ControlPlane.build(self._rt)  # no thread until scheduler.start()
        self._preload = recall_use_case.PreloadCache(self._rt)

    # --- lifecycle
    @classmethod
    def connect(
        cls,
        uri: str | None = None,
        auth: tuple[str, str] | None = None,
        database: str | None = None,
        *,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        extractor: Extractor | None = None,
    ) -> GraphMemory:
        """Connect to the locally managed server (no arguments), or to any Neo4j 5.26+ by URI."""
        settings = settings or Settings()
        store = _open_store(uri, auth, database, settings)
        return cls(store, embedder or default_embedder(settings), settings, extractor)

    def close(self) -> None:
        self._control.scheduler.shutdown(wait=False)
        self._rt.store.close()

    def __enter__(self) -> GraphMemory:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @property
    def embedder(self) -> Embedder:
        return self._rt.embedder

    # --- dynamics and automation (graphmem.dynamics, graphmem.automation)
    @property
    def jobs(self) -> Jobs:
        """Run, list, enable, disable and reconcile the maintenance jobs (decay, forget, consolidate, ...)."""
        return self._control.jobs

    @property
    def automation(self) -> Automation:
        """The stored automation config (versioned), job-run history and health."""
        return self._control.automation

    @property
    def scheduler(self) -> Scheduler:
        """The in-process APScheduler: ``start()``, then ``jobs.reconcile()`` loads the stored schedules."""
        return self._control.scheduler

    # --- schema
    def init(self) -> None:
        """Create graphmem's constraints and indexes (idempotent). Never called implicitly."""
        dimension = self._rt.embedder.dimension
        existing = self._rt.store.read("vector_index_options", name=VECTOR_INDEX)
        if existing:
            config = existing[0]["options"].get("indexConfig", {})
            found = config.get("vector.dimensions")
            if found is not None and int(found) != dimension:
                raise SchemaError(
                    f"vector index {VECTOR_INDEX!r} has dimension {found}, but the embedder produces "
                    f"{dimension}: drop the index or use an embedder of dimension {found}"
                )
        migrations.migrate(self._rt)
        for name, statement in schema_statements():
            logger.debug("schema: %s", name)
            self._rt.store.run_statement(statement, {"dimension": dimension})

    # --- write
    def remember(
        self,
        content: str,
        *,
        user_id: str,
        session_id: str | None = None,
        memory_type: MemoryType | str | None = None,
        occurred_at: datetime | None = None,
        metadata: dict[str, Any] | None = None,
        priority: Priority | str | None = None,
        importance: float = 0.5,
        tags: list[str] | None = None,
        agent_id: str | None = None,
        source: Source | str = Source.USER,
        idempotency_key: str | None = None,
    ) -> Memory:
        """Store one memory (atomically). With a session, it follows that session's previous memory.
        A repeat with the same ``idempotency_key`` returns the first result and writes nothing."""
        draft = formation.MemoryDraft(
            content=check.text(content, "content", max_chars=self._rt.settings.max_content_chars),
            user_id=check.user_id(user_id),
            session_id=check.identifier(session_id, "session_id", required=False),
            agent_id=check.identifier(agent_id, "agent_id", required=False),
            memory_type=None if memory_type is None else check.enum(memory_type, MemoryType, "memory_type"),
            priority=None if priority is None else check.enum(priority, Priority, "priority"),
            importance=check.unit_interval(importance, "importance"),
            occurred_at=check.aware_datetime(occurred_at, "occurred_at"),
            metadata=check.metadata(metadata),
            tags=check.tags(tags),
            source=check.enum(source, Source, "source"),
        )
        key = check.identifier(idempotency_key, "idempotency_key", required=False)

        def write(claim: idempotency.Claim) -> Memory:
            step = idempotency.audited(claim, "remember", user_id=draft.user_id, actor=draft.agent_id)
            memory = formation.form(
                self._rt, [draft], extractor=self._extractor, on_commit=lambda tx, ids: step(tx, ids, None)
            )[0]
            self._rt.changes.touch(draft.user_id)
            return memory

        return idempotency.once(
            self._rt,
            user_id=draft.user_id,
            key=key,
            action="remember",
            perform=write,
            replay=lambda ids: idempotency.memories(self._rt, draft.user_id, ids)[0],
        )

    def add_messages(
        self,
        messages: list[Any],
        *,
        user_id: str,
        session_id: str,
        agent_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> list[Memory]:
        """Store a conversation's messages (one transaction per call, at most ``MAX_BATCH``), one Memory each.

        ``messages``: dicts ``{role, content, timestamp?, name?, metadata?}``, Google ADK ``Content`` objects
        or their dict form, or plain strings (user turns). A near-duplicate reinforces the memory it repeats,
        which is returned in its place.
        """
        turns = inbound.normalize_all(
            messages, max_batch=MAX_BATCH, max_chars=self._rt.settings.max_content_chars
        )
        uid = check.user_id(user_id)
        sid = check.identifier(session_id, "session_id")
        aid = check.identifier(agent_id, "agent_id", required=False)
        assert sid is not None
        key = check.identifier(idempotency_key, "idempotency_key", required=False)

        def write(claim: idempotency.Claim) -> list[Memory]:
            step = idempotency.audited(claim, "add_messages", user_id=uid, actor=aid)
            memories = formation.add_turns(
                self._rt,
                turns,
                user_id=uid,
                session_id=sid,
                agent_id=aid,
                extractor=self._extractor,
                on_commit=lambda tx, ids: step(tx, ids, None),
            )
            self._rt.changes.touch(uid)
            return memories

        return idempotency.once(
            self._rt,
            user_id=uid,
            key=key,
            action="add_messages",
            perform=write,
            replay=lambda ids: idempotency.memories(self._rt, uid, ids),
        )

    def set_fact(
        self,
        user_id: str,
        key: str,
        value: str,
        *,
        fact_type: FactType | str = FactType.CUSTOM,
        valid_from: datetime | None = None,
        source: Source | str | None = None,
        agent_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> Fact:
        """Set a fact value: supersede the current version, keep both as a conflict, or merge.
        A repeat with the same ``idempotency_key`` returns the first result and writes nothing."""
        new = factbase.FactInput(
            user_id=check.user_id(user_id),
            key=check.text(key, "key", max_chars=check.MAX_ID_CHARS),
            value=check.text(value, "value", max_chars=self._rt.settings.max_content_chars),
            fact_type=check.enum(fact_type, FactType, "fact_type"),
            agent_id=check.identifier(agent_id, "agent_id", required=False),
            valid_from=check.aware_datetime(valid_from, "valid_from"),
            source=Source.USER if source is None else check.enum(source, Source, "source"),
        )
        idem = check.identifier(idempotency_key, "idempotency_key", required=False)

        def write(claim: idempotency.Claim) -> Fact:
            step = idempotency.audited(claim, "set_fact", user_id=new.user_id, actor=new.agent_id)
            fact = factbase.set_fact(self._rt, new, on_commit=lambda tx, f: step(tx, [f.id], f.version))
            self._rt.changes.touch(new.user_id)
            return fact

        return idempotency.once(
            self._rt,
            user_id=new.user_id,
            key=idem,
            action="set_fact",
            perform=write,
            replay=lambda ids: idempotency.fact(self._rt, new.user_id, ids),
        )

    def retract_fact(
        self,
        user_id: str,
        key: str,
        *,
        valid_to: datetime | None = None,
        agent_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> Fact:
        """Retract a fact's current version without erasing history. Without ``valid_to`` it was never true
        as recorded: from now on no ``as_of`` finds it (an earlier ``known_at`` still does). With
        ``valid_to`` it was true until then: a new version (status ``ended``) valid over
        ``[valid_from, valid_to)`` is recorded. Returns that version, or the retracted one (status
        ``retracted``); afterwards the key has no current value (``get_fact()`` without times is None).
        Raises ``FactNotFound`` when the key has no current version, ``ValidationError`` when ``valid_to``
        does not follow its ``valid_from``. A repeat with the same ``idempotency_key`` returns the first
        result and writes nothing."""
        uid = check.user_id(user_id)
        fact_key = check.text(key, "key", max_chars=check.MAX_ID_CHARS)
        aid = check.identifier(agent_id, "agent_id", required=False)
        end = check.aware_datetime(valid_to, "valid_to")

        def write(claim: idempotency.Claim) -> Fact:
            step = idempotency.audited(claim, "retract_fact", user_id=uid, actor=aid)
            fact = factbase.retract_fact(
                self._rt,
                uid,
                fact_key,
                agent_id=aid,
                valid_to=end,
                on_commit=lambda tx, f: step(tx, [f.id], f.version),
            )
            self._rt.changes.touch(uid)
            return fact

        return idempotency.once(
            self._rt,
            user_id=uid,
            key=check.identifier(idempotency_key, "idempotency_key", required=False),
            action="retract_fact",
            perform=write,
            replay=lambda ids: idempotency.fact(self._rt, uid, ids),
        )

    def get_fact(
        self,
        user_id: str,
        key: str,
        *,
        as_of: datetime | None = None,
        known_at: datetime | None = None,
        agent_id: str | None = None,
    ) -> Fact | None:
        """The current version of a fact, or None. With ``as_of`` (valid time: what was true then) and/or
        ``known_at`` (transaction time: what had been recorded by then), the version that held then, as it
        read at ``known_at``; the other defaults to now. Naive datetimes are read as UTC."""
        uid = check.user_id(user_id)
        fact_key = check.text(key, "key", max_chars=check.MAX_ID_CHARS)
        aid = check.identifier(agent_id, "agent_id", required=False)
        valid_at = check.aware_datetime(as_of, "as_of")
        recorded_by = check.aware_datetime(known_at, "known_at")
        if valid_at is None and recorded_by is None:
            return factbase.get_fact(self._rt, uid, fact_key, agent_id=aid)
        return temporal.fact_at(self._rt, uid, fact_key, agent_id=aid, as_of=valid_at, known_at=recorded_by)

    def fact_history(self, user_id: str, key: str, *, agent_id: str | None = None) -> list[Fact]:
        """Every version of a fact, oldest first, with valid time (``valid_from``/``valid_to``) and
        transaction time (``recorded_at``/``expired_at``); kept contradictions have status ``conflicted``."""
        return temporal.fact_history(
            self._rt,
            check.user_id(user_id),
            check.text(key, "key", max_chars=check.MAX_ID_CHARS),
            agent_id=check.identifier(agent_id, "agent_id", required=False),
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
        """Add an edge between two memories of one user; ``rel_type`` from ``linking.LINK_TYPES``."""
        edges.link(
            self._rt,
            check.identifier(src_id, "src_id") or "",
            check.identifier(dst_id, "dst_id") or "",
            edges.check_rel_type(rel_type),
            weight=check.unit_interval(weight, "weight"),
            valid_from=check.aware_datetime(valid_from, "valid_from"),
        )

    def forget(self, memory_id: str, *, user_id: str) -> None:
        """Soft-forget one of the user's memories (status ``forgotten``, restorable with ``jobs.restore``)."""
        uid = check.user_id(user_id)
        forgetting.forget(self._rt, check.identifier(memory_id, "memory_id") or "", uid)

    # --- core memory blocks (graphmem.governance.core_blocks)
    def core_blocks(self, user_id: str) -> list[CoreBlock]:
        """The user's core memory blocks (pinned first in every ``context()``), by label."""
        return core_memory.list_blocks(self._rt, check.user_id(user_id))

    def set_core_block(
        self,
        user_id: str,
        label: str,
        value: str,
        *,
        limit: int = core_memory.DEFAULT_LIMIT,
        description: str = "",
        read_only: bool = False,
    ) -> CoreBlock:
        """Create or overwrite a core memory block; the previous value is kept in its history."""
        spec = core_memory.check_spec(self._rt, label, limit, description, read_only)
        return core_memory.set_block(self._rt, check.user_id(user_id), spec, core_memory.block_value(value))

    def core_append(self, user_id: str, label: str, text: str) -> CoreBlock:
        """Append a line to a block (errors: missing or read-only block, limit exceeded)."""
        max_chars = self._rt.settings.max_content_chars
        return core_memory.append(
            self._rt,
            check.user_id(user_id),
            check.identifier(label, "label") or "",
            check.text(text, "text", max_chars=max_chars),
        )

    def core_replace(self, user_id: str, label: str, old: str, new: str) -> CoreBlock:
        """Replace ``old`` by ``new`` in a block (errors: ``old`` not in the block, read-only, limit)."""
        max_chars = self._rt.settings.max_content_chars
        return core_memory.replace(
            self._rt,
            check.user_id(user_id),
            check.identifier(label, "label") or "",
            check.text(old, "old", max_chars=max_chars),
            core_memory.block_value(new, "new"),
        )

    def core_history(self, user_id: str, label: str) -> list[CoreBlock]:
        """Every version of a core memory block, newest first."""
        return core_memory.history(self._rt, check.user_id(user_id), check.identifier(label, "label") or "")

    # --- read
    def recall(
        self,
        query: str,
        *,
        user_id: str,
        k: int = 10,
        as_of: datetime | None = None,
        hops: int = 3,
        views: dict[str, float] | None = None,
        reinforce: bool = True,
        preset: str | RetrievalPreset | None = None,
    ) -> list[Hit]:
        """The user's k most relevant memories: a wide pool from vector and full-text search with its graph
        neighbourhood, ranked by fusion and personalized PageRank (docs/recall.md); each hit has a
        calibrated ``confidence``.

        ``as_of`` recalls what the engine held at that time (and never changes memory); ``views`` overrides
        the view weights chosen from the query's intent; ``hops=0`` ranks without the graph;
        ``reinforce=False`` makes the recall read-only; ``preset`` (a name in ``graphmem.config.PRESETS``
        or a ``RetrievalPreset``) overrides the settings' preset for this call.
        """
        request = recall_use_case.RecallRequest(
            query=check.text(query, "query", max_chars=self._rt.settings.max_content_chars),
            user_id=check.user_id(user_id),
            k=check.k(k),
            as_of=check.aware_datetime(as_of, "as_of"),
            hops=check.bounded_int(hops, "hops", 0, MAX_HOPS),
            views=check.views(views),
            reinforce=check.boolean(reinforce, "reinforce"),
            preset=None if preset is None else resolve_preset(preset),
        )
        hits = recall_use_case.recall(self._rt, request)
        if request.reinforce and request.as_of is None:
            self._rt.changes.touch(request.user_id)
        return hits

    def context(
        self, query: str, *, user_id: str, token_budget: int = 2000, k: int = 10, reinforce: bool = True
    ) -> Context:
        """A prompt-ready context within ``token_budget`` tokens: current facts, then recalled memories,
        then recent history; lowest-ranked items are dropped first and reported in ``dropped``."""
        uid = check.user_id(user_id)
        budget = check.bounded_int(token_budget, "token_budget", 1, MAX_TOKEN_BUDGET)
        hits = self.recall(query, user_id=uid, k=k, reinforce=reinforce)
        facts = self._rt.store.read("context_facts", user_id=uid)
        recent = self._rt.store.read("context_recent", user_id=uid, k=RECENT_HISTORY)
        core = core_memory.list_blocks(self._rt, uid)
        count = context_use_case.token_counter(self._rt)
        return context_use_case.fit(
            context_use_case.candidate_items(facts, hits, recent, count, core=core), budget, count
        )

    def proactive(self, user_id: str, *, k: int = 10) -> list[Hit]:
        """Memories to preload at session start, ranked by importance, recency and frequency (cached per user,
        invalidated by this client's writes, refreshed after ``proactive_ttl`` seconds)."""
        return self._preload.get(check.user_id(user_id), check.k(k))

    def feedback(self, memory_id: str, *, user_id: str, useful: bool) -> None:
        """Say whether a recalled memory helped: it is recorded, and the memory gains or loses strength."""
        uid = check.user_id(user_id)
        recall_use_case.feedback(
            self._rt,
            memory_id=check.identifier(memory_id, "memory_id") or "",
            user_id=uid,
            useful=check.boolean(useful, "useful"),
        )
        self._rt.changes.touch(uid)

    def query(self, cypher: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Run your own Cypher in a read transaction (writes are refused by the server)."""
        check.text(cypher, "cypher", max_chars=100_000)
        return self._rt.store.run_readonly(cypher, params)

    def update_memory(
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
        ``VersionConflict``, nothing written); the previous version stays readable in ``memory_history``.
        A repeat with the same ``idempotency_key`` returns the first result and writes nothing."""
        uid = check.user_id(user_id)
        change = versioning.MemoryUpdate(
            content=None
            if content is None
            else check.text(content, "content", max_chars=self._rt.settings.max_content_chars),
            metadata=None if metadata is None else check.metadata(metadata),
            priority=None if priority is None else check.enum(priority, Priority, "priority"),
        )
        mid = check.identifier(memory_id, "memory_id") or ""
        expected = check.bounded_int(expected_version, "expected_version", 1, 2**62)
        updated = idempotency.once(
            self._rt,
            user_id=uid,
            key=check.identifier(idempotency_key, "idempotency_key", required=False),
            action="update_memory",
            perform=lambda claim: versioning.update(
                self._rt, mid, user_id=uid, change=change, expected_version=expected, claim=claim
            ),
            replay=lambda ids: versioning.history(self._rt, mid, user_id=uid)[int(ids[1]) - 1],
        )
        self._rt.changes.touch(uid)
        return updated

    def memory_history(self, memory_id: str, *, user_id: str) -> list[Memory]:
        """Every version of a memory, oldest first."""
        return versioning.history(
            self._rt, check.identifier(memory_id, "memory_id") or "", user_id=check.user_id(user_id)
        )

    # --- the graph over time (graphmem.temporal.snapshots)
    def timeline(
        self, user_id: str, *, start: datetime | None = None, end: datetime | None = None
    ) -> list[TimelineEvent]:
        """A user's dated events, oldest first: memories, updates, forgetting, fact versions recorded and
        closed; ``start``/``end`` bound them (inclusive)."""
        return snapshots.timeline(
            self._rt,
            check.user_id(user_id),
            start=check.aware_datetime(start, "start"),
            end=check.aware_datetime(end, "end"),
        )

    def snapshot(self, user_id: str, *, as_of: datetime, known_at: datetime | None = None) -> GraphSnapshot:
        """The user's nodes and edges valid at ``as_of`` as recorded by ``known_at`` (default: now);
        ``to_networkx()`` and ``to_json()`` export it."""
        valid_at = check.aware_datetime(as_of, "as_of")
        if valid_at is None:
            raise ValidationError("as_of", "is required")
        return snapshots.snapshot(
            self._rt,
            check.user_id(user_id),
            as_of=valid_at,
            known_at=check.aware_datetime(known_at, "known_at"),
        )

    def diff(
        self, user_id: str, t1: datetime, t2: datetime, *, known_at: datetime | None = None
    ) -> GraphDiff:
        """What was added, closed or changed in the user's graph between valid times ``t1`` and ``t2``, both
        read as recorded by ``known_at`` (default: now; pass ``known_at=t1`` etc. for what was known then)."""
        start, end = check.aware_datetime(t1, "t1"), check.aware_datetime(t2, "t2")
        if start is None or end is None:
            raise ValidationError("t1" if start is None else "t2", "is required")
        return snapshots.diff(
            self._rt, check.user_id(user_id), start, end, known_at=check.aware_datetime(known_at, "known_at")
        )

    # --- audit and governance (graphmem.store.audit, graphmem.governance.users)
    def audit_log(
        self, *, user_id: str | None = None, target_id: str | None = None, since: datetime | None = None
    ) -> list[AuditEvent]:
        """Audit events, oldest first; ``user_id`` also finds a deleted user's tombstone."""
        return audit.log(
            self._rt,
            user_id=check.identifier(user_id, "user_id", required=False),
            target_id=check.identifier(target_id, "target_id", required=False),
            since=check.aware_datetime(since, "since"),
        )

    def export_user(self, user_id: str) -> dict[str, Any]:
        """Everything stored about a user (fact history and audit included), JSON-serializable."""
        return governance.export_user(self._rt, check.user_id(user_id))

    def delete_user(self, user_id: str, *, actor: str | None = None) -> DeletionReport:
        """Hard-delete every node and relationship of a user, in batches (idempotent); the audit keeps a
        tombstone holding only a hash of the user id."""
        return governance.delete_user(
            self._rt, check.user_id(user_id), actor=check.identifier(actor, "actor", required=False)
        )

    def anonymize_user(self, user_id: str, *, actor: str | None = None) -> int:
        """Redact a user's content and personal fields, keeping structure and counts; nodes touched."""
        return governance.anonymize_user(
            self._rt, check.user_id(user_id), actor=check.identifier(actor, "actor", required=False)
        )

    def govern_memory(self, memory_id: str, *, user_id: str, decision: str, actor: str | None = None) -> None:
        """Apply a governance decision to one memory: ``retain``, ``delete`` or ``anonymize`` (audited)."""
        governance.govern_memory(
            self._rt,
            check.identifier(memory_id, "memory_id") or "",
            user_id=check.user_id(user_id),
            decision=check.enum(decision, governance.Decision, "decision"),
            actor=check.identifier(actor, "actor", required=False),
        )
