"""Asked keys: feedback that marks a memory useful for a question makes that question a full-text key of the
memory (graphmem.model.keys.asked_key); the rule pure, then through the public API on the real server."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest

from graphmem import GraphMemory
from graphmem.config import BALANCED
from graphmem.model.keys import ASKED_CHARS, ASKED_MAX, asked_key

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)

RUNNING = "I've been running farther lately, it's been great for my headspace."
OTHERS = [
    "We adopted a puppy named Rex last spring.",
    "My sister moved to Lisbon for a new job.",
    "I started reading a novel about lighthouses.",
    "The bakery on the corner closed down last week.",
    "Our team shipped the new release on Friday.",
    "The train to Leeds was late again this morning.",
    "I repainted the kitchen a pale green.",
    "My grandmother turns ninety in June.",
    "We switched our phone plan to a cheaper one.",
    "The neighbours' cat keeps visiting our garden.",
]  # eleven memories: with five, min-max fusion gave the one the question matched by its asked key alone the
# pool's lowest cosine a vector score of 0 and the graph decided the order (round 29: 4th of 5)
OWN_WORDS_OFF = BALANCED.model_copy(update={"asked_keys": False})


def test_asked_key_adds_once_newest_last_and_keeps_the_newest() -> None:
    key = asked_key(None, "How does Sam unwind?", True)
    assert key == "How does Sam unwind?"
    key = asked_key(key, "What helps Sam relax?", True)
    key = asked_key(key, "How does  Sam\nunwind?", True)  # the same question again, spaced otherwise
    assert key == "What helps Sam relax?\nHow does Sam unwind?"
    for n in range(ASKED_MAX + 3):
        key = asked_key(key, f"question {n}?", True)
    assert key is not None
    kept = key.split("\n")
    assert len(kept) == ASKED_MAX and kept[-1] == f"question {ASKED_MAX + 2}?" and "question 2?" not in kept


def test_asked_key_removes_on_not_useful_and_bounds_a_question() -> None:
    key = asked_key("How does Sam unwind?\nWhat helps Sam relax?", "What helps  Sam relax?", False)
    assert key == "How does Sam unwind?"
    assert asked_key(key, "How does Sam unwind?", False) is None
    assert asked_key("kept", None, True) == "kept"  # no question: unchanged
    assert asked_key(42, "Why?", True) == "Why?"  # a stored value that is not text counts as empty
    assert asked_key(None, "   ", True) is None
    long = asked_key(None, "word " * 400, True)
    assert long is not None and len(long) <= ASKED_CHARS and not long.endswith(" ")


def seed(mem: GraphMemory, user_id: str) -> str:
    memories = mem.add_messages(
        [
            {"role": "user", "content": text, "timestamp": T0 + timedelta(days=i)}
            for i, text in enumerate([RUNNING, *OTHERS])
        ],
        user_id=user_id,
        session_id="s1",
    )
    return next(m.id for m in memories if m.content == RUNNING)


def asked(mem: GraphMemory, memory_id: str) -> object:
    rows = mem.runtime.store.run_readonly(
        "MATCH (m:Memory {id: $id}) RETURN m.asked AS asked", {"id": memory_id}
    )
    return rows[0]["asked"]


def bm25_of(mem: GraphMemory, user_id: str, query: str, memory_id: str, **kwargs: object) -> float:
    hits = mem.recall(query, user_id=user_id, k=5, reinforce=False, **kwargs)  # type: ignore[arg-type]
    return next((h.explanation.components.get("bm25", 0.0) for h in hits if h.memory.id == memory_id), 0.0)


def test_a_question_marked_useful_finds_the_memory_by_its_words(mem: GraphMemory, user_id: str) -> None:
    running = seed(mem, user_id)
    later = "How do I destress after work?"  # "destress" is in no memory's own words
    assert bm25_of(mem, user_id, later, running) == 0.0
    mem.memories.feedback(running, user_id=user_id, useful=True, query="What do I do to destress?")
    assert asked(mem, running) == "What do I do to destress?"
    assert bm25_of(mem, user_id, later, running) > 0.0
    hits = mem.recall(later, user_id=user_id, k=3, reinforce=False)
    assert hits[0].memory.id == running
    # the switch: the same store matched by the memories' own words only
    assert bm25_of(mem, user_id, later, running, preset=OWN_WORDS_OFF) == 0.0
    # not useful for that question: the key loses it, and full text no longer finds the memory by it
    mem.memories.feedback(running, user_id=user_id, useful=False, query="What do I do to destress?")
    assert asked(mem, running) is None
    assert bm25_of(mem, user_id, later, running) == 0.0


def test_an_audit_read_matches_own_words_only(mem: GraphMemory, user_id: str) -> None:
    """``known_at`` asks what the engine knew then; the asked key holds what feedback taught up to now (it
    keeps no date per question), so a ``known_at`` read matches the memories' own words only, while an
    ``as_of`` read (valid time, known now) keeps the keys."""
    running = seed(mem, user_id)
    before = datetime.now(UTC)
    mem.memories.feedback(running, user_id=user_id, useful=True, query="What do I do to destress?")
    later = "How do I destress after work?"
    assert bm25_of(mem, user_id, later, running) > 0.0
    assert bm25_of(mem, user_id, later, running, known_at=before) == 0.0
    assert bm25_of(mem, user_id, later, running, known_at=datetime.now(UTC)) == 0.0
    assert bm25_of(mem, user_id, later, running, as_of=T0 + timedelta(days=30)) > 0.0


def test_feedback_without_a_query_learns_the_latest_recall_that_returned_it(
    mem: GraphMemory, user_id: str
) -> None:
    running = seed(mem, user_id)
    hits = mem.recall("What keeps my head clear? Running?", user_id=user_id, k=5)
    assert running in {h.memory.id for h in hits}
    mem.flush()
    mem.memories.feedback(running, user_id=user_id, useful=True)
    assert asked(mem, running) == "What keeps my head clear? Running?"


def test_anonymize_redacts_the_asked_key(mem: GraphMemory, user_id: str) -> None:
    running = seed(mem, user_id)
    mem.memories.feedback(running, user_id=user_id, useful=True, query="What do I do to destress?")
    mem.users.anonymize(user_id)
    assert "destress" not in str(asked(mem, running))


def test_concurrent_feedback_on_one_memory_loses_no_question(mem: GraphMemory, user_id: str) -> None:
    """Feedback reads the memory and writes what it computed; the read locks the memory until the write, so
    concurrent feedback queues: every question is kept and every confirmation counted."""
    running = seed(mem, user_id)
    questions = [f"What does running give me, asked the {n}th way?" for n in range(8)]
    barrier = threading.Barrier(len(questions))

    def judge(question: str) -> None:
        barrier.wait()
        mem.memories.feedback(running, user_id=user_id, useful=True, query=question)

    with ThreadPoolExecutor(len(questions)) as pool:
        list(pool.map(judge, questions))
    assert sorted(str(asked(mem, running)).split("\n")) == sorted(questions)
    rows = mem.runtime.store.run_readonly(
        "MATCH (m:Memory {id: $id}) RETURN m.confirmed AS confirmed, keys(m) AS keys", {"id": running}
    )
    assert rows[0]["confirmed"] == len(questions)
    assert "_LOCK_" not in rows[0]["keys"]  # the lock leaves nothing behind


def test_an_audit_ranks_without_what_later_use_taught(mem: GraphMemory, user_id: str) -> None:
    """A ``known_at`` read asks what the engine knew then, so later use must not move it: recalls that
    strengthen what they return and inhibit its competitors, and feedback, change the present read's scores
    (memory state, metamemory) but not the audit's order or scores."""
    seed(mem, user_id)
    before = datetime.now(UTC)
    question = "What have I been doing lately?"

    def read(**times: datetime) -> list[tuple[str, float]]:
        hits = mem.recall(question, user_id=user_id, k=5, reinforce=False, **times)
        return [(h.memory.id, h.score) for h in hits]

    audit, present = read(known_at=before), read()
    for _ in range(6):  # practice one memory: it strengthens, its competitors are inhibited
        mem.recall("Tell me about our puppy Rex", user_id=user_id, k=1)
    mem.memories.feedback(present[0][0], user_id=user_id, useful=False, query=question)
    later = read()
    assert [s for _, s in later] != pytest.approx([s for _, s in present], rel=1e-3)  # the use moved it
    again = read(known_at=before)
    assert [i for i, _ in again] == [i for i, _ in audit]
    assert [s for _, s in again] == pytest.approx([s for _, s in audit], rel=1e-4)
