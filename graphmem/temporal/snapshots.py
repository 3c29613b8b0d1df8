"""The graph as it was: a user's timeline, a snapshot at (``as_of``, ``known_at``), and the diff of two.

Snapshots and diffs are plain data (pydantic) and export to JSON and to networkx ``MultiDiGraph``s.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from graphmem.governance.export import jsonable
from graphmem.store import records
from graphmem.store.audit import ALL
from graphmem.store.runtime import Runtime

if TYPE_CHECKING:
    import networkx as nx  # imported on use: export only (it costs ~0.3 s at start-up)

__all__ = ["GraphDiff", "GraphSnapshot", "SnapshotEdge", "SnapshotNode", "TimelineEvent", "diff", "snapshot"]


class TimelineEvent(BaseModel):
    """One dated event of a user's history: ``kind`` is memory (at its valid time), memory_updated,
    memory_forgotten, fact_set (a fact version's value starts to hold: its ``valid_from``) or fact_ended (it
    stops: its ``valid_to`` as known at the read's ``known_at``); ``id`` the memory or fact version."""

    model_config = ConfigDict(frozen=True)

    at: datetime
    kind: str
    id: str
    text: str | None = None
    session_id: str | None = None


class SnapshotNode(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    label: str
    properties: dict[str, Any] = Field(default_factory=dict)


class SnapshotEdge(BaseModel):
    model_config = ConfigDict(frozen=True)

    src: str
    type: str
    dst: str
    properties: dict[str, Any] = Field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.src, self.type, self.dst)


def _graph(nodes: list[SnapshotNode], edges: list[SnapshotEdge], **attrs: Any) -> nx.MultiDiGraph:
    import networkx as nx

    graph = nx.MultiDiGraph(**attrs)
    for node in nodes:
        graph.add_node(node.id, label=node.label, **node.properties)
    for edge in edges:
        graph.add_edge(edge.src, edge.dst, key=edge.type, type=edge.type, **edge.properties)
    return graph


class GraphSnapshot(BaseModel):
    """A user's nodes and edges valid at ``as_of`` as recorded by ``known_at``."""

    model_config = ConfigDict(frozen=True)

    user_id: str
    as_of: datetime
    known_at: datetime
    nodes: list[SnapshotNode] = Field(default_factory=list)
    edges: list[SnapshotEdge] = Field(default_factory=list)

    def to_networkx(self) -> nx.MultiDiGraph:
        return _graph(self.nodes, self.edges, user_id=self.user_id, as_of=self.as_of, known_at=self.known_at)

    def to_json(self) -> str:
        return self.model_dump_json()


class FactChange(BaseModel):
    model_config = ConfigDict(frozen=True)

    key: str
    before: str | None
    after: str | None


class GraphDiff(BaseModel):
    """What changed in a user's graph between two times (each read as valid and known at that time)."""

    model_config = ConfigDict(frozen=True)

    user_id: str
    t1: datetime
    t2: datetime
    added_nodes: list[SnapshotNode] = Field(default_factory=list)
    closed_nodes: list[SnapshotNode] = Field(default_factory=list)
    changed_nodes: list[SnapshotNode] = Field(default_factory=list, description="as at t2")
    added_edges: list[SnapshotEdge] = Field(default_factory=list)
    closed_edges: list[SnapshotEdge] = Field(default_factory=list)
    changed_facts: list[FactChange] = Field(default_factory=list)

    def to_networkx(self) -> nx.MultiDiGraph:
        """Every node and edge of the diff, with ``change`` = added, closed or changed."""
        import networkx as nx

        graph = nx.MultiDiGraph(user_id=self.user_id, t1=self.t1, t2=self.t2)
        for change, nodes in (("added", self.added_nodes), ("closed", self.closed_nodes)):
            for node in nodes:
                graph.add_node(node.id, label=node.label, change=change, **node.properties)
        for node in self.changed_nodes:
            graph.add_node(node.id, label=node.label, change="changed", **node.properties)
        for change, edges in (("added", self.added_edges), ("closed", self.closed_edges)):
            for edge in edges:
                graph.add_edge(
                    edge.src, edge.dst, key=edge.type, type=edge.type, change=change, **edge.properties
                )
        return graph

    def to_json(self) -> str:
        return self.model_dump_json()


def timeline(
    rt: Runtime,
    user_id: str,
    *,
    start: datetime | None,
    end: datetime | None,
    known_at: datetime | None = None,
    limit: int | None = None,
    newest_first: bool = False,
) -> list[TimelineEvent]:
    """Dated events between ``start`` and ``end`` (valid time), of those recorded by ``known_at``: the first
    ``limit`` (``None``: all) in time order, or in reverse with ``newest_first``."""
    rows = rt.store.read(
        "timeline_events",
        user_id=user_id,
        start=start,
        end=end,
        known_at=known_at,
        limit=ALL if limit is None else limit,
        newest_first=newest_first,
    )
    return [
        records.model_from_row(TimelineEvent, r, what="timeline event", fallback={"at": records.EPOCH})
        for r in rows
    ]


def snapshot(rt: Runtime, user_id: str, *, as_of: datetime, known_at: datetime | None) -> GraphSnapshot:
    known = known_at or datetime.now(UTC)
    rows = rt.store.read("snapshot_nodes", user_id=user_id, as_of=as_of, known_at=known)
    nodes = [  # an id set by hand to another type reads as its text (records.text), as in a property map
        SnapshotNode(
            id=records.text(r["id"]), label=r["label"], properties=jsonable(_as_known(r["props"], known))
        )
        for r in rows
    ]
    ids = [n.id for n in nodes]
    edge_rows = (
        rt.store.read("snapshot_edges", user_id=user_id, ids=ids, as_of=as_of, known_at=known) if ids else []
    )
    edges = [
        SnapshotEdge(
            src=records.text(r["src"]),
            type=r["type"],
            dst=records.text(r["dst"]),
            properties=jsonable(r["props"]),
        )
        for r in edge_rows
    ]
    return GraphSnapshot(user_id=user_id, as_of=as_of, known_at=known, nodes=nodes, edges=edges)


def _as_known(props: dict[str, Any], known_at: datetime) -> dict[str, Any]:
    """A fact version closed after ``known_at`` reads as it did then: open and current."""
    expired = props.get("expired_at")
    if props.get("valid_from") is not None and expired is not None and known_at < expired:
        return {**props, "valid_to": None, "expired_at": None, "status": "current"}
    return props


def _facts(s: GraphSnapshot) -> dict[str, str]:
    """Each key's value in the snapshot; of a key several agents hold, the latest recorded (then the latest
    started), as ``facts.get`` without an agent reads it (the snapshot lists one version per agent)."""
    versions = sorted((n.properties for n in s.nodes if n.label == "Fact"), key=_recorded_order)
    return {str(p.get("key")): str(p.get("value")) for p in versions}  # the last of a key wins


def _recorded_order(props: dict[str, Any]) -> tuple[float, float]:
    """A fact version's (recorded_at, valid_from) as epoch seconds (a snapshot holds them as ISO text); a
    missing or odd time sorts first."""

    def seconds(value: Any) -> float:
        try:
            moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
            return moment.timestamp() if moment.tzinfo else moment.replace(tzinfo=UTC).timestamp()
        except (ValueError, OverflowError, OSError):
            return float("-inf")

    return seconds(props.get("recorded_at")), seconds(props.get("valid_from"))


def compare(before: GraphSnapshot, after: GraphSnapshot) -> GraphDiff:
    """The diff of two snapshots (pure)."""
    old = {n.id: n for n in before.nodes}
    new = {n.id: n for n in after.nodes}
    old_edges = {e.key: e for e in before.edges}
    new_edges = {e.key: e for e in after.edges}
    facts_before, facts_after = _facts(before), _facts(after)
    return GraphDiff(
        user_id=after.user_id,
        t1=before.as_of,
        t2=after.as_of,
        added_nodes=[n for i, n in new.items() if i not in old],
        closed_nodes=[n for i, n in old.items() if i not in new],
        changed_nodes=[n for i, n in new.items() if i in old and _stable(old[i]) != _stable(n)],
        added_edges=[e for k, e in new_edges.items() if k not in old_edges],
        closed_edges=[e for k, e in old_edges.items() if k not in new_edges],
        changed_facts=[
            FactChange(key=k, before=facts_before.get(k), after=facts_after.get(k))
            for k in sorted(set(facts_before) | set(facts_after))
            if facts_before.get(k) != facts_after.get(k)
        ],
    )


def _stable(node: SnapshotNode) -> str:
    return json.dumps(node.properties, sort_keys=True, default=str)


def diff(rt: Runtime, user_id: str, t1: datetime, t2: datetime, *, known_at: datetime | None) -> GraphDiff:
    """What was added, closed or changed between valid times ``t1`` and ``t2``, both read as recorded by
    ``known_at`` (default: now)."""
    known = known_at or datetime.now(UTC)
    return compare(
        snapshot(rt, user_id, as_of=t1, known_at=known), snapshot(rt, user_id, as_of=t2, known_at=known)
    )
