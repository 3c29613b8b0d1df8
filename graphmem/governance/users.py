"""GDPR: export everything about a user, hard-delete it, or anonymize it; per-memory decisions.

Every operation is audited. A deletion keeps a tombstone in the audit log that holds only the SHA-256 of
the user id (``graphmem.store.audit.user_hash``), the action, the time and the counts.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from graphmem.embedding import embed_checked
from graphmem.errors import MemoryNotFound, UserNotFound
from graphmem.formation.drafts import session_uid_prefix
from graphmem.governance import export
from graphmem.model.scopes import session_prefix
from graphmem.store import audit
from graphmem.store.driver import Tx
from graphmem.store.runtime import Runtime

logger = logging.getLogger(__name__)

__all__ = [
    "Decision",
    "DeletionReport",
    "anonymize_user",
    "delete_user",
    "export_user",
    "govern_memory",
    "require_stored",
    "session_tenants",
    "stored",
]

REDACTED = "[redacted]"
BATCH = 500

EXPORT_PAGE = 20_000
"""Nodes per read transaction of an export (with their relationships): a page of 20,000 memories reads in
~4 s and its relationships in ~4 s, so a user of any size stays within the server's transaction time limit;
each page costs ~0.3 s more than one read (a 50,000-memory user: 16.4-18.5 s in one read, 19.8-20.5 s in pages
of 25,000-10,000, 22.9-23.4 s in pages of 5,000)."""

DELETE_PASSES = 4
"""Passes of a user's deletion at most: each after the first deletes what writes still running when the
previous pass read the indexes committed (a pass that finds nothing ends it; the second, normally)."""


class Decision(StrEnum):
    RETAIN = "retain"
    DELETE = "delete"
    ANONYMIZE = "anonymize"


class DeletionReport(BaseModel):
    """What ``delete_user`` removed: node counts per label and the relationships detached."""

    model_config = ConfigDict(frozen=True)

    user_id: str
    nodes: dict[str, int] = Field(default_factory=dict)
    relationships: int = 0
    audit_events_redacted: int = 0
    api_keys_revoked: int = 0

    @property
    def deleted(self) -> int:
        return sum(self.nodes.values())


def session_tenants(rt: Runtime, user_id: str) -> list[str]:
    """The tenant keys of the user's session-scope data (docs/scopes.md); shared agent and organisation
    scopes are not the user's and are never among them."""
    return [r["tenant"] for r in rt.store.read("scope_session_tenants", prefix=session_prefix(user_id))]


def stored(rt: Runtime, user_id: str) -> bool:
    """Whether anything at all is stored for ``user_id``: a node of any of its labels, a session scope, a
    deletion interrupted midway or an audit event naming it (one read of index seeks, each stopping at its
    first hit)."""
    rows = rt.store.read(
        "user_stored",
        user_id=user_id,
        session_prefix=session_uid_prefix(user_id),
        scope_prefix=session_prefix(user_id),
        user_hash=audit.user_hash(user_id),
    )
    return bool(rows and rows[0]["stored"])


def export_records(rt: Runtime, user_id: str) -> Iterator[dict[str, Any]]:
    """The records of ``user_id``'s streamed export, its session scopes included (listed at the call; the
    pages as they are read: :func:`graphmem.governance.export.iter_export`)."""
    return export.iter_export(rt, user_id, [user_id, *session_tenants(rt, user_id)], export.STREAM_PAGE)


def require_stored(rt: Runtime, user_id: str) -> None:
    """Refuse a user of whom nothing is stored (:class:`UserNotFound`): a mistyped id, or one deleted."""
    if not stored(rt, user_id):
        raise UserNotFound(user_id)


def merged_report(user_id: str, reports: list[DeletionReport]) -> DeletionReport:
    """One report for a user's own tenant and its session scopes."""
    nodes: dict[str, int] = {}
    for r in reports:
        for label, n in r.nodes.items():
            nodes[label] = nodes.get(label, 0) + n
    return DeletionReport(
        user_id=user_id,
        nodes=nodes,
        relationships=sum(r.relationships for r in reports),
        audit_events_redacted=sum(r.audit_events_redacted for r in reports),
        api_keys_revoked=sum(r.api_keys_revoked for r in reports),
    )


def export_user(rt: Runtime, user_id: str) -> dict[str, Any]:
    """Everything stored about ``user_id``: nodes by kind (fact versions and history included, embeddings
    left out), relationships, and the audit log; JSON-serializable. Read ``EXPORT_PAGE`` nodes per
    transaction (their properties, then their relationships), so no read grows with the user (the whole
    export is held in memory: :func:`graphmem.governance.export.iter_export` streams it)."""
    nodes: list[dict[str, Any]] = []
    rels: dict[str, dict[str, Any]] = {}
    for page, linked in export.scope_pages(rt, user_id, EXPORT_PAGE):
        nodes += page
        rels.update((r["rel"], r) for r in linked)
    out: dict[str, Any] = {
        "user_id": user_id,
        "exported_at": datetime.now(UTC).isoformat(),
        **{name: [] for name in export.COLLECTIONS.values()},
        "other": [],
    }
    for row in sorted(nodes, key=lambda n: (n["labels"][:1], str(n["key"]))):  # user_nodes' order
        collection, item = export.collection_item(row)
        out[collection].append(item)
    out["relationships"] = [
        export.relationship_item(r)
        for r in sorted(rels.values(), key=lambda r: (r["type"], str(r["src"]), str(r["dst"])))
    ]
    out["audit"] = [e.model_dump(mode="json") for e in audit.log(rt, user_id=user_id)]
    return out


