"""Pure parts of the read path: fusion, PageRank, diversification, confidence, intent, planning, preload
rank."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.config import RetrievalPreset
from graphmem.errors import ValidationError
from graphmem.model.intent import Intent, View, detect_intent, resolve_views
from graphmem.model.scoring import (
    answer_confidence,
    diversify,
    linear_fusion,
    memory_state,
    personalized_pagerank,
    proactive_score,
    reinforced_strength,
    rrf,
    suppressed_strength,
)
from graphmem.retrieval.plan import VectorPlan, plan_vector_search
from graphmem.retrieval.terms import lucene_query, query_terms


def test_rrf_matches_its_definition() -> None:
    scores = rrf({"vector": ["a", "b", "c"], "fulltext": ["c", "a"]}, k=60)
    assert scores["a"] == pytest.approx(1 / 61 + 1 / 62)
    assert scores["b"] == pytest.approx(1 / 62)
    assert scores["c"] == pytest.approx(1 / 63 + 1 / 61)


def test_linear_fusion_normalises_both_sources() -> None:
    fused = linear_fusion({"a": 0.9, "b": 0.7, "c": 0.5}, {"c": 8.0, "b": 2.0}, vector_weight=0.5)
    assert fused["a"] == pytest.approx(0.5)  # best cosine, no BM25 hit
    assert fused["b"] == pytest.approx(0.5 * 0.5 + 0.5 * 0.25)
    assert fused["c"] == pytest.approx(0.5)  # worst cosine, best BM25


def test_pagerank_is_a_distribution_that_flows_to_neighbours() -> None:
    # 0 - 1 - 2, 3 isolated; restart only on 0
    scores = personalized_pagerank(4, [(0, 1, 1.0), (1, 2, 1.0)], [1.0, 0, 0, 0], damping=0.5)
    assert sum(scores) == pytest.approx(1.0)
    assert scores[0] > scores[1] > scores[2] > 0
    assert scores[3] == 0.0


@given(
    st.lists(
        st.tuples(
            st.integers(0, 5), st.integers(0, 5), st.floats(0.01, 2.0) | st.sampled_from([0.0, math.nan])
        ),
        max_size=15,
    ),
    st.lists(st.floats(0, 1), min_size=6, max_size=6),
)
def test_pagerank_stays_a_distribution(edges: list[tuple[int, int, float]], restart: list[float]) -> None:
    scores = personalized_pagerank(6, edges, restart, damping=0.5)
    assert sum(scores) == pytest.approx(1.0)
    assert all(s >= -1e-12 for s in scores)


def test_diversify_discounts_a_session_already_taken() -> None:
    pool = [("a1", 1.0, "A"), ("a2", 0.9, "A"), ("a3", 0.85, "A"), ("b1", 0.6, "B"), ("c1", 0.5, None)]
    assert diversify(pool, 3, 0.0) == ["a1", "a2", "a3"]
    assert diversify(pool, 3, 0.5) == ["a1", "b1", "c1"]  # a2: 0.9 × 0.5 = 0.45 < 0.6, 0.5
    assert diversify(pool, 5, 0.3) == ["a1", "a2", "b1", "c1", "a3"]


def test_confidence_rises_with_standout_and_word_coverage() -> None:
    assert answer_confidence(2.0, 0.5) == pytest.approx(0.5)
    assert answer_confidence(4.0, 1.0) > 0.95
    assert answer_confidence(0.5, 0.0) < 0.05
    assert answer_confidence(3.0, 0.5) > answer_confidence(2.0, 0.5)
    assert answer_confidence(2.0, 0.75) > answer_confidence(2.0, 0.5)


def test_memory_state_is_in_unit_interval() -> None:
    assert memory_state(1.0, 4.0, 1.0, 1.0) == pytest.approx(1.0)
    assert memory_state(0.0, 0.0, 0.0, 0.0) == 0.0
    assert 0 < memory_state(0.5, 1.0, 0.5, 1.0) < 1


@given(st.floats(min_value=0, max_value=4), st.integers(min_value=0, max_value=1000))
def test_reinforcement_grows_on_a_log_scale_and_stays_bounded(strength: float, count: int) -> None:
    after = reinforced_strength(strength, count)
    assert strength <= after <= 4.0
    assert after - strength <= 0.5 * math.log(2 + count) / (1 + count) + 1e-12


def test_suppression_loses_a_little_and_keeps_a_floor() -> None:
    assert suppressed_strength(2.0) == pytest.approx(1.9)
    assert suppressed_strength(0.1) == pytest.approx(0.1)


def test_proactive_score_closed_form() -> None:
    assert proactive_score(1.0, 0.0, 10) == pytest.approx(1.0)
    assert proactive_score(0.5, 30.0, 0) == pytest.approx(0.2 + 0.3 * math.exp(-1) + 0.1)


@pytest.mark.parametrize(
    ("query", "intent"),
    [
        ("Why did Rex go to the vet?", Intent.CAUSAL),
        ("What happened because of the storm?", Intent.CAUSAL),
        ("When did I adopt Rex?", Intent.TEMPORAL),
        ("How long ago did I move?", Intent.TEMPORAL),
        ("Who looks after the dog?", Intent.ENTITY),
        ("What does Emma like?", Intent.ENTITY),
        ("what food do I like?", Intent.SEMANTIC),
    ],
)
def test_intent_detection(query: str, intent: Intent) -> None:
    decision = detect_intent(query)
    assert decision.intent is intent
    top = max(decision.views.values())
    dominant = {Intent.CAUSAL: View.CAUSAL, Intent.TEMPORAL: View.TEMPORAL, Intent.ENTITY: View.ENTITY}
    if intent in dominant:
        assert decision.views[dominant[intent]] == top


def test_views_override_and_unknown_views() -> None:
    assert resolve_views("why?", {"temporal": 1.0}).views == {View.TEMPORAL: 1.0}
    with pytest.raises(ValidationError):
        resolve_views("why?", {"gossip": 1.0})
    with pytest.raises(ValidationError):
        resolve_views("why?", {"temporal": 3})


def test_planner_scans_small_tenants_and_overfetches_for_large_ones() -> None:
    preset = RetrievalPreset(exact_scan_max=1000, overfetch=2.0)
    assert plan_vector_search(500, 1_000_000, 10, preset).method == "exact"
    plan = plan_vector_search(100_000, 1_000_000, 10, preset)
    assert plan.method == "index" and plan.fetch == 200


def test_planner_takes_the_cheaper_plan_by_its_measured_costs() -> None:
    balanced = RetrievalPreset()
    # a LoCoMo-sized tenant, a fifth of the store: scanning ~700 memories beats two ANN fetches of ~800
    assert plan_vector_search(680, 2_759, 100, balanced).method == "exact"
    # a tenth of 100,000: two fetches of 2,000 cost far less than scanning 10,000 memories
    assert plan_vector_search(10_000, 100_000, 100, balanced) == VectorPlan("index", 2_000)
    # the same tenant asked about the past is scanned: the index filters by time after its fetch
    assert plan_vector_search(10_000, 100_000, 100, balanced, time_scoped=True).method == "exact"
    # above exact_scan_max a tenant is never scanned while the fetch stays within max_fetch ...
    capped = RetrievalPreset(exact_scan_max=100)
    assert plan_vector_search(680, 2_759, 100, capped).method == "index"
    # ... and when the fetch would exceed it, scanning is the cheaper of two bad plans
    assert plan_vector_search(60_000, 10_000_000, 100, balanced).method == "exact"


def test_planner_asks_a_filtering_index_for_the_tenants_own_nearest_at_any_share() -> None:
    balanced = RetrievalPreset()
    # a 100k tenant among 1M, and one among 10M (where over-fetching would exceed max_fetch and scan):
    # the filtering index is asked for overfetch x k of the tenant's own memories either way
    assert plan_vector_search(100_000, 1_000_000, 100, balanced, filtered=True) == VectorPlan("filtered", 200)
    assert plan_vector_search(60_000, 10_000_000, 100, balanced, filtered=True) == VectorPlan("filtered", 200)
    # small tenants are still scanned (cheaper than two index queries and the projection's cosines), and so
    # are audits within the cap; from about 550 memories the filtering index is the cheaper
    assert plan_vector_search(400, 1_000_000, 100, balanced, filtered=True).method == "exact"
    assert plan_vector_search(680, 1_000_000, 100, balanced, filtered=True) == VectorPlan("filtered", 200)
    assert plan_vector_search(1_000, 1_000_000, 100, balanced, filtered=True) == VectorPlan("filtered", 200)
    # ... asked once per readable tenant: a user reading four scopes makes eight index queries
    assert plan_vector_search(680, 1_000_000, 100, balanced, filtered=True, tenants=4).method == "exact"
    assert (
        plan_vector_search(10_000, 100_000, 100, balanced, time_scoped=True, filtered=True).method == "exact"
    )
    # the same tenant without the filter over-fetches by its share
    assert plan_vector_search(10_000, 100_000, 100, balanced) == VectorPlan("index", 2_000)
    # indexes that also filter by both times take an audit like a present read
    assert plan_vector_search(
        10_000, 100_000, 100, balanced, time_scoped=True, filtered=True, filters_time=True
    ) == VectorPlan("filtered", 200)
    assert (
        plan_vector_search(400, 100_000, 100, balanced, time_scoped=True, filtered=True, filters_time=True)
    ).method == "exact"  # a small tenant is still cheaper to scan
    # an index that is missing or still populating is never asked: Neo4j would block the query, then fail it
    offline = {"filtered": True, "filters_time": True, "online": False}
    assert plan_vector_search(100_000, 1_000_000, 100, balanced, **offline) == VectorPlan("exact", 0)
    assert plan_vector_search(100_000, 1_000_000, 100, balanced, online=False) == VectorPlan("exact", 0)


def test_query_terms_and_lucene_escaping() -> None:
    assert query_terms("What is the name of my dog, Rex?") == ["name", "dog", "rex"]
    assert lucene_query(["c++", "a:b"], "u1") == r"+user_key:u1 +(c\+\+ a\:b)"
    own = lucene_query(["dog"], "u1", asked=False)  # the asked keys off: the memory's own words only
    assert own == "+user_key:u1 +(content:(dog) speaker:(dog) search_text:(dog))"


def test_vector_query_drops_speakers_names_only() -> None:
    from graphmem.retrieval.terms import vector_query

    speakers = {"caroline", "melanie"}
    assert vector_query("What is Caroline's identity?", speakers) == "What is identity?"
    assert vector_query("When did Melanie and Caroline meet?", speakers) == "When did and meet?"
    assert vector_query("What did Oscar eat?", speakers) == "What did Oscar eat?"
    assert vector_query("Caroline?", speakers) == "Caroline?"  # nothing but a name: kept as it is
    assert vector_query("What did caroline say?", set()) == "What did caroline say?"


@pytest.mark.parametrize(
    ("content", "asks"),
    [
        ("What inspired it?", True),
        ("Wow, Caroline! What did you paint?", True),
        ("Thanks, Mel!", False),
        ("I painted a sunset. Do you like it?", False),
        ("Researching adoption agencies.", False),
        ("", False),
    ],
)
def test_asks_only(content: str, asks: bool) -> None:
    from graphmem.model.scoring import asks_only

    assert asks_only(content) is asks


def test_a_summarys_details_are_the_sources_it_was_found_by_the_stronger_first() -> None:
    """recall_pool names, per channel, the replaced source that gave a summary its score (``via``) and every
    source the channel found (``vias``); the details list each once, the channel with the larger share of
    the fused score first, then the sources that rank among the channel's k best on their own, best first."""
    from graphmem.retrieval.signals import summary_details

    row = {
        "seeds": [
            {
                "id": "s",
                "found": [
                    {"source": "vector", "score": 0.8, "via": "a", "vias": [["a", 0.8], ["e", 0.1]]},
                    {"source": "fulltext", "score": 9.0, "via": "b", "vias": [["b", 9.0]]},
                ],
            },
            {
                "id": "t",
                "found": [
                    {"source": "vector", "score": 0.9, "via": "c", "vias": [["c", 0.9]]},
                    {"source": "fulltext", "score": 2.0, "via": "c", "vias": [["c", 2.0]]},
                ],
            },
            {"id": "m", "found": [{"source": "vector", "score": 0.7, "via": None, "vias": []}]},
        ]
    }
    cosine, bm25 = {"s": 0.6, "t": 0.9, "m": 0.3}, {"s": 9.0, "t": 2.0}
    details = summary_details(row, cosine, bm25, vector_weight=0.5, k=10)
    assert details["s"] == ("b", "a")  # words gave s the larger share: 0.5 · 9/9 against 0.5 · 0.5
    assert details["t"] == ("c",)  # one source by both channels, once
    assert "m" not in details  # found by its own key: no details
    assert summary_details(row, cosine, bm25, 0.95, k=10)["s"] == ("a", "b")  # meaning weighs more
    # e is among the vector channel's 4 best (0.9 c, 0.8 a, 0.7 m, 0.1 e) but below its median: no match
    assert summary_details(row, cosine, bm25, 0.95, k=4)["s"] == ("a", "b")


