"""Topics as pure rules: cluster a user's memories by their similarity graph and name each cluster.

Clusters are Louvain communities (``networkx.community.louvain_communities``, seeded, so a rebuild of the
same graph gives the same topics) of the RELATED_TO graph, whose edges join memories whose embeddings are
similar (weight = cosine): communities of that graph are embedding clusters that need no number of
clusters chosen in advance. Communities smaller than ``MIN_TOPIC_SIZE`` are not topics.

A topic is named from what it is about: its most mentioned entities, then its most distinctive words
(class-based TF-IDF: frequent in the topic, rare across the user's memories).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence

from graphmem.model.tokens import WORD, fold

MIN_TOPIC_SIZE = 3
NAME_ENTITIES = 2
NAME_KEYWORDS = 3
SEED = 7
_WORD = WORD  # letters of any script (graphmem.model.tokens.WORD)
STOP = frozenset(
    (  # noqa: SIM905
        "the and but for with about from into that this these those there their they them then than have "
        "has had was were are been being will would could should just really very what when where which "
        "while your you yours our ours its it's i'm i've i'd you're that's don't didn't can't also some "
        "such much many more most other over only own same so too like yeah yes thanks thank know think "
        "going get got make made well even still back time things thing something anything everything one "
        "all any each every how why who here now not out off did does doing done say said tell told sure "
        "great good nice love lot lots way"
    ).split()
)


def communities(
    nodes: Sequence[str], edges: Sequence[tuple[str, str, float]], *, min_size: int = MIN_TOPIC_SIZE
) -> list[list[str]]:
    """Louvain communities of the weighted similarity graph, largest first, members sorted. Only edges of
    positive weight join memories: a weight of 0 (an edge whose properties were removed by hand) or below
    relates nothing, and a graph whose weights sum to 0 failed Louvain with a ZeroDivisionError."""
    import networkx as nx  # loaded when the job runs: commands that never cluster start without it

    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    for a, b, w in edges:
        if a != b and a in graph and b in graph and w > 0:  # NaN is not > 0 either
            graph.add_edge(a, b, weight=max(float(w), graph.get_edge_data(a, b, {}).get("weight", 0.0)))
    if graph.number_of_edges() == 0:
        return []
    found = nx.community.louvain_communities(graph, weight="weight", seed=SEED)
    groups = [sorted(c) for c in found if len(c) >= min_size]
    return sorted(groups, key=lambda g: (-len(g), g[0]))


def words(text: str) -> list[str]:
    return [w for w in _WORD.findall(fold(text)) if len(w) > 3 and w not in STOP]


def keywords(
    members: Sequence[str], everyone: Mapping[str, int], total: int, n: int = NAME_KEYWORDS
) -> list[str]:
    """The topic's most distinctive words: frequency in the topic × log(1 + total / frequency overall)."""
    counts = Counter(w for text in members for w in words(text))
    score = {w: c * math.log(1 + total / everyone.get(w, 1)) for w, c in counts.items() if c > 1}
    return sorted(score, key=lambda w: (-score[w], w))[:n]


def name(entities: Sequence[str], terms: Sequence[str]) -> str:
    """``entity, entity: keyword, keyword, keyword`` (either part may be missing)."""
    top = [e for e, _ in Counter(entities).most_common(NAME_ENTITIES)]
    lowered = {e.lower() for e in top}
    rest = [t for t in terms if t not in lowered]
    head, tail = ", ".join(top), ", ".join(rest)
    return f"{head}: {tail}" if head and tail else head or tail or "misc"
