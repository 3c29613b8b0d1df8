"""Timeline, snapshots and diffs on the real server, with networkx and JSON export."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import networkx as nx
import pytest

from graphmem import FactType, GraphMemory
from graphmem.errors import ValidationError
from graphmem.model.facts import FactInput
from graphmem.store.audit import ALL
from graphmem.store.queries import query
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
    assert set(kinds[:2]) == {("memory", "I adopted a dog named Rex."), ("fact_set", "base = Lyon")}
    assert ("fact_ended", "base = Lyon") in kinds and ("fact_set", "base = Paris") in kinds
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


def _timeline_seeks(mem: GraphMemory, params: dict[str, object]) -> dict[str, list[int]]:
    """PROFILE timeline_events: the rows each seek of a Memory time index yielded, by the index's time key."""
    with mem.runtime.store.driver.session() as session:
        result = session.run("PROFILE " + query("timeline_events"), params)
        list(result)
        plan = result.consume().profile
    seeks: dict[str, list[int]] = {"occurred_at": [], "forgotten_at": []}
    todo = [plan]
    while todo:
        op = todo.pop()
        for key, rows in seeks.items():
            if "NodeIndexSeek" in op["operatorType"] and f"Memory(user_id, {key})" in op["args"]["Details"]:
                rows.append(op["rows"])
        todo.extend(op.get("children", []))
    return seeks


def test_a_timeline_page_is_the_first_or_latest_few_and_reads_only_those(
    mem: GraphMemory, user_id: str
) -> None:
    """``limit`` keeps the first events of the order, ``newest_first`` reverses it: each page equals the same
    slice of the whole timeline (memories, forgetting, an update, facts mixed). The memories and the forgotten
    ones are read in the order of their (user_id, time) index, bounded by the window there: a page of 5 of a
    40-memory tenant seeks 5 (the timeline read every memory of the tenant for any page or window)."""
    t0 = datetime(2026, 3, 1, tzinfo=UTC)
    written = mem.add_messages(
        [
            {
                "role": "user",
                "content": f"Note {i}: shelf {i} needs water",
                "timestamp": t0 + timedelta(hours=i // 3),  # three a time: ties
            }
            for i in range(40)
        ],
        user_id=user_id,
        session_id="s",
    )
    mem.facts.set(user_id, "city", "Leeds")
    mem.facts.set(user_id, "city", "York")
    mem.forget(written[0].id, user_id=user_id)
    mem.forget(written[39].id, user_id=user_id)
    mem.memories.update(written[2].id, user_id=user_id, expected_version=1, content="Shelf 2 is dry")
    whole = mem.temporal.timeline(user_id)
    assert len(whole) == 40 + 2 + 1 + 2 + 1  # memories, forgotten, updated, facts recorded / closed
    newest = sorted(whole, key=lambda e: (e.at, e.kind, e.id), reverse=True)
    assert mem.temporal.timeline(user_id, newest_first=True) == newest
    for limit in (1, 5, 7, 44):  # pages end inside ties
        assert mem.temporal.timeline(user_id, limit=limit) == whole[:limit]
        assert mem.temporal.timeline(user_id, limit=limit, newest_first=True) == newest[:limit]
    window = {"start": t0 + timedelta(hours=3), "end": t0 + timedelta(hours=6)}
    framed_whole = [e for e in whole if e.kind == "memory" and window["start"] <= e.at <= window["end"]]
    assert len(framed_whole) == 12 and mem.temporal.timeline(user_id, **window, limit=4) == framed_whole[:4]

    # rows the seeks yield in all (one seek per order, the other order's branch yields none): the page, the
    # rest of the tie at its end (sorted by id) and a row past it, not the 40
    params = {"user_id": user_id, "start": None, "end": None, "known_at": None, "limit": 5}
    for newest in (True, False):
        assert 5 <= sum(_timeline_seeks(mem, params | {"newest_first": newest})["occurred_at"]) <= 8
    framed = _timeline_seeks(mem, params | {**window, "limit": ALL, "newest_first": False})
    assert (sum(framed["occurred_at"]), sum(framed["forgotten_at"])) == (12, 0)
    assert sum(_timeline_seeks(mem, params | {"limit": ALL, "newest_first": False})["forgotten_at"]) == 2
    for bad in ({"limit": 0}, {"limit": 1001}, {"limit": "5"}, {"newest_first": "yes"}):
        with pytest.raises(ValidationError):
            mem.temporal.timeline(user_id, **bad)  # type: ignore[arg-type]
