"""Idempotent writes: a call repeated with the same ``idempotency_key`` returns the first call's result and
writes nothing new, also when the retries run concurrently.

The first caller claims the key (``MERGE`` on a unique id, so concurrent claims serialize), performs the
write and, inside the write's own transaction (:meth:`Claim.finish`, with the audit event, see
:func:`audited`), stores the ids it produced; a repeat finds the key done and reads those ids back, or waits
while the first call is still running. A failed write releases its claim, so a retry can run it again
(when the server that failed the write cannot take the release either, the process's next call with the
key releases it first); a claim left pending by a crashed process is taken over at once when that process
ran on this machine (its pid is gone), else after ``STALE_AFTER`` (never while its holder on this machine
runs), and the write that lost it rolls back instead of committing a second result.
"""

from __future__ import annotations

import contextlib
import logging
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from graphmem.errors import FactNotFound, MemoryNotFound, TransientError, ValidationError
from graphmem.models import Fact, Memory
from graphmem.store import audit, owners
from graphmem.store._bridge import pause
from graphmem.store.driver import Tx
from graphmem.store.records import memory_from_row, texts
from graphmem.store.runtime import Runtime
from graphmem.temporal.facts import fact_from_row

logger = logging.getLogger(__name__)

__all__ = ["STALE_AFTER", "Claim", "Step", "audited", "fact", "key_id", "memories", "once"]

T = TypeVar("T")
STALE_AFTER = timedelta(seconds=60)
WAIT_SECONDS = 70.0
"""A repeat waits for the first call this long: past ``STALE_AFTER``, so a claim its holder left on another
machine is taken over before the repeat gives up (one a dead process of this machine left is taken over at
once; a live one of this machine keeps its claim however long its call runs)."""
POLL_SECONDS = 0.05


class Claim:
    """The idempotency key a running call holds (``key`` None: no key); the write completes it with
    :meth:`finish` inside its own transaction."""

    def __init__(self, key: str | None, key_id: str | None = None, token: str | None = None) -> None:
        self.key = key
        self._key_id = key_id
        self._token = token
        self.finished = False

    def finish(self, tx: Tx, ids: list[str]) -> None:
        """Store the result ``ids`` in the write's transaction; if the claim was taken over meanwhile
        (it went stale), raise so that the write rolls back."""
        if self._key_id is None:
            return
        rows = tx.run(
            "idempotency_finish", id=self._key_id, token=self._token, ids=ids, now=datetime.now(UTC)
        )
        if not rows or int(rows[0]["finished"]) != 1:
            raise TransientError("another call took over this idempotency key; this write was rolled back")
        self.finished = True


def _release_stranded(rt: Runtime, key_id: str) -> None:
    """Release the claim an earlier call of this process left on ``key_id`` when its write failed and the
    server could not be told (a crash, a lost connection): the retry runs at once instead of waiting
    ``STALE_AFTER`` for the claim to go stale. Only a pending claim with that call's token is released: a
    write that did commit before the failure keeps its result, and the retry replays it."""
    token = rt.stranded_claims.get(key_id)
    if token is None:
        return
    # kept until the release answers: an interrupt or a failure here leaves it for the next call (the claim
    # below fails the same way when the server is unreachable)
    rt.store.write("idempotency_release", id=key_id, token=token)
    rt.stranded_claims.pop(key_id, None)


def key_id(user_id: str, key: str) -> str:
    """The unique id of ``user_id``'s idempotency key ``key``."""
    return f"{user_id}\x1f{key}"


def once(
    rt: Runtime,
    *,
    user_id: str,
    key: str | None,
    action: str,
    perform: Callable[[Claim], T],
    replay: Callable[[list[str]], T],
) -> T:
    """``perform(claim)`` once per (``user_id``, ``key``), which calls ``claim.finish`` inside its write
    transaction; repeats get ``replay(ids the first call finished with)``."""
    if key is None:
        return perform(Claim(None))
    claimed = key_id(user_id, key)
    _release_stranded(rt, claimed)
    token = str(uuid.uuid4())
    done = _claim(rt, claimed, user_id=user_id, key=key, action=action, token=token)
    if done is not None:
        logger.debug("idempotency: replaying %s", action)
        return replay(done)
    claim = Claim(key, claimed, token)
    try:
        result = perform(claim)
    except BaseException:
        # recorded before the release is tried: if the server went away (what failed the write) or a second
        # interrupt stops the release, the next call with the key releases it
        rt.stranded_claims[claimed] = token
        with contextlib.suppress(Exception):
            rt.store.write("idempotency_release", id=claimed, token=token)
            rt.stranded_claims.pop(claimed, None)
        raise
    if not claim.finished:  # a write path that forgot to finish its claim: an internal error
        rt.store.write("idempotency_release", id=claimed, token=token)
        raise RuntimeError(f"{action} did not complete its idempotency key")
    return result