def test_a_summary_shows_every_source_among_the_channels_best_up_to_the_cap() -> None:
    """A summary whose sources several rank among the channel's k best shows them best first, at most
    DETAILS_MAX; the source that gave it its score is shown even when k is smaller."""
    from graphmem.retrieval.signals import DETAILS_MAX, summary_details

    vias = [["a", 0.9], ["b", 0.85], ["c", 0.8], ["d", 0.75], ["z", 0.2]]
    row = {
        "seeds": [
            {"id": "s", "found": [{"source": "vector", "score": 0.9, "via": "a", "vias": vias}]},
            *({"id": f"m{i}", "found": [{"source": "vector", "score": 0.5 - i / 100, "via": None}]}
              for i in range(10)),
        ]
    }  # fmt: skip
    cosine = {"s": 0.9} | {f"m{i}": 0.5 - i / 100 for i in range(10)}
    assert DETAILS_MAX == 3
    assert summary_details(row, cosine, {}, 0.5, k=10)["s"] == ("a", "b", "c")  # d is 4th: over the cap
    assert summary_details(row, cosine, {}, 0.5, k=2)["s"] == ("a", "b")
    assert summary_details(row, cosine, {}, 0.5, k=1)["s"] == ("a",)  # via: shown whatever k
    assert "z" not in summary_details(row, cosine, {}, 0.5, k=100)["s"]  # 0.2: under the median (0.47)
    row["seeds"][0]["found"][0]["vias"] = [["z", 0.2], ["a", 0.9]]  # any order: best first
    assert summary_details(row, cosine, {}, 0.5, k=100)["s"] == ("a",)


