"""Migrations of stored data, run by ``GraphMemory.init()`` (idempotent): what valid-time reads need, the mark
that lets the decay job find old edges through an index, and stored times in UTC."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from datetime import UTC, datetime

from graphmem.model.tokens import compound_parts, index_tokens
from graphmem.store.queries import query, query_names, schema_statements
from graphmem.store.runtime import Runtime

logger = logging.getLogger(__name__)

BATCH = 10_000


EDGES_DUE = "related_weight_due"
"""The one-time migration that marks edges written before ``weight_due`` existed (recorded as done)."""


TIMES_IN_UTC = "times_in_utc"
"""The one-time migration that stores every date-time in UTC (graphmem.store.values.in_utc says why)."""


GIST_RESTORED = "gist_restored"
"""The one-time migration that brings back the summaries decay forgot before round 60 (it reads every
memory)."""


KEYS_PAGE = 1_000
"""Memories a page of :func:`compound_keys` reads: their content and search text travel both ways (up to
~40,000 characters each at the content cap)."""

COMPOUND_KEYS = "compound_keys"
"""The one-time migration that adds the words inside compound terms to the search text of memories formed
before round 61 (it reads every memory's content; graphmem.model.tokens)."""


def run(rt: Runtime, now: datetime | None = None) -> int:
    """Give every memory without ``occurred_at`` one (from ``created_at``, else ``recorded_at``), and, once
    per store, every RELATED_TO edge the decay job's index seeks cannot find the epoch as ``weight_due``
    (:func:`mark_edges_due`; it reads every edge, so later inits skip it), every date-time held at
    another offset the same instant in UTC (:func:`times_in_utc`, once too), every summary decay forgot
    its status back (:func:`restore_gist`, once too) and every memory's search text the words inside its
    compound terms (:func:`compound_keys`, once too); returns how many memories were given an occurred_at.
    Nothing is deleted or overwritten."""
    total = _batched(rt, "memory_occurred_backfill")
    if total:
        logger.info("migration: occurred_at set on %d memories", total)
    clock = now or datetime.now(UTC)
    once: tuple[tuple[str, Callable[[Runtime, datetime], object]], ...] = (
        (EDGES_DUE, lambda r, _: mark_edges_due(r)),
        (TIMES_IN_UTC, lambda r, _: times_in_utc(r)),
        (GIST_RESTORED, restore_gist),
        (COMPOUND_KEYS, lambda r, _: compound_keys(r)),
    )
    for migration, step in once:  # each reads the whole store: recorded as done, later inits skip it
        if not rt.store.read("migration_done", id=migration)[0]["done"]:
            step(rt, clock)
            rt.store.write("migration_record", id=migration, now=clock)
    return total


def restore_gist(rt: Runtime, now: datetime) -> int:
    """Bring back every summary decay forgot (before round 60 a summary was no exception); returns how
    many."""
    restored = int(rt.store.write_auto("migration_gist_restore", batch=BATCH, now=now)[0]["updated"])
    if restored:
        logger.info("migration: %d summaries decay had forgotten restored", restored)
    return restored


def compound_keys(rt: Runtime) -> int:
    """Append to each memory's search text the words inside its content's compound terms that it lacks
    (:func:`graphmem.model.tokens.compound_parts`: formation writes them since round 61); returns how many
    memories changed. Pages in id order; the server's regex picks the contents that may hold one."""
    after, total = "", 0
    while True:
        page = rt.store.read("migration_compound_keys_page", after=after, limit=KEYS_PAGE)
        rows = []
        for row in page:
            if not isinstance(row["search_text"], str) or not isinstance(row["content"], str):
                continue
            have = set(index_tokens(row["search_text"]))
            extra = [p for p in compound_parts(row["content"]) if p not in have]
            if extra:
                rows.append({"id": row["id"], "search_text": row["search_text"], "extra": " ".join(extra)})
        if rows:
            total += int(rt.store.write("migration_compound_keys_write", rows=rows)[0]["updated"])
        if len(page) < KEYS_PAGE:
            break
        after = page[-1]["id"]
    if total:
        logger.info("migration: the words inside compound terms added to %d memories' search text", total)
    return total


def times_in_utc(rt: Runtime) -> tuple[int, int]:
    """Set every date-time property held at an offset or zone other than UTC to the same instant in UTC, on
    nodes and relationships (graphmem before round 55 stored each caller's offset); returns how many nodes
    and relationships changed. It reads the whole store, so init() runs it once."""
    labels = graphmem_labels()
    changed = tuple(
        int(rt.store.write_auto(name, batch=BATCH, labels=labels)[0]["updated"])
        for name in ("migration_times_utc_nodes", "migration_times_utc_relationships")
    )
    if any(changed):
        logger.info("migration: times set in UTC on %d nodes and %d relationships", *changed)
    return changed[0], changed[1]


def mark_edges_due(rt: Runtime) -> int:
    """Mark every RELATED_TO edge without ``weight_due`` (or with one but no rate or floor: written outside
    graphmem) due at the epoch, so the decay job's next run evaluates it; returns how many."""
    edges = _batched(rt, "related_due_backfill")
    if edges:
        logger.info("migration: %d RELATED_TO edges marked for the next decay run", edges)
    return edges


def _batched(rt: Runtime, name: str) -> int:
    total = 0
    while True:
        rows = rt.store.write(name, batch=BATCH)
        updated = int(rows[0]["updated"]) if rows else 0
        total += updated
        if updated < BATCH:
            return total


_NODE_LABEL = re.compile(r"(?:CREATE|MERGE)\s*\(\w*:(\w+)|FOR \(\w*:(\w+)\)")


def graphmem_labels() -> list[str]:
    """Every node label graphmem creates, merges or indexes (read from its own Cypher and schema files): what
    a store-wide migration may touch in a database shared with other applications."""
    texts = [query(name) for name in query_names()] + [text for _, text in schema_statements()]
    return sorted({a or b for text in texts for a, b in _NODE_LABEL.findall(text)})
