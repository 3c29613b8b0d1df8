"""The read path on the real server: pool sources, fallbacks, graph paths through each view, intent, memory
changes on recall, as_of, context budget, proactive preload and feedback."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

from graphmem import EmbedderError, GraphMemory, MemoryNotFound, Settings, ValidationError
from graphmem.config import MAX_K


class _NoEmbedder:
    """An embedder that is down: recall must fall back to the full-text and substring levels."""

    dimension = 384

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        raise EmbedderError("model offline")


def _without_vectors(mem: GraphMemory) -> GraphMemory:
    return GraphMemory(mem.runtime.store, _NoEmbedder(), mem.runtime.settings)


def _with(mem: GraphMemory, **settings: object) -> GraphMemory:
    return GraphMemory(mem.runtime.store, mem.embedder, mem.runtime.settings.model_copy(update=settings))


def _props(mem: GraphMemory, memory_id: str) -> dict[str, object]:
    return mem.query("MATCH (m:Memory {id: $id}) RETURN m {.*, embedding: null} AS m", {"id": memory_id})[0][
        "m"
    ]


def test_hybrid_seeds_come_from_both_indexes(mem: GraphMemory, user_id: str) -> None:
    target = mem.remember("My sister Emma lives in Lisbon", user_id=user_id)
    mem.remember("I bought a red bicycle", user_id=user_id)
    hits = mem.recall("Where does Emma live?", user_id=user_id, k=2, reinforce=False)
    top = hits[0]
    assert top.memory.id == target.id
    assert top.explanation.search_level == "hybrid"
    assert top.explanation.score_type == "linear"  # the fusion that ranked it
    assert set(top.explanation.seed_sources) == {"vector", "fulltext"}
    assert top.explanation.raw_score == pytest.approx(top.explanation.components["fused"])


def test_vector_level_when_the_query_has_no_content_words(mem: GraphMemory, user_id: str) -> None:
    mem.remember("I adore long walks on the beach", user_id=user_id)
    hits = mem.recall("what is it that I do?", user_id=user_id, k=1, reinforce=False)
    assert hits[0].explanation.search_level == "vector"
    assert hits[0].explanation.score_type == "cosine"


def test_fulltext_level_when_vectors_are_unavailable(mem: GraphMemory, user_id: str) -> None:
    m = mem.remember("The plumber fixes the boiler on Friday", user_id=user_id)
    hits = _without_vectors(mem).recall("boiler repair", user_id=user_id, k=3, reinforce=False)
    assert [h.memory.id for h in hits] == [m.id]
    assert hits[0].explanation.search_level == "fulltext"
    assert hits[0].explanation.score_type == "bm25" and hits[0].explanation.raw_score > 0


def test_substring_level_when_nothing_else_finds_it(mem: GraphMemory, user_id: str) -> None:
    m = mem.remember("My locker code is qzx4471b", user_id=user_id)
    hits = _without_vectors(mem).recall("qzx4471", user_id=user_id, k=3, reinforce=False)
    assert [h.memory.id for h in hits] == [m.id]
    assert hits[0].explanation.search_level == "substring"


def _activation_edges(
    mem: GraphMemory, query: str, user_id: str, target: str, views: dict[str, float]
) -> list[str]:
    hits = mem.recall(query, user_id=user_id, k=10, views=views, reinforce=False)
    by_id = {h.memory.id: h for h in hits}
    assert target in by_id, "the linked memory was not returned"
    return by_id[target].explanation.edge_types


@pytest.mark.parametrize(
    ("rel_type", "view"), [("CAUSES", "causal"), ("RELATED_TO", "semantic"), ("FOLLOWS", "temporal")]
)
def test_activation_path_through_each_memory_view(
    mem: GraphMemory, user_id: str, rel_type: str, view: str
) -> None:
    seed = mem.remember("The kitchen pipe burst on Monday night", user_id=user_id)
    other = mem.remember("Quarterly tax forms are due soon", user_id=user_id)
    mem.memories.link(seed.id, other.id, rel_type, weight=1.0)
    edges = _activation_edges(mem, "kitchen pipe burst", user_id, other.id, {view: 1.0})
    assert edges == [rel_type]
    hit = next(
        h
        for h in mem.recall("kitchen pipe burst", user_id=user_id, views={view: 1.0}, reinforce=False)
        if h.memory.id == other.id
    )
    assert hit.explanation.path == [seed.id, other.id]
    assert hit.explanation.components["pagerank"] > 0


def test_activation_path_through_the_entity_view(mem: GraphMemory, user_id: str) -> None:
    first = mem.remember("Yesterday Bartholomew repaired the old clock tower", user_id=user_id)
    second = mem.remember("We had dinner with Bartholomew and his cousin", user_id=user_id)
    edges = _activation_edges(mem, "who repaired the clock tower?", user_id, second.id, {"entity": 1.0})
    assert len(edges) == 1 and edges[0].startswith("ENTITY:")
    assert first.id != second.id


def test_views_off_means_no_activation(mem: GraphMemory, user_id: str) -> None:
    seed = mem.remember("The kitchen pipe burst on Monday night", user_id=user_id)
    other = mem.remember("Quarterly tax forms are due soon", user_id=user_id)
    mem.memories.link(seed.id, other.id, "CAUSES")
    hits = mem.recall("kitchen pipe burst", user_id=user_id, k=10, views={"semantic": 1.0}, reinforce=False)
    assert all("CAUSES" not in h.explanation.edge_types for h in hits)
    hits = mem.recall("kitchen pipe burst", user_id=user_id, k=10, hops=0, reinforce=False)
    assert all(h.explanation.edge_types == [] for h in hits)


def test_intent_chooses_the_views(mem: GraphMemory, user_id: str) -> None:
    cause = mem.remember("A storm knocked the power line down", user_id=user_id)
    effect = mem.remember("We ate dinner by candlelight", user_id=user_id)
    mem.memories.link(cause.id, effect.id, "CAUSES")
    hits = mem.recall("Why did we eat by candlelight?", user_id=user_id, k=2)
    events = mem.query(
        "MATCH (r:RecallEvent {user_id: $u}) RETURN r.intent AS intent ORDER BY r.at DESC LIMIT 1",
        {"u": user_id},
    )
    assert events[0]["intent"] == "causal"
    reached = {h.memory.id: h.explanation.edge_types for h in hits}
    assert reached[cause.id] == ["CAUSES"]


def test_recall_reinforces_returned_and_weakens_competitors(mem: GraphMemory, user_id: str) -> None:
    ids = [mem.remember(f"Note {i} about gardening and tomatoes", user_id=user_id).id for i in range(4)]
    before = {i: _props(mem, i) for i in ids}
    hits = mem.recall("gardening tomatoes", user_id=user_id, k=2)
    returned = {h.memory.id for h in hits}
    for mid in ids:
        after = _props(mem, mid)
        if mid in returned:
            assert after["access_count"] == before[mid]["access_count"] + 1
            assert after["last_accessed_at"] is not None
            assert after["strength"] > before[mid]["strength"]
        else:
            assert after["access_count"] == before[mid]["access_count"]
            # retrieval-induced forgetting: inhibited (ranking feels it), strength untouched
            assert after["inhibition"] > 0 and after["strength"] == before[mid]["strength"]


def test_read_only_recall_changes_nothing(mem: GraphMemory, user_id: str) -> None:
    ids = [mem.remember(f"Note {i} about chess openings", user_id=user_id).id for i in range(3)]
    before = [_props(mem, i) for i in ids]
    mem.recall("chess", user_id=user_id, k=1, reinforce=False)
    assert [_props(mem, i) for i in ids] == before
    quiet = _with(mem, reinforce_on_recall=False)
    quiet.recall("chess", user_id=user_id, k=1)
    assert [_props(mem, i) for i in ids] == before


def test_as_of_returns_the_older_state(mem: GraphMemory, user_id: str) -> None:
    old = mem.remember("I live in Leeds", user_id=user_id)
    checkpoint = datetime.now(UTC)
    new = mem.remember("I live in York now", user_id=user_id)
    mem.query("MATCH (m:Memory {id: $id}) RETURN m", {"id": old.id})
    mem.runtime.store.run_statement(
        "MATCH (m:Memory {id: $id}) SET m.expired_at = datetime()", {"id": old.id}
    )  # the engine retracts the old memory after the checkpoint
    now_ids = [h.memory.id for h in mem.recall("where do I live?", user_id=user_id, reinforce=False)]
    then = mem.recall("where do I live?", user_id=user_id, as_of=checkpoint)
    assert now_ids == [new.id]
    assert [h.memory.id for h in then] == [old.id]
    assert _props(mem, old.id)["access_count"] == 0  # an audit never changes what it reads


def test_context_respects_its_budget(mem: GraphMemory, user_id: str) -> None:
    mem.facts.set(user_id, "favourite_colour", "green", fact_type="preference")
    for i in range(12):
        mem.remember(f"Day {i}: I practised the violin for an hour and then cooked pasta", user_id=user_id)
    full = mem.context("violin practice", user_id=user_id, token_budget=5000, reinforce=False)
    assert full.dropped == [] and full.tokens <= 5000
    assert full.text.index("favourite_colour") < full.text.index("violin")
    small = mem.context("violin practice", user_id=user_id, token_budget=60, reinforce=False)
    assert 0 < small.tokens <= 60
    assert small.dropped and small.kept
    assert small.kept[0].kind == "fact"
    assert max(i.rank for i in small.kept) < max(i.rank for i in small.dropped)
    assert len(small.kept) + len(small.dropped) == len(small.items)


def test_proactive_ranks_and_is_invalidated_by_feedback(mem: GraphMemory, user_id: str) -> None:
    low = mem.remember("I once saw a heron", user_id=user_id, importance=0.1)
    high = mem.remember("I am severely allergic to peanuts", user_id=user_id, importance=1.0)
    first = mem.memories.proactive(user_id, k=2)
    assert [h.memory.id for h in first] == [high.id, low.id]
    assert first[0].score > first[1].score
    mem.memories.feedback(low.id, user_id=user_id, useful=True)
    assert _props(mem, low.id)["importance"] > 0.1
    assert (
        mem.query("MATCH (f:Feedback)-[:ABOUT]->(m {id: $id}) RETURN count(f) AS n", {"id": low.id})[0]["n"]
        == 1
    )
    with pytest.raises(MemoryNotFound):
        mem.memories.feedback(low.id, user_id=f"{user_id}-intruder", useful=False)


def test_every_recall_is_recorded(mem: GraphMemory, user_id: str) -> None:
    mem.remember("Recorded recall check", user_id=user_id)
    hits = mem.recall("recorded recall", user_id=user_id, k=1, reinforce=False)
    rows = mem.query(
        "MATCH (r:RecallEvent {user_id: $u}) RETURN r.query AS q, r.memory_ids AS ids, r.levels AS levels",
        {"u": user_id},
    )
    assert rows == [{"q": "recorded recall", "ids": [hits[0].memory.id], "levels": ["hybrid"]}]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"query": ""}, "query"),
        ({"k": 0}, "k"),
        ({"k": MAX_K + 1}, "k"),
        ({"views": {"gossip": 1.0}}, "views"),
        ({"hops": -1}, "hops"),
        ({"as_of": "not a date"}, "as_of"),
    ],
)
def test_recall_bad_input(mem: GraphMemory, user_id: str, kwargs: dict[str, object], field: str) -> None:
    args: dict[str, object] = {"query": "hello", **kwargs}
    query = args.pop("query")
    with pytest.raises(ValidationError) as info:
        mem.recall(query, user_id=user_id, **args)  # type: ignore[arg-type]
    assert info.value.field == field


def test_unknown_user_gets_an_empty_result(mem: GraphMemory, user_id: str) -> None:
    assert mem.recall("anything at all", user_id=user_id) == []
    assert mem.memories.proactive(user_id) == []
    assert (
        mem.context("anything", user_id=user_id).text
        == "## Relevant memories\n- Nothing relevant to this query is known."
    )


def test_naive_as_of_is_read_as_utc(mem: GraphMemory, user_id: str) -> None:
    mem.remember("timezone check", user_id=user_id)
    later = (datetime.now(UTC) + timedelta(minutes=5)).replace(tzinfo=None)
    assert len(mem.recall("timezone check", user_id=user_id, as_of=later)) == 1


def test_settings_switch_off_retrieval_induced_forgetting(mem: GraphMemory, user_id: str) -> None:
    ids = [mem.remember(f"Note {i} about knitting scarves", user_id=user_id).id for i in range(3)]
    before = {i: _props(mem, i)["strength"] for i in ids}
    gentle = _with(mem, retrieval_induced_forgetting=False)
    returned = {h.memory.id for h in gentle.recall("knitting", user_id=user_id, k=1)}
    for mid in ids:
        if mid not in returned:
            assert _props(mem, mid)["strength"] == before[mid]
    assert isinstance(Settings().reinforce_on_recall, bool)


def test_proactive_sees_a_new_memory_at_once(mem: GraphMemory, user_id: str) -> None:
    """The preload cache goes stale with any audited write of the user, not only with recall or feedback."""
    first = mem.remember("I collect old postcards", user_id=user_id, importance=0.2)
    assert [h.memory.id for h in mem.memories.proactive(user_id, k=5)] == [first.id]
    urgent = mem.remember("My passport expires next month", user_id=user_id, importance=1.0)
    assert [h.memory.id for h in mem.memories.proactive(user_id, k=5)] == [urgent.id, first.id]
