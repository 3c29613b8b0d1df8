"""REST routes of the recall explorer and the offline API docs, included by ``create_app``.

``/docs`` (Swagger UI) and ``/redoc`` serve their scripts and styles from ``graphmem/data/vendor`` (copied
from the npm packages ``swagger-ui-dist`` and ``redoc``, licences beside them), so they render with no
network; ``/assets/...`` serves those files and the dashboard's graph library (``cytoscape``).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI, params
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict

from graphmem.adapters import explorer
from graphmem.adapters.moments import Moment
from graphmem.memory import GraphMemory

ASSETS = "/assets"
# The docs pages may load nothing from elsewhere: Redoc's footer logo points at a CDN, the policy blocks it.
DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' blob:; worker-src 'self' blob:; "
    "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'"
)


class ExploreBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str
    k: int = 10
    as_of: Moment | None = None


def docs_router(openapi_url: str, title: str) -> APIRouter:
    """``/docs`` and ``/redoc`` with local assets (FastAPI's self-hosting recipe)."""
    router = APIRouter(include_in_schema=False)

    @router.get("/docs", response_class=HTMLResponse)
    def swagger_ui() -> HTMLResponse:
        page = get_swagger_ui_html(
            openapi_url=openapi_url,
            title=f"{title} - Swagger UI",
            swagger_js_url=f"{ASSETS}/swagger-ui/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS}/swagger-ui/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS}/swagger-ui/favicon-32x32.png",
            oauth2_redirect_url=None,
        )
        page.headers["Content-Security-Policy"] = DOCS_POLICY
        return page

    @router.get("/redoc", response_class=HTMLResponse)
    def redoc() -> HTMLResponse:
        page = get_redoc_html(
            openapi_url=openapi_url,
            title=f"{title} - ReDoc",
            redoc_js_url=f"{ASSETS}/redoc/redoc.standalone.js",
            redoc_favicon_url=f"{ASSETS}/swagger-ui/favicon-32x32.png",
            with_google_fonts=False,
        )
        page.headers["Content-Security-Policy"] = DOCS_POLICY
        return page

    return router


def explorer_router(mem: GraphMemory, auth: list[params.Depends]) -> APIRouter:
    router = APIRouter(tags=["dashboard"], dependencies=auth)

    @router.post("/users/{user_id}/explore")
    def explore(user_id: str, body: ExploreBody) -> dict[str, Any]:
        """A read-only recall with each hit's explanation and the activation paths as a graph."""
        found = explorer.explore(mem, body.query, user_id=user_id, k=body.k, as_of=body.as_of)
        return found.model_dump(mode="json")

    @router.get("/users/{user_id}/memories/{memory_id}/graph")
    def memory_graph(user_id: str, memory_id: str, as_of: Moment | None = None) -> dict[str, Any]:
        """The memory's graph one hop around it, valid at ``as_of`` (default: now)."""
        return explorer.neighbourhood(mem, memory_id, user_id=user_id, as_of=as_of)

    return router


def include(app: FastAPI, mem: GraphMemory, auth: list[params.Depends]) -> None:
    """Mount the local assets and add the docs and explorer routes to ``app`` (built with docs_url=None)."""
    app.mount(ASSETS, StaticFiles(packages=[("graphmem.data", "vendor")]), name="assets")
    app.include_router(docs_router(app.openapi_url or "/openapi.json", app.title))
    app.include_router(explorer_router(mem, auth))
