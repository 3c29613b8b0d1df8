"""API keys for the REST API: per user, agent or organisation (or admin), stored hashed in Neo4j.

A key reads ``gm_<id>_<secret>``; Neo4j keeps ``ApiKey {id, salt, hash = sha256(salt + secret), scope,
subject}``, never the secret (it is shown once, by ``graphmem keys create``). The secret is 256 random bits,
so a salted SHA-256 suffices (a slow password hash protects guessable secrets, not random ones).

:class:`Guard` is the FastAPI dependency of every protected route: the admin key given to ``create_app``
or an admin ``ApiKey`` reaches everything; a user key reaches only ``/users/<its user>/...`` (403
elsewhere), and the shared scopes of the agent and organisation it was granted (``keys create --user U
--agent A --org O``; naming another agent or organisation is a 403: :func:`require_grant`); an agent key
reaches only ``/agents/<its agent>/...``, an organisation key only ``/orgs/<its org>/...``
(docs/scopes.md). The
middleware of :func:`install` refuses bodies above ``Settings.max_body_bytes`` (413) and, with
``Settings.protect_docs``, puts ``/docs`` and ``/openapi.json`` behind a key. :func:`check_admin_key`:
``graphmem api`` refuses a short admin key beyond loopback (and warns of one on loopback).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import secrets
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.security import APIKeyHeader
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graphmem.errors import ConfigurationError, NotFoundError, ValidationError
from graphmem.model import validation as check
from graphmem.store.driver import QueryStore
from graphmem.store.records import optional_text, text

API_KEY_HEADER = "X-API-Key"
PREFIX = "gm_"
Scope_ = Literal["admin", "user", "agent", "org"]
SCOPES: tuple[str, ...] = ("admin", "user", "agent", "org")
_KEY_HEADER = APIKeyHeader(name=API_KEY_HEADER, auto_error=False)
SentKey = Annotated[str | None, Depends(_KEY_HEADER)]


@dataclass(frozen=True)
class Principal:
    """Who a request acts for."""

    scope: str
    subject: str | None = None
    key_id: str | None = None
    agent_id: str | None = None  # a user key's granted agent scope
    org_id: str | None = None  # a user key's granted organisation scope

    def may_reach(self, path: Mapping[str, Any]) -> bool:
        """A route whose path names exactly this key's subject (``/users/U``, ``/agents/A``, ``/orgs/O``)."""
        if self.scope == "admin":
            return True
        named = {k: _nfc(v) for k, v in path.items() if k in _SUBJECT_PARAMS.values()}
        wanted = _SUBJECT_PARAMS.get(self.scope)
        return wanted is not None and named == {wanted: _nfc(self.subject)}

    def may_use(self, agent_id: str | None, org_id: str | None) -> bool:
        """Whether a user route may reach the shared scopes of ``agent_id`` and ``org_id`` with this key."""
        if self.scope == "admin":
            return True
        return _nfc(agent_id) in (None, _nfc(self.agent_id)) and _nfc(org_id) in (None, _nfc(self.org_id))


def _nfc(value: Any) -> Any:
    """An id as graphmem stores it (NFC), so that a key reaches its tenant however the id is encoded: NFC
    and NFD "José" are one tenant, and were one key's subject only in the form the key was made with."""
    return unicodedata.normalize("NFC", value) if isinstance(value, str) else value


_SUBJECT_PARAMS = {"user": "user_id", "agent": "agent_id", "org": "org_id"}


def _digest(salt: str, secret: str) -> str:
    return hashlib.sha256(f"{salt}:{secret}".encode()).hexdigest()


def create_key(
    store: QueryStore,
    scope: str,
    subject: str | None = None,
    *,
    label: str | None = None,
    agent_id: str | None = None,
    org_id: str | None = None,
) -> tuple[str, dict[str, Any]]:
    """A new key: returns (the key text, shown once; its stored record without the hash). A user key may
    be granted one agent's and one organisation's shared scopes (``agent_id``, ``org_id``)."""
    if scope not in SCOPES:
        raise ValidationError("scope", f"must be one of {', '.join(SCOPES)}")
    if (scope == "admin") != (subject is None):
        raise ValidationError("subject", "an admin key has no subject; every other key names one")
    if scope != "user" and (agent_id is not None or org_id is not None):
        raise ValidationError("scope", "only a user key is granted an agent's or organisation's scope")
    subject = (
        check.user_id(subject) if scope == "user" else check.identifier(subject, "subject", required=False)
    )
    agent_id = check.identifier(agent_id, "agent_id", required=False)
    org_id = check.identifier(org_id, "org_id", required=False)
    key_id, secret, salt = secrets.token_hex(8), secrets.token_urlsafe(32), secrets.token_hex(16)
    row = store.write(
        "api_key_create",
        id=key_id,
        salt=salt,
        hash=_digest(salt, secret),
        scope=scope,
        subject=subject,
        agent_id=agent_id,
        org_id=org_id,
        label=label,
        now=datetime.now(UTC),
    )[0]["key"]
    return f"{PREFIX}{key_id}_{secret}", row


def list_keys(store: QueryStore) -> list[dict[str, Any]]:
    return [r["key"] for r in store.read("api_key_list")]


def revoke_key(store: QueryStore, key_id: str) -> None:
    if not store.write("api_key_revoke", id=key_id, now=datetime.now(UTC)):
        raise NotFoundError(f"API key {key_id!r} not found")


