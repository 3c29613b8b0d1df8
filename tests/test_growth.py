"""Growth: old low-priority episodic chains are replaced by an extractive summary (SUMMARIZES), the sources
forgotten but kept for audits and as_of reads; with topics, the chains are a topic's rather than a
session's."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from conftest import disposable

from graphmem import GraphMemory, Settings
from graphmem.adapters.ops import hit_json
from graphmem.formation.drafts import user_key
from graphmem.retrieval.signals import DETAILS_MAX
from graphmem.retrieval.terms import lucene_query, query_terms

CHAIN = [
    "We drove to the coast early in the morning",
    "The beach was windy so we flew the kite",
    "Lunch was fish and chips on the pier",
    "We walked along the cliffs until sunset",
    "Traffic on the way home was terrible",
]

OTHERS = [
    "My sister Anna lives in Toronto",
    "I am allergic to peanuts",
    "Our dog Rex loves the park",
    "I started learning the piano in January",
    "The boiler was serviced last autumn",
    "My favourite film is Spirited Away",
]


@pytest.fixture()
def grow(server: Any, embedder: Any) -> Iterator[GraphMemory]:
    settings = Settings(automation_config_id=disposable(f"test-{uuid.uuid4()}"))
    with GraphMemory.connect(settings=settings, embedder=embedder) as memory:
        memory.init()
        yield memory


def _chain(mem: GraphMemory, user_id: str, session: str) -> list[str]:
    return [
        mem.remember(t, user_id=user_id, session_id=session, priority="P3", memory_type="episodic").id
        for t in CHAIN
    ]


def test_summary_replaces_its_sources_and_as_of_reads_stay_intact(grow: GraphMemory, user_id: str) -> None:
    ids = _chain(grow, user_id, "trip")
    keep = grow.remember(
        "My daughter is allergic to peanuts", user_id=user_id, session_id="trip", priority="P0"
    )
    before = datetime.now(UTC)
    snap_before = {n.id for n in grow.temporal.snapshot(user_id, as_of=before).nodes}
    assert set(ids) <= snap_before
    later = before + timedelta(days=30)
    run = grow.jobs.run("consolidate", user_id=user_id, now=later)
    assert run.counts["summaries"] == 1 and run.counts["members_summarized"] == len(CHAIN)
    rows = grow.query(
        "MATCH (s:Memory)-[:SUMMARIZES]->(m:Memory) WHERE s.user_id = $u "
        "RETURN s.id AS s, s.content AS content, collect(m.id) AS members, collect(m.status) AS statuses",
        {"u": user_id},
    )
    assert len(rows) == 1 and sorted(rows[0]["members"]) == sorted(ids)
    assert set(rows[0]["statuses"]) == {"forgotten"}  # replaced...
    assert "kite" in rows[0]["content"] or "pier" in rows[0]["content"]  # ...by their own words (extractive)
    p0 = grow.query("MATCH (m:Memory {id: $id}) RETURN m.status AS s", {"id": keep.id})
    assert p0[0]["s"] == "active"  # only low-priority memories are summarised
    # the hard-delete grace passes: summarised sources are kept for audits and as_of reads
    grow.jobs.run("forget", user_id=user_id, now=later + timedelta(days=60))
    left = grow.query("MATCH (m:Memory) WHERE m.id IN $ids RETURN count(m) AS n", {"ids": ids})
    assert left[0]["n"] == len(CHAIN)
    assert {n.id for n in grow.temporal.snapshot(user_id, as_of=before).nodes} == snap_before
    after = later + timedelta(days=1)  # the virtual clock: recorded then, so known then
    now_ids = {n.id for n in grow.temporal.snapshot(user_id, as_of=after, known_at=after).nodes}
    assert not set(ids) & now_ids and rows[0]["s"] in now_ids
    hits = grow.recall("did we fly a kite at the beach?", user_id=user_id, k=3, reinforce=False)
    assert hits and hits[0].memory.id == rows[0]["s"]
    past = grow.recall(
        "did we fly a kite at the beach?", user_id=user_id, k=3, reinforce=False, known_at=before
    )
    assert past and past[0].memory.id in ids  # what was known then is still readable


def test_with_topics_a_summary_takes_a_whole_topic(grow: GraphMemory, user_id: str) -> None:
    ids = [
        grow.remember(t, user_id=user_id, session_id=f"s{i % 2}", priority="P3", memory_type="episodic").id
        for i, t in enumerate(
            [*CHAIN, "The kite string snapped at the beach", "The pier lunch was the best part"]
        )
    ]
    assert grow.topics.rebuild(user_id)["topics"] >= 1
    topic_of = {
        r["m"]: r["t"]
        for r in grow.query(
            "MATCH (m:Memory)-[:IN_TOPIC]->(t:Topic) WHERE m.user_id = $u RETURN m.id AS m, t.id AS t",
            {"u": user_id},
        )
    }
    run = grow.jobs.run("consolidate", user_id=user_id, now=datetime.now(UTC) + timedelta(days=30))
    assert run.counts["summaries"] >= 1
    rows = grow.query(
        "MATCH (s:Memory)-[:SUMMARIZES]->(m:Memory) WHERE s.user_id = $u "
        "OPTIONAL MATCH (s)-[:IN_TOPIC]->(t:Topic) "
        "RETURN s.content AS content, t.id AS topic, collect(m.id) AS members",
        {"u": user_id},
    )
    topical = [r for r in rows if r["topic"] is not None]
    assert topical, rows
    for r in topical:
        assert r["content"].startswith("Summary of topic")
        assert {topic_of[m] for m in r["members"]} == {r["topic"]}
        assert set(r["members"]) <= set(ids)
        assert sorted(r["members"]) == sorted(m for m, t in topic_of.items() if t == r["topic"])  # all of it


def test_a_summary_is_found_by_the_words_of_a_source_its_extract_left_out(
    grow: GraphMemory, user_id: str
) -> None:
    """The extract keeps five sentences; the summary's full-text key keeps every source's words, so what a
    replaced source said is still found in full text (the sources themselves are forgotten)."""
    chain = [*CHAIN, "We stopped for ice cream in Whitby", "The parking ticket cost forty euros"]
    for text in chain:
        grow.remember(text, user_id=user_id, session_id="trip", priority="P3", memory_type="episodic")
    grow.remember("My car insurance renews in March", user_id=user_id, session_id="car", priority="P1")
    run = grow.jobs.run("consolidate", user_id=user_id, now=datetime.now(UTC) + timedelta(days=30))
    assert run.counts["summaries"] == 1 and run.counts["members_summarized"] == len(chain)
    summary = grow.query(
        "MATCH (s:Memory {is_summary: true}) WHERE s.user_id = $u RETURN s.id AS id, s.content AS c",
        {"u": user_id},
    )[0]
    assert "parking" not in summary["c"]  # left out of the extract
    question = "how much was the parking ticket?"
    hits = grow.recall(question, user_id=user_id, k=3, reinforce=False)
    found = next(h for h in hits if h.memory.id == summary["id"])
    assert "fulltext" in found.explanation.seed_sources
    # its full-text score is the source's (a short document), not its own long key's
    lucene = lucene_query(query_terms(question), user_key(user_id))
    scores = {
        r["id"]: r["score"]
        for r in grow.query(
            "CALL db.index.fulltext.queryNodes('memory_content', $q) YIELD node, score "
            "RETURN node.id AS id, score",
            {"q": lucene},
        )
    }
    source = grow.query(
        "MATCH (m:Memory) WHERE m.user_id = $u AND m.content STARTS WITH 'The parking' RETURN m.id AS id",
        {"u": user_id},
    )[0]["id"]
    assert scores[source] > scores[summary["id"]]  # the source is the stronger full-text key
    # the pool names it: the summary's full-text match came through that source, whose text recall scores
    from graphmem.retrieval.search import SearchRequest, fetch_pool

    req = SearchRequest(question, user_id, user_key(user_id), 3, grow.runtime.settings.preset())
    seed = next(s for s in fetch_pool(grow.runtime, req)["seeds"] if s["id"] == summary["id"])
    text = next(f for f in seed["found"] if f["source"] == "fulltext")
    assert text["via"] == source and text["via_text"].startswith("The parking ticket cost forty euros")


def test_a_summarised_source_is_a_vector_key_of_its_summary(grow: GraphMemory, user_id: str) -> None:
    """In a present read, a source a summary replaced still finds it by meaning: the summary scores the best
    of its own and its sources' cosines (its centroid alone is a diluted key). Read as of before the summary,
    the source is itself again."""
    chain = [*CHAIN, "We stopped for ice cream in Whitby", "My passport expires next April"]
    ids = [
        grow.remember(t, user_id=user_id, session_id="trip", priority="P3", memory_type="episodic").id
        for t in chain
    ]
    before = datetime.now(UTC)
    grow.jobs.run("consolidate", user_id=user_id, now=before + timedelta(days=30))
    question = "when is my travel document no longer valid?"
    from graphmem.retrieval.search import embed_queries

    vector = embed_queries(grow.runtime, [question], [user_id])[0]  # recall's own query vector
    rows = grow.query(
        "MATCH (s:Memory {is_summary: true})-[:SUMMARIZES]->(m:Memory) WHERE s.user_id = $u "
        "RETURN s.id AS id, vector.similarity.cosine(s.embedding, $q) AS centroid, "
        "max(vector.similarity.cosine(m.embedding, $q)) AS best",
        {"u": user_id, "q": vector},
    )
    summary = rows[0]
    assert summary["best"] > summary["centroid"] + 0.01  # the source is the better key
    hits = grow.recall(question, user_id=user_id, k=3, reinforce=False)
    hit = next(h for h in hits if h.memory.id == summary["id"])
    assert "vector" in hit.explanation.seed_sources
    # its cosine signal (on [-1, 1]) is its best source's, not its centroid's
    assert hit.explanation.components["cosine"] >= 2 * summary["best"] - 1 - 1e-6
    past = grow.recall(question, user_id=user_id, k=3, reinforce=False, known_at=before)
    assert past and past[0].memory.id in ids  # as known then: the sources themselves


@pytest.mark.parametrize("effects", ["inline", "deferred"])
def test_a_summary_hit_shows_the_source_the_query_cues(
    server: Any, embedder: Any, user_id: str, effects: str
) -> None:
    settings = Settings(automation_config_id=disposable(f"test-{uuid.uuid4()}"), recall_effects=effects)
    with GraphMemory.connect(settings=settings, embedder=embedder) as grow:
        grow.init()
        _shows_the_cued_source(grow, user_id)


def _shows_the_cued_source(grow: GraphMemory, user_id: str) -> None:
    """A summary's extract keeps five sentences; a recall the summary answers shows, as the hit's ``details``,
    the sources the query found it by (what they said), which stay forgotten; ``context()`` gives the agent
    their words. A memory that is not a summary has no details."""
    chain = [*CHAIN, "We stopped for ice cream in Whitby", "The parking ticket cost forty euros"]
    ids = {
        t: grow.remember(t, user_id=user_id, session_id="trip", priority="P3", memory_type="episodic").id
        for t in chain
    }
    plain = grow.remember(
        "My car insurance renews in March", user_id=user_id, session_id="car", priority="P1"
    )
    for text in OTHERS:  # kept (P1): the summary is not alone, so its confidence is not a two-memory artefact
        grow.remember(text, user_id=user_id, session_id="home", priority="P1")
    grow.jobs.run("consolidate", user_id=user_id, now=datetime.now(UTC) + timedelta(days=30))
    question = "how much did the parking ticket cost?"
    hits = grow.recall(question, user_id=user_id, k=3, reinforce=False)
    summary = next(h for h in hits if h.memory.tags == ("summary",))
    assert "forty euros" not in summary.memory.content  # the extract left it out
    sources = set(ids.values())
    assert summary.details[0].id == ids["The parking ticket cost forty euros"]  # by words and meaning
    assert {d.id for d in summary.details} <= sources and len(summary.details) <= DETAILS_MAX
    assert summary.details[0].status == "forgotten"  # shown, not revived
    assert all(not h.details for h in hits if h.memory.id == plain.id)
    assert hit_json(summary)["details"][0]["id"] == summary.details[0].id  # REST and MCP carry them
    status = grow.query("MATCH (m:Memory {id: $id}) RETURN m.status AS s", {"id": summary.details[0].id})
    assert status == [{"s": "forgotten"}]
    context = grow.context(question, user_id=user_id, token_budget=200, reinforce=False)
    assert "forty euros" in context.text
    # by meaning alone (no word of the question is in any source): the source nearest the query vector
    question = "how expensive was it to leave the car?"
    from graphmem.retrieval.search import embed_queries

    vector = embed_queries(grow.runtime, [question], [user_id])[0]  # recall's own query vector
    nearest = grow.query(
        "MATCH (s:Memory {is_summary: true})-[:SUMMARIZES]->(m:Memory) WHERE s.user_id = $u "
        "WITH m, vector.similarity.cosine(m.embedding, $q) AS own, "
        "coalesce(vector.similarity.cosine(m.context_embedding, $q), -1.0) AS ctx "
        "RETURN m.id AS id ORDER BY CASE WHEN ctx > own THEN ctx ELSE own END DESC LIMIT 1",
        {"u": user_id, "q": vector},
    )[0]["id"]
    hits = grow.recall(question, user_id=user_id, k=10, reinforce=False)
    summary = next(h for h in hits if h.memory.tags == ("summary",))
    assert summary.details[0].id == nearest
    # two sources cued: both shown, before any other
    question = "where did we stop for ice cream, and what did the parking ticket cost?"
    hits = grow.recall(question, user_id=user_id, k=5, reinforce=False)
    summary = next(h for h in hits if h.memory.tags == ("summary",))
    cued = {ids["We stopped for ice cream in Whitby"], ids["The parking ticket cost forty euros"]}
    assert {d.id for d in summary.details[:2]} == cued
