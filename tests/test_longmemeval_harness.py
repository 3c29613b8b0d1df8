"""The LongMemEval-format harness (benchmarks/longmemeval.py) and the shared baselines: metrics on
hand-computed rankings, and the harness run on tests/data/longmemeval_sample.json against the real server."""

from __future__ import annotations

import math
import sys
import uuid
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest
from conftest import disposable

from graphmem import GraphMemory, OnnxEmbedder

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
import baselines
import longmemeval as lme
from locomo_lme import locomo_pool

SAMPLE = Path(__file__).parent / "data" / "longmemeval_sample.json"


# --- pure metrics --------------------------------------------------------------------------------------
def test_recall_any_and_all_on_a_known_ranking() -> None:
    ranking = ["a", "b", "c", "d"]
    gold = {"b", "d"}
    assert [lme.recall_any(ranking, gold, k) for k in (1, 2, 3, 4)] == [0.0, 1.0, 1.0, 1.0]
    assert [lme.recall_all(ranking, gold, k) for k in (1, 2, 3, 4)] == [0.0, 0.0, 0.0, 1.0]
    assert lme.recall_all(ranking, set(), 4) == 0.0
    assert lme.recall_any([], gold, 10) == 0.0


def test_ndcg_on_known_rankings() -> None:
    # hits at positions 2 and 4: DCG = 1/log2(2) + 1/log2(4) = 1.5; ideal (2 hits first) = 1 + 1 = 2
    assert lme.ndcg(["a", "b", "c", "d"], {"b", "d"}, 4) == pytest.approx(0.75)
    # at k=2 only the hit at position 2 counts: 1 / ideal 2
    assert lme.ndcg(["a", "b", "c", "d"], {"b", "d"}, 2) == pytest.approx(0.5)
    # three gold, hits at 1 and 3: (1 + 1/log2 3) / (1 + 1 + 1/log2 3)
    expected = (1 + 1 / math.log2(3)) / (2 + 1 / math.log2(3))
    assert lme.ndcg(["x", "y", "z"], {"x", "z", "w"}, 3) == pytest.approx(expected)
    assert lme.ndcg(["x", "z"], {"x", "z"}, 10) == pytest.approx(1.0)
    assert lme.ndcg(["x"], set(), 10) == 0.0
    assert lme.dcg([1.0, 0.0, 1.0]) == pytest.approx(1 + 1 / math.log2(3))


def test_sessions_are_ranked_by_their_first_turn_and_turn_recall_counts_evidence() -> None:
    session_of = {"m1": "s1", "m2": "s1", "m3": "s2", "m4": "s3"}
    ranking = ["m2", "m1", "unknown", "m3", "m4"]
    assert lme.session_ranking(ranking, session_of) == ["s1", "s2", "s3"]
    assert lme.turn_recall(ranking, {"m1", "m4"}, 2) == pytest.approx(0.5)
    assert lme.turn_recall(ranking, {"m1", "m4"}, 5) == pytest.approx(1.0)
    assert lme.turn_recall(ranking, set(), 5) == 0.0
    scored = lme.score_question(ranking, session_of, {"s2", "s3"}, {"m3"}, [1, 2, 3])
    assert scored["recall_any@1"] == 0.0 and scored["recall_any@2"] == 1.0
    assert scored["recall_all@2"] == 0.0 and scored["recall_all@3"] == 1.0
    assert scored["turn_recall@3"] == 0.0 and scored["turn_recall@2"] == 0.0
    assert "turn_recall@1" not in lme.score_question(ranking, session_of, {"s2"}, set(), [1])


def test_aggregate_averages_per_type_and_overall() -> None:
    table = lme.aggregate([("a", {"m": 1.0}), ("a", {"m": 0.0}), ("b", {"m": 1.0, "t": 0.5})])
    assert table["a"] == {"m": 0.5, "n": 2}
    assert table["b"] == {"m": 1.0, "t": 0.5, "n": 1}
    assert table["overall"]["m"] == pytest.approx(2 / 3) and table["overall"]["n"] == 3
    assert table["overall"]["t"] == 0.5  # only over the questions that have the metric
    assert list(table)[-1] == "overall"


