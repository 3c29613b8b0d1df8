"""Schema migrations that ``IF NOT EXISTS`` cannot express, run by ``init()`` before the schema files.

Neo4j cannot alter an index's property list: an index created by an older graphmem is dropped here and
recreated from its schema file, then awaited. Idempotent: a current store is left alone. Data is untouched.
"""

from __future__ import annotations

import logging

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
