"""A statement reinstated when the plan that outdated it is called off, on the real server: every key called
off in one turn leaves its mark, and the mark's SUPERSEDES edge ends with it, as when the plan and the call
are sent in one batch (where the mark is never written)."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from conversation import say

from graphmem import GraphMemory

SAID = datetime(2026, 3, 10, 15, 30, tzinfo=UTC)
MAY = datetime(2026, 5, 5, tzinfo=UTC)


def _mark(mem: GraphMemory, memory_id: str) -> tuple[object, bool]:
    (row,) = mem.query(
        "MATCH (m:Memory {id: $id}) RETURN m.outdated_keys AS keys, m.reinstated_at IS NOT NULL AS back",
        {"id": memory_id},
    )
    return row["keys"], row["back"]


def test_two_plans_called_off_in_one_turn_reinstate_both_keys(mem: GraphMemory, user_id: str) -> None:
    both = say(mem, user_id, SAID - timedelta(days=8), "I live in Leeds and work at Acme.")
    say(mem, user_id, SAID, "I'm moving to Manchester next month.")
    say(mem, user_id, SAID + timedelta(hours=1), "I'm starting my new job at Spotify next month.")
    off = "I'm not moving to Manchester after all, and I turned down the job at Spotify."
    say(mem, user_id, SAID + timedelta(days=5), off)
    assert mem.facts.get(user_id, "location", as_of=MAY).value == "Leeds"  # type: ignore[union-attr]
    assert mem.facts.get(user_id, "employer", as_of=MAY).value == "Acme"  # type: ignore[union-attr]
    assert _mark(mem, both) == ([], True)  # both keys hold again: the statement is current


def test_the_edge_of_a_withdrawn_mark_ends_with_it(mem: GraphMemory, user_id: str) -> None:
    leeds = say(mem, user_id, SAID - timedelta(days=8), "I live in Leeds.")
    plan = say(mem, user_id, SAID, "I'm moving to Manchester next month, can't wait.")
    time.sleep(0.02)
    checkpoint = datetime.now(UTC)
    time.sleep(0.02)
    say(mem, user_id, SAID + timedelta(days=5), "I'm not moving to Manchester after all, sadly.")
    edge = (plan, "SUPERSEDES", leeds)
    assert edge not in {(e.src, e.type, e.dst) for e in mem.temporal.snapshot(user_id, as_of=MAY).edges}
    then = mem.temporal.snapshot(user_id, as_of=MAY, known_at=checkpoint)
    assert edge in {(e.src, e.type, e.dst) for e in then.edges}  # as recorded before the call
