"""Idempotency keys on the real server: repeats, concurrent retries, failures, misuse."""

from __future__ import annotations

import threading
import uuid

import pytest

from graphmem import GraphMemory, Memory, ValidationError, VersionConflict


def memory_count(mem: GraphMemory, user_id: str) -> int:
    rows = mem.query("MATCH (m:Memory) WHERE m.user_id = $u RETURN count(m) AS n", {"u": user_id})
    return int(rows[0]["n"])


def test_a_repeat_returns_the_first_result_and_writes_nothing(mem: GraphMemory, user_id: str) -> None:
    key = str(uuid.uuid4())
    first = mem.remember("I adopted a dog named Rex", user_id=user_id, idempotency_key=key)
    again = mem.remember("I adopted a dog named Rex", user_id=user_id, idempotency_key=key)
    assert again == first and memory_count(mem, user_id) == 1

    turns = ["We talked about Paris.", "Then about the Louvre."]
    batch = mem.add_messages(turns, user_id=user_id, session_id="s", idempotency_key="batch-1")
    assert mem.add_messages(turns, user_id=user_id, session_id="s", idempotency_key="batch-1") == batch
    assert memory_count(mem, user_id) == 3

    fact = mem.facts.set(user_id, "city", "Paris", idempotency_key="fact-1")
    assert mem.facts.set(user_id, "city", "Paris", idempotency_key="fact-1") == fact
    assert len(mem.facts.history(user_id, "city")) == 1
    assert [e.action for e in mem.temporal.audit_log(user_id=user_id)] == [
        "remember",
        "add_messages",
        "set_fact",
    ]
    assert mem.temporal.audit_log(user_id=user_id)[0].idempotency_key == key

    other = f"{user_id}-other"  # keys are per user
    assert mem.remember("I adopted a dog named Rex", user_id=other, idempotency_key=key).id != first.id
    mem.users.delete(other)


def test_concurrent_retries_write_once(mem: GraphMemory, user_id: str) -> None:
    results: list[Memory] = []
    errors: list[BaseException] = []

    def call() -> None:
        try:
            results.append(mem.remember("The meeting moved to Friday", user_id=user_id, idempotency_key="k"))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=call) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len({m.id for m in results}) == 1 and len(results) == 4
    assert memory_count(mem, user_id) == 1


def test_a_failed_call_releases_its_key(mem: GraphMemory, user_id: str) -> None:
    m = mem.remember("The meeting is on Monday", user_id=user_id)
    with pytest.raises(VersionConflict):
        mem.memories.update(m.id, user_id=user_id, expected_version=7, content="Tuesday", idempotency_key="u")
    updated = mem.memories.update(
        m.id, user_id=user_id, expected_version=1, content="Tuesday", idempotency_key="u"
    )
    again = mem.memories.update(
        m.id, user_id=user_id, expected_version=1, content="Tuesday", idempotency_key="u"
    )
    assert updated.version == again.version == 2 and again.content == "Tuesday"
    assert len(mem.memories.history(m.id, user_id=user_id)) == 2


def test_a_key_belongs_to_one_kind_of_call(mem: GraphMemory, user_id: str) -> None:
    mem.remember("I like tea", user_id=user_id, idempotency_key="same")
    with pytest.raises(ValidationError, match="idempotency_key"):
        mem.facts.set(user_id, "drink", "tea", idempotency_key="same")
