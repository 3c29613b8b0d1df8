"""Audit events for each mutation and optimistic updates, on the real server."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest

from graphmem import GraphMemory, MemoryNotFound, ValidationError, VersionConflict


def test_every_mutation_appends_an_audit_event(mem: GraphMemory, user_id: str) -> None:
    since = datetime.now(UTC) - timedelta(seconds=1)
    a = mem.remember("I adopted a dog named Rex", user_id=user_id, agent_id="helper")
    b, c = mem.add_messages(
        ["Rex loves the park.", "I walk Rex every morning."], user_id=user_id, session_id="s"
    )
    fact = mem.facts.set(user_id, "pet", "Rex")
    mem.memories.link(a.id, b.id, "RELATED_TO", weight=0.5)
    mem.memories.update(c.id, user_id=user_id, expected_version=1, priority="P1")
    mem.memories.govern(c.id, user_id=user_id, decision="retain")
    run = mem.jobs.run("decay", user_id=user_id)
    events = mem.temporal.audit_log(user_id=user_id, since=since)
    by_action = {e.action: e for e in events}
    assert list(by_action) == [
        "remember",
        "add_messages",
        "set_fact",
        "link",
        "update_memory",
        "govern:retain",
        "job:decay",
    ]
    assert by_action["remember"].actor == "helper" and by_action["remember"].target_ids == (a.id,)
    assert by_action["add_messages"].target_ids == (b.id, c.id)
    assert by_action["set_fact"].target_ids == (fact.id,) and by_action["set_fact"].version == 1
    assert by_action["update_memory"].version == 2
    assert (
        by_action["job:decay"].target_ids == (run.id,)
        and by_action["job:decay"].details["status"] == "success"
    )
    assert all(e.user_id == user_id and e.at >= since for e in events)
    assert [e.action for e in mem.temporal.audit_log(target_id=b.id)] == ["add_messages", "link"]
    assert mem.temporal.audit_log(user_id=f"{user_id}-nobody") == []


def test_config_changes_are_audited(mem: GraphMemory) -> None:
    cfg = mem.automation.get_config()
    stored = mem.automation.set_config(cfg, by="auditor")
    mem.automation.set_config(stored.model_copy(update={"version": stored.version}), by="auditor")
    events = [
        e for e in mem.temporal.audit_log(target_id=mem.automation.config_id) if e.action == "config_change"
    ]
    assert events[-1].actor == "auditor" and events[-1].version == stored.version + 1


def test_update_memory_checks_the_version_and_keeps_history(mem: GraphMemory, user_id: str) -> None:
    m = mem.remember("I adopted a dog named Rex", user_id=user_id, metadata={"mood": "happy"})
    updated = mem.memories.update(
        m.id,
        user_id=user_id,
        expected_version=1,
        content="I adopted a cat named Rex",
        metadata={"mood": "calm"},
    )
    assert updated.version == 2 and updated.content == "I adopted a cat named Rex"
    assert updated.metadata == {"mood": "calm"}
    hits = mem.recall("which cat did I adopt?", user_id=user_id, reinforce=False)
    assert hits and hits[0].memory.content == "I adopted a cat named Rex"  # re-embedded and re-indexed

    with pytest.raises(VersionConflict) as conflict:
        mem.memories.update(m.id, user_id=user_id, expected_version=1, content="stale")
    assert conflict.value.expected == 1 and conflict.value.actual == 2
    history = mem.memories.history(m.id, user_id=user_id)
    assert [(v.version, v.content) for v in history] == [
        (1, "I adopted a dog named Rex"),
        (2, "I adopted a cat named Rex"),
    ]
    assert history[0].metadata == {"mood": "happy"}
    # each version says when it was written: the first when recorded, the second by the update
    assert history[0].updated_at is None and history[0].recorded_at == m.recorded_at is not None
    assert history[1].updated_at is not None and history[1].updated_at > history[1].recorded_at
    assert history[1].updated_at == updated.updated_at

    with pytest.raises(MemoryNotFound):
        mem.memories.update(m.id, user_id=f"{user_id}-other", expected_version=2, content="x")
    with pytest.raises(MemoryNotFound):
        mem.memories.history(m.id, user_id=f"{user_id}-other")
    with pytest.raises(ValidationError):
        mem.memories.update(m.id, user_id=user_id, expected_version=0, content="x")


def test_concurrent_updates_at_one_version_let_exactly_one_win(mem: GraphMemory, user_id: str) -> None:
    m = mem.remember("The meeting is on Monday", user_id=user_id)
    outcomes: list[str] = []

    def attempt(day: str) -> None:
        try:
            mem.memories.update(m.id, user_id=user_id, expected_version=1, content=f"The meeting is on {day}")
            outcomes.append("ok")
        except VersionConflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=attempt, args=(d,)) for d in ("Tuesday", "Wednesday", "Thursday")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict", "conflict", "ok"]
    assert [v.version for v in mem.memories.history(m.id, user_id=user_id)] == [1, 2]
