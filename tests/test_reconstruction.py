"""Reconstruction: the pure "cannot stand alone" rule and reading, and recall(..., reconstruct=True) on the
real server (neighbours read, lower confidence, recorded, stored memory never rewritten)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from conftest import spoken

from graphmem import GraphMemory
from graphmem.model.reconstruction import CONFIDENCE_FACTOR, reading, stands_alone


@pytest.mark.parametrize(
    "text",
    [
        "Yes, it was amazing!",
        "Thanks, that means a lot.",
        "That sounds lovely!",
        "Last Tuesday.",
        "It was so much fun with the kids at the lake",
        "They were really kind to us",
        "Wow",
        "(shared an image)",
    ],
)
def test_replies_and_references_cannot_stand_alone(text: str) -> None:
    assert not stands_alone(text)


@pytest.mark.parametrize(
    "text",
    [
        "I adopted a beagle called Rex from the shelter last month",
        "My sister Emma lives in Lisbon",
        "We went camping at the lake with Mel and the kids",  # names what "we" did
        "It took me three years to finish the pottery course at the community college downtown",
        "",
        "42",
    ],
)
def test_statements_that_name_their_subject_stand_alone(text: str) -> None:
    assert stands_alone(text)


def test_reading_puts_the_original_first_and_names_its_sources() -> None:
    text = reading(
        "Yes, it was amazing!",
        speaker="Mel",
        previous=("Caroline", "Did you enjoy the Pride parade? "),
        entities=["Pride parade", "Pride parade", "Caroline"],
        facts=[("Mel/city", "Boston")],
    )
    assert text == (
        'Mel: Yes, it was amazing! (in reply to Caroline: "Did you enjoy the Pride parade?"; '
        "about: Pride parade, Caroline; now: Mel/city = Boston)"
    )
    assert reading("Yes!") == "Yes!"


def test_recall_reconstructs_on_request_records_it_and_never_rewrites(mem: GraphMemory, user_id: str) -> None:
    start = datetime(2026, 5, 2, 18, 0, tzinfo=UTC)
    turns = [
        ("Caroline", "Did you enjoy the pottery workshop in Portland on Saturday?"),
        ("Melanie", "Yes, it was amazing! I made a bowl."),
        ("Caroline", "I am starting a new job at the library next week"),
    ]
    made = spoken(mem, user_id, turns, start=start)
    reply = made[1]
    plain = mem.recall("how was the pottery workshop?", user_id=user_id, k=3, reinforce=False)
    assert all(h.reconstruction is None for h in plain)  # opt-in
    hits = mem.recall(
        "how was the pottery workshop?", user_id=user_id, k=3, reinforce=False, reconstruct=True
    )
    by_id = {h.memory.id: h for h in hits}
    assert reply.id in by_id
    rec = by_id[reply.id].reconstruction
    assert rec is not None
    assert rec.text.startswith("Melanie: Yes, it was amazing!")
    assert "pottery workshop in Portland" in rec.text
    assert rec.sources == [reply.id, made[0].id]
    assert rec.confidence == pytest.approx(by_id[reply.id].confidence * CONFIDENCE_FACTOR)
    assert by_id[reply.id].memory.content == "Yes, it was amazing! I made a bowl."
    for mid, h in by_id.items():  # memories that stand alone are returned as they are
        if mid != reply.id:
            assert h.reconstruction is None
    stored = mem.query(
        "MATCH (x:Reconstruction)-[:RECONSTRUCTS]->(m:Memory {id: $id}) RETURN x.text AS text, x.query AS q, "
        "m.content AS content, m.version AS version",
        {"id": reply.id},
    )
    assert len(stored) == 1 and stored[0]["text"] == rec.text and stored[0]["q"].startswith("how was")
    assert (stored[0]["content"], stored[0]["version"]) == ("Yes, it was amazing! I made a bowl.", 1)


def test_a_recall_in_a_session_reconstructs_the_users_memories_and_delete_removes_the_record(
    mem: GraphMemory, user_id: str
) -> None:
    """With a session named, the recall reads the session's and the user's tenants and files its records
    under the session's key: the user's own memories are reconstructed all the same (they were not: the
    neighbours were read in the session's tenant only), and deleting the user removes the record."""
    start = datetime(2026, 5, 2, 18, 0, tzinfo=UTC)
    turns = [
        ("Caroline", "Did you enjoy the pottery workshop in Portland?"),
        ("Melanie", "Yes, it was amazing!"),
    ]
    made = spoken(mem, user_id, turns, start=start)
    hits = mem.recall(
        "how was the pottery workshop?",
        user_id=user_id,
        session_id="chat-1",
        reinforce=False,
        reconstruct=True,
    )
    rec = {h.memory.id: h.reconstruction for h in hits}.get(made[1].id)
    assert rec is not None and "pottery workshop in Portland" in rec.text
    count = "MATCH (x:Reconstruction)-[:RECONSTRUCTS]->(:Memory {id: $id}) RETURN count(x) AS n"
    assert mem.query(count, {"id": made[1].id})[0]["n"] == 1
    # the export keeps the record's edge, from the session's key to the user's memory (an edge between
    # two tenant keys of one user, which the export's check of the other end's tenant let through)
    exported = json.dumps(mem.users.export(user_id), default=str)
    assert '"type": "RECONSTRUCTS", "dst": "' + made[1].id + '"' in exported
    mem.users.delete(user_id)
    assert mem.query("MATCH (x:Reconstruction {id: $id}) RETURN count(x) AS n", {"id": rec.id})[0]["n"] == 0


def test_a_reconstruction_reads_the_facts_that_hold_now_not_a_plan(mem: GraphMemory, user_id: str) -> None:
    """The facts a reading gives as "now" are those valid now, as facts.get reads them: a move planned for
    next month is not where the user lives now (docs/temporal.md, Plans)."""
    now = datetime.now(UTC)
    turns = ["I'm moving to Manchester next month.", "Yes, that one."]
    made = mem.add_messages(
        [
            {"role": "user", "content": said, "timestamp": now - timedelta(minutes=3 - i)}
            for i, said in enumerate(turns)
        ],
        user_id=user_id,
        session_id="s1",
    )
    hits = mem.recall("where am I moving?", user_id=user_id, k=2, reinforce=False, reconstruct=True)
    rec = next(h.reconstruction for h in hits if h.memory.id == made[1].id)
    assert rec is not None and "Manchester next month" in rec.text
    assert "now: location = Manchester" not in rec.text, rec.text
