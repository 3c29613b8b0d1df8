"""Graph shapes graphmem never writes, made by hand (the Neo4j Browser, a script): a write, a job or a GDPR
deletion still does its work, within its own tenant (round 53's probe of hand-made shapes, the cases it
left). Each assertion failed before its statement was changed."""

from __future__ import annotations

import os
import socket
import uuid
from datetime import UTC, datetime, timedelta

from conftest import by_time_alone

from graphmem import GraphMemory


def test_a_densely_linked_plan_still_takes_a_new_value_and_a_retraction(
    mem: GraphMemory, user_id: str
) -> None:
    """Six versions of a planned key, every pair linked by SUPERSEDES both ways (30 edges): the write of a
    new value and a retraction each read the plan's line by shortest paths, not by enumerating every trail
    (before: each ran into the transaction time limit, QueryTimeout)."""
    later = datetime.now(UTC) + timedelta(days=30)
    mem.facts.set(user_id, "plan", "move to Porto", valid_from=later)
    st = mem.runtime.store
    st.run_statement(
        """
        MATCH (p:Fact {user_id: $u, key: 'plan'})
        UNWIND range(1, 5) AS k
        CREATE (c:Fact) SET c = p {.*, id: randomUUID(), status: 'superseded', version: k + 10,
                                   expired_at: datetime(), value: 'copy ' + toString(k)}
        """,
        {"u": user_id},
    )
    st.run_statement(
        """
        MATCH (a:Fact {user_id: $u, key: 'plan'}), (b:Fact {user_id: $u, key: 'plan'}) WHERE a <> b
        CREATE (a)-[:SUPERSEDES {recorded_at: datetime()}]->(b)
        """,
        {"u": user_id},
    )
    mem.facts.set(user_id, "plan", "move to Faro", valid_from=later)
    started = later + timedelta(days=1)
    assert mem.facts.get(user_id, "plan", as_of=started).value == "move to Faro"
    mem.facts.retract(user_id, "plan")
    assert mem.facts.get(user_id, "plan", as_of=started) is None


def _edge_into_another_tenant(mem: GraphMemory, user_id: str) -> tuple[str, str]:
    """A memory of ``user_id`` linked by hand (RELATED_TO) to a memory of another tenant; their ids."""
    mine = mem.remember("I keep bees on the roof of the library", user_id=user_id)
    theirs = mem.remember("Zed keeps a boat in the harbour", user_id=f"{user_id}-other")
    mem.runtime.store.run_statement(
        "MATCH (a:Memory {id: $a}), (b:Memory {id: $b}) CREATE (a)-[:RELATED_TO {weight: 0.9}]->(b) "
        "SET b.decay_due = datetime('2999-01-01T00:00:00Z')",
        {"a": mine.id, "b": theirs.id},
    )
    return mine.id, theirs.id


def _decay_due(mem: GraphMemory, memory_id: str) -> datetime:
    rows = mem.runtime.store.run_statement(
        "MATCH (m:Memory {id: $id}) RETURN m.decay_due AS due", {"id": memory_id}
    )
    due: datetime = rows[0]["due"]
    return due


def test_deleting_a_memory_marks_no_neighbour_of_another_tenant(mem: GraphMemory, user_id: str) -> None:
    """A governed deletion (and the forget job's hard delete, the same marking) makes the deleted memory's
    neighbours due for decay: only those of its own tenant."""
    mine, theirs = _edge_into_another_tenant(mem, user_id)
    mem.memories.govern(mine, user_id=user_id, decision="delete")
    assert _decay_due(mem, theirs).year == 2999


def test_the_forget_jobs_hard_delete_marks_no_neighbour_of_another_tenant(
    mem: GraphMemory, user_id: str
) -> None:
    mine, theirs = _edge_into_another_tenant(mem, user_id)
    mem.runtime.store.run_statement(
        "MATCH (m:Memory {id: $id}) "
        "SET m.status = 'forgotten', m.forgotten_at = datetime('2020-01-01T00:00:00Z')",
        {"id": mine},
    )
    mem.jobs.run("forget", user_id=user_id)
    assert not mem.runtime.store.run_statement("MATCH (m:Memory {id: $id}) RETURN m", {"id": mine})
    assert _decay_due(mem, theirs).year == 2999


def test_consolidation_moves_no_edge_into_another_tenant(mem: GraphMemory, user_id: str) -> None:
    """A merged memory hands its edges to the survivor: those of its own tenant, not one made by hand into
    another tenant (which would be copied onto the survivor and mark that tenant's memory due)."""
    mine, theirs = _edge_into_another_tenant(mem, user_id)
    survivor = mem.remember("Bees live on the library roof, where I keep them", user_id=user_id)
    mem.runtime.store.run_statement(
        "MATCH (b:Memory {id: $b}), (a:Memory {id: $a}) SET b.status = 'superseded' "
        "CREATE (b)-[:MERGED_INTO]->(a)",
        {"a": survivor.id, "b": mine},
    )
    mem.jobs.run("consolidate", user_id=user_id)
    rows = mem.runtime.store.run_statement(
        "MATCH (a:Memory {id: $a})-[r]-(x:Memory {id: $x}) RETURN count(r) AS n",
        {"a": survivor.id, "x": theirs},
    )
    assert rows[0]["n"] == 0
    assert _decay_due(mem, theirs).year == 2999


