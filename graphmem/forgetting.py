"""Forgetting on request: an agent or a user asks to drop one memory (soft, restorable)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from . import audit
from .errors import MemoryNotFound
from .runtime import Runtime

logger = logging.getLogger(__name__)


def forget(rt: Runtime, memory_id: str, user_id: str, *, reason: str = "requested") -> None:
    """Soft-forget ``memory_id`` (status ``forgotten``); ``jobs.restore`` brings it back."""
    rows = rt.store.write(
        "memory_forget", id=memory_id, user_id=user_id, reason=reason, now=datetime.now(UTC)
    )
    if not rows:
        raise MemoryNotFound(memory_id)
    audit.record(rt, "forget", user_id=user_id, target_ids=[memory_id], details={"reason": reason})
    logger.debug("forgot memory %s on request", memory_id)
