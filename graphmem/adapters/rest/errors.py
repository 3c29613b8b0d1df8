"""The REST API's error bodies: every failure is ``{"error": <type>, "detail": <message>}``."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from graphmem import errors
from graphmem.adapters.auth import API_KEY_HEADER

__all__ = ["API_KEY_HEADER", "install_error_handlers", "status_of"]

logger = logging.getLogger("graphmem.adapters.rest")


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


_KINDS = {
    401: "Unauthorized",
    403: "Forbidden",
    404: "NotFound",
    405: "MethodNotAllowed",
    413: "PayloadTooLarge",
}
"""The ``error`` of an HTTP error's body (a body over the limit reads as the middleware's own 413)."""


def status_of(exc: errors.GraphMemError) -> int:
    """The HTTP status for a graphmem error (400 for any other kind of refusal)."""
    return next((code for kind, code in _STATUS if isinstance(exc, kind)), 400)


def install_error_handlers(app: FastAPI) -> None:
    """Map graphmem errors, request-schema failures, HTTP errors and anything else to JSON error bodies."""

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
        kind = _KINDS.get(exc.status_code, "HTTPError")
        return JSONResponse(
            status_code=exc.status_code, content={"error": kind, "detail": exc.detail}, headers=exc.headers
        )

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        logger.error("%s %s failed: %s", request.method, request.url.path, type(exc).__name__, exc_info=exc)
        content = {"error": "InternalError", "detail": "the server failed the request"}
        return JSONResponse(status_code=500, content=content)
