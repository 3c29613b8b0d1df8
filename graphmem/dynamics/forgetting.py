"""Forgetting on request: an agent or a user asks to drop one memory (soft, restorable)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from graphmem.errors import MemoryNotFound
from graphmem.store import audit
from graphmem.store.driver import Tx
from graphmem.store.runtime import Runtime

logger = logging.getLogger(__name__)


def forget(rt: Runtime, memory_id: str, user_id: str, *, reason: str = "requested") -> None:
    """Soft-forget ``memory_id`` (status ``forgotten``, ``forgotten_at`` now); ``jobs.restore`` brings it
    back. The audit event commits with the change."""
    now = datetime.now(UTC)

    def work(tx: Tx) -> None:
        if not tx.run("memory_forget", id=memory_id, user_id=user_id, reason=reason, now=now):
            raise MemoryNotFound(memory_id)
        audit.append(
            tx, "forget", user_id=user_id, now=now, target_ids=[memory_id], details={"reason": reason}
        )

    rt.store.unit_of_work(work)
    rt.changes.touch(user_id)
    logger.debug("forgot memory %s on request", memory_id)
