"""A user who stays away keeps what is known about them (real server, default dynamics): the statement a
current fact derives from is the evidence for it and is never forgotten by the forget job, while the rest
fades as before and the statement of a value that no longer holds may go."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from conftest import by_time_alone

from graphmem import GraphMemory


@pytest.fixture(autouse=True)
def _by_time(dyn: GraphMemory) -> None:
    """These users hold a few memories: forgetting by time alone, so that the guard is what keeps them."""
    by_time_alone(dyn)


def _status(mem: GraphMemory, user_id: str) -> dict[str, str]:
    rows = mem.query(
        "MATCH (m:Memory) WHERE m.user_id = $u RETURN m.content AS c, m.status AS s", {"u": user_id}
    )
    return {r["c"]: r["s"] for r in rows}


def test_a_year_away_keeps_the_statements_behind_current_facts(dyn: GraphMemory, user_id: str) -> None:
    start = datetime.now(UTC) - timedelta(days=2)
    turns = [
        ("I live in Leeds.", start),
        ("I'm allergic to peanuts.", start + timedelta(hours=1)),
        ("I started learning Spanish on Duolingo.", start + timedelta(hours=2)),
        ("I moved to Manchester.", start + timedelta(days=1)),
    ]
    for text, when in turns:
        dyn.add_messages(
            [{"role": "user", "content": text, "timestamp": when}], user_id=user_id, session_id="s"
        )
    assert dyn.facts.get(user_id, "location").value == "Manchester"
    assert dyn.facts.get(user_id, "allergy:peanuts") is not None
    later = datetime.now(UTC) + timedelta(days=400)  # no recall, no message since
    for job in ("decay", "forget"):
        assert dyn.jobs.run(job, user_id=user_id, now=later).status == "success"
    status = _status(dyn, user_id)
    assert status["I'm allergic to peanuts."] != "forgotten"  # allergy:peanuts holds
    assert status["I moved to Manchester."] != "forgotten"  # location: Manchester holds
    assert status["I started learning Spanish on Duolingo."] == "forgotten"  # no fact: it fades as before
    assert status["I live in Leeds."] == "forgotten"  # location: Leeds no longer holds
    hits = dyn.recall("What am I allergic to?", user_id=user_id, k=3, reinforce=False)
    assert hits and hits[0].memory.content == "I'm allergic to peanuts."


def _allergy(dyn: GraphMemory, user_id: str) -> str:
    start = datetime.now(UTC) - timedelta(days=2)
    memory = dyn.add_messages(
        [{"role": "user", "content": "I'm allergic to peanuts.", "timestamp": start}],
        user_id=user_id,
        session_id="s",
    )[0]
    assert dyn.facts.get(user_id, "allergy:peanuts") is not None
    return memory.id


def test_a_merge_keeps_the_evidence_of_the_memory_it_absorbed(dyn: GraphMemory, user_id: str) -> None:
    """Consolidate keeps the older of two duplicates and supersedes the newer, whose DERIVED_FROM edge stays
    where it was: the survivor stands for its statement (the review of round 59 showed it forgotten)."""
    absorbed = _allergy(dyn, user_id)
    survivor = dyn.remember("No peanuts for me, ever: allergic.", user_id=user_id).id
    dyn.runtime.store.run_statement(
        "MATCH (a:Memory {id: $a}), (b:Memory {id: $b}) CREATE (a)-[:MERGED_INTO]->(b) "
        "SET a.status = 'superseded', a.merged_into = b.id",
        {"a": absorbed, "b": survivor},
    )
    later = datetime.now(UTC) + timedelta(days=400)
    for job in ("decay", "forget"):
        assert dyn.jobs.run(job, user_id=user_id, now=later).status == "success"
    assert _status(dyn, user_id)["No peanuts for me, ever: allergic."] != "forgotten"


def test_the_evidence_is_never_deleted_nor_resolved_away(dyn: GraphMemory, user_id: str) -> None:
    """Forgotten before round 59 (or by hand), the statement behind a current fact outlives the grace
    period; and a conflict the consolidate job resolves does not forget it (it stays open)."""
    kept = _allergy(dyn, user_id)
    newer = dyn.remember("Peanuts are fine for me now.", user_id=user_id).id
    dyn.memories.link(kept, newer, "CONFLICTS_WITH")
    assert dyn.jobs.run("consolidate", user_id=user_id).status == "success"
    assert _status(dyn, user_id)["I'm allergic to peanuts."] != "forgotten"
    dyn.runtime.store.run_statement(
        "MATCH (m:Memory {id: $id}) SET m.status = 'forgotten', m.forgotten_reason = 'decayed', "
        "m.forgotten_at = $at",
        {"id": kept, "at": datetime.now(UTC) - timedelta(days=40)},
    )
    assert dyn.jobs.run("forget", user_id=user_id).status == "success"
    assert _status(dyn, user_id)["I'm allergic to peanuts."] == "forgotten"  # kept, not deleted
