"""Idempotency keys on the real server: repeats, concurrent retries, failures, misuse."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
import uuid
from typing import Any

import pytest

from graphmem import GraphMemory, Memory, ValidationError, VersionConflict
from graphmem.errors import ConnectionFailed, TransientError
from graphmem.store import idempotency, owners


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


def test_a_retry_after_the_server_went_away_runs_at_once(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write that failed because the server went away cannot release its claim either (the release goes
    to the same server). The same process's retry with the key releases it first and runs now, instead of
    waiting for the claim to go stale (a TransientError after 30 s, found when the reliability suite's
    Neo4j restarted in 8 s); the key still stores one result."""
    store = mem.runtime.store
    write, unit_of_work = store.write, store.unit_of_work

    def gone(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionFailed("Neo4j is unreachable (test)")

    def no_release(name: str, /, **params: Any) -> list[dict[str, Any]]:
        if name == "idempotency_release":
            raise ConnectionFailed("Neo4j is unreachable (test)")
        return write(name, **params)

    monkeypatch.setattr(store, "unit_of_work", gone)  # the memory's write transaction
    monkeypatch.setattr(store, "write", no_release)
    with pytest.raises(ConnectionFailed):
        mem.remember("The plumber comes on Thursday", user_id=user_id, idempotency_key="k1")
    monkeypatch.setattr(store, "unit_of_work", unit_of_work)
    monkeypatch.setattr(store, "write", write)
    started = time.monotonic()
    first = mem.remember("The plumber comes on Thursday", user_id=user_id, idempotency_key="k1")
    assert time.monotonic() - started < 10  # not the 30 s wait for a claim held elsewhere
    again = mem.remember("The plumber comes on Thursday", user_id=user_id, idempotency_key="k1")
    assert again.id == first.id and memory_count(mem, user_id) == 1


def test_a_retry_after_an_interrupted_claim_runs_at_once(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The claim committed, then the call was interrupted before its answer arrived (Ctrl-C, a cancelled
    task: a BaseException, not a graphmem error): the claim was left pending with no record in the process,
    and a retry waited 30 s for it and then raised "still running" (round 54's interruption probe)."""
    store = mem.runtime.store
    write = store.write

    def interrupted(name: str, /, **params: Any) -> list[dict[str, Any]]:
        rows = write(name, **params)
        if name == "idempotency_claim":
            raise KeyboardInterrupt
        return rows

    monkeypatch.setattr(store, "write", interrupted)
    with pytest.raises(KeyboardInterrupt):
        mem.remember("The plumber comes on Thursday", user_id=user_id, idempotency_key="k1")
    monkeypatch.setattr(store, "write", write)
    started = time.monotonic()
    first = mem.remember("The plumber comes on Thursday", user_id=user_id, idempotency_key="k1")
    assert time.monotonic() - started < 10 and memory_count(mem, user_id) == 1
    assert mem.remember("The plumber comes on Thursday", user_id=user_id, idempotency_key="k1").id == first.id


def test_a_claim_a_killed_process_of_this_host_left_is_taken_over_at_once(
    mem: GraphMemory, user_id: str
) -> None:
    """A process killed between its claim and its write (kill -9 during `graphmem import`) left the key
    pending: a rerun on the same host waited 30 s and raised "still running" until the claim was a minute
    old. The claim records its holder's host and pid; a holder of this host that no longer runs is taken
    over at once; one of another machine (or pid namespace) is not judged."""
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    mem.runtime.store.run_statement(
        "CREATE (:IdempotencyKey {id: $id, user_id: $u, key: 'k1', action: 'remember', token: 'dead',"
        " status: 'pending', created_at: datetime(), owner: $owner})",
        {
            "id": f"{user_id}\x1fk1",
            "u": user_id,
            "owner": owners.owner().rpartition("#")[0] + "#" + gone.stdout.strip(),
        },
    )
    started = time.monotonic()
    first = mem.remember("The plumber comes on Thursday", user_id=user_id, idempotency_key="k1")
    assert time.monotonic() - started < 10 and memory_count(mem, user_id) == 1
    assert mem.remember("The plumber comes on Thursday", user_id=user_id, idempotency_key="k1").id == first.id


def test_only_a_dead_process_of_this_machine_is_judged_dead() -> None:
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    machine = owners.owner().rpartition("#")[0]
    assert owners.died(f"{machine}#{gone.stdout.strip()}")
    assert not owners.died(owners.owner())  # this process
    assert not owners.died(f"other-host/boot/4026531836#{gone.stdout.strip()}")  # same host name elsewhere
    for unreadable in (
        None,
        7,
        "",
        "#12",
        f"{machine}#",
        f"{machine}#-3",
        f"{machine}#99999999999999",
        f"{machine}#١٢",
    ):
        assert not owners.died(unreadable), unreadable


def _pending_claim(mem: GraphMemory, user_id: str, owner: str, minutes_ago: int) -> None:
    mem.runtime.store.run_statement(
        "CREATE (:IdempotencyKey {id: $id, user_id: $u, key: 'k1', action: 'remember', token: 'theirs',"
        " status: 'pending', created_at: datetime() - duration({minutes: $ago}), owner: $owner})",
        {"id": f"{user_id}\x1fk1", "u": user_id, "owner": owner, "ago": minutes_ago},
    )


def test_a_stale_claim_of_another_machine_is_taken_over(mem: GraphMemory, user_id: str) -> None:
    _pending_claim(mem, user_id, "elsewhere/boot/4026531836#42", minutes_ago=2)
    started = time.monotonic()
    mem.remember("The plumber comes on Thursday", user_id=user_id, idempotency_key="k1")
    assert time.monotonic() - started < 10 and memory_count(mem, user_id) == 1


def test_a_live_holder_on_this_machine_keeps_its_claim_however_old(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A keyed call still running here past STALE_AFTER (a large import batch) is not taken over by a repeat
    (which would make the first call's write roll back at its end): the repeat says it is still running."""
    _pending_claim(mem, user_id, owners.owner(), minutes_ago=5)  # this very process: alive
    monkeypatch.setattr(idempotency, "WAIT_SECONDS", 0.3)
    with pytest.raises(TransientError, match="still running"):
        mem.remember("The plumber comes on Thursday", user_id=user_id, idempotency_key="k1")
    assert memory_count(mem, user_id) == 0
