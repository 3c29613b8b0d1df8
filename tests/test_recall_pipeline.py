"""Recall as one search pipeline, on the real server: round trips, presets, confidence, explanations,
session diversity and the demo's questions."""

from __future__ import annotations

import json
import sys
import threading
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any

import pydantic
import pytest
from conftest import spoken
from store_calls import record_transactions

from graphmem import GraphMemory, Settings, ValidationError
from graphmem.config import RetrievalPreset
from graphmem.store.queries import query
from graphmem.store.values import to_native

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
from roundtrips import CountingStore


def _counting(mem: GraphMemory, **settings: object) -> tuple[GraphMemory, CountingStore]:
    store = CountingStore(mem.runtime.store)  # type: ignore[arg-type]
    counted = GraphMemory(store, mem.embedder, mem.runtime.settings.model_copy(update=settings))  # type: ignore[arg-type]
    return counted, store


def _conversation(mem: GraphMemory, user_id: str) -> None:
    start = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
    turns = [
        "I adopted a beagle called Rex from the shelter",
        "Rex chewed my running shoes this morning",
        "My sister Emma lives in Lisbon",
        "Emma is visiting me in June",
    ]
    _say(mem, user_id, turns, start=start, step=timedelta(minutes=1), session_id="s1")


def _say(
    mem: GraphMemory, user_id: str, turns: list[str], *, start: datetime, step: timedelta, session_id: str
) -> None:
    """The user's ``turns`` in one session, ``step`` apart from ``start``."""
    mem.add_messages(
        [{"role": "user", "content": t, "timestamp": start + step * i} for i, t in enumerate(turns)],
        user_id=user_id,
        session_id=session_id,
    )


def _spoken(
    mem: GraphMemory,
    user_id: str,
    turns: list[tuple[str | None, str]],
    *,
    session: str = "s1",
    day: int = 0,
) -> None:
    """One session of (speaker, text) turns, a minute apart, ``day`` days after 1 February 2026."""
    spoken(
        mem,
        user_id,
        turns,
        start=datetime(2026, 2, 1, 18, 0, tzinfo=UTC) + timedelta(days=day),
        session=session,
    )


@pytest.mark.parametrize(
    ("reinforce", "record"), [(True, True), (False, True), (False, False), (True, False)]
)
def test_recall_takes_at_most_two_round_trips(
    mem: GraphMemory, user_id: str, reinforce: bool, record: bool
) -> None:
    _conversation(mem, user_id)
    counted, store = _counting(mem, record_recalls=record)
    counted.recall(
        "what is my dog called?", user_id=user_id, k=3, reinforce=reinforce
    )  # warms the size cache
    store.calls.clear()
    hits = counted.recall("what is my dog called?", user_id=user_id, k=3, reinforce=reinforce)
    assert hits and "Rex" in hits[0].memory.content
    assert store.calls[0] == "read:recall_pool"
    assert len(store.calls) <= 2, store.calls


def test_a_context_takes_three_round_trips(mem: GraphMemory, user_id: str) -> None:
    """context(): the pool; the hits with the facts, recent history and core memory (context_read); the
    recall's effects. It took six (the hits, facts, history and core memory each read apart)."""
    _conversation(mem, user_id)
    mem.facts.set(user_id, "city", "Lisbon")
    mem.core.set(user_id, "persona", "Answers briefly")
    counted, store = _counting(mem)
    counted.context("what is my dog called?", user_id=user_id, k=3)  # warms the size cache
    store.calls.clear()
    context = counted.context("what is my dog called?", user_id=user_id, k=3)
    assert store.calls == ["read:recall_pool", "read:context_read", "transaction"], store.calls
    assert {item.kind for item in context.kept} >= {"core", "fact", "memory", "history"}
    assert "Rex" in context.text and "location: Lisbon" in context.text and "Answers briefly" in context.text


def test_a_context_whose_recall_finds_nothing_still_reads_facts_once(mem: GraphMemory, user_id: str) -> None:
    """No hits to fetch: the context's read runs alone after the search (an empty pool tries a substring
    match too), and nothing is written."""
    mem.facts.set(user_id, "city", "Lisbon")
    counted, store = _counting(mem)
    counted.context("where do I live?", user_id=user_id)
    store.calls.clear()
    context = counted.context("where do I live?", user_id=user_id)
    assert store.calls == ["read:recall_pool", "read:recall_substring", "read:context_read"], store.calls
    assert [item.text for item in context.kept if item.kind == "fact"] == ["location: Lisbon"]


