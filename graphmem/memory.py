"""The facade agents use. Thin: each use case lives in its own module."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from types import TracebackType
from typing import Any

from graphmem.automation.control import Automation
from graphmem.automation.scheduler import Scheduler
from graphmem.config import MAX_BATCH, RetrievalPreset, Settings
from graphmem.dynamics import forgetting
from graphmem.dynamics.jobs import ControlPlane, Jobs
from graphmem.dynamics.topics import Topics
from graphmem.embedding import Embedder, make_embedder
from graphmem.facade import Core, Facts, Memories, Temporal, Users
from graphmem.facade._schema import init_schema
from graphmem.facade._warm import warm
from graphmem.facade._write import audited_write
from graphmem.formation import writer as formation
from graphmem.model import messages as inbound
from graphmem.model import new_ids
from graphmem.model import validation as check
from graphmem.model.extraction import Extractor
from graphmem.model.scopes import Scope
from graphmem.model.timescope import TimeScope
from graphmem.models import Hit, Memory, MemoryType, Priority, Source
from graphmem.retrieval import context as context_use_case
from graphmem.retrieval import recall as recall_use_case
from graphmem.retrieval.context import Context
from graphmem.store import embedding_space, idempotency
from graphmem.store._bridge import in_bridge
from graphmem.store.connection import open_store
from graphmem.store.driver import QueryStore
from graphmem.store.idempotency import Step
from graphmem.store.runtime import Runtime

logger = logging.getLogger(__name__)


def default_embedder(settings: Settings) -> Embedder:
    return make_embedder(settings.embedding_model, device=settings.embedding_device)


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
        self._facts = Facts(self._rt)
        self._core = Core(self._rt)
        self._memories = Memories(self._rt)
        self._users = Users(self._rt)
        self._temporal = Temporal(self._rt)
        self.topics = Topics(self._rt)
        """Topics of a user's memories (graphmem.dynamics.topics): ``rebuild``, ``list``, ``memories``."""

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
        store = open_store(uri, auth, database, settings)
        return cls(store, embedder or default_embedder(settings), settings, extractor)

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until the recall effects queued so far are written (``Settings.recall_effects="deferred"``:
        recall hands its reinforcement, inhibition and RecallEvent to a background writer; inline mode
        queues nothing); False if ``timeout`` seconds passed first. :meth:`close` flushes as well."""
        return self._rt.deferred.flush(timeout)

    def close(self) -> None:
        """Write the queued recall effects (:meth:`flush`), stop the scheduler, close the driver. A job the
        in-process scheduler is running ends first (the driver closed under it failed it); not from
        ``AsyncGraphMemory``, whose jobs need the event loop this call holds."""
        self._rt.deferred.close()
        self._control.scheduler.shutdown(wait=not in_bridge())
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

    @property
    def runtime(self) -> Runtime:
        """The store, embedder and settings this facade runs on: the public handle for adapters, tools and
        tests that call a use-case module or the store directly (``mem.runtime.store.read(...)``)."""
        return self._rt

    # --- namespaces (graphmem.facade)
    @property
    def facts(self) -> Facts:
        """Bi-temporal facts: ``set``, ``get`` (``as_of``/``known_at``), ``retract``, ``history``."""
        return self._facts

    @property
    def core(self) -> Core:
        """Core memory blocks, pinned first: ``list``, ``set``, ``append``, ``replace``, ``history``."""
        return self._core

    @property
    def memories(self) -> Memories:
        """Single memories: ``update``, ``history``, ``link``, ``govern``, ``feedback``, ``proactive``."""
        return self._memories

    @property
    def users(self) -> Users:
        """A user's data as a whole (GDPR): ``export``, ``delete``, ``anonymize``."""
        return self._users

    @property
    def temporal(self) -> Temporal:
        """The graph over time and its audit trail: ``timeline``, ``snapshot``, ``diff``, ``audit_log``."""
        return self._temporal

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
        init_schema(self._rt)

    def reembed(self, *, progress: Callable[[int, int], None] | None = None) -> dict[str, int]:
        """Re-embed every memory, entity and stored fact text vector with this instance's embedder (after
        changing the embedding model), then record its vector space; ``progress(done, total)`` is called
        after each page."""
        return embedding_space.reembed(self._rt.store, self._rt.embedder, progress=progress)

    def warm(self, *, plans: bool = True) -> float:
        """Prepare a long-running process (the REST API and MCP server call it at start-up): load the
        embedding model, plan recall's and formation's statements (``plans``), freeze what start-up made out
        of Python's cyclic collector (``gc.freeze``: recall's p95 without its pauses). Returns the seconds."""
        return warm(self._rt, self._rt.embedder, plans=plans)

    # --- write
    def remember(
        self,
        content: str,
        *,
        user_id: str | None = None,
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
        org_id: str | None = None,
        scope: Scope | str = Scope.USER,
    ) -> Memory:
        """Store one memory (atomically). With a session, it follows that session's previous memory.
        A repeat with the same ``idempotency_key`` returns the first result and writes nothing.
        ``scope``: whose memory it is (docs/scopes.md): ``user`` (default), ``session`` (only this session
        of the user reads it), ``agent`` (every user of ``agent_id``) or ``org`` (all of ``org_id``)."""
        who = new_ids.written(check.caller(user_id, session_id, agent_id, org_id))
        owner = who.tenant(check.scope(scope))
        shared = owner not in who.personal()
        draft = formation.MemoryDraft(
            content=check.text(content, "content", max_chars=self._rt.settings.max_content_chars),
            user_id=owner,
            session_id=None if shared else who.session_id,  # a shared memory carries no user's session
            agent_id=who.agent_id,
            org_id=who.org_id,
            memory_type=None if memory_type is None else check.enum(memory_type, MemoryType, "memory_type"),
            priority=None if priority is None else check.enum(priority, Priority, "priority"),
            importance=check.unit_interval(importance, "importance"),
            occurred_at=check.aware_datetime(occurred_at, "occurred_at"),
            metadata=check.stored_metadata(metadata, max_bytes=self._rt.settings.max_metadata_bytes),
            tags=check.tags(tags),
            source=check.enum(source, Source, "source"),
        )
        key = check.identifier(idempotency_key, "idempotency_key", required=False)

        def write(step: Step) -> Memory:
            return formation.form(
                self._rt, [draft], extractor=self._extractor, on_commit=lambda tx, ids: step(tx, ids, None)
            )[0]

        return audited_write(
            self._rt,
            "remember",
            user_id=draft.user_id,
            actor=draft.agent_id,
            key=key,
            write=write,
            replay=lambda ids: idempotency.memories(self._rt, draft.user_id, ids)[0],
        )

    def add_messages(
        self,
        messages: list[Any],
        *,
        user_id: str | None = None,
        session_id: str,
        agent_id: str | None = None,
        idempotency_key: str | None = None,
        org_id: str | None = None,
        scope: Scope | str = Scope.USER,
    ) -> list[Memory]:
        """Store a conversation's messages (one transaction per call, at most ``MAX_BATCH``), one Memory each.
        ``scope`` as for :meth:`remember` (``user`` or ``session`` keep the session's chain; a shared scope
        stores the turns without it).

        ``messages``: dicts ``{role, content, timestamp?, name?, metadata?, tags?}`` (``content`` a string or
        a list of text parts: ``[{"type": "text", "text": ...}]``), Google ADK ``Content`` objects or their
        dict form, or plain strings (user turns). A near-duplicate reinforces the memory it repeats,
        which is returned in its place.
        """
        turns = inbound.normalize_all(
            messages, max_batch=MAX_BATCH, max_chars=self._rt.settings.max_content_chars
        )
        session = check.identifier(session_id, "session_id")
        who = new_ids.written(check.caller(user_id, session, agent_id, org_id))
        uid = who.tenant(check.scope(scope))
        sid = who.session_id if uid in who.personal() else None
        aid = who.agent_id
        key = check.identifier(idempotency_key, "idempotency_key", required=False)

        def write(step: Step) -> list[Memory]:
            return formation.add_turns(
                self._rt,
                turns,
                user_id=uid,
                session_id=sid,
                agent_id=aid,
                org_id=who.org_id,
                extractor=self._extractor,
                on_commit=lambda tx, ids: step(tx, ids, None),
            )

        return audited_write(
            self._rt,
            "add_messages",
            user_id=uid,
            actor=aid,
            key=key,
            write=write,
            replay=lambda ids: idempotency.memories(self._rt, uid, ids),
        )

    def forget(self, memory_id: str, *, user_id: str) -> None:
        """Soft-forget one of the user's memories (status ``forgotten``, restorable with ``jobs.restore``)."""
        uid = check.user_id(user_id)
        forgetting.forget(self._rt, check.identifier(memory_id, "memory_id") or "", uid)

    # --- read
    def recall(
        self,
        query: str,
        *,
        user_id: str | None = None,
        k: int = 10,
        as_of: datetime | None = None,
        hops: int = 3,
        views: dict[str, float] | None = None,
        reinforce: bool = True,
        known_at: datetime | None = None,
        preset: str | RetrievalPreset | None = None,
        session_id: str | None = None,
        agent_id: str | None = None,
        org_id: str | None = None,
        reconstruct: bool = False,
        conversation: str | list[str] | None = None,
        filters: dict[str, Any] | None = None,
    ) -> list[Hit]:
        """The user's k most relevant memories: a wide pool from vector and full-text search with its graph
        neighbourhood, ranked by fusion and personalized PageRank (docs/recall.md); each hit has a
        calibrated ``confidence``.

        ``as_of`` (valid time) recalls what had happened by then (the memories' ``occurred_at``, e.g. the
        message timestamps); ``known_at`` (transaction time) what the engine had recorded by then; both
        together: what was known at ``known_at`` about ``as_of`` (docs/temporal.md). Either makes the
        recall read-only. For a present-tense question, statements superseded by then rank lower.
        ``views`` overrides the view weights chosen from the query's intent; ``hops=0`` ranks without the
        graph; ``reinforce=False`` makes the recall read-only; ``preset`` (a name in
        ``graphmem.config.PRESETS`` or a ``RetrievalPreset``) overrides the settings' preset for this call.
        ``session_id``/``agent_id``/``org_id`` add the memories of those scopes to the user's own
        (docs/scopes.md): that session's, the agent's shared ones, the organisation's.
        ``reconstruct=True``: a hit that cannot stand alone ("Yes, it was amazing!") carries a recorded
        ``reconstruction`` read from its neighbours, with a lower confidence (docs/dynamics.md).
        ``conversation``: the turns the question comes from (oldest first; the latest two count): memories
        whose context resembles them rank up to 10 % higher (context-dependent recall, docs/dynamics.md).
        ``filters``: ``{"memory_type": ..., "tags": [...], "metadata": {...}}``, which memories it may return
        (graphmem.model.recall_filter)."""
        who = check.caller(user_id, session_id, agent_id, org_id)
        request = recall_use_case.checked_request(
            self._rt.settings,
            query,
            who,
            k=k,
            reinforce=reinforce,
            conversation=conversation,
            as_of=as_of,
            known_at=known_at,
            hops=hops,
            views=views,
            preset=preset,
            reconstruct=reconstruct,
            filters=filters,
        )
        return recall_use_case.recall(self._rt, request)

    def context(
        self,
        query: str,
        *,
        user_id: str | None = None,
        token_budget: int | None = None,
        k: int = 10,
        reinforce: bool = True,
        as_of: datetime | None = None,
        known_at: datetime | None = None,
        session_id: str | None = None,
        agent_id: str | None = None,
        org_id: str | None = None,
        conversation: str | list[str] | None = None,
        filters: dict[str, Any] | None = None,
    ) -> Context:
        """A prompt-ready context within ``token_budget`` tokens (None: the automation configuration's
        ``context_budget``, 2,000 unless set, read with the context: no extra round trip): the ``k`` current
        facts and the ``k`` rules most relevant to the query, then the recalled memories whose confidence
        reaches 0.5 as relevant (or a notice that none does), the other recalled memories as possibly related,
        recent history, and the other current facts; lowest-ranked items are dropped first and reported in
        ``dropped``. ``as_of``/``known_at``: the context as it would have been assembled then (the facts valid
        at ``as_of`` as recorded by ``known_at``; recall and history at the same times). The scopes,
        ``conversation`` and ``filters`` are those of :meth:`recall` (the filters choose the recalled
        memories); a fact key set in several scopes reads from the narrowest."""
        who = check.caller(user_id, session_id, agent_id, org_id)
        budget = (
            None
            if token_budget is None
            else check.bounded_int(token_budget, "token_budget", 1, check.MAX_CONTEXT_BUDGET)
        )
        when = TimeScope(check.aware_datetime(as_of, "as_of"), check.aware_datetime(known_at, "known_at"))
        request = recall_use_case.checked_request(
            self._rt.settings,
            query,
            who,
            k=k,
            reinforce=reinforce,
            conversation=conversation,
            as_of=when.as_of,
            known_at=when.known_at,
            filters=filters,
        )
        return context_use_case.assemble(self._rt, request, who, when, budget)

    def query(self, cypher: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Run your own Cypher in a read transaction (writes are refused by the server)."""
        check.text(cypher, "cypher", max_chars=100_000)
        return self._rt.store.run_readonly(cypher, check.cypher_params(params))
