"""Recall filters: a recall returns only memories of the given types, carrying the given tags and holding the
given metadata (graphmem.model.recall_filter), through Python, context, REST and the CLI."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from graphmem import GraphMemory, ValidationError
from graphmem.adapters.rest import create_app
from graphmem.cli.main import app
from graphmem.model.recall_filter import check_filters

KEY = "test-key"


def test_filters_admit_by_type_tags_and_metadata() -> None:
    f = check_filters(
        {"memory_type": ["episodic", "semantic"], "tags": ["work"], "metadata": {"team": "blue", "n": 2}},
        max_metadata_bytes=1000,
    )
    assert f is not None
    row = {"memory_type": "episodic", "tags": ["work", "x"], "metadata": '{"n": 2.0, "team": "blue"}'}
    assert f.admits(row)
    assert not f.admits(row | {"memory_type": "procedural"})
    assert not f.admits(row | {"tags": ["x"]})
    assert not f.admits(row | {"metadata": '{"team": "red", "n": 2}'})
    # stored values of another shape (written by hand) pass nothing they are asked about, and never raise
    odd_values = ({"tags": "work"}, {"metadata": "{not json"}, {"metadata": "[1]"}, {"metadata": None})
    for odd in (*odd_values, {"memory_type": ["episodic"]}, {"memory_type": 7}):
        assert not f.admits(row | odd)
    assert (
        check_filters(None, max_metadata_bytes=10) is None
        and check_filters({}, max_metadata_bytes=10) is None
    )
    only_type = check_filters({"memory_type": "episodic"}, max_metadata_bytes=10)
    assert (
        only_type is not None
        and only_type.admits({"memory_type": "episodic"})
        and not only_type.reads_metadata
    )
    for bad in ({"kind": "x"}, {"memory_type": "poem"}, {"tags": "work"}, {"metadata": [1]}, ["tags"]):
        with pytest.raises(ValidationError):
            check_filters(bad, max_metadata_bytes=1000)


def _store(mem: GraphMemory, user_id: str) -> dict[str, str]:
    rows = {
        "standup": ("The team standup moved to 9:30 on Mondays", "episodic", ["work"], {"team": "blue"}),
        "deploy": ("Deploys to production need two reviews", "procedural", ["work"], {"team": "red"}),
        "gym": ("I go to the gym on Monday evenings", "episodic", ["health"], {}),
        "review": ("The quarterly review with the team is on Monday", "episodic", ["work"], {"team": "red"}),
    }
    return {
        name: mem.remember(text, user_id=user_id, memory_type=kind, tags=tags, metadata=meta).id
        for name, (text, kind, tags, meta) in rows.items()
    }


def test_recall_returns_only_what_the_filters_admit(mem: GraphMemory, user_id: str) -> None:
    ids = _store(mem, user_id)
    query = "what happens on Monday at work?"
    everything = [h.memory.id for h in mem.recall(query, user_id=user_id, reinforce=False)]
    assert ids["gym"] in everything  # a Monday memory outside work, which the filters below leave out
    work = mem.recall(query, user_id=user_id, reinforce=False, filters={"tags": ["work"]})
    assert {h.memory.id for h in work} == {ids["standup"], ids["deploy"], ids["review"]}
    red = mem.recall(query, user_id=user_id, reinforce=False, filters={"metadata": {"team": "red"}})
    assert {h.memory.id for h in red} == {ids["deploy"], ids["review"]}
    both = {"memory_type": "episodic", "metadata": {"team": "red"}}
    assert [h.memory.id for h in mem.recall(query, user_id=user_id, reinforce=False, filters=both)] == [
        ids["review"]
    ]
    ctx = mem.context(query, user_id=user_id, reinforce=False, filters={"tags": ["health"]})
    recalled = {i.memory_id for i in ctx.kept if i.kind in ("memory", "possible")}  # recent history stays
    assert recalled == {ids["gym"]}
    with pytest.raises(ValidationError):
        mem.recall(query, user_id=user_id, filters={"colour": "red"})


def test_a_filtered_recall_does_not_weaken_what_it_left_out(mem: GraphMemory, user_id: str) -> None:
    """Retrieval-induced forgetting weakens the competitors a recall could have returned, not the memories
    its filter left out."""
    ids = _store(mem, user_id)
    mem.recall("what happens on Monday at work?", user_id=user_id, k=1, filters={"tags": ["health"]})
    rows = mem.query(
        "MATCH (m:Memory) WHERE m.user_id = $u RETURN m.id AS id, m.inhibition AS inhibition", {"u": user_id}
    )
    inhibited = {r["id"] for r in rows if r["inhibition"]}
    assert not inhibited & {ids["standup"], ids["deploy"], ids["review"]}
    # the same recall without the filter does weaken them (so the assertion above can fail)
    other = f"{user_id}-unfiltered"
    try:
        ids = _store(mem, other)
        mem.recall("what happens on Monday at work?", user_id=other, k=1)
        rows = mem.query(
            "MATCH (m:Memory) WHERE m.user_id = $u RETURN m.id AS id, m.inhibition AS inhibition",
            {"u": other},
        )
        assert {r["id"] for r in rows if r["inhibition"]} & {ids["standup"], ids["deploy"], ids["review"]}
    finally:
        mem.users.delete(other)


def test_rest_and_cli_take_filters(mem: GraphMemory, user_id: str) -> None:
    ids = _store(mem, user_id)
    with TestClient(
        create_app(mem, KEY), headers={"X-API-Key": KEY}, raise_server_exceptions=False
    ) as client:
        body = {
            "query": "what happens on Monday?",
            "reinforce": False,
            "filters": {"metadata": {"team": "blue"}},
        }
        hits = client.post(f"/users/{user_id}/recall", json=body).json()
        assert [h["memory"]["id"] for h in hits] == [ids["standup"]]
        bad = client.post(f"/users/{user_id}/recall", json=body | {"filters": {"memory_type": "poem"}})
        assert bad.status_code == 422
        ctx = client.post(f"/users/{user_id}/context", json=body).json()
        relevant = ctx["text"].split("## Recent history")[0]
        assert "standup" in relevant and "gym" not in relevant
    out = CliRunner().invoke(
        app, ["recall", "what happens on Monday?", "-u", user_id, "--type", "procedural", "--json"]
    )
    assert out.exit_code == 0, out.output
    assert [h["memory"]["id"] for h in json.loads(out.output)] == [ids["deploy"]]
    red = CliRunner().invoke(app, ["recall", "Monday", "-u", user_id, "--meta", "team=red", "--json"])
    assert red.exit_code == 0, red.output
    assert {h["memory"]["id"] for h in json.loads(red.output)} == {ids["deploy"], ids["review"]}
    bad = CliRunner().invoke(app, ["recall", "Monday", "-u", user_id, "--meta", "team"])
    assert bad.exit_code != 0 and "KEY=VALUE" in bad.output
