"""``GraphMemory.init``: graphmem's constraints and indexes, the stored data's migrations and the embedding
space the vectors were made in."""

from __future__ import annotations

import logging

from graphmem.errors import SchemaError
from graphmem.store import embedding_space, migrations
from graphmem.store.queries import schema_statements
from graphmem.store.runtime import Runtime
from graphmem.temporal import migrate

logger = logging.getLogger(__name__)

__all__ = ["VECTOR_INDEX", "init_schema"]

VECTOR_INDEX = "memory_embedding"


def init_schema(rt: Runtime) -> None:
    """Create the schema (idempotent); refuse an existing vector index of another dimension."""
    dimension = rt.embedder.dimension
    existing = rt.store.read("vector_index_options", name=VECTOR_INDEX)
    if existing:
        config = existing[0]["options"].get("indexConfig", {})
        found = config.get("vector.dimensions")
        if found is not None and int(found) != dimension:
            raise SchemaError(
                f"vector index {VECTOR_INDEX!r} has dimension {found}, but the embedder produces "
                f"{dimension}: drop the index or use an embedder of dimension {found}"
            )
    filtered = migrations.server_filters_vectors(rt)
    migrations.migrate(rt, filtered=filtered)
    for name, statement in schema_statements(filtered=filtered):
        logger.debug("schema: %s", name)
        rt.store.run_statement(statement, {"dimension": dimension})
    rt.vector_filter.reset()
    rt.entity_index.reset()
    embedding_space.check_or_record(rt.store, rt.embedder)
    migrate.run(rt)
