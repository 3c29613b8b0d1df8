"""``graphmem api``: a REST API over the facade (FastAPI), with API-key header auth and an OpenAPI schema.

Every route but ``GET /health`` and the dashboard page needs the key in the ``X-API-Key`` header. Every error
is a JSON body ``{"error": <type>, "detail": <message>}``: bad input a 4xx (request-schema failures add
``errors``, FastAPI's list), never a 500 with a traceback.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Annotated, Any

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.security import APIKeyHeader
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from graphmem import errors
from graphmem.adapters import auth as keyauth
from graphmem.adapters import dashboard, ops, rest_explorer
from graphmem.automation.control import JOB_NAMES
from graphmem.memory import GraphMemory
from graphmem.model import validation as check

logger = logging.getLogger(__name__)

API_KEY_HEADER = "X-API-Key"
_KEY_HEADER = APIKeyHeader(name=API_KEY_HEADER, auto_error=False)
SentKey = Annotated[str | None, Depends(_KEY_HEADER)]

_STATUS: list[tuple[type[errors.GraphMemError], int]] = [
    (errors.ValidationError, 422),
    (errors.NotFoundError, 404),
    (errors.CoreBlockReadOnly, 403),
    (errors.TenantMismatch, 403),
    (errors.VersionConflict, 409),
    (errors.QueryTimeout, 504),
    (errors.TransientError, 503),
    (errors.StoreError, 500),
    (errors.ConfigurationError, 500),
]


def status_of(exc: errors.GraphMemError) -> int:
    """The HTTP status for a graphmem error (400 for any other kind of refusal)."""
    return next((code for kind, code in _STATUS if isinstance(exc, kind)), 400)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RememberBody(_Body):
    content: str
    session_id: str | None = None
    memory_type: str | None = None
    occurred_at: datetime | None = None
    metadata: dict[str, Any] | None = None
    priority: str | None = None
    importance: float = 0.5
    tags: list[str] | None = None
    agent_id: str | None = None
    source: str = "user"


class MessagesBody(_Body):
    session_id: str
    messages: list[Any]
    agent_id: str | None = None


class RecallBody(_Body):
    query: str
    k: int = 10
    as_of: datetime | None = None
    hops: int = 3
    views: dict[str, float] | None = None
    reinforce: bool = True
    explain: bool = False


class ContextBody(_Body):
    query: str
    token_budget: int = 2000
    k: int = 10
    reinforce: bool = True


class UpdateBody(_Body):
    content: str
    expected_version: int = Field(description="the version read; a moved version is a 409 and writes nothing")


class FactBody(_Body):
    key: str
    value: str
    fact_type: str = "custom"
    valid_from: datetime | None = None
    source: str | None = None
    agent_id: str | None = None


class RetractBody(_Body):
    key: str
    valid_to: datetime | None = Field(default=None, description="true until then; omitted: never true")
    agent_id: str | None = None


class CoreBlockBody(_Body):
    value: str
    limit: int = 2000
    description: str = ""
    read_only: bool = False


class CoreAppendBody(_Body):
    text: str


class CoreReplaceBody(_Body):
    old: str
    new: str


class ConfigBody(_Body):
    config: dict[str, Any]
    expected_version: int | None = Field(default=None, description="default: the version inside config")


def create_app(mem: GraphMemory, api_key: str) -> FastAPI:
    """The REST app over ``mem``; requests must carry ``api_key`` in ``X-API-Key``."""
    if not api_key:
        raise errors.ConfigurationError("the REST API needs a non-empty API key")
    app = FastAPI(
        title="graphmem",
        description="Long-term memory for AI agents, on Neo4j.",
        version="0.1.0",
        docs_url=None,  # served from local assets by rest_explorer (no CDN)
        redoc_url=None,
    )

    guard = keyauth.Guard(mem.runtime.store, api_key)  # the admin key, or per-user keys (adapters.auth)
    settings = mem.runtime.settings
    keyauth.install(app, guard, max_body_bytes=settings.max_body_bytes, protect_docs=settings.protect_docs)

    @app.exception_handler(errors.GraphMemError)
    async def graphmem_error(request: Request, exc: errors.GraphMemError) -> JSONResponse:
        code = status_of(exc)
        if code >= 500:
            logger.warning("%s %s failed: %s", request.method, request.url.path, type(exc).__name__)
        detail = str(exc) if code < 500 else "the database failed the request"
        return JSONResponse(status_code=code, content={"error": type(exc).__name__, "detail": detail})

    @app.exception_handler(RequestValidationError)
    async def schema_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        # "input" echoes the request and may hold text JSON cannot encode (a lone surrogate): left out
        raw = [{k: v for k, v in p.items() if k not in ("input", "ctx")} for p in exc.errors()]
        problems = jsonable_encoder(raw, custom_encoder={Exception: str})
        detail = "; ".join(f"{'.'.join(map(str, p.get('loc', ())))}: {p.get('msg', '')}" for p in problems)
        content = {"error": "ValidationError", "detail": detail, "errors": problems}
        return JSONResponse(status_code=422, content=content)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        kind = {401: "Unauthorized", 403: "Forbidden", 404: "NotFound", 405: "MethodNotAllowed"}.get(
            exc.status_code, "HTTPError"
        )
        return JSONResponse(
            status_code=exc.status_code, content={"error": kind, "detail": exc.detail}, headers=exc.headers
        )

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        logger.error("%s %s failed: %s", request.method, request.url.path, type(exc).__name__, exc_info=exc)
        content = {"error": "InternalError", "detail": "the server failed the request"}
        return JSONResponse(status_code=500, content=content)

    auth = [Depends(guard)]
    rest_explorer.include(app, mem, auth)

    @app.get("/health", tags=["automation"])
    def health() -> dict[str, Any]:
        """Liveness and the automation plane's health (plugins, scheduler or worker, failed runs)."""
        return mem.automation.health().model_dump(mode="json")

    # --- memories ----------------------------------------------------------------------------------
    @app.post("/users/{user_id}/memories", tags=["memories"], dependencies=auth, status_code=201)
    def remember(user_id: str, body: RememberBody) -> dict[str, Any]:
        memory = mem.remember(body.content, user_id=user_id, **body.model_dump(exclude={"content"}))
        return ops.memory_json(memory)

    @app.post("/users/{user_id}/messages", tags=["memories"], dependencies=auth, status_code=201)
    def add_messages(user_id: str, body: MessagesBody) -> list[dict[str, Any]]:
        memories = mem.add_messages(
            body.messages, user_id=user_id, session_id=body.session_id, agent_id=body.agent_id
        )
        return [ops.memory_json(m) for m in memories]

    @app.post("/users/{user_id}/recall", tags=["memories"], dependencies=auth)
    def recall(user_id: str, body: RecallBody) -> list[dict[str, Any]]:
        hits = mem.recall(
            body.query,
            user_id=user_id,
            k=body.k,
            as_of=body.as_of,
            hops=body.hops,
            views=body.views,
            reinforce=body.reinforce,
        )
        return [ops.hit_json(h, explain=body.explain) for h in hits]

    @app.post("/users/{user_id}/context", tags=["memories"], dependencies=auth)
    def context(user_id: str, body: ContextBody) -> dict[str, Any]:
        ctx = mem.context(
            body.query, user_id=user_id, token_budget=body.token_budget, k=body.k, reinforce=body.reinforce
        )
        return ops.context_json(ctx)

    @app.put("/users/{user_id}/memories/{memory_id}", tags=["memories"], dependencies=auth)
    def update(user_id: str, memory_id: str, body: UpdateBody) -> dict[str, Any]:
        """Change a memory's text (a new version; the previous one stays in its history)."""
        memory = ops.update_memory(
            mem, memory_id, body.content, user_id=user_id, expected_version=body.expected_version
        )
        return ops.memory_json(memory)

    @app.get("/users/{user_id}/memories/{memory_id}/history", tags=["memories"], dependencies=auth)
    def memory_history(user_id: str, memory_id: str) -> list[dict[str, Any]]:
        """Every version of a memory, oldest first."""
        return [ops.memory_json(m) for m in mem.memories.history(memory_id, user_id=user_id)]

    @app.delete("/users/{user_id}/memories/{memory_id}", tags=["memories"], dependencies=auth)
    def forget(user_id: str, memory_id: str) -> dict[str, Any]:
        """Soft-forget a memory (restorable)."""
        mem.forget(memory_id, user_id=user_id)
        return {"forgotten": memory_id}

    # --- facts -------------------------------------------------------------------------------------
    @app.put("/users/{user_id}/facts", tags=["facts"], dependencies=auth)
    def set_fact(user_id: str, body: FactBody) -> dict[str, Any]:
        fact = mem.facts.set(user_id, **body.model_dump())
        return ops.fact_json(fact) or {}

    @app.get("/users/{user_id}/facts", tags=["facts"], dependencies=auth)
    def get_fact(
        user_id: str,
        key: str,
        as_of: datetime | None = None,
        known_at: datetime | None = None,
        agent_id: str | None = None,
    ) -> dict[str, Any]:
        """A fact's current value, or the one valid at ``as_of`` as known at ``known_at`` (404: none)."""
        fact = mem.facts.get(user_id, key, as_of=as_of, known_at=known_at, agent_id=agent_id)
        if fact is None:
            raise HTTPException(status_code=404, detail=f"no fact {key!r}")
        return ops.fact_json(fact) or {}

    @app.get("/users/{user_id}/facts/history", tags=["facts"], dependencies=auth)
    def fact_history(user_id: str, key: str, agent_id: str | None = None) -> list[dict[str, Any] | None]:
        """Every version of a fact, oldest first (valid time and transaction time)."""
        return [ops.fact_json(f) for f in mem.facts.history(user_id, key, agent_id=agent_id)]

    @app.post("/users/{user_id}/facts/retract", tags=["facts"], dependencies=auth)
    def retract_fact(user_id: str, body: RetractBody) -> dict[str, Any]:
        """Retract a fact's current version, history kept (404: no current version)."""
        fact = mem.facts.retract(user_id, body.key, valid_to=body.valid_to, agent_id=body.agent_id)
        return ops.fact_json(fact) or {}

    # --- users -------------------------------------------------------------------------------------
    @app.get("/users/{user_id}/export", tags=["users"], dependencies=auth)
    def export_user(user_id: str) -> dict[str, Any]:
        """Everything stored about a user (JSON)."""
        return mem.users.export(user_id)

    @app.delete("/users/{user_id}", tags=["users"], dependencies=auth)
    def delete_user(user_id: str) -> dict[str, Any]:
        """Hard-delete a user's data (the audit keeps a tombstone)."""
        return mem.users.delete(user_id, actor="api").model_dump(mode="json")

    @app.post("/users/{user_id}/anonymize", tags=["users"], dependencies=auth)
    def anonymize_user(user_id: str) -> dict[str, Any]:
        """Redact a user's content and personal fields; structure and counts stay (irreversible)."""
        return {"user_id": user_id, "anonymized": mem.users.anonymize(user_id, actor="api")}

    # --- core memory blocks ------------------------------------------------------------------------
    @app.get("/users/{user_id}/core", tags=["core memory"], dependencies=auth)
    def core_blocks(user_id: str) -> list[dict[str, Any]]:
        return [ops.block_json(b) for b in mem.core.list(user_id)]

    @app.put("/users/{user_id}/core/{label}", tags=["core memory"], dependencies=auth)
    def set_core_block(user_id: str, label: str, body: CoreBlockBody) -> dict[str, Any]:
        block = mem.core.set(
            user_id,
            label,
            body.value,
            limit=body.limit,
            description=body.description,
            read_only=body.read_only,
        )
        return ops.block_json(block)

    @app.get("/users/{user_id}/core/{label}", tags=["core memory"], dependencies=auth)
    def core_block(user_id: str, label: str) -> dict[str, Any]:
        """One block (404: none with that label)."""
        block = next((b for b in mem.core.list(user_id) if b.label == label), None)
        if block is None:
            raise errors.CoreBlockNotFound(label)
        return ops.block_json(block)

    @app.get("/users/{user_id}/core/{label}/history", tags=["core memory"], dependencies=auth)
    def core_history(user_id: str, label: str) -> list[dict[str, Any]]:
        """Every version of a block, oldest first."""
        return [ops.block_json(b) for b in mem.core.history(user_id, label)]

    @app.post("/users/{user_id}/core/{label}/append", tags=["core memory"], dependencies=auth)
    def core_append(user_id: str, label: str, body: CoreAppendBody) -> dict[str, Any]:
        return ops.block_json(mem.core.append(user_id, label, body.text))

    @app.post("/users/{user_id}/core/{label}/replace", tags=["core memory"], dependencies=auth)
    def core_replace(user_id: str, label: str, body: CoreReplaceBody) -> dict[str, Any]:
        return ops.block_json(mem.core.replace(user_id, label, body.old, body.new))

    # --- dashboard (graphmem.adapters.dashboard) -----------------------------------------------------------
    @app.get("/dashboard", tags=["dashboard"], response_class=HTMLResponse)
    def dashboard_page() -> str:
        """The dashboard page (it asks for the API key and reads the routes below with it)."""
        return dashboard.page()

    @app.get("/stats", tags=["dashboard"], dependencies=auth)
    def stats(user_id: str | None = None) -> dict[str, Any]:
        """Memories by status and type and a retention histogram, for one user or all."""
        uid = None if user_id is None else check.user_id(user_id)
        return dashboard.memory_stats(mem.runtime, uid).model_dump(mode="json")

    @app.get("/users/{user_id}/timeline", tags=["dashboard"], dependencies=auth)
    def timeline(user_id: str, start: datetime | None = None, end: datetime | None = None) -> list[Any]:
        """The user's dated events, oldest first."""
        return [e.model_dump(mode="json") for e in mem.temporal.timeline(user_id, start=start, end=end)]

    # --- automation --------------------------------------------------------------------------------
    @app.get("/automation", tags=["automation"], dependencies=auth)
    def automation() -> dict[str, Any]:
        """The stored automation config, every job's state and the health report."""
        return {
            "config": mem.automation.get_config().model_dump(mode="json"),
            "jobs": [s.model_dump(mode="json") for s in mem.jobs.list()],
            "health": mem.automation.health().model_dump(mode="json"),
        }

    @app.get("/automation/logs", tags=["automation"], dependencies=auth)
    def automation_logs(limit: int = 20, job: str | None = None, user_id: str | None = None) -> list[Any]:
        """Recent job runs, newest first (422: an unknown job)."""
        if job is not None and job not in JOB_NAMES:
            raise errors.ValidationError("job", f"unknown job {job!r}; known: {', '.join(JOB_NAMES)}")
        uid = None if user_id is None else check.user_id(user_id)
        return [r.model_dump(mode="json") for r in mem.automation.runs(limit, job=job, user_id=uid)]

    @app.post("/automation/config", tags=["automation"], dependencies=auth)
    def automation_config(body: ConfigBody) -> dict[str, Any]:
        """Store a new config version (422: invalid, nothing written; 409: the stored version moved)."""
        stored = mem.automation.set_config(body.config, expected_version=body.expected_version)
        return stored.model_dump(mode="json")

    @app.post("/automation/jobs/{job}/enable", tags=["automation"], dependencies=auth)
    def job_enable(job: str) -> dict[str, Any]:
        return mem.jobs.enable(job).model_dump(mode="json")

    @app.post("/automation/jobs/{job}/disable", tags=["automation"], dependencies=auth)
    def job_disable(job: str) -> dict[str, Any]:
        return mem.jobs.disable(job).model_dump(mode="json")

    @app.post("/automation/jobs/{job}/reconcile", tags=["automation"], dependencies=auth)
    def job_reconcile(job: str) -> dict[str, Any]:
        """Reconcile the scheduler with the stored config; returns this job's state."""
        mem.jobs.reconcile()
        return mem.jobs.status(job).model_dump(mode="json")

    @app.post("/automation/jobs/{job}/run", tags=["automation"], dependencies=auth)
    def job_run(job: str, user_id: str | None = None, dry_run: bool = False) -> dict[str, Any]:
        """Run a job now (for one user, or all); a failed run is returned with status ``failed``.
        ``dry_run=true``: what the job would change (status ``dry_run``), nothing written."""
        return mem.jobs.run(job, user_id=user_id, dry_run=dry_run).model_dump(mode="json")

    return app
