"""The audit log: one ``AuditEvent`` node per mutation (who, what, which ids, when), append-only.

Events carry ids, never content. ``user_hash`` (SHA-256 of the user id) lets a user's deletion leave a
tombstone that no longer holds the user id itself.
"""

from __future__ import annotations

import hashlib
import json
import logging
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from graphmem.store import records
from graphmem.store.driver import Tx
from graphmem.store.runtime import Runtime

logger = logging.getLogger(__name__)

__all__ = ["AuditEvent", "append", "log", "page", "record", "user_hash"]


class AuditEvent(BaseModel):
    """One mutation: ``actor`` did ``action`` to ``target_ids`` of ``user_id`` at ``at``."""

    model_config = ConfigDict(frozen=True)

    id: str
    action: str
    actor: str
    at: datetime
    user_id: str | None = None
    user_hash: str | None = None
    target_ids: tuple[str, ...] = ()
    version: int | None = None
    idempotency_key: str | None = None
    details: dict[str, Any] = Field(default_factory=dict)


def user_hash(user_id: str) -> str:
    return hashlib.sha256(user_id.encode("utf-8")).hexdigest()


def event_row(
    action: str,
    *,
    user_id: str | None,
    target_ids: Sequence[str] = (),
    actor: str | None = None,
    version: int | None = None,
    idempotency_key: str | None = None,
    details: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The parameters of one event (``details``: counts and settings only, never user content)."""
    return {
        "id": str(uuid.uuid4()),
        "action": action,
        "actor": actor or "client",
        "user_id": user_id,
        "user_hash": user_hash(user_id) if user_id is not None else None,
        "target_ids": list(target_ids),
        "version": version,
        "idempotency_key": idempotency_key,
        "details": json.dumps(details or {}, sort_keys=True, default=str),
    }


def record(rt: Runtime, action: str, *, user_id: str | None, **fields: Any) -> None:
    """Append one event in its own transaction (and mark the user's derived caches stale): only for
    mutations that cannot share one transaction with their event (the batched ``delete_user`` and
    ``anonymize_user``); every other write uses :func:`append` inside its own transaction."""
    rt.store.write(
        "audit_append", events=[event_row(action, user_id=user_id, **fields)], now=datetime.now(UTC)
    )
    if user_id is not None:
        rt.changes.touch(user_id)
    logger.debug("audit: %s", action)


def append(tx: Tx, action: str, *, user_id: str | None, now: datetime, **fields: Any) -> None:
    """Append one event inside the mutation's own transaction."""
    tx.run("audit_append", events=[event_row(action, user_id=user_id, **fields)], now=now)


def event_from_row(row: dict[str, Any]) -> AuditEvent:
    """An event from a stored row, never raising (stored data can never make a read fail): ``details``
    that are not a JSON object read as ``{}``, other fields that do not fit at their defaults."""
    what = f"audit event {records.text(row.get('id'))}"
    data = {**row, "details": records.load_object(row.get("details"), what)}
    data["target_ids"] = tuple(records.texts(row.get("target_ids")))
    return records.model_from_row(AuditEvent, data, what=what, fallback={"at": records.EPOCH})


ALL = 2**62
"""The page size of a read that asked for no limit (Cypher's LIMIT takes an integer): the audit log's and the
timeline's."""


def page(
    rt: Runtime,
    *,
    user_id: str | None = None,
    target_id: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    after: str | None = None,
    limit: int | None = None,
    newest_first: bool = False,
) -> tuple[list[AuditEvent], bool]:
    """Events, oldest first (``newest_first``: the reverse), optionally for one user (tombstones included),
    one target, or a time range (inclusive); at most ``limit`` of them after the event ``after`` (the
    previous page's last), and whether ``after`` is an event of that user's log (else the page is empty)."""
    scope = {} if user_id is None else {"user_hash": user_hash(user_id)}
    rows = rt.store.read(
        "audit_log_any" if user_id is None else "audit_log",
        **scope,
        target_id=target_id,
        since=since,
        until=until,
        after=after,
        limit=ALL if limit is None else limit,
        newest_first=newest_first,
    )
    if not rows:
        return [], after is None
    return [event_from_row(e) for e in rows[0]["events"]], bool(rows[0]["cursor_found"])


def log(rt: Runtime, *, user_id: str | None = None) -> list[AuditEvent]:
    """Every event of a user's log (tombstones included), oldest first."""
    return page(rt, user_id=user_id)[0]
