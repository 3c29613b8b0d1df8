"""Recall's expansion reads each pool memory's ``max_links`` strongest edges (FOLLOWS and CAUSES first, then
RELATED_TO by weight), so a hub memory linked to everything costs the pool query a bounded number of rows.
On the real server."""

from __future__ import annotations

import pytest

from graphmem import GraphMemory
from graphmem.config import RetrievalPreset
from graphmem.embedding import embed_query_checked
from graphmem.formation.drafts import user_key
from graphmem.retrieval.search import SearchRequest, fetch_pool

pytestmark = pytest.mark.usefixtures("mem")

HUB_EDGES = """
CREATE (h:Memory {id: $u + '-hub', user_id: $u, user_key: $uk, content: 'hub', status: 'active',
                  created_at: datetime(), recorded_at: datetime(), occurred_at: datetime()})
WITH h CALL db.create.setNodeVectorProperty(h, 'embedding', $e)
CREATE (prev:Memory {id: $u + '-prev', user_id: $u, user_key: $uk, content: 'previous turn', status: 'active',
                     created_at: datetime(), recorded_at: datetime(), occurred_at: datetime()})
WITH h, prev CALL db.create.setNodeVectorProperty(prev, 'embedding', $away)
CREATE (prev)-[:FOLLOWS {weight: 0.05, recorded_at: datetime(), valid_from: datetime()}]->(h)
WITH h UNWIND range(1, 8) AS i
CREATE (n:Memory {id: $u + '-n' + i, user_id: $u, user_key: $uk, content: 'neighbour ' + i, status: 'active',
                  created_at: datetime(), recorded_at: datetime(), occurred_at: datetime()})
WITH h, n, i CALL db.create.setNodeVectorProperty(n, 'embedding', $away)
CREATE (h)-[:RELATED_TO {weight: i / 10.0, weight_base: i / 10.0, recorded_at: datetime(),
                         valid_from: datetime()}]->(n)
"""


@pytest.mark.parametrize("cap", [3, 20])
def test_a_hub_memory_brings_its_strongest_edges_only(mem: GraphMemory, user_id: str, cap: int) -> None:
    """A hub with a FOLLOWS edge and eight RELATED_TO edges (weights 0.1-0.8) is the whole pool (pool_k 1,
    its own vector the query's): with ``max_links`` 3 the expansion brings the FOLLOWS edge and the two
    heaviest RELATED_TO edges; with 20, all nine."""
    question = "zyxwv qutsr"  # no word of any memory: the pool is the vector scan's best, the hub
    vector = embed_query_checked(mem.runtime.embedder, [question])[0]
    mem.runtime.store.run_statement(
        HUB_EDGES, {"u": user_id, "uk": user_key(user_id), "e": vector, "away": [-x for x in vector]}
    )
    preset = RetrievalPreset(pool_k=1, max_links=cap)
    req = SearchRequest(question, user_id, user_key(user_id), 5, preset, embedding=vector)
    row = fetch_pool(mem.runtime, req)
    assert [s["id"] for s in row["seeds"]] == [f"{user_id}-hub"]
    near = {(link[1] if link[0] == f"{user_id}-hub" else link[0], link[2]) for link in row["links"]}
    if cap == 3:
        assert near == {
            (f"{user_id}-prev", "FOLLOWS"),
            (f"{user_id}-n8", "RELATED_TO"),
            (f"{user_id}-n7", "RELATED_TO"),
        }
    else:
        assert len(near) == 9 and (f"{user_id}-prev", "FOLLOWS") in near
