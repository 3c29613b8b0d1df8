"""Migrations of stored data, run by ``GraphMemory.init()`` (idempotent): what valid-time reads need, and the
mark that lets the decay job find old edges through an index."""

from __future__ import annotations

import logging

from graphmem.store.runtime import Runtime

logger = logging.getLogger(__name__)

BATCH = 10_000


def run(rt: Runtime) -> int:
    """Give every memory without ``occurred_at`` one (from ``created_at``, else ``recorded_at``), and every
    RELATED_TO edge without ``weight_due`` the epoch (the decay job evaluates it next), in bounded batches;
    returns how many memories were updated. Nothing is deleted or overwritten."""
    total = _batched(rt, "memory_occurred_backfill")
    if total:
        logger.info("migration: occurred_at set on %d memories", total)
    edges = _batched(rt, "related_due_backfill")
    if edges:
        logger.info("migration: %d RELATED_TO edges marked for the next decay run", edges)
    return total


def _batched(rt: Runtime, name: str) -> int:
    total = 0
    while True:
        rows = rt.store.write(name, batch=BATCH)
        updated = int(rows[0]["updated"]) if rows else 0
        total += updated
        if updated < BATCH:
            return total
