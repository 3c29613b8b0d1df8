"""The recall explorer behind the dashboard: a recall with each hit's explanation, the activation paths as a
graph (memories, entities, facts; edges tagged with their view), and a memory's neighbourhood as of a time.

Explanations are read defensively (``getattr`` with defaults): the fields they carry may grow.
"""

from __future__ import annotations

import inspect
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from graphmem.memory import GraphMemory
from graphmem.model import validation as check
from graphmem.models import Hit
from graphmem.store.records import optional_text, text

VIEW_OF_EDGE = {
    "FOLLOWS": "temporal",
    "RELATED_TO": "semantic",
    "CAUSES": "causal",
    "ENTITY": "entity",
    "IN_SESSION": "provenance",
    "DERIVED_FROM": "provenance",
    "SUPERSEDES": "history",
    "CONFLICTS_WITH": "history",
    "MERGED_INTO": "history",
    "SUMMARIZES": "history",
}
NEIGHBOURHOOD_LIMIT = 200


class GraphNode(BaseModel):
    id: str
    label: str
    text: str | None = None
    status: str | None = None
    hit_rank: int | None = Field(default=None, description="1-based rank when the node is a returned hit")


class GraphEdge(BaseModel):
    src: str
    dst: str
    type: str
    view: str


class Exploration(BaseModel):
    query: str
    as_of: datetime | None = None
    hits: list[dict[str, Any]]
    nodes: list[GraphNode]
    edges: list[GraphEdge]


def graph_node(row: dict[str, Any], hit_rank: int | None = None) -> GraphNode:
    """A node from its stored row: text and status of any stored type as text (never a failed read)."""
    return GraphNode(
        id=text(row["id"]),
        label=text(row["label"]),
        text=optional_text(row.get("text")),
        status=optional_text(row.get("status")),
        hit_rank=hit_rank,
    )


def view_of(edge_type: str) -> str:
    return VIEW_OF_EDGE.get(edge_type.upper(), "other")


def path_edges(hits: list[Hit]) -> list[GraphEdge]:
    """The edges of every hit's activation path, deduplicated (pure): path[i] -edge_types[i]- path[i+1]."""
    seen: dict[tuple[str, str, str], GraphEdge] = {}
    for hit in hits:
        path = list(getattr(hit.explanation, "path", []) or [])
        types = list(getattr(hit.explanation, "edge_types", []) or [])
        for i in range(len(path) - 1):
            kind = types[i] if i < len(types) else "PATH"
            key = (path[i], kind, path[i + 1])
            seen.setdefault(key, GraphEdge(src=path[i], dst=path[i + 1], type=kind, view=view_of(kind)))
    return list(seen.values())


def _recall(mem: GraphMemory, query: str, user_id: str, k: int, as_of: datetime | None) -> list[Hit]:
    kwargs: dict[str, Any] = {"user_id": user_id, "k": k, "as_of": as_of, "reinforce": False}
    if "explain" in inspect.signature(mem.recall).parameters:
        kwargs["explain"] = True
    return mem.recall(query, **kwargs)


def explore(
    mem: GraphMemory, query: str, *, user_id: str, k: int = 10, as_of: datetime | None = None
) -> Exploration:
    """A read-only recall (no reinforcement) with its explanations and activation paths as a graph."""
    uid = check.user_id(user_id)
    hits = _recall(mem, query, uid, k, as_of)
    edges = path_edges(hits)
    ids = {h.memory.id for h in hits} | {e.src for e in edges} | {e.dst for e in edges}
    rows = mem.runtime.store.read("explore_nodes", user_id=uid, ids=sorted(ids))
    rank = {h.memory.id: i for i, h in enumerate(hits, start=1)}
    nodes = {r["id"]: graph_node(r, rank.get(r["id"])) for r in rows}
    edges = [e for e in edges if e.src in nodes and e.dst in nodes]
    hit_rows = [
        {
            "rank": rank[h.memory.id],
            "id": h.memory.id,
            "content": h.memory.content,
            "score": h.score,
            "confidence": h.confidence,
            "explanation": h.explanation.model_dump(mode="json"),
        }
        for h in hits
    ]
    return Exploration(query=query, as_of=as_of, hits=hit_rows, nodes=list(nodes.values()), edges=edges)


def neighbourhood(
    mem: GraphMemory, memory_id: str, *, user_id: str, as_of: datetime | None = None
) -> dict[str, Any]:
    """The memory's graph one hop around it (valid at ``as_of`` when given); raises MemoryNotFound."""
    uid = check.user_id(user_id)
    memory_id = check.identifier(memory_id, "memory_id") or ""
    as_of = check.aware_datetime(as_of, "as_of")
    center = mem.runtime.store.read("explore_nodes", user_id=uid, ids=[memory_id])
    if not center:
        from graphmem.errors import MemoryNotFound

        raise MemoryNotFound(memory_id)
    rows = mem.runtime.store.read(
        "explore_neighbourhood", user_id=uid, memory_id=memory_id, as_of=as_of, limit=NEIGHBOURHOOD_LIMIT
    )
    nodes = {memory_id: graph_node(center[0], 1)}
    edges: dict[tuple[str, str, str], GraphEdge] = {}
    for r in rows:  # ids of any stored type read as text; a node without one is not drawn
        if r["id"] is None or r["src"] is None or r["dst"] is None:
            continue
        node = graph_node(r)
        nodes.setdefault(node.id, node)
        src, dst, kind = text(r["src"]), text(r["dst"]), text(r["type"])
        edges[(src, kind, dst)] = GraphEdge(src=src, dst=dst, type=kind, view=view_of(kind))
    return {
        "center": memory_id,
        "as_of": None if as_of is None else as_of.isoformat(),
        "nodes": [n.model_dump() for n in nodes.values()],
        "edges": [e.model_dump() for e in edges.values()],
    }
