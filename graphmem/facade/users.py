"""``mem.users``: a user's data as a whole (GDPR export, erasure, anonymisation)."""

from __future__ import annotations

from typing import Any

from graphmem.governance import users as governance
from graphmem.governance.users import DeletionReport
from graphmem.model import validation as check
from graphmem.store.runtime import Runtime

__all__ = ["Users"]


class Users:
    """Export, delete or anonymize everything stored about a user (``mem.users``)."""

    def __init__(self, rt: Runtime) -> None:
        self._rt = rt

    def export(self, user_id: str) -> dict[str, Any]:
        """Everything stored about a user (fact history and audit included), JSON-serializable."""
        return governance.export_user(self._rt, check.user_id(user_id))

    def delete(self, user_id: str, *, actor: str | None = None) -> DeletionReport:
        """Hard-delete every node and relationship of a user, in batches (idempotent); the audit keeps a
        tombstone holding only a hash of the user id."""
        return governance.delete_user(
            self._rt, check.user_id(user_id), actor=check.identifier(actor, "actor", required=False)
        )

    def anonymize(self, user_id: str, *, actor: str | None = None) -> int:
        """Redact a user's content and personal fields, keeping structure and counts; nodes touched."""
        return governance.anonymize_user(
            self._rt, check.user_id(user_id), actor=check.identifier(actor, "actor", required=False)
        )
