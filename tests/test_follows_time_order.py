"""The temporal view follows valid time, not arrival: sessions imported newest first, shuffled, or one
session split across calls around a later one give the same current FOLLOWS chain as an import in order;
a link a later import splits ends in transaction time (``expired_at``), nothing is deleted."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graphmem import GraphMemory

T0 = datetime(2021, 3, 10, 9, 0, tzinfo=UTC)

SESSIONS = {  # distinct words, so that no turn is a near-duplicate of another
    "york": ["I rent a flat near the Minster in York.", "Nursing shifts at the county hospital are long."],
    "leeds": [
        "We bought a terraced house in Headingley, Leeds.",
        "My cycle to the office takes ten minutes.",
    ],
    "oxford": ["Oxford's libraries became my second home.", "Rowing on the Isis every Saturday morning."],
}


def _messages(day: int, texts: list[str]) -> list[dict[str, Any]]:
    start = T0 + timedelta(days=day)
    return [
        {"role": "user", "content": text, "timestamp": start + timedelta(minutes=i)}
        for i, text in enumerate(texts)
    ]


DAYS = {"york": 0, "leeds": 300, "oxford": 700}


def _chain(mem: GraphMemory, user_id: str) -> tuple[set[tuple[str, str, str]], int]:
    """The current FOLLOWS edges as (from, to, kind) by content, and the number ended in transaction time."""
    rows = mem.runtime.store.run_statement(
        "MATCH (a:Memory {user_id: $u})-[f:FOLLOWS]->(b:Memory) "
        "RETURN a.content AS a, b.content AS b, f.kind AS kind, f.expired_at IS NOT NULL AS ended",
        {"u": user_id},
    )
    current = {(r["a"], r["b"], r["kind"]) for r in rows if not r["ended"]}
    return current, sum(r["ended"] for r in rows)


def _in_order() -> set[tuple[str, str, str]]:
    texts = [SESSIONS[s] for s in sorted(SESSIONS, key=DAYS.__getitem__)]
    edges = {(a, b, "session") for t in texts for a, b in itertools.pairwise(t)}
    edges |= {(one[-1], two[0], "cross_session") for one, two in itertools.pairwise(texts)}
    return edges


@pytest.mark.parametrize(
    "order",
    [
        ("york", "leeds", "oxford"),
        ("oxford", "leeds", "york"),
        ("leeds", "oxford", "york"),
        ("york", "oxford", "leeds"),
    ],
)
def test_sessions_in_any_order_chain_in_time(mem: GraphMemory, user_id: str, order: tuple[str, ...]) -> None:
    for name in order:
        mem.add_messages(_messages(DAYS[name], SESSIONS[name]), user_id=user_id, session_id=name)
    current, ended = _chain(mem, user_id)
    assert current == _in_order()
    # a session stored between two stored ones splits the link between them, which ends in transaction time
    assert ended == sum(
        1
        for i, name in enumerate(order)
        if any(DAYS[p] > DAYS[name] for p in order[:i]) and any(DAYS[p] < DAYS[name] for p in order[:i])
    )


def test_a_session_continued_after_a_later_one_keeps_its_tail_before_it(
    mem: GraphMemory, user_id: str
) -> None:
    york = SESSIONS["york"] + ["The Shambles is packed with tourists in August."]
    first, rest = _messages(0, york)[:2], _messages(0, york)[2:]
    mem.add_messages(first, user_id=user_id, session_id="york")
    mem.add_messages(_messages(DAYS["leeds"], SESSIONS["leeds"]), user_id=user_id, session_id="leeds")
    mem.add_messages(rest, user_id=user_id, session_id="york")
    current, ended = _chain(mem, user_id)
    leeds = SESSIONS["leeds"]
    assert current == {
        (york[0], york[1], "session"),
        (york[1], york[2], "session"),
        (york[2], leeds[0], "cross_session"),
        (leeds[0], leeds[1], "session"),
    }
    assert ended == 1  # york[1] -> leeds[0], kept for known_at reads before the continuation


def test_a_session_in_batches_out_of_order_chains_in_time(mem: GraphMemory, user_id: str) -> None:
    """One session of six timed turns added as [4, 5], [2, 3], [0, 1]: before the review of round 57 each
    batch followed the session's last stored turn ((4, 5), (5, 2), (2, 3), (3, 0), (0, 1)); a later session
    follows the session's latest turn in time."""
    texts = [
        "Alpha squadron landed at dawn.",
        "Bravo team checked the radios.",
        "Charlie cooked porridge for everyone.",
        "Delta river was too high to cross.",
        "Echo valley had fresh snow.",
        "Foxtrot ridge took four hours.",
    ]
    turns = _messages(0, texts)
    for part in ([4, 5], [2, 3], [0, 1]):
        mem.add_messages([turns[i] for i in part], user_id=user_id, session_id="trek")
    mem.add_messages(_messages(30, SESSIONS["oxford"]), user_id=user_id, session_id="oxford")
    current, _ = _chain(mem, user_id)
    oxford = SESSIONS["oxford"]
    assert current == {(a, b, "session") for a, b in itertools.pairwise(texts)} | {
        (texts[-1], oxford[0], "cross_session"),
        (oxford[0], oxford[1], "session"),
    }


def test_untimed_turns_and_other_memories(mem: GraphMemory, user_id: str) -> None:
    """Turns without a time are said now, in the order given (a new session follows the batch's last turn,
    not any turn of the tie); core blocks, store items and session-less memories are not turns of the
    chain."""
    first = ["Golf is my Sunday habit.", "Hotel rooms in Porto were cheap.", "India is next on the list."]
    mem.add_messages(first, user_id=user_id, session_id="one")
    mem.core.set(user_id, "human", "Name: Alice")
    mem.remember("A note without a session", user_id=user_id)
    mem.add_messages(["Juliet called about the lease."], user_id=user_id, session_id="two")
    current, ended = _chain(mem, user_id)
    assert current == {
        (first[0], first[1], "session"),
        (first[1], first[2], "session"),
        (first[2], "Juliet called about the lease.", "cross_session"),
    }
    assert ended == 0
