"""``graphmem api``: a REST API over the facade (FastAPI), with API-key header auth and an OpenAPI schema.

Every route but ``GET /health`` and the dashboard page needs the key in the ``X-API-Key`` header. Every error
is a JSON body ``{"error": <type>, "detail": <message>}``: bad input a 4xx (request-schema failures add
``errors``, FastAPI's list), never a 500 with a traceback. One router per area: ``memories``, ``facts``,
``scopes`` (agent and organisation routes), ``users``, ``history`` (snapshot, diff, audit log), ``core``,
``dashboard``, ``automation`` (request bodies in ``bodies``, error mapping in ``errors``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from fastapi import Depends, FastAPI
from starlette.concurrency import run_in_threadpool

from graphmem import errors
from graphmem.adapters import auth as keyauth
from graphmem.adapters import rest_evolve, rest_explorer
from graphmem.adapters.rest import automation, core, dashboard, facts, history, memories, scopes, users
from graphmem.adapters.rest.admission import Admission, Slots, default_slots
from graphmem.adapters.rest.errors import API_KEY_HEADER, install_error_handlers, status_of
from graphmem.memory import GraphMemory

__all__ = ["API_KEY_HEADER", "create_app", "status_of"]


def _flushing(mem: GraphMemory) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The app's lifespan: at shutdown, write the recall effects still queued (``recall_effects="deferred"``)
    before whoever owns ``mem`` closes it (``GraphMemory.close`` flushes too)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await run_in_threadpool(mem.flush)

    return lifespan


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
        lifespan=_flushing(mem),
    )
    guard = keyauth.Guard(mem.runtime.store, api_key)  # the admin key, or per-user keys (adapters.auth)
    settings = mem.runtime.settings
    slots = default_slots() if settings.api_slots is None else settings.api_slots
    if slots:  # inside the body limit: a refused body never waits for a slot
        app.state.admission = Slots(slots, max(1, slots // 2), settings.api_queue_seconds)
        app.add_middleware(Admission, slots=app.state.admission)
    keyauth.install(app, guard, max_body_bytes=settings.max_body_bytes, protect_docs=settings.protect_docs)
    install_error_handlers(app)
    auth = [Depends(guard)]
    rest_explorer.include(app, mem, auth)
    rest_evolve.include(app, mem, auth)  # topics, tuning
    app.include_router(automation.health_router(mem))
    for area in (memories, facts, scopes, users, history, core, dashboard, automation):
        app.include_router(area.router(mem, auth))
    return app
