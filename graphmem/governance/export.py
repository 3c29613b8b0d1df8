"""A user's GDPR export as a stream of records (JSON Lines), so that its size is bounded by a page, not by
the user: ``mem.users.export_to``, ``graphmem export --format jsonl`` and REST ``?format=jsonl``.

The first record names the export, the last (``{"end": true, "counts"}``) closes it; each one between is
``{"scope", "collection", "item"}``: ``scope`` the
tenant it belongs to (the user, or one of its session scopes, docs/scopes.md), ``collection`` one of the
keys of :func:`graphmem.governance.users.export_user`'s dictionary (``memories``, ``facts``, ...,
``relationships``, ``audit``), ``item`` what that list would hold. A user's nodes come ``STREAM_PAGE`` per
read, each page followed by its relationships (each edge once within a scope: on the page of its start node,
or of its end node when the start is not the user's), then the audit log ``AUDIT_PAGE`` events per read.
Holding the listing of element ids is the only cost that grows with the user (~100 bytes a node).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from graphmem.errors import ValidationError
from graphmem.formation.drafts import session_uid_prefix
from graphmem.store import audit
from graphmem.store.records import clean_json, load_metadata
from graphmem.store.runtime import Runtime

__all__ = [
    "COLLECTIONS",
    "FORMAT",
    "collection_item",
    "iter_export",
    "jsonable",
    "lines",
    "relationship_item",
    "scope_pages",
    "write_file",
    "write_lines",
]

FORMAT = "graphmem.export.v1"
"""The ``format`` of an export stream's first record."""

STREAM_PAGE = 2_000
"""Nodes per read of a streamed export: what it holds at once. A 50,000-memory user streamed to a file
peaked at 132 MB of process memory in pages of 2,000, 166 MB in pages of 5,000 and 361 MB in pages of 20,000
(the one-document export: 449-454 MB), against 89 MB once connected."""

AUDIT_PAGE = 5_000
"""Audit events per read of a streamed export."""

COLLECTIONS = {
    "Memory": "memories",
    "Fact": "facts",
    "Entity": "entities",
    "Session": "sessions",
    "Conflict": "conflicts",
    "Merge": "merges",
    "RecallEvent": "recall_events",
    "Feedback": "feedback",
    "JobRun": "job_runs",
    "User": "users",
}
"""The collection of a node by its label (a node of none of them: ``other``, with its labels)."""


def jsonable(value: Any) -> Any:
    """Datetimes to ISO-8601 text, recursively; JSON-text metadata decoded."""
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return clean_json(value)


def collection_item(row: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A ``user_node_page`` row as its collection and the item listed there."""
    props = jsonable(row["props"])
    if isinstance(props.get("metadata"), str):
        props["metadata"] = load_metadata(props["metadata"])
    label = next((lb for lb in row["labels"] if lb in COLLECTIONS), None)
    if label is None:
        return "other", {"labels": row["labels"], **props}
    return COLLECTIONS[label], dict(props)


def relationship_item(row: dict[str, Any]) -> dict[str, Any]:
    """A ``user_relationships`` row as the item listed under ``relationships``."""
    return {"src": row["src"], "type": row["type"], "dst": row["dst"], "properties": jsonable(row["props"])}


def scope_pages(
    rt: Runtime, tenant: str, page_size: int
) -> Iterator[tuple[list[dict[str, Any]], list[dict[str, Any]]]]:
    """One tenant's nodes, ``page_size`` per read transaction (``user_node_page``, in the listing's order:
    label, then key), each with its relationships (``user_relationships``)."""
    prefix = session_uid_prefix(tenant)
    owner = {"user_id": tenant, "session_prefix": prefix}
    ids = [n["element_id"] for n in rt.store.read("user_nodes", props=False, **owner)]
    for start in range(0, len(ids), page_size):
        page = ids[start : start + page_size]
        yield (
            rt.store.read("user_node_page", ids=page, **owner),
            rt.store.read("user_relationships", ids=page, **owner),
        )


def iter_export(rt: Runtime, user_id: str, tenants: list[str], page_size: int) -> Iterator[dict[str, Any]]:
    """The records of ``user_id``'s export over ``tenants`` (the user first, then its session scopes),
    between the header and the closing ``{"end": true, "counts": {collection: records}}``: a stream cut
    short (a connection lost, a server error after the first line was sent) is told by its missing end."""
    yield {"format": FORMAT, "user_id": user_id, "exported_at": datetime.now(UTC).isoformat()}
    counts: dict[str, int] = {}
    for tenant in tenants:
        for collection, item in _scope_records(rt, tenant, page_size):
            counts[collection] = counts.get(collection, 0) + 1
            yield {"scope": tenant, "collection": collection, "item": item}
    yield {"end": True, "counts": counts}


def _scope_records(rt: Runtime, tenant: str, page_size: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """One tenant's (collection, item) pairs: its nodes and relationships page by page, then its audit log."""
    for nodes, rels in scope_pages(rt, tenant, page_size):
        for row in nodes:
            yield collection_item(row)
        for rel in rels:
            yield "relationships", relationship_item(rel)
    after: str | None = None
    while True:
        events, _ = audit.page(rt, user_id=tenant, after=after, limit=AUDIT_PAGE)
        for event in events:
            yield "audit", event.model_dump(mode="json")
        if len(events) < AUDIT_PAGE:
            return
        after = events[-1].id


def lines(records: Iterator[dict[str, Any]]) -> Iterator[str]:
    """Each record as one line of JSON (UTF-8 text, newline-terminated)."""
    for record in records:
        yield json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"


def write_lines(records: Iterator[dict[str, Any]], out: IO[str]) -> dict[str, int]:
    """Write each record as one line of JSON to ``out``; the records per collection (the end record's)."""
    last: dict[str, Any] = {}

    def kept() -> Iterator[dict[str, Any]]:
        nonlocal last
        for record in records:
            last = record
            yield record

    out.writelines(lines(kept()))
    return dict(last.get("counts") or {})


def write_file(records: Iterator[dict[str, Any]], path: str | os.PathLike[str]) -> dict[str, int]:
    """Write the records to ``path`` in full or not at all: to a new temporary file beside it, renamed over
    it once complete (a failure leaves ``path`` as it was). A path that cannot be written is a
    :class:`ValidationError` naming it."""
    target = Path(path)
    try:
        if not target.name:
            raise IsADirectoryError(0, "it names no file")
        fd, partial = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    except OSError as exc:
        raise ValidationError("out", f"{target} cannot be written: {exc.strerror or exc}") from exc
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            counts = write_lines(records, f)
        os.replace(partial, target)
    except OSError as exc:
        raise ValidationError("out", f"{target} cannot be written: {exc.strerror or exc}") from exc
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)  # gone once renamed; what a failure left, removed
    return counts
