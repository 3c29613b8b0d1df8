"""A statement reinstated when a plan was called off, then outdated again, on the real server: the fresh mark
lists both keys a turn outdates it for (one batch or one call per message alike), and the withdrawn mark is
kept for audits known while it held."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from conversation import say

from graphmem import GraphMemory
from graphmem.model.timescope import STALE_FACTOR, TimeScope, is_outdated

SAID = datetime(2026, 3, 10, 15, 30, tzinfo=UTC)


def test_a_reinstated_statement_outdated_for_two_keys_at_once_lists_both(
    mem: GraphMemory, user_id: str
) -> None:
    both = say(mem, user_id, SAID - timedelta(days=8), "I live in Leeds and work at Acme.")
    say(mem, user_id, SAID, "I'm moving to Manchester next month.")
    say(mem, user_id, SAID + timedelta(days=5), "The move is off.")
    moved = SAID + timedelta(days=60)
    say(mem, user_id, moved, "I moved to Bristol and started at Zalando as a data engineer.")
    (row,) = mem.query(
        "MATCH (m:Memory {id: $id}) RETURN m.outdated_keys AS keys, m.outdated_from AS since, "
        "m.reinstated_at AS back",
        {"id": both},
    )
    assert (sorted(row["keys"]), row["since"], row["back"]) == (["employer", "location"], moved, None)


def test_a_withdrawn_mark_still_holds_for_an_audit_known_while_it_held(
    mem: GraphMemory, user_id: str
) -> None:
    leeds = say(mem, user_id, SAID - timedelta(days=8), "I live in Leeds.")
    say(mem, user_id, SAID, "I'm moving to Manchester next month, can't wait.")
    time.sleep(0.02)
    checkpoint = datetime.now(UTC)  # the plan known, not yet called off
    time.sleep(0.02)
    say(mem, user_id, SAID + timedelta(days=5), "I'm not moving to Manchester after all, sadly.")
    assert _currency(mem, user_id, leeds, known_at=checkpoint) == STALE_FACTOR
    say(mem, user_id, SAID + timedelta(days=60), "I moved to Bristol.")  # a fresh mark, later
    assert _currency(mem, user_id, leeds, known_at=checkpoint) == STALE_FACTOR  # what was known then
    assert _currency(mem, user_id, leeds) == STALE_FACTOR


def test_each_kept_mark_holds_over_its_own_times() -> None:
    april, may, june = (datetime(2026, m, 1, tzinfo=UTC) for m in (4, 5, 6))
    memory = {
        "outdated_from": june, "outdated_at": SAID + timedelta(days=60), "reinstated_at": None,
        "withdrawn": [[april], [SAID], [SAID + timedelta(days=5)]],  # from, at, until
    }  # fmt: skip
    audit = TimeScope(as_of=may, known_at=SAID + timedelta(days=1))
    assert is_outdated(memory, audit, june)  # the withdrawn mark, as known while it held
    assert not is_outdated(memory, TimeScope(as_of=may, known_at=SAID + timedelta(days=10)), june)
    junk = {**memory, "withdrawn": [[april], "junk", [SAID + timedelta(days=5)]]}
    assert not is_outdated(junk, audit, june)  # a hand-written list: none


def _currency(mem: GraphMemory, user_id: str, memory_id: str, **times: datetime) -> float:
    hits = mem.recall("Where do I live?", user_id=user_id, k=8, reinforce=False, **times)  # type: ignore[arg-type]
    return {h.memory.id: h.explanation.components.get("currency", 1.0) for h in hits}[memory_id]
