"""The Cypher exploration kit (cypher/kit/): headers with :param lines, EXPLAIN on the real server, rows on a
graph this test builds, and a Browser style file covering every label and relationship type."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from graphmem import GraphMemory
from graphmem.cli.main import app
from graphmem.store.queries import query, query_names

KIT = Path(__file__).parents[1] / "cypher" / "kit"
KIT_QUERIES = query_names("kit")
PARAM = re.compile(r"^// :param (\w+) =>", re.MULTILINE)


def params_of(name: str) -> set[str]:
    return set(PARAM.findall((KIT / f"{name.split('/')[1]}.cypher").read_text()))


def test_the_kit_is_there() -> None:
    assert {n.split("/")[1] for n in KIT_QUERIES} >= {
        "user_graph",
        "session_chain",
        "entity_neighbourhood",
        "activation_path",
        "beliefs_at",
        "fact_chains",
        "conflicts",
        "weakest_memories",
        "forgotten_memories",
        "decay_over_time",
    }


@pytest.mark.parametrize("name", KIT_QUERIES)
def test_kit_query_declares_every_parameter(name: str) -> None:
    text = (KIT / f"{name.split('/')[1]}.cypher").read_text()
    assert text.startswith("//"), name
    used = set(re.findall(r"\$(\w+)", query(name)))
    assert used == params_of(name), name


@pytest.mark.parametrize("name", KIT_QUERIES)
def test_graphmem_kit_prints_a_query_the_browser_runs(mem: GraphMemory, name: str) -> None:
    """The files themselves may hold ``{{fragment(...)}}`` includes, which are not Cypher: what the docs
    tell a user to paste is `graphmem kit NAME`, its header and the statement with the fragments expanded."""
    printed = CliRunner().invoke(app, ["kit", name.split("/")[1]])
    assert printed.exit_code == 0, printed.output
    assert "{{" not in printed.output and printed.output.startswith("// ")
    assert set(PARAM.findall(printed.output)) == params_of(name)
    mem.runtime.store.run_statement("EXPLAIN " + printed.output, {})
    listed = CliRunner().invoke(app, ["kit"])
    assert name.split("/")[1] in listed.output


@pytest.mark.parametrize("name", KIT_QUERIES)
def test_kit_query_passes_explain(mem: GraphMemory, name: str) -> None:
    mem.runtime.store.run_statement("EXPLAIN " + query(name), {})


def test_style_file_covers_the_graph_model() -> None:
    grass = (KIT / "graphmem.grass").read_text()
    model = (Path(__file__).parents[1] / "docs" / "graph-model.md").read_text()
    labels = set(re.findall(r"^\| `(\w+)` \| `", model, re.MULTILINE))
    types = set(re.findall(r"^\| `([A-Z_]+)` \| \w", model, re.MULTILINE))
    assert labels and types
    for label in labels:
        if label[0].isupper() and not label.isupper():
            assert f"node.{label} {{" in grass, label
    for rel in types:
        assert f"relationship.{rel} {{" in grass, rel
    assert grass.count("{") == grass.count("}")


@pytest.fixture()
def graph(mem: GraphMemory, user_id: str) -> dict[str, Any]:
    memories = mem.add_messages(
        [
            "I adopted a dog named Rex because I felt lonely.",
            "Rex loves the park near Lake Annecy.",
            "I live in Paris.",
        ],
        user_id=user_id,
        session_id="s1",
    )
    mem.facts.set(user_id, "base", "Lyon", fact_type="profile", valid_from=datetime(2025, 1, 1, tzinfo=UTC))
    mem.facts.set(user_id, "base", "Paris", fact_type="profile", valid_from=datetime(2026, 3, 1, tzinfo=UTC))
    mem.facts.set(
        user_id,
        "base",
        "Nice",
        fact_type="profile",
        source="agent",
        valid_from=datetime(2026, 4, 1, tzinfo=UTC),
    )
    mem.runtime.store.run_statement(  # as the forget job leaves it
        "MATCH (m:Memory {id: $id}) SET m.status = 'forgotten', m.forgotten_at = datetime(), "
        "m.forgotten_reason = 'decayed'",
        {"id": memories[2].id},
    )
    hits = mem.recall("what is my dog's name?", user_id=user_id, reinforce=False)
    path = next((h.explanation.path for h in hits if len(h.explanation.path) > 1), None)
    return {
        "user_id": user_id,
        "limit": 300,
        "session_id": "s1",
        "entity": "Rex",
        "path": path or [memories[0].id, memories[1].id],
        "as_of": datetime(2026, 3, 3, tzinfo=UTC),
        "known_at": datetime.now(UTC),
        "key": None,
        "now": None,  # the server's clock (tests/test_virtual_clock_reads.py: a job's virtual clock)
    }


def test_kit_queries_return_rows_on_a_user_graph(mem: GraphMemory, graph: dict[str, Any]) -> None:
    for name in KIT_QUERIES:
        params = {p: graph[p] for p in params_of(name)}
        rows = mem.query(query(name), params)
        assert rows, name
    beliefs = mem.query(query("kit/beliefs_at"), {p: graph[p] for p in params_of("kit/beliefs_at")})
    assert {r["key"]: r["value"] for r in beliefs}["base"] == "Paris"
    other = mem.query(query("kit/user_graph"), {"user_id": f"{graph['user_id']}-other", "limit": 10})
    assert other == []


def test_kit_rows_are_readable_maps_without_embeddings(mem: GraphMemory, graph: dict[str, Any]) -> None:
    for name in KIT_QUERIES:
        for row in mem.query(query(name), {p: graph[p] for p in params_of(name)}):
            for column, value in row.items():
                if isinstance(value, dict):
                    assert value.get("embedding") is None and value.get("context_embedding") is None, (
                        name,
                        column,
                    )
                    assert "label" in value or "type" in value, (name, column)
                else:  # scalars and paths of facts (no embeddings) only
                    assert not hasattr(value, "element_id") or name == "kit/fact_chains", (name, column)
