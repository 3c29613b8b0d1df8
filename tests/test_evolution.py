"""Self-evolution: the pure rules of graphmem.model.adaptation, and per-user tuning on the real server
(versions with evidence, rollback, recall using the tuned weights, feedback adapting them)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import disposable
from fastapi.testclient import TestClient

from graphmem import GraphMemory, Settings, ValidationError
from graphmem.adapters.rest import create_app
from graphmem.config import BALANCED, RetrievalPreset
from graphmem.dynamics.evolution import tuned_preset
from graphmem.model import adaptation
from graphmem.model.adaptation import Judged
from tests.test_topics import tenant_snapshot


def test_grid_covers_the_bounds_with_the_defaults_inside() -> None:
    points = adaptation.grid()
    assert len(points) == 6 * 4 and set(points[0]) == set(adaptation.SEARCHED)
    defaults = {name: getattr(BALANCED, name) for name in adaptation.SEARCHED}
    assert defaults in points  # the preset's own setting is a candidate like any other
    for p in points:
        assert all(adaptation.TUNABLE[k][0] <= v <= adaptation.TUNABLE[k][1] for k, v in p.items())


def test_utility_is_ndcg_of_every_useful_memory_and_ignores_the_not_useful() -> None:
    both = Judged("q", frozenset({"a", "b"}), frozenset({"x"}))
    assert adaptation.utility(["a", "b", "x"], both) == pytest.approx(1.0)
    assert adaptation.utility(["b", "a"], both) == pytest.approx(1.0)  # order among the useful is free
    one_found = adaptation.utility(["a", "x", "c"], both)
    assert 0 < one_found < 1  # the second useful memory is missing: not a perfect ranking
    assert adaptation.utility(["x", "a", "b"], both) < adaptation.utility(["a", "b", "x"], both)
    assert adaptation.utility(["c"] * 10 + ["a", "b"], both) == 0.0  # below the top k counts nothing
    # a not-useful memory is the current setting's own top hit: pushing it down earns nothing by itself,
    # only what it does to the useful ones' places (a setting is not better for merely being different)
    assert adaptation.utility(["a", "c", "x"], both) == adaptation.utility(["a", "c", "y"], both)
    assert adaptation.utility(["a"], Judged("q", frozenset(), frozenset({"x"}))) == 0.0


def test_choose_needs_evidence_and_a_gain_and_prefers_the_smallest_change() -> None:
    cur = {"graph_weight": 0.5, "vector_weight": 0.5}
    key = tuple(sorted(cur.items()))
    near = (("graph_weight", 0.5), ("vector_weight", 0.65))
    far = (("graph_weight", 0.2), ("vector_weight", 0.8))
    n = adaptation.MIN_EVIDENCE + 1
    scores = {key: [0.40] * n, near: [0.50] * n, far: [0.505] * n}
    assert not adaptation.choose(cur, scores, adaptation.MIN_EVIDENCE - 1).changed
    assert not adaptation.choose(cur, {key: [0.40] * n, near: [0.41] * n}, n).changed
    pick = adaptation.choose(cur, scores, n)
    assert pick.changed and pick.params == dict(near)  # within MIN_GAIN/2 of the best, and closest
    # a large mean gain carried by one query while the others lose is an overfit: no change
    lopsided = {key: [0.5] * n, far: [0.5 + 0.5 * n] + [0.45] * (n - 1)}
    assert adaptation.choose(cur, lopsided, n).reason == "gain not consistent"
    assert adaptation.consistent([1, 1, 0], [0, 0, 1]) and not adaptation.consistent([2, 0], [0, 1])
    assert adaptation.clamp({"vector_weight": 2.0, "other": 1.0}) == {"vector_weight": 0.8}


@pytest.fixture()
def evo(server: Any, embedder: Any) -> Iterator[GraphMemory]:
    settings = Settings(automation_config_id=disposable(f"test-{uuid.uuid4()}"))
    with GraphMemory.connect(settings=settings, embedder=embedder) as memory:
        memory.init()
        yield memory


@pytest.mark.parametrize(
    ("params", "by"),
    [
        ([("vector_weight", 0.5)], "api"),  # AttributeError
        ({"vector_weight": 0.5}, "\ud800"),  # UnicodeEncodeError
        ({"vector_weight": 0.5}, 5),  # written, then a pydantic error building the answer
        ({"vector_weight": 0.5}, "a\x00b"),  # stored
        ({"speaker_boost": False}, "api"),  # read as 0.0
    ],
)
def test_set_refuses_odd_params_and_actors_and_writes_nothing(
    evo: GraphMemory, user_id: str, params: Any, by: Any
) -> None:
    ev = evo.automation.evolution
    with pytest.raises(ValidationError):
        ev.set(user_id, params, by=by)
    assert ev.history(user_id) == []


def test_versions_keep_evidence_rollback_restores_and_recall_uses_the_tuning(
    evo: GraphMemory, user_id: str
) -> None:
    ev = evo.automation.evolution
    assert ev.tuning(user_id).version == 0 and ev.tuning(user_id).params == {}
    with pytest.raises(ValidationError):
        ev.set(user_id, {"vector_weight": 0.95})
    with pytest.raises(ValidationError):
        ev.set(user_id, {"damping": 0.5})
    v1 = ev.set(user_id, {"vector_weight": 0.8}, reason="paraphrasing user")
    v2 = ev.set(user_id, {"vector_weight": 0.2, "graph_weight": 0.35})
    assert (v1.version, v2.version) == (1, 2)
    assert tuned_preset(evo.runtime, user_id, BALANCED).vector_weight == 0.2
    back = ev.rollback(user_id, to_version=1)
    assert back.version == 3 and back.params == {"vector_weight": 0.8}
    assert tuned_preset(evo.runtime, user_id, BALANCED).vector_weight == 0.8  # the cache was dropped
    history = ev.history(user_id)
    assert [t.version for t in history] == [1, 2, 3]
    assert history[0].evidence["reason"] == "paraphrasing user"
    assert history[2].evidence["previous"] == {"vector_weight": 0.2, "graph_weight": 0.35}
    assert ev.rollback(user_id, to_version=0).params == {}
    with pytest.raises(ValidationError):
        ev.rollback(user_id, to_version=99)
    other = f"u-{uuid.uuid4()}"
    assert ev.tuning(other).version == 0  # per user
    actions = [e.action for e in evo.temporal.audit_log(user_id=user_id)]
    assert actions.count("config_change") == 4
    evo.users.delete(user_id)
    assert ev.history(user_id) == []  # GDPR deletion takes the tuning along


PAIRS = [  # (question naming Anna, Anna's own answer, Ben's turns sharing the question's words)
    (
        "what does Anna cook on Sundays?",
        "Lentil soup, my grandmother's recipe, every week",
        ["Anna, I cook on Sundays too", "Do you cook for Anna on Sundays?"],
    ),
    (
        "which sport does Anna play?",
        "Volleyball twice a week at the club",
        ["Anna, I play no sport at all", "Which sport would Anna like me to play?"],
    ),
    (
        "where did Anna travel last summer?",
        "We spent July hiking around Lake Bled",
        ["Anna, I did not travel last summer", "Where should Anna and I travel next summer?"],
    ),
    (
        "what book is Anna reading?",
        "The Left Hand of Darkness, slowly, before bed",
        ["Anna, I stopped reading that book", "Which book is Anna reading to the kids?"],
    ),
    (
        "what instrument does Anna practise?",
        "The cello, an hour each evening",
        ["Anna, I never practise any instrument", "Does Anna practise the instrument at home?"],
    ),
    (
        "what pet does Anna want?",
        "A grey cat, once we have a garden",
        ["Anna, I want no pet", "Which pet would Anna want, a dog?"],
    ),
]


def conversation(evo: GraphMemory, user_id: str) -> dict[str, tuple[str, list[str]]]:
    """A user whose questions about Anna want Anna's own turns, while Ben's turns share the questions'
    words: question -> (the answer's id, the distractors' ids)."""
    ids: dict[str, tuple[str, list[str]]] = {}
    for i, (q, answer, distractors) in enumerate(PAIRS):
        turns = [{"role": "user", "name": "Anna", "content": answer}]
        turns += [{"role": "user", "name": "Ben", "content": d} for d in distractors]
        stored = evo.add_messages(turns, user_id=user_id, session_id=f"s{i}")
        ids[q] = (stored[0].id, [m.id for m in stored[1:]])
    return ids


def test_feedback_adapts_the_tuning_with_evidence(evo: GraphMemory, user_id: str) -> None:
    ids = conversation(evo, user_id)
    assert not evo.automation.evolution.adapt(user_id).changed  # no feedback yet
    q0, (_, distractors0) = next(iter(ids.items()))
    evo.memories.feedback(distractors0[0], user_id=user_id, useful=False, query=q0)
    # a query judged only "not useful" says nothing unbiased about where its answer belongs: no evidence
    assert evo.automation.evolution.adapt(user_id, dry_run=True).judged_queries == 0
    for q, (answer, distractors) in ids.items():
        evo.memories.feedback(answer, user_id=user_id, useful=True, query=q)
        for d in distractors:
            evo.memories.feedback(d, user_id=user_id, useful=False, query=q)
    dry = evo.automation.evolution.adapt(user_id, dry_run=True)
    assert dry.judged_queries == len(PAIRS) and evo.automation.evolution.tuning(user_id).version == 0
    step = evo.automation.evolution.adapt(user_id)
    assert step.changed, step
    assert step.utility_after >= step.utility_before + adaptation.MIN_GAIN
    assert step.tuning.version == 1
    assert set(step.tuning.params) == set(adaptation.TUNABLE)
    assert step.tuning.params["speaker_boost"] > BALANCED.speaker_boost  # Anna's own words, wanted
    assert step.tuning.params["vector_weight"] == BALANCED.vector_weight  # not searched: kept

    def mrr(preset: str | RetrievalPreset | None) -> float:
        total = 0.0
        for q, (answer, _) in ids.items():
            order = [
                h.memory.id for h in evo.recall(q, user_id=user_id, k=10, reinforce=False, preset=preset)
            ]
            total += 1 / (order.index(answer) + 1) if answer in order else 0.0
        return total / len(ids)

    # the tuned weights rank the answers better than the preset's, both by the memories' own words (the
    # feedback also made each question an asked key of its answer, which favours it under any weights)
    own_words = {"asked_keys": False}
    tuned = BALANCED.model_copy(update={**step.tuning.params, **own_words})
    assert mrr(tuned) > mrr(BALANCED.model_copy(update=own_words))

    # and the asked keys help on top: each judged question now also finds its answer by its own words, which
    # lifts every answer towards (or above) the best of Ben's turns; by rank alone that showed in one question
    # of six, a tie (round 29: a reply's context key moved one distractor past it)
    def margin(preset: RetrievalPreset | None) -> float:
        total = 0.0
        for q, (answer, distractors) in ids.items():
            hits = evo.recall(q, user_id=user_id, k=10, reinforce=False, preset=preset)
            score = {h.memory.id: h.score for h in hits}
            total += score.get(answer, 0.0) - max(score.get(d, 0.0) for d in distractors)
        return total / len(ids)

    assert margin(None) > margin(tuned) + 0.05
    assert len(step.tuning.evidence["feedback_ids"]) == 3 * len(PAIRS) + 1
    again = evo.automation.evolution.adapt(user_id)  # the same evidence: nothing left to gain
    assert not again.changed and again.tuning.version == 1


def test_adapt_job_runs_only_for_new_feedback_and_its_dry_run_writes_nothing(
    evo: GraphMemory, user_id: str
) -> None:
    ids = conversation(evo, user_id)
    none = evo.jobs.run("adapt", user_id=user_id)  # no feedback: nothing to adapt
    assert none.status == "success" and none.counts["users"] == 0 and none.counts["adapted"] == 0
    for q, (answer, distractors) in ids.items():
        evo.memories.feedback(answer, user_id=user_id, useful=True, query=q)
        for d in distractors:
            evo.memories.feedback(d, user_id=user_id, useful=False, query=q)
    before = tenant_snapshot(evo, user_id)
    dry = evo.jobs.run("adapt", user_id=user_id, dry_run=True)
    assert dry.status == "dry_run" and dry.counts["adapted"] == 1 and dry.counts["changed"] == 1, dry
    with TestClient(create_app(evo, "k"), headers={"X-API-Key": "k"}) as client:
        posted = client.post("/automation/jobs/adapt/run", params={"user_id": user_id, "dry_run": True})
    assert posted.status_code == 200 and posted.json()["counts"] == dry.counts, posted.text[:300]
    assert tenant_snapshot(evo, user_id) == before  # no tuning version, no mark, no run, no audit event
    assert evo.automation.evolution.tuning(user_id).version == 0
    assert evo.automation.runs(5, job="adapt", user_id=user_id) == [none]

    run = evo.jobs.run("adapt", user_id=user_id)
    assert run.counts["adapted"] == 1 and run.counts["changed"] == 1, run
    assert run.counts["judged_queries"] == len(PAIRS)
    assert evo.automation.evolution.tuning(user_id).version == 1
    quiet = evo.jobs.run("adapt", user_id=user_id)  # no feedback since: skipped, nothing read again
    assert quiet.counts == {**dict.fromkeys(run.counts, 0), "users": 1, "skipped": 1}, quiet.counts
    answer, _ = next(iter(ids.values()))
    evo.memories.feedback(answer, user_id=user_id, useful=True, query=PAIRS[0][0])
    again = evo.jobs.run("adapt", user_id=user_id)
    assert again.counts["adapted"] == 1 and again.counts["skipped"] == 0
    assert evo.automation.evolution.tuning(user_id).version >= 1
