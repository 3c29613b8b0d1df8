"""A batch of turns is formed in the order they were said (their timestamps), whatever order the list has:
the session's chain, each fact key's history and the previous turn each is read with follow time, and the
call still returns one memory per message in the caller's order (graphmem.formation.writer.said_order)."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem import GraphMemory

JAN, MAR = datetime(2024, 1, 1, 10, tzinfo=UTC), datetime(2024, 3, 1, 10, tzinfo=UTC)


def _values(mem: GraphMemory, user_id: str, when: datetime) -> set[str]:
    return {f.value for f in mem.facts.list(user_id, as_of=when)}


def test_a_batch_listed_out_of_time_order_keeps_its_history(mem: GraphMemory, user_id: str) -> None:
    messages = [
        {"role": "user", "content": "I moved to Leeds.", "timestamp": MAR},
        {"role": "user", "content": "I moved to Manchester.", "timestamp": JAN},
    ]
    formed = mem.add_messages(messages, user_id=user_id, session_id="s1", idempotency_key="moves")
    assert [m.content for m in formed] == ["I moved to Leeds.", "I moved to Manchester."]  # as given
    assert "Manchester" in _values(mem, user_id, datetime(2024, 2, 15, tzinfo=UTC))  # was: no value
    now = _values(mem, user_id, datetime.now(UTC))
    assert "Leeds" in now and "Manchester" not in now
    chain = mem.query(
        "MATCH (a:Memory {user_id: $u})-[:FOLLOWS]->(b:Memory) RETURN a.content AS a, b.content AS b",
        {"u": user_id},
    )
    assert chain == [{"a": "I moved to Manchester.", "b": "I moved to Leeds."}]
    again = mem.add_messages(messages, user_id=user_id, session_id="s1", idempotency_key="moves")
    assert [m.id for m in again] == [m.id for m in formed]  # the replay in the caller's order too


def test_turns_without_timestamps_keep_the_list_order(mem: GraphMemory, user_id: str) -> None:
    formed = mem.add_messages(
        ["I bought a red bike.", "I sold the red bike."], user_id=user_id, session_id="s1"
    )
    chain = mem.query(
        "MATCH (a:Memory {user_id: $u})-[:FOLLOWS]->(b:Memory) RETURN a.id AS a, b.id AS b", {"u": user_id}
    )
    assert chain == [{"a": formed[0].id, "b": formed[1].id}]
