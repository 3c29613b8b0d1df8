"""BM25 with the tenant's own statistics: the pure scorer against the formula, and on the real server a
tenant's full-text scores that do not move when another tenant stores the query's words."""

from __future__ import annotations

import math
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import disposable

from graphmem import GraphMemory, Settings
from graphmem.retrieval import bm25
from graphmem.retrieval.bm25 import rescore


def test_analyze_follows_the_english_analyzer() -> None:
    assert bm25.analyze("Caroline's paintings are in the gallery") == ["carolin", "paint", "galleri"]
    assert bm25.analyze("The and of") == []


def test_scores_are_bm25_with_the_given_statistics() -> None:
    texts = {"a": "painting by the lake", "b": "a lake", "c": "walking the dog every morning now"}
    out = bm25.scores({"painting": 1, "lake": 2}, 10, texts, ["a", "b", "c"])
    avg = (4 + 2 + 6) / 3

    def term(df: int, tf: int, words: int) -> float:
        idf = math.log(1 + (10 - df + 0.5) / (df + 0.5))
        return idf * tf * (bm25.K1 + 1) / (tf + bm25.K1 * (1 - bm25.B + bm25.B * words / avg))

    assert out["a"] == pytest.approx(term(1, 1, 4) + term(2, 1, 4))
    assert out["b"] == pytest.approx(term(2, 1, 2))
    assert out["c"] == 0.0
    # a rarer word weighs more: the same text, the other term's frequency raised
    assert (
        bm25.scores({"painting": 1}, 10, texts, ["a"])["a"]
        > bm25.scores({"painting": 5}, 10, texts, ["a"])["a"]
    )


def test_a_summary_found_by_a_source_is_scored_on_that_sources_text() -> None:
    row = {
        "frequencies": [["ticket", 1]],
        "documents": 20,
        "seeds": [
            {
                "id": "s",
                "found": [{"source": "fulltext", "score": 1.0, "via": "x", "via_text": "parking ticket"}],
            },
            {"id": "m", "found": [{"source": "fulltext", "score": 1.0, "via": None, "via_text": None}]},
        ],
    }
    long = "drove coast kite fish pier cliffs sunset traffic ice cream parking ticket forty euros"
    memories = {"s": {"text": long}, "m": {"text": long}}
    seeds = {"s": {"fulltext": 1.0}, "m": {"fulltext": 1.0}}
    rescore(row, memories, seeds)
    assert seeds["s"]["fulltext"] > seeds["m"]["fulltext"] > 0  # the short source text scores higher


@pytest.fixture()
def mem(server: Any, embedder: Any) -> Iterator[GraphMemory]:
    settings = Settings(automation_config_id=disposable(f"test-{uuid.uuid4()}"), record_recalls=False)
    with GraphMemory.connect(settings=settings, embedder=embedder) as memory:
        memory.init()
        yield memory


def test_a_tenants_full_text_scores_do_not_move_with_other_tenants(mem: GraphMemory, user_id: str) -> None:
    """Neo4j's index counts term statistics over every tenant; recall's BM25 counts them in the tenant, so
    another tenant storing the query's words many times changes nothing in this tenant's scores."""
    for text in [
        "I keep bees in the back garden",
        "The bees made twelve jars of honey this summer",
        "My sister sells honey at the market",
        "We repainted the garden shed blue",
    ]:
        mem.remember(text, user_id=user_id)
    question = "how much honey did the bees make?"

    def bm25_scores() -> dict[str, float]:
        hits = mem.recall(question, user_id=user_id, k=4, reinforce=False)
        return {h.memory.id: h.explanation.components["bm25"] for h in hits}

    before = bm25_scores()
    assert max(before.values()) > 0
    other = f"{user_id}-other"
    for i in range(40):
        mem.remember(f"honey and bees, note {i}", user_id=other)
    after = bm25_scores()
    assert after == pytest.approx(before)


class _Counts(dict[str, int]):
    COMMON = 100

    def put(self, key: str, value: int) -> None:
        self[key] = value


def test_only_common_terms_counts_are_kept_and_kept_counts_are_not_asked_again() -> None:
    counts = _Counts()
    asked = [["honey", "+user_key:u +(honey)"], ["bees", "+user_key:u +(bees)"]]
    ask, known = bm25.counted(asked, counts)
    assert (ask, known) == (asked, [])
    assert bm25.remember(ask, [["honey", 100], ["bees", 99]], counts) == [["honey", 100], ["bees", 99]]
    assert counts == {"+user_key:u +(honey)": 100}  # 99 is rare: cheap to count, counted each time
    ask, known = bm25.counted(asked, counts)
    assert ask == [["bees", "+user_key:u +(bees)"]] and known == [["honey", 100]]


def test_the_runtime_keeps_term_counts_for_their_time_to_live(monkeypatch: pytest.MonkeyPatch) -> None:
    from graphmem.store import runtime

    clock = [1000.0]
    monkeypatch.setattr(runtime.time, "monotonic", lambda: clock[0])
    counts = runtime.TermCounts(ttl=600.0)
    counts.put("q", 250)
    clock[0] += 599
    assert counts.get("q") == 250
    clock[0] += 2
    assert counts.get("q") is None
    small = runtime.TtlCache[int](ttl=60.0, limit=2)
    for key in "abc":
        small.put(key, 1)
    assert small.get("a") is None and small.get("b") == small.get("c") == 1  # the oldest written goes


def test_a_recall_counts_a_common_term_once_and_ranks_the_same(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Recall's BM25 reads each query term's document frequency in the tenant; a common term's count is kept
    by the client (``Runtime.term_counts``), so the next recall does not count it again on the server, and
    its BM25 scores are the same as when it was counted. (``COMMON`` lowered: a tenant of 100 memories
    holding one word would make the test slow.)"""
    monkeypatch.setattr(mem.runtime.term_counts, "COMMON", 3)
    for i in range(4):
        mem.remember(f"The bees made {i + 2} jars of honey", user_id=user_id)
    mem.remember("My sister keeps one hive of bees", user_id=user_id)
    sent: list[list[str]] = []
    read = mem.runtime.store.read

    def spy(name: str, /, **params: Any) -> list[dict[str, Any]]:
        if "recall_pool" in name:
            sent.append([term for term, _ in params["df_queries"]])
        return read(name, **params)

    monkeypatch.setattr(mem.runtime.store, "read", spy)
    question = "how many jars of honey did the hive make"

    def bm25_scores() -> dict[str, float]:
        hits = mem.recall(question, user_id=user_id, k=5, reinforce=False)
        return {h.memory.id: h.explanation.components["bm25"] for h in hits}

    first, second = bm25_scores(), bm25_scores()
    assert set(sent[0]) >= {"jars", "honey", "hive"}
    assert "honey" not in sent[1] and "jars" not in sent[1]  # four memories each: kept
    assert "hive" in sent[1]  # one memory: counted again
    assert max(first.values()) > 0 and second == pytest.approx(first)
