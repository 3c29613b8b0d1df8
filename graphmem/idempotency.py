"""Idempotent writes: a call repeated with the same ``idempotency_key`` returns the first call's result and
writes nothing new, also when the retries run concurrently.

The first caller claims the key (``MERGE`` on a unique id, so concurrent claims serialize), performs the
write and stores the ids it produced; a repeat finds the key done and reads those ids back, or waits while
the first call is still running. A failed write releases its claim, so a retry can run it again; a claim
left pending by a crashed process is taken over after ``STALE_AFTER``.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from .errors import TransientError, ValidationError
from .factbase import fact_from_row
from .models import Fact, Memory
from .records import memory_from_row
from .runtime import Runtime

logger = logging.getLogger(__name__)

__all__ = ["STALE_AFTER", "fact", "memories", "once"]

T = TypeVar("T")
STALE_AFTER = timedelta(seconds=60)
WAIT_SECONDS = 30.0
POLL_SECONDS = 0.05


def once(
    rt: Runtime,
    *,
    user_id: str,
    key: str | None,
    action: str,
    perform: Callable[[], T],
    ids_of: Callable[[T], list[str]],
    replay: Callable[[list[str]], T],
) -> T:
    """``perform()`` once per (``user_id``, ``key``); repeats get ``replay(ids_of(first result))``."""
    if key is None:
        return perform()
    key_id = f"{user_id}\x1f{key}"
    token = str(uuid.uuid4())
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        now = datetime.now(UTC)
        row = rt.store.write(
            "idempotency_claim",
            id=key_id,
            user_id=user_id,
            key=key,
            action=action,
            token=token,
            now=now,
            stale_before=now - STALE_AFTER,
        )[0]
        if row["action"] != action:
            raise ValidationError("idempotency_key", f"was already used for {row['action']}")
        if row["token"] == token:
            break
        if row["status"] == "done":
            logger.debug("idempotency: replaying %s", action)
            return replay(list(row["result_ids"]))
        if time.monotonic() > deadline:
            raise TransientError(f"the first call with this idempotency key ({action}) is still running")
        time.sleep(POLL_SECONDS)
    try:
        result = perform()
    except BaseException:
        rt.store.write("idempotency_release", id=key_id, token=token)
        raise
    rt.store.write("idempotency_finish", id=key_id, token=token, ids=ids_of(result), now=datetime.now(UTC))
    return result


def memories(rt: Runtime, user_id: str, ids: list[str]) -> list[Memory]:
    """Replay: the memories a first call returned, in its order."""
    rows = rt.store.read("memory_fetch", ids=ids, user_id=user_id, embedding=None)
    found = {r["memory"]["id"]: memory_from_row(r["memory"]) for r in rows}
    return [found[i] for i in ids if i in found]


def fact(rt: Runtime, user_id: str, ids: list[str]) -> Fact:
    """Replay: the fact version a first ``set_fact`` returned."""
    return fact_from_row(rt.store.read("fact_by_id", user_id=user_id, id=ids[0])[0]["fact"])