def _claim(rt: Runtime, key_id: str, *, user_id: str, key: str, action: str, token: str) -> list[str] | None:
    """Claim ``key_id`` with ``token`` (None: it is ours now), or the ids its first call finished with; waits
    while another call holds it, taking it over once that call's process is known dead, or, held on another
    machine (or by a graphmem before round 54), once its claim is stale; a live holder here keeps it."""
    params = {"user_id": user_id, "key": key, "action": action, "token": token, "owner": owners.owner()}
    deadline, take = time.monotonic() + WAIT_SECONDS, None
    while True:
        now = datetime.now(UTC)
        try:
            row = rt.store.write("idempotency_claim", id=key_id, now=now, take_token=take, **params)[0]
        except BaseException:  # the claim may have committed with this token and its answer been lost (also
            rt.stranded_claims[key_id] = token  # to an interrupt or a cancelled task): released next call
            raise
        if row["action"] != action:
            raise ValidationError("idempotency_key", f"was already used for {row['action']}")
        if row["token"] == token:
            return None
        if row["status"] == "done":
            return texts(row["result_ids"])
        if row["token"] != take and _abandoned(row, now):
            take = row["token"]
            continue
        if time.monotonic() > deadline:
            raise TransientError(f"the first call with this idempotency key ({action}) is still running")
        pause(POLL_SECONDS)  # awaited on the loop under the async bridge


def _abandoned(row: dict[str, Any], now: datetime) -> bool:
    """Whether the call holding a pending claim is gone: a dead process of this machine, or a holder
    elsewhere (or unrecorded) whose claim is older than ``STALE_AFTER``."""
    if owners.died(row["owner"]):
        return True
    claimed = row["created_at"]
    stale = not isinstance(claimed, datetime) or claimed < now - STALE_AFTER
    return stale and not owners.here(row["owner"])


Step = Callable[[Tx, list[str], int | None], None]
"""An in-transaction step given a write's resulting ids and version (None when it has none)."""


def audited(claim: Claim, action: str, *, user_id: str, actor: str | None = None) -> Step:
    """The in-transaction step of an idempotent, audited write: append its ``AuditEvent`` (target ids,
    version, idempotency key) and complete its key, so the write, the event and the key commit together.
    The key's stored result is ``ids``, followed by the version when there is one."""

    def step(tx: Tx, ids: list[str], version: int | None) -> None:
        audit.append(
            tx,
            action,
            user_id=user_id,
            now=datetime.now(UTC),
            target_ids=ids,
            actor=actor,
            version=version,
            idempotency_key=claim.key,
        )
        claim.finish(tx, ids if version is None else [*ids, str(version)])

    return step


def memories(rt: Runtime, user_id: str, ids: list[str]) -> list[Memory]:
    """Replay: the memories a first call returned, in its order. If any of them was deleted since, the
    first result cannot be replayed: :class:`MemoryNotFound` names the deleted ids (never a short list)."""
    rows = rt.store.read("memory_fetch", ids=ids, tenants=[user_id], embedding=None, now=None)
    found = {r["memory"]["id"]: memory_from_row(r["memory"]) for r in rows}
    missing = [i for i in ids if i not in found]
    if missing:
        raise MemoryNotFound(
            ", ".join(missing), reason="deleted after the first call with this idempotency key"
        )
    return [found[i] for i in ids]


def fact(rt: Runtime, user_id: str, ids: list[str]) -> Fact:
    """Replay: the fact version a first ``set_fact`` returned (:class:`FactNotFound` if deleted since)."""
    rows = rt.store.read("fact_by_id", user_id=user_id, id=ids[0]) if ids else []
    if not rows:
        raise FactNotFound(ids[0] if ids else "(unreadable idempotency record)")
    return fact_from_row(rows[0]["fact"])
