"""Context-dependent recall on the real server: ``recall(..., conversation=)`` lifts the memories whose
context key (previous turn with the memory) resembles the conversation the question comes from
(graphmem.model.heuristics.context_boost)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem import GraphMemory
from graphmem.errors import ValidationError
from graphmem.model.heuristics import context_boost

QUESTION = "which part did I like best?"
HIKE = ["We climbed the mountain trail to the summit at noon.", "The view from the summit was wonderful."]
BAKE = ["We baked sourdough bread at the cooking class.", "Kneading the dough took an hour."]


def _twins(mem: GraphMemory, user_id: str) -> tuple[str, str]:
    """Two sessions, each ending in a reply that says much the same about a different outing (not so alike
    that formation merges them)."""
    start = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
    ids = []
    for day, (session, (first, second), reply) in enumerate(
        [
            ("hike", HIKE, "That was the part I liked best."),
            ("bake", BAKE, "My favourite moment of the whole day, honestly."),
        ]
    ):
        made = mem.add_messages(
            [
                {"role": "user", "content": text, "timestamp": start + timedelta(days=day, minutes=i)}
                for i, text in enumerate([first, second, reply])
            ],
            user_id=user_id,
            session_id=session,
        )
        ids.append(made[-1].id)
    return ids[0], ids[1]


def _scores(mem: GraphMemory, user_id: str, conversation: list[str] | None) -> dict[str, tuple[float, float]]:
    hits = mem.recall(QUESTION, user_id=user_id, k=10, reinforce=False, conversation=conversation)
    return {h.memory.id: (h.score, h.explanation.components["context"]) for h in hits}


def test_a_matching_conversation_lifts_the_memory_from_that_context(mem: GraphMemory, user_id: str) -> None:
    hike, bake = _twins(mem, user_id)
    assert hike != bake
    plain = _scores(mem, user_id, None)
    assert hike in plain and bake in plain
    assert plain[hike][1] == plain[bake][1] == 1.0  # no conversation, no boost
    on_hike = _scores(mem, user_id, ["I want to go back to the mountains.", "The summit trail again?"])
    on_bake = _scores(mem, user_id, ["Shall we bake bread this weekend?", "Sourdough again, like the class."])
    # each conversation lifts its own outing's reply more than the other's
    assert on_hike[hike][1] > on_hike[bake][1] > 1.0
    assert on_bake[bake][1] > on_bake[hike][1] > 1.0
    assert on_hike[hike][0] / plain[hike][0] > on_hike[bake][0] / plain[bake][0]
    assert on_bake[bake][0] / plain[bake][0] > on_bake[hike][0] / plain[hike][0]
    assert max(f for _, f in on_hike.values()) <= context_boost(1.0)  # bounded: at most +10 %


def test_only_the_latest_two_turns_count(mem: GraphMemory, user_id: str) -> None:
    hike, bake = _twins(mem, user_id)
    two = _scores(mem, user_id, ["Shall we bake bread this weekend?", "Sourdough again, like the class."])
    older = _scores(
        mem,
        user_id,
        ["The summit trail again?", "Shall we bake bread this weekend?", "Sourdough again, like the class."],
    )
    assert older[bake][1] == pytest.approx(two[bake][1]) and older[hike][1] == pytest.approx(two[hike][1])


@pytest.mark.parametrize("bad", [42, [1, 2], ["ok", ""], {"turn": "x"}, [7, "an older turn", "the latest"]])
def test_a_malformed_conversation_is_a_validation_error(mem: GraphMemory, user_id: str, bad: object) -> None:
    with pytest.raises(ValidationError, match="conversation"):
        mem.recall(QUESTION, user_id=user_id, conversation=bad)  # type: ignore[arg-type]


def test_rest_recall_takes_the_conversation(mem: GraphMemory, user_id: str) -> None:
    from fastapi.testclient import TestClient

    from graphmem.adapters.rest import create_app

    hike, bake = _twins(mem, user_id)
    with TestClient(create_app(mem, "k"), headers={"X-API-Key": "k"}) as client:
        body = {"query": QUESTION, "reinforce": False, "explain": True, "conversation": HIKE}
        hits = client.post(f"/users/{user_id}/recall", json=body)
        assert hits.status_code == 200, hits.text
        factor = {h["memory"]["id"]: h["explanation"]["components"]["context"] for h in hits.json()}
        assert factor[hike] > factor[bake] > 1.0
        bad = client.post(f"/users/{user_id}/recall", json=body | {"conversation": [""]})
        assert bad.status_code == 422 and "conversation" in bad.text


def test_context_passes_the_conversation_to_its_recall(mem: GraphMemory, user_id: str) -> None:
    hike, bake = _twins(mem, user_id)

    def scores(conversation: list[str] | None) -> dict[str, float]:
        ctx = mem.context(QUESTION, user_id=user_id, reinforce=False, conversation=conversation)
        return {
            i.memory_id: i.score or 0.0 for i in ctx.items if i.kind in ("memory", "possible") and i.memory_id
        }

    plain, on_bake = scores(None), scores(BAKE)
    assert on_bake[bake] / plain[bake] > on_bake[hike] / plain[hike] > 1.0