def test_dates_parse_in_the_longmemeval_format() -> None:
    assert lme.parse_date("2023/05/20 (Sat) 02:21") == datetime(2023, 5, 20, 2, 21, tzinfo=UTC)


def test_baseline_helpers() -> None:
    vectors = np.array([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0], [1.0, 0.0]], dtype=np.float32)
    assert baselines.top_cosine(vectors, np.array([1.0, 0.1], dtype=np.float32), 3) == [0, 3, 1]
    assert baselines.top_cosine(np.zeros((0, 2), dtype=np.float32), np.ones(2), 3) == []
    assert baselines.ann_fetch(100, 10_000, 10, 2.0, 5_000) == 2_000  # k / share × overfetch
    assert baselines.ann_fetch(10, 1_000_000, 10, 2.0, 5_000) == 5_000  # capped
    assert baselines.ann_fetch(500, 600, 10, 2.0, 5_000) == 24
    assert baselines.item_text("hi", "Caroline", "user") == "Caroline: hi"
    assert baselines.item_text("hi", "user", "user") == "hi"


# --- the harness on the sample, real server -------------------------------------------------------------
def test_load_skips_abstention_questions() -> None:
    items, skipped = lme.load(SAMPLE)
    assert skipped == 1 and len(items) == 11
    assert not any(q["question_id"].endswith("_abs") for q in items)
    assert {q["question_type"] for q in items} >= {"multi-session", "knowledge-update", "temporal-reasoning"}


def test_questions_are_asked_as_of_their_date(mem: GraphMemory, embedder: OnnxEmbedder) -> None:
    items, _ = lme.load(SAMPLE)
    item = next(q for q in items if q["question_id"] == "k-upd-01")  # its last session is dated after it
    user = disposable(f"test-lme-{uuid.uuid4()}")
    try:
        hay = lme.ingest(mem, item, user)
        later = {m for m, s in hay.session_of.items() if s == "after_k-upd-01"}
        assert later and hay.sessions_after_question == 1  # stored, with a later transaction time
        assert hay.gold_sessions == {"answer_k-upd-01_1", "answer_k-upd-01_2"}
        assert len(hay.gold_turns) == 2  # the two has_answer turns
        methods = baselines.Methods(mem, baselines.CachingEmbedder(embedder), {})
        for name, ranker in methods.rankers().items():
            ranked = ranker(hay.query, 50)
            assert ranked, name
            assert not later & set(ranked), f"{name} saw a session dated after the question"
        # without as_of, the later session is visible: the filter is what hides it
        now = lme.Query(hay.query.qid, user, hay.query.text, None)
        assert later & set(methods.exact_cosine(now, 50))
    finally:
        mem.users.delete(user)


def test_the_wall_clock_ingests_through_add_messages_and_leaves_the_future_out(
    mem: GraphMemory, embedder: OnnxEmbedder
) -> None:
    items, _ = lme.load(SAMPLE)
    item = next(q for q in items if q["question_id"] == "k-upd-01")
    user = disposable(f"test-lme-{uuid.uuid4()}")
    try:
        hay = lme.ingest(mem, item, user, clock="wall")
        assert hay.query.as_of is None and hay.sessions_after_question == 1
        assert "after_k-upd-01" not in set(hay.session_of.values())
        assert hay.gold_sessions == {"answer_k-upd-01_1", "answer_k-upd-01_2"}
        audit = mem.query(
            "MATCH (a:AuditEvent {user_id: $u, action: 'add_messages'}) RETURN count(a) AS n", {"u": user}
        )
        assert audit[0]["n"] == 6  # the public path: one add_messages call per session up to the question
    finally:
        mem.users.delete(user)


