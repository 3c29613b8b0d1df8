"""Schema migrations that ``IF NOT EXISTS`` cannot express, run by ``init()`` before the schema files.

Neo4j cannot alter an index's property list: an index created by an older graphmem (or on an older server)
is dropped here and recreated from its schema file, then awaited. Idempotent: a current store is left alone.
Data is untouched.
"""

from __future__ import annotations

import logging
import re

from graphmem.errors import GraphMemError
from graphmem.store.queries import query, schema_statements
from graphmem.store.runtime import ENTITY_INDEXES, TENANT_FILTER, TIME_FILTERS, VECTOR_INDEXES, Runtime

logger = logging.getLogger(__name__)

FULLTEXT_INDEX = "memory_content"
FULLTEXT_PROPERTIES = ("content", "speaker", "search_text", "user_key", "asked")
"""What ``schema/030_memory_content_fulltext.cypher`` indexes."""

AWAIT_SECONDS = 600
"""How long init() waits for a recreated index to be populated before it logs and returns; reads do not use
the index until it is online."""

FILTER_SINCE = (2026, 1)
"""The first Neo4j whose vector indexes filter by a listed property inside the index (``SEARCH … WHERE``)."""


FILTERS = (TENANT_FILTER, *TIME_FILTERS)
"""The filter properties ``schema/040`` and ``041`` give both vector indexes on a server that can filter."""

REQUIRED = {**dict.fromkeys(VECTOR_INDEXES, FILTERS), **dict.fromkeys(ENTITY_INDEXES, (TENANT_FILTER,))}
"""Each vector index's filter properties on a server that can filter (``schema/042``: the entity index, the
tenant only)."""


def filters_vectors(version: str) -> bool:
    """Whether a Neo4j of this version ('2026.01.4', '5.26.30') can filter inside a vector index."""
    match = re.match(r"(\d+)\.(\d+)", version or "")
    return match is not None and (int(match.group(1)), int(match.group(2))) >= FILTER_SINCE


def server_filters_vectors(rt: Runtime) -> bool:
    rows = rt.store.read("server_version")
    return bool(rows) and filters_vectors(str(rows[0]["version"]))


def migrate(rt: Runtime, *, filtered: bool = False) -> list[str]:
    """Recreate indexes whose definition is out of date and wait for them; returns what was recreated.
    ``filtered``: the server can filter inside vector indexes (:func:`server_filters_vectors`), so a vector
    index missing a filter property (the tenant, or the two times a time-scoped recall bounds: graphmem
    before round 20 listed the tenant alone) is recreated with all of them."""
    dropped = []
    rows = rt.store.read("schema_fulltext_properties", name=FULLTEXT_INDEX)
    if rows and set(rows[0]["properties"]) != set(FULLTEXT_PROPERTIES):
        lacking = ", ".join(sorted(set(FULLTEXT_PROPERTIES) - set(rows[0]["properties"]))) or "none"
        logger.info("full-text index %s lacks %s: recreating it", FULLTEXT_INDEX, lacking)
        rt.store.run_statement(query("schema_memory_content_drop"))
        statement = dict(schema_statements())["030_memory_content_fulltext"]
        rt.store.run_statement(statement)
        _await(rt, FULLTEXT_INDEX)
        dropped.append(FULLTEXT_INDEX)
    if filtered:
        creates = {  # each vector index's own schema statement, by the index name it creates
            name: statement
            for _, statement in schema_statements(filtered=True)
            for name in REQUIRED
            if f"VECTOR INDEX {name} " in statement
        }
        rows = rt.store.read("vector_index_filter", names=list(REQUIRED))
        for row in rows:
            missing = [p for p in REQUIRED[str(row["name"])] if p not in (row["properties"] or [])]
            if not missing:
                continue
            name = str(row["name"])
            logger.info("vector index %s cannot filter by %s: recreating it", name, ", ".join(missing))
            rt.store.run_statement(query("schema_vector_index_drop"), {"name": name})
            rt.store.run_statement(creates[name], {"dimension": rt.embedder.dimension})
            _await(rt, name)
            dropped.append(name)
    return dropped


def _await(rt: Runtime, name: str) -> None:
    """Wait up to ``AWAIT_SECONDS`` for a recreated index; past that, log and go on: reads do not use an
    index until it is online (recall and formation scan the tenant, full-text search is off)."""
    try:
        rt.store.run_statement(query("schema_await_index"), {"name": name, "seconds": AWAIT_SECONDS})
    except GraphMemError as exc:
        logger.warning(
            "index %s is not online after %d s (%s); it is used once it is", name, AWAIT_SECONDS, exc
        )