def delete_user(rt: Runtime, user_id: str, *, actor: str | None = None) -> DeletionReport:
    """Hard-delete every node and relationship of ``user_id`` in batches; idempotent (a second call
    deletes nothing and reports zeros). The audit keeps a tombstone without personal content.

    The user's nodes are streamed from each label's ``user_id`` index and deleted ``BATCH`` per
    transaction: an interrupted deletion leaves part of the user, and a rerun finishes it (so the
    tombstone event is appended once everything is gone, not in the deleting transactions). What the
    user held when the first attempt began is recorded first (a pending ``UserDeletion`` keyed by the user's
    hash), so a rerun's tombstone still counts what the interrupted attempt deleted. Writes to the user that
    commit while it runs are deleted by the next pass (up to ``DELETE_PASSES``)."""
    user_hash = audit.user_hash(user_id)
    prefix = session_uid_prefix(user_id)
    begun = rt.store.write(
        "user_delete_begin",
        user_id=user_id,
        session_prefix=prefix,
        user_hash=user_hash,
        now=datetime.now(UTC),
    )[0]
    keys = rt.store.write("api_key_revoke_user", user_id=user_id, user_hash=user_hash, now=datetime.now(UTC))
    deleted: dict[str, int] = {}
    linked = 0
    for _ in range(DELETE_PASSES):  # again while a pass found any: what writes committed during the last
        rows = rt.store.write_auto("user_delete", user_id=user_id, session_prefix=prefix, batch=BATCH)
        for r in rows:
            deleted[r["label"]] = deleted.get(r["label"], 0) + int(r["nodes"])
        linked += sum(int(r["relationships"]) for r in rows)
        if not rows:
            break
    else:  # writes kept arriving: what commits after the last pass stays until the next deletion
        logger.warning(
            "delete_user: the user was still being written to after %d passes; new writes may remain",
            DELETE_PASSES,
        )
    # What an interrupted first run deleted is in the recorded counts; what arrived since, in this run's.
    counts = dict(zip(begun["labels"], (int(c) for c in begun["counts"]), strict=True))
    for label, n in deleted.items():
        counts[label] = max(counts.get(label, 0), n)
    rels = max(int(begun["relationships"]), linked)
    audit.record(
        rt,
        "delete_user",
        user_id=user_id,
        actor=actor,
        details={"nodes": counts, "relationships": rels},
    )
    rt.store.write("user_delete_end", user_hash=user_hash)
    redacted = rt.store.write("user_audit_redact", user_hash=user_hash)
    report = DeletionReport(
        user_id=user_id,
        nodes=counts,
        relationships=rels,
        audit_events_redacted=int(redacted[0]["redacted"]) if redacted else 0,
        api_keys_revoked=int(keys[0]["revoked"]) if keys else 0,
    )
    logger.info("delete_user: %d nodes, %d relationships", report.deleted, report.relationships)
    return report


def anonymize_user(rt: Runtime, user_id: str, *, actor: str | None = None) -> int:
    """Redact content and personal fields of every node of ``user_id``; structure and counts stay, but for
    the user's idempotency keys, which are deleted. Returns the number of nodes touched (the keys aside).

    The user's idempotency keys go first (deleted, not counted: ``graphmem import``'s per-message marks and
    the keys of retried calls, each named by the user id and a key or a hash of a message), and its audit
    events forget their idempotency keys: nothing left tells a holder of an imported file or of a call that it
    was stored for the user. A re-import then stores the file again (docs/interfaces.md)."""
    keys = rt.store.write_auto("user_anonymize_keys", user_id=user_id, batch=BATCH)
    unkeyed = rt.store.write_auto("user_audit_unkey", user_hash=audit.user_hash(user_id), batch=BATCH)
    ids = [
        n["element_id"]
        for n in rt.store.read(
            "user_nodes", user_id=user_id, session_prefix=session_uid_prefix(user_id), props=False
        )
    ]
    rows = rt.store.write_auto("user_anonymize", ids=ids, redacted=REDACTED, batch=BATCH) if ids else []
    count = int(rows[0]["anonymized"]) if rows else 0
    embedding = embed_checked(rt.embedder, [REDACTED])[0]
    rt.store.write_auto("user_anonymize_embeddings", user_id=user_id, embedding=embedding, batch=BATCH)
    unlinked = {
        "idempotency_keys": int(keys[0]["deleted"]) if keys else 0,
        "audit_keys": int(unkeyed[0]["unkeyed"]) if unkeyed else 0,
    }
    audit.record(rt, "anonymize_user", user_id=user_id, actor=actor, details={"nodes": count, **unlinked})
    return count


def govern_memory(
    rt: Runtime, memory_id: str, *, user_id: str, decision: Decision, actor: str | None = None
) -> None:
    """Apply one governance decision to a memory, with an audit record."""
    now = datetime.now(UTC)
    embedding = embed_checked(rt.embedder, [REDACTED])[0] if decision is Decision.ANONYMIZE else None

    def work(tx: Tx) -> None:
        rows = tx.run(
            "memory_govern",
            user_id=user_id,
            id=memory_id,
            decision=decision.value,
            redacted=REDACTED,
            now=now,
        )
        if not rows:
            raise MemoryNotFound(memory_id)
        if embedding is not None:
            tx.run("memory_embedding_set", user_id=user_id, id=memory_id, embedding=embedding)
        audit.append(
            tx,
            f"govern:{decision.value}",
            user_id=user_id,
            now=now,
            actor=actor,
            target_ids=[memory_id],
            version=rows[0]["version"],
        )

    rt.store.unit_of_work(work)
    rt.changes.touch(user_id)
