"""An upgraded store gets today's search keys (real server, real embedder): a memory written before formation
stored ``search_text``, ``context_text`` and the event range (graphmem before 2026-12-01, whose MiniLM
vectors ``graphmem reembed`` must replace anyway) gets them from the re-embedding, as formation makes them,
and is found by them. Before, the re-embedding left them out, and such memories ranked below the same words
written today (the upgrade probe of round 59: "Rex is a border collie" third against first)."""

from __future__ import annotations

import math
from datetime import UTC, datetime

from graphmem import GraphMemory
from graphmem.embedding import Embedder
from graphmem.store import embedding_space

KEYS = ("search_text", "context_text", "event_start", "event_end")
SAID = datetime(2026, 3, 10, 18, 0, tzinfo=UTC)


def _keys(mem: GraphMemory, user_id: str) -> dict[str, dict[str, object]]:
    rows = mem.query(
        "MATCH (m:Memory {user_id: $u}) RETURN m.content AS content, m {.search_text, .context_text, "
        ".event_start, .event_end, .context_embedding} AS keys",
        {"u": user_id},
    )
    return {r["content"]: r["keys"] for r in rows}


def _cos(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True)) / math.sqrt(
        sum(x * x for x in a) * sum(y * y for y in b)
    )


def test_reembedding_makes_the_keys_formation_makes(
    mem: GraphMemory, embedder: Embedder, user_id: str
) -> None:
    turns = [
        ("Sam", "We adopted a puppy called Rex yesterday, he is a border collie."),
        ("Kim", "A collie! Those need long walks."),
        ("Sam", "I moved to Leeds last month, so the moors are close."),
    ]
    mem.add_messages(
        [{"role": "user", "name": n, "content": c, "timestamp": SAID} for n, c in turns],
        user_id=user_id,
        session_id="s1",
    )
    formed = _keys(mem, user_id)
    assert all(formed[c]["search_text"] and formed[c]["context_text"] for _, c in turns)
    mem.runtime.store.run_statement(  # the shape graphmem wrote before it stored the keys
        "MATCH (m:Memory {user_id: $u}) REMOVE m.search_text, m.context_text, m.event_start, m.event_end, "
        "m.context_embedding",
        {"u": user_id},
    )
    assert embedding_space.reembed(mem.runtime.store, embedder, user_id=user_id)["memories"] == 3
    rebuilt = _keys(mem, user_id)
    for _, content in turns:
        for key in KEYS:
            assert rebuilt[content][key] == formed[content][key], (content, key)
        assert _cos(rebuilt[content]["context_embedding"], formed[content]["context_embedding"]) > 0.99
    hits = mem.recall("What breed is Rex?", user_id=user_id, k=1, reinforce=False)
    assert "border collie" in hits[0].memory.content


def test_an_updated_memory_keeps_no_stale_keys(mem: GraphMemory, embedder: Embedder, user_id: str) -> None:
    """An update clears a memory's keys on purpose (its entity edges are the old words'): the re-embedding
    does not make them again from those edges (the review of round 59: "Initech" came back after the
    correction to "Globex")."""
    old = mem.remember("I work at Initech as an analyst.", user_id=user_id)
    mem.memories.update(old.id, user_id=user_id, expected_version=old.version, content="I work at Globex.")
    embedding_space.reembed(mem.runtime.store, embedder, user_id=user_id)
    rows = mem.query("MATCH (m:Memory {id: $id}) RETURN m.search_text AS s", {"id": old.id})
    assert rows[0]["s"] is None
