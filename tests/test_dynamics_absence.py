"""Decay forgets to make room for what came after (real server): a memory below forget's thresholds is taken
only once ``forget_min_newer`` of its user's memories were created after its last use. A user who stays away
adds nothing, so a year later finds what they said; a busy user's old memories fade as before, and the
summaries that replaced them (the gist) stay.
Specification: graphmem.model.lifecycle.newer_count and graphmem.model.dynamics.should_forget."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from conftest import by_time_alone, forget_after_newer

from graphmem import GraphMemory
from graphmem.model.anchors import NEVER
from graphmem.temporal import migrate

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)


def _statuses(mem: GraphMemory, user_id: str) -> dict[str, str]:
    rows = mem.query("MATCH (m:Memory) WHERE m.user_id = $u RETURN m.id AS id, m.status AS s", {"u": user_id})
    return {r["id"]: r["s"] for r in rows}


def test_a_user_back_after_a_year_finds_what_they_said(dyn: GraphMemory, user_id: str) -> None:
    forget_after_newer(dyn, 100)  # the default
    turns = [
        "I bought a Fujifilm X100V for the Japan trip.",
        # no name: "My sister Ana" states a relation (round 62), and forget keeps the source of a current fact
        "My sister is getting married in Lisbon next summer.",
        "I've been reading The Left Hand of Darkness, slow but great.",
        "I usually run 5k on Saturday mornings along the canal.",
    ]
    start = datetime.now(UTC) - timedelta(days=1)
    for i, text in enumerate(turns):
        dyn.add_messages(
            [{"role": "user", "content": text, "timestamp": start + timedelta(minutes=i)}],
            user_id=user_id,
            session_id=f"s{i}",  # one memory per session: nothing for consolidate to summarise
        )
    later = datetime.now(UTC) + timedelta(days=400)  # no recall, no message since
    for job in ("decay", "forget"):
        assert dyn.jobs.run(job, user_id=user_id, now=later).status == "success"
    assert set(_statuses(dyn, user_id).values()) == {"dormant"}  # faded, not forgotten
    hits = dyn.recall("What camera did I buy?", user_id=user_id, k=1, reinforce=False)
    assert hits and "Fujifilm" in hits[0].memory.content
    # by time alone (the rule before), the same memories are below forget's thresholds and all go
    by_time_alone(dyn)
    assert dyn.jobs.run("forget", user_id=user_id, now=later).counts["soft_forgotten"] == len(turns)
    assert set(_statuses(dyn, user_id).values()) == {"forgotten"}


def _write(mem: GraphMemory, user_id: str, rows: list[dict[str, object]]) -> None:
    """Memories with the times given; the old ones dormant and below forget's thresholds (no coefficients:
    strength and retention read as stored), the newer ones active with no decay change ahead (not read)."""
    base = {"user_id": user_id, "memory_type": "episodic", "priority": "P2", "layer": "working"}
    props = []
    for row in rows:
        old = row.pop("old", False)
        state = (
            {"status": "dormant", "strength": 0.05, "retention": 0.05}
            if old
            else {"status": "active", "strength": 1.0, "retention": 1.0, "decay_due": NEVER}
        )
        props.append({**base, **state, "recorded_at": row["created_at"], **row})
    mem.runtime.store.run_statement("UNWIND $rows AS p CREATE (m:Memory) SET m = p", {"rows": props})


def test_newer_memories_displace_what_they_came_after(dyn: GraphMemory, user_id: str) -> None:
    forget_after_newer(dyn, 3)
    day = timedelta(days=1)
    _write(
        dyn,
        user_id,
        [
            {"id": f"{user_id}-old", "content": "old", "created_at": NOW - 400 * day, "old": True},
            # used again after the newer ones came: nothing has come since its last use
            {
                "id": f"{user_id}-used",
                "content": "used",
                "created_at": NOW - 400 * day,
                "last_accessed_at": NOW - 50 * day,
                "old": True,
            },
            *(
                {"id": f"{user_id}-n{i}", "content": "new", "created_at": NOW - (100 - i) * day}
                for i in range(3)
            ),
        ],
    )
    assert dyn.jobs.run("forget", user_id=user_id, now=NOW).counts["soft_forgotten"] == 1
    status = _statuses(dyn, user_id)
    assert status[f"{user_id}-old"] == "forgotten" and status[f"{user_id}-used"] == "dormant"


def test_summaries_and_later_memories_are_not_what_came_since(dyn: GraphMemory, user_id: str) -> None:
    """A summary consolidate wrote is no new learning, and a memory created after the job's clock (a virtual
    clock behind the store's) has not come yet: neither counts."""
    forget_after_newer(dyn, 3)
    day = timedelta(days=1)
    old = f"{user_id}-old"
    _write(
        dyn,
        user_id,
        [
            {"id": old, "content": "old", "created_at": NOW - 400 * day, "old": True},
            *(
                {"id": f"{user_id}-n{i}", "content": "new", "created_at": NOW - (90 - i) * day}
                for i in range(2)
            ),
            *(
                {
                    "id": f"{user_id}-s{i}",
                    "content": "summary",
                    "created_at": NOW - 9 * day,
                    "is_summary": True,
                }
                for i in range(3)
            ),
            {"id": f"{user_id}-future", "content": "later", "created_at": NOW + 2 * day},
        ],
    )
    assert dyn.jobs.run("forget", user_id=user_id, now=NOW).counts["soft_forgotten"] == 0
    assert dyn.jobs.run("forget", user_id=user_id, now=NOW + 3 * day).counts["soft_forgotten"] == 1
    assert _statuses(dyn, user_id)[old] == "forgotten"


