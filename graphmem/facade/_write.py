"""The one write path of the facade: claim the idempotency key, write with the audit step inside the
write's transaction, then touch the user's change counter (caches of derived results compare it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from graphmem.store import idempotency
from graphmem.store.idempotency import Step
from graphmem.store.runtime import Runtime

T = TypeVar("T")

__all__ = ["audited_write"]


def audited_write(
    rt: Runtime,
    action: str,
    *,
    user_id: str,
    actor: str | None,
    key: str | None,
    write: Callable[[Step], T],
    replay: Callable[[list[str]], T],
) -> T:
    """Run ``write(step)`` once per idempotency ``key`` (``None``: always). ``write`` must call ``step(tx,
    ids, version)`` inside its transaction: the ``AuditEvent`` and the key's result commit with the write.
    A repeat of a completed key returns ``replay(ids)`` and writes nothing."""

    def perform(claim: idempotency.Claim) -> T:
        result = write(idempotency.audited(claim, action, user_id=user_id, actor=actor))
        rt.changes.touch(user_id)
        return result

    return idempotency.once(rt, user_id=user_id, key=key, action=action, perform=perform, replay=replay)
