"""Timeline, snapshots and diffs on the real server, with networkx and JSON export."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import networkx as nx

from graphmem import FactType, GraphMemory
from graphmem.model.facts import FactInput
from graphmem.temporal import facts as factbase


def test_timeline_snapshot_and_diff(mem: GraphMemory, user_id: str) -> None:
    t0 = datetime.now(UTC) - timedelta(days=30)
    a, b = mem.add_messages(
        [
            {"role": "user", "content": "I adopted a dog named Rex.", "timestamp": t0},
            {"role": "user", "content": "Rex loves the park.", "timestamp": t0 + timedelta(days=10)},
        ],
        user_id=user_id,
        session_id="s1",
    )
    old = FactInput(user_id, "base", "Lyon", FactType.PROFILE, valid_from=t0)
    factbase.set_fact(mem.runtime, old, now=t0)
    new = FactInput(user_id, "base", "Paris", FactType.PROFILE, valid_from=t0 + timedelta(days=20))
    factbase.set_fact(mem.runtime, new, now=t0 + timedelta(days=20))

    events = mem.temporal.timeline(user_id)
    kinds = [(e.kind, e.text) for e in events]
    assert set(kinds[:2]) == {("memory", "I adopted a dog named Rex."), ("fact_recorded", "base = Lyon")}
    assert ("fact_closed", "base = Lyon") in kinds and ("fact_recorded", "base = Paris") in kinds
    assert [e.at for e in events] == sorted(e.at for e in events)
    window = mem.temporal.timeline(user_id, start=t0 + timedelta(days=5), end=t0 + timedelta(days=15))
    assert [e.id for e in window] == [b.id]
    assert mem.temporal.timeline(f"{user_id}-nobody") == []

    early = mem.temporal.snapshot(user_id, as_of=t0 + timedelta(days=5))
    labels = {n.label for n in early.nodes}
    assert {n.id for n in early.nodes if n.label == "Memory"} == {a.id}
    assert "Entity" in labels
    assert [n.properties["value"] for n in early.nodes if n.label == "Fact"] == ["Lyon"]
    late = mem.temporal.snapshot(user_id, as_of=t0 + timedelta(days=25))
    assert {n.id for n in late.nodes if n.label == "Memory"} == {a.id, b.id}
    assert [n.properties["value"] for n in late.nodes if n.label == "Fact"] == ["Paris"]
    assert any(e.type == "FOLLOWS" and (e.src, e.dst) == (a.id, b.id) for e in late.edges)
    # known_at before the move was recorded: still Lyon, shown as it read then
    before_known = mem.temporal.snapshot(
        user_id, as_of=t0 + timedelta(days=25), known_at=t0 + timedelta(days=19)
    )
    facts = [n.properties for n in before_known.nodes if n.label == "Fact"]
    assert [f["value"] for f in facts] == ["Lyon"] and facts[0]["status"] == "current"

    graph = late.to_networkx()
    assert isinstance(graph, nx.MultiDiGraph)
    assert graph.nodes[a.id]["label"] == "Memory" and graph.has_edge(a.id, b.id, key="FOLLOWS")
    assert json.loads(late.to_json())["user_id"] == user_id
    assert mem.temporal.snapshot(f"{user_id}-nobody", as_of=datetime.now(UTC)).nodes == []

    change = mem.temporal.diff(user_id, t0 + timedelta(days=5), t0 + timedelta(days=25))
    assert b.id in {n.id for n in change.added_nodes}
    assert [(c.key, c.before, c.after) for c in change.changed_facts] == [("base", "Lyon", "Paris")]
    assert {n.properties.get("value") for n in change.closed_nodes if n.label == "Fact"} == {"Lyon"}
    assert any(e.type == "FOLLOWS" for e in change.added_edges)
    assert change.to_networkx().nodes[b.id]["change"] == "added"
    assert json.loads(change.to_json())["changed_facts"][0]["after"] == "Paris"


def test_a_diff_of_a_key_two_agents_hold_reads_the_latest_recorded(mem: GraphMemory, user_id: str) -> None:
    """`facts.get` without an agent reads the latest recorded of several agents' versions; the diff too (it
    took whichever version the snapshot listed last)."""
    t0 = datetime.now(UTC) - timedelta(days=30)
    for day, agent, value in ((0, "a", "Lyon"), (1, "b", "Nice"), (10, "b", "Paris"), (11, "a", "Rome")):
        fact = FactInput(
            user_id, "base", value, FactType.PROFILE, agent_id=agent, valid_from=t0 + timedelta(days=day)
        )
        factbase.set_fact(mem.runtime, fact, now=t0 + timedelta(days=day))
    for _ in range(3):  # the snapshot's order of the two agents' versions is not fixed
        changed = mem.temporal.diff(user_id, t0 + timedelta(days=5), t0 + timedelta(days=20)).changed_facts
        assert [(c.key, c.before, c.after) for c in changed] == [("base", "Nice", "Rome")]
    assert mem.facts.get(user_id, "base", as_of=t0 + timedelta(days=20)).value == "Rome"  # type: ignore[union-attr]
