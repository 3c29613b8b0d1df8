"""Every .cypher file is used by the library and is valid on the real server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from graphmem import GraphMemory
from graphmem.store.queries import query, query_names, schema_statements

SOURCE = "\n".join(p.read_text() for p in Path(__file__).parents[1].joinpath("graphmem").rglob("*.py"))
LIBRARY_QUERIES = [n for n in query_names() if "/" not in n]


@pytest.mark.parametrize("name", LIBRARY_QUERIES)
def test_query_is_used_by_the_library(name: str) -> None:
    assert re.search(rf'["\']{re.escape(name)}["\']', SOURCE), f"cypher/{name}.cypher is not used"


@pytest.mark.parametrize("name", LIBRARY_QUERIES)
def test_query_passes_explain(mem: GraphMemory, name: str) -> None:
    mem.runtime.store.run_statement("EXPLAIN " + query(name), {})


def test_query_files_have_a_header_comment() -> None:
    root = Path(__file__).parents[1] / "cypher"
    for path in root.glob("*.cypher"):
        assert path.read_text().startswith("//"), path.name


def test_schema_statements_are_named_and_idempotent() -> None:
    for name, statement in schema_statements():
        if statement.startswith("DROP "):  # retiring an index is idempotent DDL too
            assert re.fullmatch(r"DROP (INDEX|CONSTRAINT) \w+ IF EXISTS", statement), name
            continue
        assert "IF NOT EXISTS" in statement, name
        assert re.match(
            r"CREATE (CONSTRAINT|INDEX|FULLTEXT INDEX|VECTOR INDEX) \w+ IF NOT EXISTS", statement
        ), name


def test_bad_query_names_are_refused() -> None:
    for bad in ["../pyproject", "x;y", "", "Recall_Exact"]:
        with pytest.raises(KeyError):
            query(bad)