def verify(store: QueryStore, presented: str) -> Principal | None:
    """The principal of a presented ``gm_`` key, or None (unknown, revoked or wrong secret)."""
    if not presented.startswith(PREFIX) or presented.count("_") < 2:
        return None
    key_id, _, secret = presented[len(PREFIX) :].partition("_")
    if not key_id.isalnum() or len(key_id) > 32:
        return None
    rows = store.read("api_key_get", id=key_id)
    if not rows:
        return None
    record = rows[0]["key"]
    # bytes, not text: compare_digest refuses non-ASCII text, and a stored value may be anything
    presented_hash = _digest(text(record.get("salt")), secret).encode()
    if not hmac.compare_digest(presented_hash, text(record.get("hash")).encode()):
        return None
    return Principal(
        scope=text(record.get("scope")),
        subject=optional_text(record.get("subject")),
        key_id=key_id,
        agent_id=optional_text(record.get("agent_id")),
        org_id=optional_text(record.get("org_id")),
    )


class Guard:
    """The FastAPI dependency of every protected route (see the module docstring)."""

    def __init__(self, store: QueryStore, admin_key: str | None) -> None:
        self._store = store
        self._admin_key = admin_key

    def principal(self, presented: str | None) -> Principal | None:
        if not presented:
            return None
        if self._admin_key and secrets.compare_digest(presented.encode(), self._admin_key.encode()):
            return Principal("admin")
        return verify(self._store, presented)

    def __call__(self, request: Request, key: SentKey) -> Principal:
        found = self.principal(key)
        if found is None:
            raise HTTPException(status_code=401, detail="missing or wrong API key")
        if not found.may_reach(request.path_params):
            raise HTTPException(status_code=403, detail="this key may not reach this route")
        request.state.principal = found
        return found


ADMIN_KEY_MIN_CHARS = 32
"""The shortest admin key (``GRAPHMEM_API_KEY``) ``graphmem api`` serves beyond loopback: 128 random bits
written in hex (the admin key reaches every route of every user; the ``gm_`` keys ``graphmem keys create``
makes carry 256 bits, 43 characters). Only the length is checked: a key should be random (docs/rest.md)."""


def loopback(host: str) -> bool:
    """Whether a bind address reaches only this machine: ``localhost`` or a loopback address (127.0.0.0/8,
    ``::1``). Any other address (``0.0.0.0``, ``::``, an interface's) or host name may be reached by
    others."""
    name = host.strip().strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:  # a host name: it may resolve to any interface
        return False


def check_admin_key(key: str, host: str) -> str | None:
    """Refuse an admin key shorter than :data:`ADMIN_KEY_MIN_CHARS` for an API bound beyond loopback
    (:class:`ConfigurationError`, before anything is served); on loopback, return the warning to show
    (None: the key is long enough)."""
    if len(key) >= ADMIN_KEY_MIN_CHARS:
        return None
    size = f"the admin key (GRAPHMEM_API_KEY) is {len(key)} characters"
    advice = (
        f"at least {ADMIN_KEY_MIN_CHARS} random characters, for instance "
        """python -c 'import secrets; print(secrets.token_urlsafe(32))'"""
    )
    if not loopback(host):
        raise ConfigurationError(
            f"{size}: refused for --host {host}, which other machines may reach (the admin key reaches every "
            f"route of every user); give {advice}"
        )
    return f"{size}: accepted on loopback ({host}) only; beyond it an admin key needs {advice}"


def require_grant(request: Request, agent_id: str | None, org_id: str | None) -> None:
    """403 unless the request's key may reach the shared scopes of ``agent_id`` and ``org_id`` (a user
    key: only those it was granted). Routes that read or write a shared scope call it."""
    found: Principal | None = getattr(request.state, "principal", None)
    if found is None or not found.may_use(agent_id, org_id):
        raise HTTPException(
            status_code=403, detail="this key may not reach that agent's or organisation's scope"
        )


TOO_LARGE = "request body too large"
_TOO_LARGE_BODY = json.dumps({"error": "PayloadTooLarge", "detail": TOO_LARGE}, separators=(",", ":"))
DOC_PATHS = ("/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect")


class _Limits:
    """ASGI middleware: bodies above ``max_body`` get 413 (declared length or counted while streaming);
    with ``guard`` set, the API documentation needs a valid key."""

    def __init__(self, app: ASGIApp, max_body: int, guard: Guard | None) -> None:
        self.app = app
        self.max_body = max_body
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if self.guard is not None and scope["path"] in DOC_PATHS:
            from starlette.concurrency import run_in_threadpool

            if await run_in_threadpool(self.guard.principal, headers.get(API_KEY_HEADER.lower())) is None:
                await _reply(send, 401, b'{"error":"Unauthorized","detail":"missing or wrong API key"}')
                return
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_body:
            await _reply(send, 413, _TOO_LARGE_BODY.encode())
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise _TooLarge
            return message

        try:
            await self.app(scope, counted, send)
        except _TooLarge:  # read outside the routes' error handlers
            await _reply(send, 413, _TOO_LARGE_BODY.encode())


class _TooLarge(HTTPException):
    """A streamed body past the limit, raised while the app reads it: an HTTPException, which FastAPI passes
    on to the error handlers (a 413 ``PayloadTooLarge``); any other exception there, as this was, it turns
    into a 400 "There was an error parsing the body"."""

    def __init__(self) -> None:
        super().__init__(status_code=413, detail=TOO_LARGE)


async def _reply(send: Send, status: int, body: bytes) -> None:
    await send(
        {"type": "http.response.start", "status": status, "headers": [(b"content-type", b"application/json")]}
    )
    await send({"type": "http.response.body", "body": body})


def install(app: FastAPI, guard: Guard, *, max_body_bytes: int, protect_docs: bool) -> None:
    """Add the body limit (and, if asked, the documentation guard) to ``app``."""
    app.add_middleware(_Limits, max_body=max_body_bytes, guard=guard if protect_docs else None)
