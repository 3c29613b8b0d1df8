"""BM25 with the tenant's own statistics: the pure scorer against the formula, and on the real server a
tenant's full-text scores that do not move when another tenant stores the query's words."""

from __future__ import annotations

import math
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

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
    settings = Settings(automation_config_id=f"test-{uuid.uuid4()}", record_recalls=False)
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
