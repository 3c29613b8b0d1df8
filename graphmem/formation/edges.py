"""Caller-made edges between memories: ``link()`` with an allow-listed type, never across users."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from graphmem.errors import MemoryNotFound, TenantMismatch, ValidationError
from graphmem.model.linking import LINK_TYPES
from graphmem.store import audit
from graphmem.store.driver import Tx
from graphmem.store.runtime import Runtime

logger = logging.getLogger(__name__)


def check_rel_type(rel_type: object) -> str:
    """The one allow-list check for a dynamic relationship type."""
    if not isinstance(rel_type, str) or rel_type not in LINK_TYPES:
        allowed = ", ".join(sorted(LINK_TYPES))
        raise ValidationError("rel_type", f"must be one of {allowed}; got {rel_type!r}")
    return rel_type


def link(
    rt: Runtime, src_id: str, dst_id: str, rel_type: str, *, weight: float, valid_from: datetime | None
) -> None:
    rel_type = check_rel_type(rel_type)
    now = datetime.now(UTC)

    def work(tx: Tx) -> str:
        owners = tx.run("memory_pair", src=src_id, dst=dst_id)[0]
        if owners["src_user"] is None:
            raise MemoryNotFound(src_id)
        if owners["dst_user"] is None:
            raise MemoryNotFound(dst_id)
        if owners["src_user"] != owners["dst_user"]:
            raise TenantMismatch(src_id, dst_id)
        tx.run(
            "link_create",
            src=src_id,
            dst=dst_id,
            user_id=owners["src_user"],
            rel_type=rel_type,
            weight=weight,
            valid_from=valid_from or now,
            now=now,
        )
        audit.append(
            tx,
            "link",
            user_id=owners["src_user"],
            now=now,
            target_ids=[src_id, dst_id],
            details={"type": rel_type},
        )
        return str(owners["src_user"])

    user_id = rt.store.unit_of_work(work)
    rt.changes.touch(user_id)
    logger.debug("linked two memories with %s", rel_type)