class _Logits:
    """A stand-in cross-encoder: fixed logits per passage."""

    def __init__(self, logits: dict[str, float]) -> None:
        self.logits = logits

    def score(self, query: str, passages: list[str]) -> list[float]:
        return [self.logits[p] for p in passages]


def test_the_cross_encoder_blend_carries_the_engines_factors(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cross-encoder judges meaning only: a statement the engine knows to be outdated (currency 0.5)
    keeps that factor when the cross-encoder reads it as the best match, so the current statement (backed,
    2) stays first; with every factor 1 the blend is the measured 50/50 of the two relevances."""
    from graphmem.retrieval import rerank as rr

    texts = {
        "now": "Settled into my flat in Ancoats",
        "then": "I live in Leeds",
        "else": "Rex loves the park",
    }
    monkeypatch.setattr(
        rr, "cross_encoder", lambda: _Logits({texts["then"]: 3.0, texts["else"]: 1.0, texts["now"]: 0.0})
    )
    memories = {m: {"text": t} for m, t in texts.items()}
    relevance = {"now": 1.0, "then": 0.9, "else": 0.2}
    factors = {"now": 2.0, "then": 0.5, "else": 1.0}

    def ranked(factors: dict[str, float]) -> list[str]:
        parts = {m: {"relevance": r} for m, r in relevance.items()}
        scores = {m: factors[m] * r for m, r in relevance.items()}
        out = rr.rerank("Where do I live now?", 3, memories, scores, parts, factors)
        assert parts["then"]["rerank"] == 1.0 and parts["now"]["rerank"] == 0.0  # min-max logits, shown
        return sorted(out, key=lambda m: -out[m])

    assert ranked(factors) == ["now", "then", "else"]
    # blended 50/50 without factors: then 0.5 + 0.5 * 0.875, now 0.5 * 1.0, else 0.5 / 3
    assert ranked({m: 1.0 for m in texts}) == ["then", "now", "else"]


def test_the_cross_encoder_leaves_the_rest_below_in_their_order(monkeypatch: pytest.MonkeyPatch) -> None:
    from graphmem.retrieval import rerank as rr

    monkeypatch.setattr(rr, "cross_encoder", lambda: _Logits({"a": 0.0, "b": 5.0, "c": 1.0}))
    memories = {m: {"text": m} for m in "abcde"}
    scores = {"a": 0.9, "b": 0.7, "c": 0.5, "d": 0.3, "e": 0.1}
    parts = {m: {"relevance": s} for m, s in scores.items()}
    out = rr.rerank("q", 3, memories, scores, parts, {m: 1.0 for m in scores})
    assert sorted(out, key=lambda m: -out[m]) == ["b", "a", "c", "d", "e"]
    assert min(out[m] for m in "abc") > out["d"] and (out["d"], out["e"]) == (0.3, 0.1)
