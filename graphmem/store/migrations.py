"""Schema migrations that ``IF NOT EXISTS`` cannot express, run by ``init()`` before the schema files.

Neo4j cannot alter an index's property list: an index created by an older graphmem is dropped here and
recreated from its schema file, then awaited. Idempotent: a current store is left alone. Data is untouched,
except by :func:`anchor_decay` (after the schema files), which runs once per store.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from graphmem.store.queries import query, schema_statements
from graphmem.store.runtime import Runtime

logger = logging.getLogger(__name__)

FULLTEXT_INDEX = "memory_content"
FULLTEXT_PROPERTIES = ("content", "speaker", "search_text", "user_key")
"""What ``schema/030_memory_content_fulltext.cypher`` indexes."""

AWAIT_SECONDS = 600
"""How long init() waits for a recreated index to be populated (full-text search is off until then)."""


def migrate(rt: Runtime) -> list[str]:
    """Recreate indexes whose definition is out of date and wait for them; returns what was recreated."""
    dropped = []
    rows = rt.store.read("schema_fulltext_properties", name=FULLTEXT_INDEX)
    if rows and set(rows[0]["properties"]) != set(FULLTEXT_PROPERTIES):
        logger.info("full-text index %s predates search_text: recreating it", FULLTEXT_INDEX)
        rt.store.run_statement(query("schema_memory_content_drop"))
        statement = dict(schema_statements())["030_memory_content_fulltext"]
        rt.store.run_statement(statement)
        rt.store.run_statement(
            query("schema_await_index"), {"name": FULLTEXT_INDEX, "seconds": AWAIT_SECONDS}
        )
        dropped.append(FULLTEXT_INDEX)
    return dropped


DECAY_DUE = "decay_due"
MIGRATION_BATCH = 10_000


def anchor_decay(rt: Runtime) -> int:
    """Once per store: live memories without ``decay_due`` (written before it existed) become due for the next
    decay run, which computes their coefficients (graphmem.model.anchors); returns how many were marked."""
    now = datetime.now(UTC)
    if rt.store.write("migration_marker", id=DECAY_DUE, mark=False, now=now)[0]["ran"]:
        return 0
    rows = rt.store.write_auto("migration_decay_due", batch=MIGRATION_BATCH)
    rt.store.write("migration_marker", id=DECAY_DUE, mark=True, now=now)
    return int(rows[0]["marked"]) if rows else 0