def test_a_gdpr_deletion_finds_sessions_and_the_user_node_by_their_keys(
    mem: GraphMemory, user_id: str
) -> None:
    """A Session whose user_id was removed by hand still holds the user id in its key (uid), and a User node
    without user_id in its id: the deletion finds both by those keys (before: both survived it)."""
    mem.add_messages(["I moved to Lisbon in May."], user_id=user_id, session_id="s1")
    mem.facts.set(user_id, "city", "Lisbon")  # writes the User node
    st = mem.runtime.store
    st.run_statement("MATCH (n:Session {user_id: $u}) REMOVE n.user_id", {"u": user_id})
    st.run_statement("MATCH (n:User {id: $u}) REMOVE n.user_id", {"u": user_id})
    report = mem.users.delete(user_id)
    assert report.nodes.get("Session") == 1 and report.nodes.get("User") == 1, report.nodes
    left = st.run_statement(
        "MATCH (n) WHERE n.uid STARTS WITH $prefix OR (n:User AND n.id = $u) RETURN count(n) AS n",
        {"u": user_id, "prefix": f"{len(user_id)}:{user_id}/"},
    )
    assert left[0]["n"] == 0


def test_pruning_a_weak_edge_into_another_tenant_marks_nothing_there(auto: GraphMemory, user_id: str) -> None:
    mem = by_time_alone(auto)  # the tenant's two memories: nothing newer for the default rule to wait for
    mine, theirs = _edge_into_another_tenant(mem, user_id)
    mem.runtime.store.run_statement(
        "MATCH (:Memory {id: $a})-[r:RELATED_TO]->(:Memory {id: $b}) "
        "SET r.weight = 0.0001, r.weight_base = 0.0001, r.weight_due = datetime('2020-01-01T00:00:00Z')",
        {"a": mine, "b": theirs},
    )
    mem.jobs.run("forget", user_id=user_id)
    assert not mem.runtime.store.run_statement(
        "MATCH (:Memory {id: $a})-[r:RELATED_TO]->(:Memory {id: $b}) RETURN r", {"a": mine, "b": theirs}
    )  # pruned: the edge was the tenant's memory's
    assert _decay_due(mem, theirs).year == 2999


def _running_run(mem: GraphMemory, **fields: object) -> str:
    """A JobRun of the decay job left ``running`` with ``fields`` (as a process recorded it, or a hand)."""
    run_id = f"run-{uuid.uuid4()}"
    mem.runtime.store.run_statement(
        "CREATE (r:JobRun {id: $id, job: 'decay', status: 'running', started_at: datetime(), "
        "heartbeat_at: datetime(), trigger: 'manual'}) SET r += $fields",
        {"id": run_id, "fields": fields},
    )
    return run_id


def _status(mem: GraphMemory, run_id: str) -> str:
    rows = mem.runtime.store.run_statement("MATCH (r:JobRun {id: $id}) RETURN r.status AS s", {"id": run_id})
    return str(rows[0]["s"])


def test_a_running_job_run_with_a_hand_written_pid_fails_no_job(auto: GraphMemory, user_id: str) -> None:
    """Every job run first looks for runs whose process died; a run whose pid was not a number (written by
    hand) made every run of that job raise ValueError (int('abc')); a heartbeat of another type, TypeError."""
    auto.remember("I adopted a dog named Rex", user_id=user_id)  # a job skips a user of no data
    odd = [_running_run(auto, host=socket.gethostname(), pid="abc"), _running_run(auto, heartbeat_at="soon")]
    try:
        assert auto.jobs.run("decay", user_id=user_id).status == "success"
        assert _status(auto, odd[1]) == "interrupted"  # silent (no readable heartbeat), not of this machine
    finally:
        auto.runtime.store.run_statement("MATCH (r:JobRun) WHERE r.id IN $ids DETACH DELETE r", {"ids": odd})


def test_a_run_of_a_container_sharing_this_host_name_is_not_judged(auto: GraphMemory, user_id: str) -> None:
    """Two containers with one host name (Docker's host network, a Kubernetes pod) see different processes;
    both may be pid 1. A run recorded by the other, with this process's pid, read as this process's lost run
    and was marked interrupted while it ran; its holder (machine and pid) tells them apart."""
    other = f"{socket.gethostname()}/another-boot/4026531836#{os.getpid()}"
    run_id = _running_run(auto, host=socket.gethostname(), pid=os.getpid(), owner=other)
    try:
        auto.jobs.run("decay", user_id=user_id)
        assert _status(auto, run_id) == "running"
    finally:
        auto.runtime.store.run_statement("MATCH (r:JobRun {id: $id}) DETACH DELETE r", {"id": run_id})
