"""The facade agents use. Thin: each use case lives in its own module."""

from __future__ import annotations

import logging
from datetime import datetime
from types import TracebackType
from typing import Any

import neo4j

from . import formation, retrieval
from . import validation as check
from .automation import Automation
from .config import Settings
from .embedding import Embedder, SentenceTransformerEmbedder
from .errors import ConfigurationError, ConnectionFailed, SchemaError
from .jobs import ControlPlane, Jobs
from .models import Explanation, Hit, Memory, MemoryType, Priority, Source
from .queries import schema_statements
from .records import memory_from_row
from .runtime import Runtime
from .scheduler import Scheduler
from .store import Store, translate_errors

logger = logging.getLogger(__name__)

VECTOR_INDEX = "memory_embedding"


def _resolve_connection(
    uri: str | None, auth: tuple[str, str] | None, settings: Settings
) -> tuple[str, tuple[str, str]]:
    """Explicit arguments, else NEO4J_* settings, else the locally managed server's credentials."""
    uri = uri or settings.neo4j_uri
    if auth is None and settings.neo4j_password is not None:
        auth = (settings.neo4j_username or "neo4j", settings.neo4j_password)
    if uri is not None and auth is not None:
        return uri, auth
    from .server import LocalServer

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


class GraphMemory:
    """Long-term memory for agents, on Neo4j.

    >>> with GraphMemory.connect() as mem:
    ...     mem.init()
    ...     mem.remember("I adopted a dog named Rex", user_id="alice")
    ...     hits = mem.recall("what is my pet called?", user_id="alice")
    """

    def __init__(self, store: Store, embedder: Embedder, settings: Settings) -> None:
        self._rt = Runtime(store=store, embedder=embedder, settings=settings)
        self._control = ControlPlane.build(self._rt)  # no thread until scheduler.start()

    # --- lifecycle ---------------------------------------------------------------------------------
    @classmethod
    def connect(
        cls,
        uri: str | None = None,
        auth: tuple[str, str] | None = None,
        database: str | None = None,
        *,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
    ) -> GraphMemory:
        """Connect to the locally managed server (no arguments), or to any Neo4j 5.26+ by URI."""
        settings = settings or Settings()
        uri, auth = _resolve_connection(uri, auth, settings)
        # A young graph lacks properties that queries mention (expired_at, ...): not worth a warning.
        driver = neo4j.GraphDatabase.driver(
            uri,
            auth=auth,
            notifications_disabled_classifications=[neo4j.NotificationDisabledClassification.UNRECOGNIZED],
        )
        with translate_errors():
            try:
                driver.verify_connectivity()
            except Exception:
                driver.close()
                raise
        embedder = embedder or SentenceTransformerEmbedder(
            settings.embedding_model, device=settings.embedding_device
        )
        return cls(Store(driver, database or settings.neo4j_database), embedder, settings)

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

    # --- dynamics and automation (graphmem.jobs, graphmem.automation, graphmem.scheduler) -------------
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

    # --- schema ------------------------------------------------------------------------------------
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
        for name, statement in schema_statements():
            logger.debug("schema: %s", name)
            self._rt.store.run_statement(statement, {"dimension": dimension})

    # --- write -------------------------------------------------------------------------------------
    def remember(
        self,
        content: str,
        *,
        user_id: str,
        session_id: str | None = None,
        memory_type: MemoryType | str = MemoryType.EPISODIC,
        occurred_at: datetime | None = None,
        metadata: dict[str, Any] | None = None,
        priority: Priority | str | None = None,
        importance: float = 0.5,
        tags: list[str] | None = None,
        agent_id: str | None = None,
        source: Source | str = Source.USER,
    ) -> Memory:
        """Store one memory (atomically). With a session, it follows that session's previous memory."""
        draft = formation.MemoryDraft(
            content=check.text(content, "content", max_chars=self._rt.settings.max_content_chars),
            user_id=check.user_id(user_id),
            session_id=check.identifier(session_id, "session_id", required=False),
            agent_id=check.identifier(agent_id, "agent_id", required=False),
            memory_type=check.enum(memory_type, MemoryType, "memory_type"),
            priority=None if priority is None else check.enum(priority, Priority, "priority"),
            importance=check.unit_interval(importance, "importance"),
            occurred_at=check.aware_datetime(occurred_at, "occurred_at"),
            metadata=check.metadata(metadata),
            tags=check.tags(tags),
            source=check.enum(source, Source, "source"),
        )
        return formation.form(self._rt, [draft])[0]

    # --- read --------------------------------------------------------------------------------------
    def recall(self, query: str, *, user_id: str, k: int = 10, as_of: datetime | None = None) -> list[Hit]:
        """The user's k most relevant memories for ``query``."""
        text = check.text(query, "query", max_chars=self._rt.settings.max_content_chars)
        uid = check.user_id(user_id)
        k = check.k(k)
        as_of = check.aware_datetime(as_of, "as_of")
        embedding = self._rt.embedder.embed([text])[0]
        rows, method = retrieval.vector_candidates(self._rt, embedding, user_id=uid, k=k, as_of=as_of)
        return [
            Hit(
                memory=memory_from_row(r["memory"]),
                score=float(r["score"]),
                explanation=Explanation(
                    search_level="vector",
                    score_type="cosine",
                    raw_score=float(r["score"]),
                    seed_sources={f"vector_{method}": rank},
                    components={"cosine": float(r["score"])},
                ),
            )
            for rank, r in enumerate(rows, start=1)
        ]

    def query(self, cypher: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Run your own Cypher in a read transaction (writes are refused by the server)."""
        check.text(cypher, "cypher", max_chars=100_000)
        return self._rt.store.run_readonly(cypher, params)
