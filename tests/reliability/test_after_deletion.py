"""Idempotency after deletion, no-op updates and the tombstone of an interrupted delete_user (issue 15,
defects 4, 5 (update part) and 6)."""

from __future__ import annotations

from typing import Any

import pytest

from graphmem import GraphMemory, MemoryNotFound
from graphmem.errors import ConnectionFailed
from graphmem.store.driver import Row, Store


def test_idempotent_remember_after_its_memory_was_deleted(mem: GraphMemory, user_id: str) -> None:
    first = mem.remember("I keep bees on the roof", user_id=user_id, idempotency_key="k1")
    assert mem.remember("I keep bees on the roof", user_id=user_id, idempotency_key="k1").id == first.id
    mem.memories.govern(first.id, user_id=user_id, decision="delete")
    with pytest.raises(MemoryNotFound, match="deleted after the first call") as caught:
        mem.remember("I keep bees on the roof", user_id=user_id, idempotency_key="k1")
    assert first.id in caught.value.memory_id


def test_idempotent_add_messages_after_one_memory_was_deleted(mem: GraphMemory, user_id: str) -> None:
    turns = ["My sister lives in Oslo", "I play the cello on Sundays", "My car is a green Volvo"]
    first = mem.add_messages(turns, user_id=user_id, session_id="s1", idempotency_key="batch-1")
    assert len(first) == 3
    mem.memories.govern(first[1].id, user_id=user_id, decision="delete")
    with pytest.raises(MemoryNotFound) as caught:
        mem.add_messages(turns, user_id=user_id, session_id="s1", idempotency_key="batch-1")
    assert caught.value.memory_id == first[1].id
    assert len(mem.query("MATCH (m:Memory) WHERE m.user_id = $u RETURN m.id", {"u": user_id})) == 2


def test_update_memory_without_change_writes_no_version(mem: GraphMemory, user_id: str) -> None:
    m = mem.remember("The boiler is serviced in May", user_id=user_id, metadata={"room": "cellar"})
    same = mem.memories.update(
        m.id, user_id=user_id, expected_version=m.version, content=m.content, metadata={"room": "cellar"}
    )
    assert same.version == m.version
    assert len(mem.memories.history(m.id, user_id=user_id)) == 1
    changed = mem.memories.update(m.id, user_id=user_id, expected_version=m.version, content="in June")
    assert changed.version == m.version + 1 and len(mem.memories.history(m.id, user_id=user_id)) == 2


class _DiesMidDeletion(Store):
    """Deletes the user's memories for real (committed batches), then loses the connection, as a
    delete_user killed half-way does."""

    def write_auto(self, name: str, /, **params: Any) -> list[Row]:
        if name == "user_delete":
            self.run_statement(
                "MATCH (n:Memory) WHERE n.user_id = $user_id DETACH DELETE n", {"user_id": params["user_id"]}
            )
            raise ConnectionFailed("connection lost mid-deletion (injected)")
        return super().write_auto(name, **params)


def test_tombstone_counts_what_an_interrupted_deletion_removed(mem: GraphMemory, user_id: str) -> None:
    mem.add_messages(
        ["I live in Lisbon", "I work as a nurse", "I like fado"], user_id=user_id, session_id="s"
    )
    store = mem.runtime.store
    assert isinstance(store, Store)
    dying = GraphMemory(_DiesMidDeletion(store.driver, store.database), mem.embedder, mem.runtime.settings)
    with pytest.raises(ConnectionFailed):
        dying.users.delete(user_id)
    report = mem.users.delete(user_id)
    assert report.nodes.get("Memory") == 3
    tombstone = [e for e in mem.temporal.audit_log(user_id=user_id) if e.action == "delete_user"][-1]
    assert tombstone.details["nodes"]["Memory"] == 3
    assert mem.users.delete(user_id).deleted == 0


class _WrittenDuringDeletion(Store):
    """A write to the user commits while the deletion's first pass runs (after it read the indexes): as a
    call still in flight when delete_user was called."""

    def __init__(self, *args: Any, late: Any) -> None:
        super().__init__(*args)
        self.late, self.passes = late, 0

    def write_auto(self, name: str, /, **params: Any) -> list[Row]:
        rows = super().write_auto(name, **params)
        if name == "user_delete":
            self.passes += 1
            if self.passes == 1:
                self.late()
        return rows


def test_a_write_that_commits_during_a_deletion_is_deleted_too(mem: GraphMemory, user_id: str) -> None:
    """Before: what the user held when the deletion began was deleted; a write committed meanwhile survived
    it, with a dangling history (a fact version 2 whose version 1 was gone)."""
    mem.add_messages(["I live in Lisbon", "I work as a nurse"], user_id=user_id, session_id="s")
    mem.facts.set(user_id, "city", "Lisbon")

    def late() -> None:
        mem.add_messages(["I moved to Porto"], user_id=user_id, session_id="s")
        mem.facts.set(user_id, "city", "Porto")

    store = mem.runtime.store
    assert isinstance(store, Store)
    spied = _WrittenDuringDeletion(store.driver, store.database, late=late)
    report = GraphMemory(spied, mem.embedder, mem.runtime.settings).users.delete(user_id)
    assert spied.passes == 3  # the late write's, then one that finds nothing
    assert not mem.query("MATCH (n) WHERE n.user_id = $u AND NOT n:AuditEvent RETURN n", {"u": user_id})
    assert report.nodes["Memory"] >= 3