def _occurred_seek_rows(mem: GraphMemory, name: str, params: dict[str, Any]) -> tuple[list[int], list[Any]]:
    """PROFILE ``name``: the rows each seek of the (user_id, occurred_at) index yielded, and the records."""
    with mem.runtime.store.driver.session() as session:
        result = session.run("PROFILE " + query(name), params)
        rows = list(result)
        plan = result.consume().profile
    seeks, todo = [], [plan]
    while todo:
        op = todo.pop()
        if "NodeIndexSeek" in op["operatorType"] and "occurred_at" in op["args"]["Details"]:
            seeks.append(op["rows"])
        todo.extend(op.get("children", []))
    return seeks, rows


def test_recent_history_and_a_first_list_page_read_the_latest_few_not_the_tenant(
    mem: GraphMemory, user_id: str
) -> None:
    """A context's recent history and the first page of memories.list are read in the order of the (user_id,
    occurred_at) index: of a 40-memory tenant the seek yields about the few they show (both sorted all 40:
    their cost grew with the tenant, a context 173-208 ms at 25,000 memories, a list page 63 ms)."""
    start = datetime(2026, 3, 1, tzinfo=UTC)
    turns = [f"Note {i}: the plants on shelf {i} need water" for i in range(40)]
    _say(mem, user_id, turns, start=start, step=timedelta(hours=1), session_id="s")
    params = {
        "ids": [],
        "tenants": [user_id],
        "personal": [user_id],
        "user_id": user_id,
        "k": 10,
        "config_id": "default",
        "embedding": None,
    }
    params |= {"now": datetime.now(UTC), "as_of": None, "known_at": None, "alive_at": None}
    seeks, [row] = _occurred_seek_rows(mem, "context_read", params)
    assert seeks == [10], seeks
    latest = mem.memories.list(user_id, limit=10)
    assert [m["id"] for m in to_native(row["recent"])] == [m.id for m in latest]
    assert [m.content for m in latest] == turns[::-1][:10]
    listed = {"user_id": user_id, "offset": 0, "limit": 10, "now": None, "statuses": ["active"]}
    listed |= {"memory_type": None, "session_id": None, "tags": []}
    seeks, _ = _occurred_seek_rows(mem, "memory_list", listed)
    assert len(seeks) == 1 and seeks[0] <= 11, seeks  # the page and the first row after it (ties)
    # a deep page by cursor reads from the cursor's place on: a page, not the 25 before it nor the rest
    everything = mem.memories.list(user_id, limit=40)
    seeks, [page] = _occurred_seek_rows(mem, "memory_list_after", listed | {"after": everything[24].id})
    assert len(seeks) == 1 and seeks[0] <= 12, seeks  # the cursor's tie, the page, the first row after it
    assert [m["id"] for m in to_native(page["memories"])] == [m.id for m in everything[25:35]]
    assert mem.memories.count(user_id) == 40


