"""The graph stage of ranking: personalized PageRank over the pool's neighbourhood (memories and entities),
HippoRAG-style, and the loop-free path that explains each memory a neighbour lifted. Pure (no database)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from graphmem.model.intent import VIEW_EDGE, View
from graphmem.model.scoring import personalized_pagerank

RESTART_SHARPNESS = 6.0
"""PageRank restarts in proportion to fused score ** 6: mass concentrates on the best few seeds (0.8 keeps
0.26, 0.5 keeps 0.016), as HippoRAG restarts on the top passages rather than on the whole pool."""

Paths = dict[str, tuple[tuple[str, ...], tuple[str, ...]]]


@dataclass
class _Graph:
    """Node index (memories first, then entities), weighted undirected edges, and the best explanation
    offered so far for each memory (the neighbour passing it the most, when more than its own score)."""

    own: Mapping[str, float]
    index: dict[str, int]
    edges: list[tuple[int, int, float]] = field(default_factory=list)
    best_in: dict[str, tuple[float, tuple[str, ...], tuple[str, ...]]] = field(default_factory=dict)
    named: list[int] = field(default_factory=list)

    def offer(self, target: str, via: float, path: tuple[str, ...], kinds: tuple[str, ...]) -> None:
        if via > self.own.get(target, 0.0) and via > self.best_in.get(target, (0.0,))[0]:
            self.best_in[target] = (via, path, kinds)


def _add_links(g: _Graph, links: Sequence[Sequence[Any]], weight: Mapping[str, float]) -> None:
    """Each link as a weighted edge, and as an offer of each end's own score to the other
    (:meth:`_Graph.offer`, inlined: a pool has about a thousand links)."""
    index, own, edges, best_in = g.index, g.own, g.edges, g.best_in
    for a, b, kind, link_weight in links:
        w = weight.get(kind, 0.0) * float(link_weight or 0.0)  # None: a stored NaN
        ia, ib = index.get(a), index.get(b)
        if w <= 0 or ia is None or ib is None:
            continue
        edges.append((ia, ib, w))
        own_a, own_b = own.get(a, 0.0), own.get(b, 0.0)
        via = own_a * w
        if via > own_b and via > best_in.get(b, _NONE)[0]:
            best_in[b] = (via, (a, b), (kind,))
        via = own_b * w
        if via > own_a and via > best_in.get(a, _NONE)[0]:
            best_in[a] = (via, (b, a), (kind,))


_NONE = (0.0,)


def _add_entities(g: _Graph, mentions: Sequence[Mapping[str, Any]], entity_w: float, names: set[str]) -> None:
    members: dict[str, list[str]] = {}
    for mention in mentions if entity_w > 0 else []:
        key = f"entity:{mention['entity']}"
        if key not in g.index:
            g.index[key] = len(g.index)
            if str(mention.get("name") or "").lower() in names:
                g.named.append(g.index[key])
        if mention["memory"] in g.index:
            weight = entity_w * float(mention["weight"] or 0.0)  # None: a stored NaN
            g.edges.append((g.index[mention["memory"]], g.index[key], weight))
            members.setdefault(mention["entity"], []).append(mention["memory"])
    for entity, ids in members.items():
        best = max(ids, key=lambda m: g.own.get(m, 0.0))
        for target in ids:
            if target != best:
                via = g.own.get(best, 0.0) * entity_w / len(ids)
                g.offer(target, via, (best, target), (f"ENTITY:{entity}",))


def _restart(g: _Graph, seeds: Sequence[str], entity_restart: float) -> list[float]:
    """Restart mass on the pool ∝ fused score ** RESTART_SHARPNESS, ``entity_restart`` on named entities."""
    restart = [0.0] * len(g.index)
    for mid in seeds:
        restart[g.index[mid]] = g.own.get(mid, 0.0) ** RESTART_SHARPNESS
    passage_mass = sum(restart) or 1.0
    entity_mass = entity_restart if g.named else 0.0
    restart = [r / passage_mass * (1 - entity_mass) for r in restart]
    for i in g.named:
        restart[i] += entity_mass / len(g.named)
    return restart


def pagerank(
    row: Mapping[str, Any],
    memories: Mapping[str, Any],
    own: Mapping[str, float],
    views: Mapping[View, float] | None,
    names: set[str],
    preset: Any,
) -> tuple[dict[str, float], Paths]:
    """Personalized PageRank restarting on the pool (``row["seeds"]``) and the entities the query names.
    Returns scores divided by the best memory's, and for each memory lifted by a neighbour scoring above it
    a loop-free path (that neighbour, the memory) with the edge's type."""
    chosen = views or {v: 1.0 for v in View}
    weight = {VIEW_EDGE[v]: float(chosen.get(v, 0.0)) for v in View}
    g = _Graph(own, {mid: i for i, mid in enumerate(memories)})
    _add_links(g, row["links"], weight)
    _add_entities(g, row["mentions"], weight["ENTITY"], names)
    seeds = [s["id"] for s in row["seeds"] if s["id"] in g.index]
    scores = personalized_pagerank(
        len(g.index), g.edges, _restart(g, seeds, preset.entity_restart), preset.damping
    )
    top = max((scores[g.index[mid]] for mid in memories), default=0.0) or 1.0
    ppr = {mid: scores[g.index[mid]] / top for mid in memories}
    return ppr, {mid: (path, kinds) for mid, (_, path, kinds) in g.best_in.items()}