def test_the_gist_outlives_the_details(dyn: GraphMemory, user_id: str) -> None:
    """A summary consolidate wrote (the gist of the memories it replaced) is never forgotten by decay, however
    long unused and however many memories came since; a memory like it that is no summary goes."""
    forget_after_newer(dyn, 3)
    day = timedelta(days=1)
    summary, plain = f"{user_id}-summary", f"{user_id}-plain"
    semantic = {"priority": "P1", "memory_type": "semantic", "created_at": NOW - 400 * day, "old": True}
    _write(
        dyn,
        user_id,
        [
            {"id": summary, "content": "Summary of session s1: ...", "is_summary": True, **semantic},
            {"id": plain, "content": "plain", **semantic},
            *(
                {"id": f"{user_id}-n{i}", "content": "new", "created_at": NOW - (100 - i) * day}
                for i in range(3)
            ),
        ],
    )
    assert dyn.jobs.run("forget", user_id=user_id, now=NOW).counts["soft_forgotten"] == 1
    status = _statuses(dyn, user_id)
    assert status[summary] == "dormant" and status[plain] == "forgotten"


def test_summaries_decay_forgot_before_the_gist_rule_come_back(dyn: GraphMemory, user_id: str) -> None:
    """The migration init() runs once per store (graphmem.temporal.migrate.restore_gist): a summary the decay
    job forgot (before round 60) regains the status it had; a memory that is no summary, or a summary
    capacity forgetting took, stays forgotten."""
    rows = [
        (f"{user_id}-summary", True, "decayed"),
        (f"{user_id}-plain", False, "decayed"),
        (f"{user_id}-capacity", True, "capacity"),
    ]
    dyn.runtime.store.run_statement(
        "UNWIND $rows AS r CREATE (m:Memory {id: r[0], user_id: $u, content: 'x', status: 'forgotten', "
        "status_before_forgetting: 'dormant', forgotten_reason: r[2], forgotten_at: $at}) "
        "SET m.is_summary = CASE WHEN r[1] THEN true END",
        {"rows": rows, "u": user_id, "at": NOW},
    )
    assert migrate.restore_gist(dyn.runtime, NOW) >= 1
    status = _statuses(dyn, user_id)
    assert status == {rows[0][0]: "dormant", rows[1][0]: "forgotten", rows[2][0]: "forgotten"}