def test_a_recall_writes_its_effects_in_one_statement(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second round trip (issue 14): reinforcement, co-recall, inhibition of competitors and the record
    are one statement (recall_write), then the returned rows are read in the same transaction."""
    _conversation(mem, user_id)
    transactions = record_transactions(mem.runtime.store, "unit_of_work", monkeypatch)
    hits = mem.recall("what is my dog called?", user_id=user_id, k=3, reinforce=True)
    assert [[name for name, _ in t] for t in transactions] == [["recall_write", "memory_fetch"]]
    plan = transactions[0][0][1]["plan"]
    assert plan["reinforced"] == sorted(h.memory.id for h in hits) == sorted(plan["co_recalled"])
    assert len(plan["events"]) == 1  # the recall recorded
    stored = mem.query("MATCH (m:Memory {id: $id}) RETURN m.recall_hits AS n", {"id": hits[0].memory.id})
    assert stored == [{"n": 1}]


def test_a_short_filtered_recall_takes_one_more_read(mem: GraphMemory, user_id: str) -> None:
    """A filter that admits fewer than k of the pool, on a tenant the pool does not hold whole, adds one read
    (recall_filtered: graphmem.retrieval.filtered) between the pool and the write: three round trips. A pool
    that holds the tenant whole (the exact scan made every memory a seed) needs none: two."""
    _conversation(mem, user_id)
    laptop = mem.remember("My work laptop is a ThinkPad with a cracked hinge", user_id=user_id, tags=["work"])
    counted, store = _counting(mem)
    narrow = RetrievalPreset(name="narrow", pool_k=2)  # 5 memories, 2 + 2 in the pool: not the whole tenant

    def ask(preset: RetrievalPreset | None) -> list[str]:
        hits = counted.recall(
            "what is my dog called?", user_id=user_id, k=3, filters={"tags": ["work"]}, preset=preset
        )
        return [h.memory.id for h in hits]

    ask(narrow), ask(None)  # warm the size cache and the user's tuned weights
    store.calls.clear()
    assert ask(narrow) == [laptop.id]
    assert store.calls == ["read:recall_pool", "read:recall_filtered", "transaction"], store.calls
    store.calls.clear()
    assert ask(None) == [laptop.id]
    assert store.calls == ["read:recall_pool", "transaction"], store.calls


class _ThreadCounting(CountingStore):
    """Counts calls, those of the background writer's thread apart (``worker:...``)."""

    def unit_of_work(self, work: Any) -> Any:
        if threading.current_thread() is threading.main_thread():
            return super().unit_of_work(work)
        self.calls.append("worker:transaction")
        return self.inner.unit_of_work(work)


def test_deferred_recall_takes_two_reads_and_writes_later(mem: GraphMemory, user_id: str) -> None:
    _conversation(mem, user_id)
    store = _ThreadCounting(mem.runtime.store)  # type: ignore[arg-type]
    settings = mem.runtime.settings.model_copy(update={"recall_effects": "deferred"})
    counted = GraphMemory(store, mem.embedder, settings)  # type: ignore[arg-type]
    try:
        counted.recall("what is my dog called?", user_id=user_id, k=3)  # warms the size cache
        assert counted.flush(timeout=30)
        store.calls.clear()
        hits = counted.recall("what is my dog called?", user_id=user_id, k=3)
        request_path = [c for c in store.calls if not c.startswith("worker:")]
        assert request_path == ["read:recall_pool", "read:memory_fetch"], store.calls
        assert hits[0].memory.access_count == 1  # the state before this recall's reinforcement
        assert counted.flush(timeout=30)
        assert [c for c in store.calls if c.startswith("worker:")] == ["worker:transaction"]
    finally:
        counted.runtime.deferred.close()
    rex = mem.recall("what is my dog called?", user_id=user_id, k=1, reinforce=False)[0]
    assert rex.memory.id == hits[0].memory.id and rex.memory.access_count == 2


def test_a_bad_preset_fails_when_settings_are_built(mem: GraphMemory, user_id: str) -> None:
    with pytest.raises(pydantic.ValidationError, match="unknown retrieval preset"):
        Settings(retrieval_preset="turbo")
    with pytest.raises(pydantic.ValidationError):
        Settings(retrieval_preset={"pool_k": 0})
    with pytest.raises(ValidationError) as info:
        mem.recall("anything", user_id=user_id, preset="turbo")
    assert info.value.field == "retrieval_preset"


def test_preset_is_chosen_per_call(mem: GraphMemory, user_id: str) -> None:
    seed = mem.remember("The kitchen pipe burst on Monday night", user_id=user_id)
    other = mem.remember("Quarterly tax forms are due soon", user_id=user_id)
    mem.memories.link(seed.id, other.id, "CAUSES", weight=1.0)
    query = "why did the kitchen pipe burst?"
    with_graph = {h.memory.id: h for h in mem.recall(query, user_id=user_id, reinforce=False)}
    assert with_graph[other.id].explanation.edge_types == ["CAUSES"]
    flat = RetrievalPreset(name="flat", graph=False)
    without = {h.memory.id: h for h in mem.recall(query, user_id=user_id, reinforce=False, preset=flat)}
    assert without[other.id].explanation.edge_types == []
    assert without[other.id].explanation.components["pagerank"] == 0.0
    fast = mem.recall(query, user_id=user_id, reinforce=False, preset="fast")
    assert fast[0].memory.id == seed.id


def test_paths_are_loop_free_and_the_fusion_is_named(mem: GraphMemory, user_id: str) -> None:
    _conversation(mem, user_id)
    hits = mem.recall("Where does Emma live?", user_id=user_id, k=4, reinforce=False)
    assert "Lisbon" in hits[0].memory.content
    assert hits[0].explanation.score_type == "linear"
    for hit in hits:
        assert len(hit.explanation.path) == len(set(hit.explanation.path))
        assert hit.explanation.path[-1] == hit.memory.id
        assert len(hit.explanation.edge_types) == len(hit.explanation.path) - 1
        assert {"cosine", "bm25", "fused", "pagerank", "speaker", "state"} <= set(hit.explanation.components)


def test_confidence_separates_known_from_unknown(mem: GraphMemory, user_id: str) -> None:
    _conversation(mem, user_id)
    known = mem.recall("Where does my sister Emma live?", user_id=user_id, k=3, reinforce=False)
    unknown = mem.recall(
        "What instrument does Jonathan play in his band?", user_id=user_id, k=3, reinforce=False
    )
    assert all(0.0 <= h.confidence <= 1.0 for h in known + unknown)
    assert known[0].confidence > 0.5 > unknown[0].confidence


def test_context_says_when_nothing_relevant_is_known(mem: GraphMemory, user_id: str) -> None:
    _conversation(mem, user_id)
    ctx = mem.context("What instrument does Jonathan play in his band?", user_id=user_id, reinforce=False)
    assert "No memory clearly answers this query." in ctx.text
    assert not any(i.kind == "memory" for i in ctx.kept)  # what was recalled is only possibly related
    assert "## Possibly related memories (low confidence)" in ctx.text
    known = mem.context("Where does my sister Emma live?", user_id=user_id, reinforce=False)
    assert not any(i.kind == "notice" for i in known.kept)
    assert any(i.kind == "memory" and "Lisbon" in i.text for i in known.kept)


def test_the_final_cut_spreads_over_sessions(mem: GraphMemory, user_id: str) -> None:
    """One session says the same thing many times; the question needs the other sessions too."""
    start = datetime(2026, 1, 1, tzinfo=UTC)
    chatty = [f"I went to the gym again today, session number {i} of my gym plan" for i in range(8)]
    _say(mem, user_id, chatty, start=start, step=timedelta(minutes=1), session_id="gym")
    others = {"swim": "I went swimming at the lake for exercise", "yoga": "I tried a yoga class for exercise"}
    for n, (session, text) in enumerate(others.items(), start=1):
        mem.add_messages(
            [{"role": "user", "content": text, "timestamp": start + timedelta(days=n)}],
            user_id=user_id,
            session_id=session,
        )
    hits = mem.recall(
        "What exercise did I do at the gym, swimming or yoga?", user_id=user_id, k=5, reinforce=False
    )
    assert {h.memory.session_id for h in hits} >= {"gym", "swim", "yoga"}


def test_demo_travel_question_ranks_the_japan_trip_first(mem: GraphMemory, user_id: str) -> None:
    sample = json.loads(resources.files("graphmem.data").joinpath("sample_conversation.json").read_text())
    for session in sample["sessions"]:
        start = datetime.fromisoformat(session["date"])
        mem.add_messages(
            [
                {"role": m["role"], "content": m["content"], "timestamp": start + timedelta(minutes=i)}
                for i, m in enumerate(session["messages"])
            ],
            user_id=user_id,
            session_id=session["session_id"],
        )
    # asked as of the morning after the conversation (the demo does the same), so the test does not depend
    # on the year it runs in
    asked = datetime.fromisoformat(sample["asked_at"])
    hits = mem.recall("Where am I travelling later this year?", user_id=user_id, k=3, as_of=asked)
    assert "Japan" in hits[0].memory.content


def test_a_speakers_name_is_not_a_full_text_term(mem: GraphMemory, user_id: str) -> None:
    """A question naming a speaker is about that speaker's turns (the speaker boost), not about the turns
    that address them by name: "Thanks, Melanie!" matches "Melanie" in full text and says nothing about
    what she painted."""
    _spoken(
        mem,
        user_id,
        [
            ("Caroline", "Melanie, your garden looks lovely, Melanie! What a great weekend, Melanie."),
            ("Caroline", "Thanks so much, Melanie! Lunch with you was great, Melanie."),
            ("Melanie", "Last week I finished a sunset over the lake in watercolours."),
            ("Caroline", "Melanie, that's awesome! Good night, Melanie!"),
        ],
    )
    hits = mem.recall("What did Melanie paint?", user_id=user_id, k=2, reinforce=False)
    assert "watercolours" in hits[0].memory.content
    # a name that is not a speaker's stays a full-text term
    mem.remember("Oscar the guinea pig ate the whole carrot", user_id=user_id)
    hits = mem.recall("What did Oscar eat?", user_id=user_id, k=1, reinforce=False)
    assert "Oscar" in hits[0].memory.content


def test_a_speakers_name_is_left_out_of_the_query_vector(mem: GraphMemory, user_id: str) -> None:
    """The question's vector is the question less the tenant's speakers' names: with the name in it, the
    turns that name or address the speaker outrank what the question asks about."""
    _spoken(
        mem,
        user_id,
        [
            ("Melanie", "Caroline, you are amazing, Caroline! So proud of you, Caroline."),
            ("Melanie", "Caroline! Caroline, thank you, Caroline, see you soon Caroline."),
            ("Caroline", "Our puppy chewed the sofa again, he is such a rascal."),
            ("Melanie", "Caroline, Caroline, hugs to you Caroline!"),
        ],
    )
    embedded: list[str] = []
    inner = mem.embedder

    class Recording:
        dimension = inner.dimension

        def embed(self, texts: list[str]) -> list[list[float]]:
            return inner.embed(texts)

        def embed_queries(self, texts: list[str]) -> list[list[float]]:
            embedded.extend(texts)
            return inner.embed_queries(texts)  # type: ignore[attr-defined,no-any-return]

    recording = GraphMemory(mem.runtime.store, Recording(), mem.runtime.settings)  # type: ignore[arg-type]
    hits = recording.recall("Does Caroline have a pet?", user_id=user_id, k=2, reinforce=False)
    assert "puppy" in hits[0].memory.content
    assert embedded == ["Does have a pet?"]
    # a name that is no speaker's stays in the vector
    recording.recall("Does Oscar have a pet?", user_id=user_id, k=1, reinforce=False)
    assert embedded[-1] == "Does Oscar have a pet?"


def test_a_turn_that_only_asks_ranks_below_the_statement(mem: GraphMemory, user_id: str) -> None:
    """A question states nothing: "What did you paint last weekend?" is no evidence of what was painted,
    however close its words are to the query; the statement that answers it is."""
    asked = [("Caroline", "Wow! What did you paint last weekend?"), ("Melanie", "Oh, I will show you soon.")]
    _spoken(mem, user_id, asked, session="s0")
    said = [("Melanie", "Last weekend I painted a sunset over the lake."), ("Caroline", "Gorgeous!")]
    _spoken(mem, user_id, said, session="s1", day=1)
    hits = mem.recall("What did Melanie paint last weekend?", user_id=user_id, k=4, reinforce=False)
    assert "sunset" in hits[0].memory.content
    asking = next(h for h in hits if h.memory.content.startswith("Wow!"))
    assert asking.explanation.components["asking"] == 0.5


def test_a_turn_of_the_matching_episode_outranks_its_twin_elsewhere(mem: GraphMemory, user_id: str) -> None:
    """Session-level aggregation: of two turns that match the question equally little, the one from the
    episode the question is about (the session of its best match) ranks first."""
    trip = [
        "We drove to the coast for the kite festival last Saturday.",
        "Traffic on the motorway was terrible.",
        "We ate fish and chips by the harbour.",
        "My brother lost his sunglasses.",
        "The wind was strong all afternoon, just perfect.",
    ]
    _spoken(mem, user_id, [(None, t) for t in trip], session="s0")
    garden = ["I repainted the fence in the garden.", "The wind was strong all afternoon, quite cold."]
    _spoken(mem, user_id, [(None, t) for t in garden], session="s1", day=7)
    hits = mem.recall("How was the kite festival?", user_id=user_id, k=7, reinforce=False)
    order = [h.memory.content for h in hits]
    perfect = order.index("The wind was strong all afternoon, just perfect.")
    cold = order.index("The wind was strong all afternoon, quite cold.")
    assert perfect < cold
    assert hits[perfect].explanation.components["session"] > hits[cold].explanation.components["session"]


def test_the_pool_derives_memory_state_at_the_recalls_clock(mem: GraphMemory, user_id: str) -> None:
    """Retention and strength are derived when read (graphmem.model.anchors); the pool derives them at the
    recall's own clock, so a recall on a virtual clock (the dynamics simulation) sees the state it would."""
    from graphmem.retrieval import recall as use_case

    first = mem.remember("The spare key is under the blue flowerpot", user_id=user_id, priority="P3")
    assert first.created_at is not None
    mem.jobs.run("decay", user_id=user_id, now=first.created_at + timedelta(days=1))

    def state_at(days: int) -> float:
        req = use_case.RecallRequest(
            query="where is the spare key?",
            user_id=user_id,
            k=1,
            as_of=None,
            hops=1,
            views=None,
            reinforce=False,
        )
        ranked, _ = use_case.run_search(mem.runtime, req, first.created_at + timedelta(days=days))
        return ranked.hits[0].components["state"]

    assert state_at(200) < state_at(1)


def test_the_exact_scans_cosines_stand_in_for_the_projections(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tenant the exact scan scores whole gets every cosine from the scan (``scores``), none computed again
    in the pool's projection; a larger one gets them from the projection. Both give the same values, and
    the neighbourhood (reached through the graph, outside the top of the scan) has them too."""
    from graphmem.retrieval import search
    from graphmem.retrieval.recall import tenant_keys

    _conversation(mem, user_id)
    _spoken(mem, user_id, [(None, "We hiked up to the lake at dawn"), (None, "It was freezing but lovely")])
    rt = mem.runtime
    query = "what is my dog called?"
    preset = rt.settings.preset().model_copy(update={"pool_k": 2})

    def pool() -> dict[str, object]:
        req = search.SearchRequest(
            query=query,
            user_id=user_id,
            user_key=tenant_keys([user_id]),
            tenants=(user_id,),
            k=3,
            preset=preset,
            embedding=search.embed_queries(rt, [query], [user_id])[0],
        )
        return search.fetch_pool(rt, req)

    whole = pool()
    monkeypatch.setattr(search, "SCORED_ALL_MAX", 0)  # scan only the top pool_k: not every memory scored
    partial = pool()
    assert len(whole["scores"]) == 6 and partial["scores"] == []
    cosines = {
        name: {m["id"]: (m["cosine"], m["context_cosine"]) for m in row["memories"]}  # type: ignore[index,union-attr]
        for name, row in (("whole", whole), ("partial", partial))
    }
    assert len(cosines["whole"]) > 2  # the neighbourhood beyond the two seeds of the scan
    assert cosines["whole"].keys() == cosines["partial"].keys()
    for mid, (own, context) in cosines["partial"].items():
        assert own is not None
        assert cosines["whole"][mid][0] == pytest.approx(own, abs=1e-6)
        assert (cosines["whole"][mid][1] is None) == (context is None)
        if context is not None:
            assert cosines["whole"][mid][1] == pytest.approx(context, abs=1e-6)


def test_a_recall_on_a_virtual_clock_returns_retention_at_that_clock(mem: GraphMemory, user_id: str) -> None:
    """The hits' retention and strength are derived at the recall's own clock, as its pool's are (not at
    the server's): a simulation or replay on a virtual clock sees the memory as it is then."""
    from graphmem.model import anchors
    from graphmem.retrieval.recall import RecallRequest
    from graphmem.retrieval.recall import recall as recall_use_case

    memory = mem.remember("The plumber fixes the boiler on Friday", user_id=user_id)
    night = datetime.now(UTC) + timedelta(days=1)
    assert mem.jobs.run("decay", user_id=user_id, now=night).status == "success"  # stores the coefficients
    later = night + timedelta(days=60)
    hits = recall_use_case(
        mem.runtime, RecallRequest("when is the boiler fixed?", user_id, 3, None, 1, None, False), now=later
    )
    assert hits and hits[0].memory.id == memory.id
    props = mem.query("MATCH (m:Memory {id: $id}) RETURN properties(m) AS p", {"id": memory.id})[0]["p"]
    expected = anchors.retention_now(props, later)
    assert expected < anchors.retention_now(props, datetime.now(UTC)) - 0.05  # the clocks disagree
    assert hits[0].memory.retention == pytest.approx(expected, abs=1e-6)
    assert hits[0].memory.strength == pytest.approx(anchors.strength_now(props, later), abs=1e-6)
