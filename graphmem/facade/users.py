"""``mem.users``: a user's data as a whole (GDPR export, erasure, anonymisation)."""

from __future__ import annotations

import os
from typing import IO, Any

from graphmem.governance import export
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
        """Everything stored about a user (fact history and audit included), JSON-serializable; its
        session-scope data under ``session_scopes`` (one export per session scope; docs/scopes.md)."""
        uid = check.user_id(user_id)
        out = governance.export_user(self._rt, uid)
        out["session_scopes"] = [
            governance.export_user(self._rt, t) for t in governance.session_tenants(self._rt, uid)
        ]
        return out

    def export_to(self, user_id: str, out: str | os.PathLike[str] | IO[str]) -> dict[str, int]:
        """Stream what :meth:`export` returns to ``out`` as JSON Lines, one record per line, holding one page
        of nodes at a time (a user of any size; graphmem.governance.export describes the records). ``out``:
        an open text file, or a path, written in full or not at all (through a temporary file beside it).
        Returns the records written per collection."""
        records = governance.export_records(self._rt, check.user_id(user_id))
        if isinstance(out, str | os.PathLike):
            return export.write_file(records, out)
        return export.write_lines(records, out)

    def delete(self, user_id: str, *, actor: str | None = None) -> DeletionReport:
        """Hard-delete every node and relationship of a user, its session scopes included, in batches
        (idempotent); the audit keeps a tombstone holding only a hash of the user id. Agent and
        organisation memories are shared, not the user's: they stay. A user of whom nothing is stored (never
        written, or deleted already) gets an empty report and nothing is written: no tombstone."""
        uid = check.user_id(user_id)
        who = check.identifier(actor, "actor", required=False)
        if not governance.stored(self._rt, uid):
            return DeletionReport(user_id=uid)
        reports = [
            governance.delete_user(self._rt, t, actor=who) for t in governance.session_tenants(self._rt, uid)
        ]
        reports.append(governance.delete_user(self._rt, uid, actor=who))
        return governance.merged_report(uid, reports)

    def anonymize(self, user_id: str, *, actor: str | None = None) -> int:
        """Redact a user's content and personal fields (session scopes included), keeping structure and
        counts; nodes touched (0, with nothing written, for a user of whom nothing is stored)."""
        uid = check.user_id(user_id)
        who = check.identifier(actor, "actor", required=False)
        if not governance.stored(self._rt, uid):
            return 0
        tenants = [*governance.session_tenants(self._rt, uid), uid]
        return sum(governance.anonymize_user(self._rt, t, actor=who) for t in tenants)