def test_harness_runs_on_the_sample(mem: GraphMemory, embedder: OnnxEmbedder) -> None:
    items, _ = lme.load(SAMPLE)
    chosen = [q for q in items if q["question_id"] in {"s-user-01", "m-sess-01"}]  # ingestion dominates
    prefix = f"test-lme-{uuid.uuid4()}-"
    report = lme.run(mem, baselines.CachingEmbedder(embedder), chosen, ks=(1, 3), prefix=prefix)
    assert report["scored"] == 2 and report["unscorable_no_evidence_session"] == 0
    assert set(report["results"]) == {
        "bm25 (bm25s)",
        "fulltext (Neo4j)",
        "exact cosine (numpy)",
        "vector index only (ANN)",
        "hybrid (no graph)",
        "graphmem",
    }
    for name, table in report["results"].items():
        assert table["overall"]["n"] == 2, name
        assert set(table) == {"multi-session", "single-session-user", "overall"}, name
        for metrics in table.values():
            assert all(0.0 <= v <= 1.0 for key, v in metrics.items() if key != "n"), name
    # the evidence in this sample is easy to find by meaning: the exact cosine ceiling finds a gold session
    # in the top 3 for every question, and graphmem is not below it on turn recall
    cosine = report["results"]["exact cosine (numpy)"]["overall"]
    assert cosine["recall_any@3"] == 1.0
    assert report["results"]["graphmem"]["overall"]["turn_recall@3"] >= cosine["turn_recall@3"] - 0.25
    left = mem.query("MATCH (m:Memory) WHERE m.user_id STARTS WITH $p RETURN count(m) AS n", {"p": prefix})
    assert left[0]["n"] == 0  # tenants are deleted after the run


def test_a_peer_that_cannot_run_is_reported_not_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(baselines, "PEERS_DIR", tmp_path)
    missing = baselines.run_peer("ghost", {"k": 1, "tenants": [], "queries": []}, tmp_path / "work")
    assert missing.rankings is None and missing.status.startswith("not run: no ghost-requirements.txt")
    (tmp_path / ".venv-broken" / "bin").mkdir(parents=True)
    (tmp_path / ".venv-broken" / "bin" / "python").symlink_to(sys.executable)
    (tmp_path / "broken_run.py").write_text("raise SystemExit('the peer crashed')\n")
    broken = baselines.run_peer("broken", {"k": 1, "tenants": [], "queries": []}, tmp_path / "work")
    assert broken.rankings is None and broken.status.startswith("failed (exit 1)")
    assert "the peer crashed" in broken.status
    rankings = baselines.Rankings(by_method={"graphmem": {}})
    baselines.add_peer(rankings, broken, "broken (peer)")
    assert "broken (peer)" not in rankings.by_method
    assert rankings.notes["broken (peer)"] == broken.status


def test_locomo_conversations_pool_into_one_longmemeval_haystack() -> None:
    def sample(sid: str, day: int) -> dict[str, object]:
        turn = lambda d, who, text: {"speaker": who, "dia_id": d, "text": text}  # noqa: E731
        return {
            "sample_id": sid,
            "conversation": {
                "speaker_a": "Ann",
                "speaker_b": "Bo",
                "session_1_date_time": f"1:56 pm on {day} May, 2023",
                "session_1": [turn("D1:1", "Ann", "I moved to Leeds."), turn("D1:2", "Bo", "Nice!")],
                "session_2_date_time": f"9:00 am on {day + 1} May, 2023",
                "session_2": [turn("D2:1", "Ann", "Leeds is rainy.")],
            },
            "qa": [
                {"question": "Where does Ann live?", "evidence": ["D1:1"], "category": 4},
                {"question": "What about Leeds?", "evidence": ["D1:1", "D2:1"], "category": 1},
                {"question": "Unanswerable?", "evidence": [], "category": 5},
            ],
        }

    items = locomo_pool([sample("a", 1), sample("b", 10)])
    assert [i["question_type"] for i in items] == ["single-session single-hop", "multi-session"] * 2
    first = items[0]
    assert first["haystack_session_ids"] == ["a:s1", "a:s2", "b:s1", "b:s2"]  # pooled over conversations
    assert first["answer_session_ids"] == ["a:s1"]
    assert first["question_date"] == "2023/05/12 (Fri) 09:00"  # a day after the last session
    assert first["haystack_sessions"][0][0] == {
        "role": "user",
        "content": "Ann: I moved to Leeds.",
        "dia_id": "D1:1",
        "has_answer": True,
    }
    assert not first["haystack_sessions"][2][0].get("has_answer")  # another conversation's turn
    assert lme.parse_date(first["haystack_dates"][1]) == datetime(2023, 5, 2, 9, 0, tzinfo=UTC)
