"""Migrations of stored data that valid-time reads need, run by ``GraphMemory.init()`` (idempotent)."""

from __future__ import annotations

import logging

from graphmem.store.runtime import Runtime

logger = logging.getLogger(__name__)

BATCH = 10_000


def run(rt: Runtime) -> int:
    """Give every memory without ``occurred_at`` one (from ``created_at``, else ``recorded_at``), in
    bounded batches; returns how many were updated. Nothing is deleted or overwritten."""
    total = 0
    while True:
        rows = rt.store.write("memory_occurred_backfill", batch=BATCH)
        updated = int(rows[0]["updated"]) if rows else 0
        total += updated
        if updated < BATCH:
            break
    if total:
        logger.info("migration: occurred_at set on %d memories", total)
    return total
