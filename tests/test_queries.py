"""Every .cypher file is used by the library and is valid on the real server."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from graphmem import GraphMemory
from graphmem.formation.writer import formation_params
from graphmem.retrieval.effects import effects_params
from graphmem.store import migrations
from graphmem.store.queries import (
    FILTERED,
    STRICT,
    has_filter_variant,
    has_strict_variant,
    query,
    query_names,
    schema_statements,
)
from graphmem.temporal.facts import fact_params

SOURCE = "\n".join(p.read_text() for p in Path(__file__).parents[1].joinpath("graphmem").rglob("*.py"))
LIBRARY_QUERIES = [n for n in query_names() if "/" not in n]


@pytest.mark.parametrize("name", LIBRARY_QUERIES)
def test_query_is_used_by_the_library(name: str) -> None:
    assert re.search(rf'["\']{re.escape(name)}["\']', SOURCE), f"cypher/{name}.cypher is not used"


@pytest.mark.parametrize("name", LIBRARY_QUERIES)
def test_query_passes_explain(mem: GraphMemory, name: str) -> None:
    mem.runtime.store.run_statement("EXPLAIN " + query(name), {})


MISSING_PARAMETER = "01N60"  # an EXPLAIN without parameters: expected


def test_queries_plan_without_notifications(mem: GraphMemory) -> None:
    """The server plans every query without a notice (a shadowed subquery variable, a cartesian product, a
    deprecation), besides the parameters an EXPLAIN leaves out; the filter and strict variants too where the
    server takes them."""
    store = mem.runtime.store
    names = list(LIBRARY_QUERIES) + [STRICT + n for n in STRICT_VARIANTS]
    if migrations.server_filters_vectors(mem.runtime):
        names += [FILTERED + n for n in FILTER_VARIANTS]
        names += [STRICT + FILTERED + n for n in STRICT_VARIANTS if has_filter_variant(n)]
    notices: dict[str, list[str]] = {}
    for name in names:
        _, summary, _ = store.driver.execute_query("EXPLAIN " + query(name), database_=store.database)
        found = [
            f"{s.gql_status} {s.status_description}"
            for s in summary.gql_status_objects
            if s.is_notification and s.gql_status != MISSING_PARAMETER
        ]
        if found:
            notices[name] = found
    assert notices == {}


FILTER_VARIANTS = [n for n in LIBRARY_QUERIES if has_filter_variant(n)]


def test_the_vector_searches_have_filter_variants() -> None:
    assert set(FILTER_VARIANTS) == {
        "recall_pool",
        "entity_similar_index",
        "formation_neighbours_index",
        "associate_vector",
        "associate_read_vectors",
        "associate_write_pairs",
        "formation_tenant_vectors",
    }
    for name in FILTER_VARIANTS:
        used = rf'(?:variant\(\s*|read_packed\([^,]+,\s*)["\']{name}["\']'  # read_packed runs its variant
        assert re.search(used, SOURCE), f"{name}'s filter variant is not used"


@pytest.mark.parametrize("name", FILTER_VARIANTS)
def test_filter_variant_passes_explain_where_the_server_filters(mem: GraphMemory, name: str) -> None:
    if migrations.server_filters_vectors(mem.runtime):
        mem.runtime.store.run_statement("EXPLAIN " + query(FILTERED + name), {})
    else:  # a 5.26 server cannot parse SEARCH: the library never sends it there
        assert not mem.runtime.vector_filter.ready(mem.runtime.store)


STRICT_VARIANTS = [n for n in LIBRARY_QUERIES if has_strict_variant(n)]


def test_every_stored_vector_cosine_has_a_strict_variant() -> None:
    """The statements that take a cosine of a stored vector, each with a rerun that checks it first."""
    assert set(STRICT_VARIANTS) == {
        "candidate_fetch",
        "consolidate_duplicates",
        "context_read",
        "entity_similar",
        "entity_similar_index",
        "formation_neighbours",
        "memory_fetch",
        "recall_filtered",
        "recall_pool",
    }
    for name in STRICT_VARIANTS:
        assert query(STRICT + name).count("1.0e38") > query(name).count("1.0e38")  # coordinates checked


@pytest.mark.parametrize("name", STRICT_VARIANTS)
def test_strict_variant_passes_explain(mem: GraphMemory, name: str) -> None:
    mem.runtime.store.run_statement("EXPLAIN " + query(STRICT + name), {})
    if has_filter_variant(name) and migrations.server_filters_vectors(mem.runtime):
        mem.runtime.store.run_statement("EXPLAIN " + query(STRICT + FILTERED + name), {})


def test_no_statement_returns_a_node_with_its_times_for_the_driver_to_decode() -> None:
    """A whole node comes back as fragments/property_pairs (date-times packed: ~1 µs to read, against the
    driver's 55-80 µs), never as a map projection of all its properties (``n {.*}``, ``properties(r)``; the
    Browser kit, written for people, excepted)."""
    whole = re.compile(r"\b\w+ \{\s*\.\*|RETURN[^\n]*\bproperties\(")
    for name in LIBRARY_QUERIES:
        text = query(name)
        assert not whole.search(text), name
        if "{{property_pairs(" in (Path(__file__).parents[1] / "cypher" / f"{name}.cypher").read_text():
            assert "__properties__" in text and "__time__" in text, name


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


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("formation_write", formation_params("u", datetime.now(UTC))),
        ("fact_write", fact_params("u", datetime.now(UTC))),
        ("recall_write", effects_params(["u"], datetime.now(UTC))),
    ],
)
def test_a_statements_plan_fields_are_the_ones_its_caller_sends(name: str, params: dict[str, Any]) -> None:
    """A field of ``$plan`` that the statement names and the caller does not send reads as null, and
    ``UNWIND null`` writes nothing without an error: the two must agree, field for field."""
    named = set(re.findall(r"\$plan\.(\w+)", query(name)))
    assert named == set(params["plan"]), name
    assert set(re.findall(r"\$(\w+)", query(name))) - {"plan"} <= set(params) - {"plan"}, name


def test_co_recall_needs_two_memories_returned_together() -> None:
    one, two = (effects_params(["u"], datetime.now(UTC), reinforced=ids) for ids in (["a"], ["a", "b"]))
    assert one["plan"]["co_recalled"] == [] and two["plan"]["co_recalled"] == ["a", "b"]
