"""kill -9 of Neo4j (the spare server, never the shared one) mid-ingest, mid-job and mid-delete.

Each test kills the server's JVM with SIGKILL while graphmem is writing, restarts it (crash recovery), and
checks what the issue asks: every acknowledged write survives, a rerun completes without duplicates, a job
run is not left ``running``, a deletion's tombstone counts everything. The figures of each run are written to
``benchmarks/cache/reliability/kill9-<case>.json`` (read by benchmarks/results/reliability.md's author).
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from neo4j import GraphDatabase

from graphmem import GraphMemError, GraphMemory, OnnxEmbedder
from graphmem.governance import users as governance_users
from graphmem.server import LocalServer
from tests.reliability import spare as spare_mod

pytestmark = pytest.mark.reliability

FIGURES = Path(__file__).parents[2] / "benchmarks/cache/reliability"
BATCHES = 40
TURNS = 5

_WHO = ["my sister", "our landlord", "the dentist", "my manager", "a neighbour", "my cousin", "the plumber"]
_DID = ["moved to", "opened a bakery in", "ran a marathon in", "lost a wallet in", "studied botany in"]
_WHERE = ["Oslo", "Lima", "Hanoi", "Perth", "Quito", "Tunis", "Riga", "Accra", "Cusco", "Bergen", "Izmir"]


def turns(batch: int) -> list[str]:
    """Five distinct user turns of one batch (the same for a batch on every call: reruns repeat them)."""
    return [
        f"{_WHO[(batch + j) % len(_WHO)]} {_DID[(3 * batch + j) % len(_DID)]} "
        f"{_WHERE[(5 * batch + 7 * j) % len(_WHERE)]} in {1900 + 2 * batch + j}"
        for j in range(TURNS)
    ]


def record(case: str, figures: dict[str, Any]) -> None:
    FIGURES.mkdir(parents=True, exist_ok=True)
    (FIGURES / f"kill9-{case}.json").write_text(json.dumps(figures, indent=2, default=str) + "\n")


@pytest.fixture(scope="module")
def smem(spare: LocalServer, embedder: OnnxEmbedder) -> Iterator[GraphMemory]:
    """graphmem on the spare server; the same client object lives through every kill and restart."""
    with GraphMemory.connect(spare.status().bolt_uri, auth=spare.credentials(), embedder=embedder) as mem:
        mem.init()
        yield mem


def ready(mem: GraphMemory, budget: float = 300.0) -> None:
    """Wait until the restarted server answers graphmem (the default database may still be recovering)."""
    deadline = time.monotonic() + budget
    while True:
        try:
            mem.query("RETURN 1 AS one")
            return
        except GraphMemError:
            if time.monotonic() > deadline:
                raise
            time.sleep(1.0)


def count(spare: LocalServer, cypher: str, **params: Any) -> int:
    """One number, read on a connection of its own (the watcher's view, not graphmem's)."""
    with GraphDatabase.driver(spare.status().bolt_uri, auth=spare.credentials()) as driver:
        return int(driver.execute_query(cypher, params).records[0][0])


def kill_when(spare: LocalServer, condition: Callable[[Any], bool], budget: float = 600.0) -> int:
    """Poll ``condition(driver)`` on a watcher connection; SIGKILL the server the moment it holds."""
    deadline = time.monotonic() + budget
    with GraphDatabase.driver(spare.status().bolt_uri, auth=spare.credentials()) as driver:
        while not condition(driver):
            if time.monotonic() > deadline:
                raise AssertionError("the condition for the kill never held")
            time.sleep(0.01)
    return spare_mod.kill9(spare)


def restart(spare: LocalServer, mem: GraphMemory) -> float:
    seconds = spare_mod.start(spare)
    ready(mem)
    return seconds


def test_kill9_mid_ingest(spare: LocalServer, smem: GraphMemory) -> None:
    """40 idempotent batches of 5 turns; SIGKILL once 5 are acknowledged. After the restart every
    acknowledged memory is there; rerunning all 40 batches returns the same ids for the acknowledged ones
    and stores each memory once."""
    user = f"kill-ingest-{uuid.uuid4()}"
    acked: dict[int, list[str]] = {}
    failed: list[tuple[int, str]] = []

    def ingest() -> None:
        for b in range(BATCHES):
            try:
                done = smem.add_messages(turns(b), user_id=user, session_id="s", idempotency_key=f"b{b}")
            except GraphMemError as exc:
                failed.append((b, type(exc).__name__))
                return
            acked[b] = [m.id for m in done]

    worker = threading.Thread(target=ingest)
    worker.start()
    spare_mod_pid = kill_when(spare, lambda _: len(acked) >= 5 or not worker.is_alive())
    worker.join(300)
    assert failed, "the ingest finished before the kill landed"
    seconds = restart(spare, smem)

    stored = {r["id"] for r in smem.query("MATCH (m:Memory {user_id: $u}) RETURN m.id AS id", {"u": user})}
    acknowledged = {i for ids in acked.values() for i in ids}
    lost = sorted(acknowledged - stored)
    assert lost == [], f"{len(lost)} acknowledged memories lost"

    rerun = {
        b: [m.id for m in smem.add_messages(turns(b), user_id=user, session_id="s", idempotency_key=f"b{b}")]
        for b in range(BATCHES)
    }
    assert {b: rerun[b] for b in acked} == acked  # idempotent: the acknowledged batches answer their ids
    every = {i for ids in rerun.values() for i in ids}
    total = count(spare, "MATCH (m:Memory) WHERE m.user_id = $u RETURN count(m)", u=user)
    assert total == len(every), "a rerun stored a memory twice"
    record(
        "ingest",
        {
            "batches": BATCHES,
            "acknowledged_batches": len(acked),
            "acknowledged_memories": len(acknowledged),
            "in_flight_batch": failed[0],
            "in_flight_committed": bool(set(rerun[failed[0][0]]) & stored),
            "lost": len(lost),
            "memories_after_rerun": total,
            "killed_pid": spare_mod_pid,
            "restart_seconds": round(seconds, 1),
        },
    )


def _memories(mem: GraphMemory, user: str, batches: int) -> int:
    made = 0
    for b in range(batches):
        made += len(mem.add_messages(turns(b), user_id=user, session_id="s", idempotency_key=f"b{b}"))
    return made


def test_kill9_mid_job(spare: LocalServer, smem: GraphMemory) -> None:
    """A decay run (two rows per inner transaction, so it lasts) is killed once its JobRun is recorded; after
    the restart the rerun succeeds and the killed run is not left ``running``."""
    user = f"kill-job-{uuid.uuid4()}"
    _memories(smem, user, 20)
    config = smem.automation.get_config()
    smem.automation.set_config(config.model_copy(update={"batch_size": 2}), by="kill9-test")
    clock = datetime.now(UTC) + timedelta(days=30)  # everything moves: every memory is written
    outcome: list[Any] = []

    def job() -> None:
        try:
            outcome.append(smem.jobs.run("decay", user_id=user, now=clock))
        except GraphMemError as exc:
            outcome.append(exc)

    def running(driver: Any) -> bool:
        rows = driver.execute_query(
            "MATCH (r:JobRun {job: 'decay', user_id: $u, status: 'running'}) RETURN count(r) AS n",
            {"u": user},
        ).records
        return int(rows[0]["n"]) > 0 or not runner.is_alive()

    try:
        runner = threading.Thread(target=job)
        runner.start()
        kill_when(spare, running)
        runner.join(300)
        assert outcome and isinstance(outcome[0], GraphMemError), f"the job was not in flight: {outcome}"
        seconds = restart(spare, smem)
        killed = smem.query(
            "MATCH (r:JobRun {job: 'decay', user_id: $u}) RETURN r.id AS id, r.status AS status", {"u": user}
        )
        assert [r["status"] for r in killed] == ["running"]  # what the kill left behind
        rerun = smem.jobs.run("decay", user_id=user, now=clock)
        assert rerun.status == "success", rerun.error
        after = {
            r["id"]: r["status"]
            for r in smem.query(
                "MATCH (r:JobRun {job: 'decay', user_id: $u}) RETURN r.id AS id, r.status AS status",
                {"u": user},
            )
        }
        assert after[killed[0]["id"]] in ("interrupted", "failed"), after
        assert "running" not in after.values()
    finally:
        current = smem.automation.get_config()
        smem.automation.set_config(current.model_copy(update={"batch_size": config.batch_size}), by="test")
    record(
        "job",
        {
            "job": "decay",
            "killed_run_status_after_rerun": after[killed[0]["id"]],
            "rerun_counts": rerun.counts,
            "restart_seconds": round(seconds, 1),
        },
    )


def test_kill9_mid_delete(spare: LocalServer, smem: GraphMemory, monkeypatch: pytest.MonkeyPatch) -> None:
    """delete_user (one node per inner transaction, so it lasts) is killed once part of the user is gone;
    the rerun completes, nothing of the user is left, and the tombstone counts every memory."""
    user = f"kill-delete-{uuid.uuid4()}"
    made = _memories(smem, user, 12)
    memories = count(spare, "MATCH (m:Memory) WHERE m.user_id = $u RETURN count(m)", u=user)
    nodes = count(spare, "MATCH (n) WHERE n.user_id = $u RETURN count(n)", u=user)
    monkeypatch.setattr(governance_users, "BATCH", 1)
    outcome: list[Any] = []

    def delete() -> None:
        try:
            outcome.append(smem.users.delete(user))
        except GraphMemError as exc:
            outcome.append(exc)

    def partly_gone(driver: Any) -> bool:
        rows = driver.execute_query(
            "MATCH (n) WHERE n.user_id = $u RETURN count(n) AS n", {"u": user}
        ).records
        return int(rows[0]["n"]) < nodes or not runner.is_alive()

    runner = threading.Thread(target=delete)
    runner.start()
    kill_when(spare, partly_gone)
    runner.join(300)
    assert outcome and isinstance(outcome[0], GraphMemError), f"the deletion was not in flight: {outcome}"
    seconds = restart(spare, smem)
    left = count(spare, "MATCH (n) WHERE n.user_id = $u RETURN count(n)", u=user)
    assert 0 < left < nodes or left == 0
    report = smem.users.delete(user)
    assert count(spare, "MATCH (n) WHERE n.user_id = $u RETURN count(n)", u=user) == 0
    assert report.nodes.get("Memory") == memories
    tombstone = [e for e in smem.temporal.audit_log(user_id=user) if e.action == "delete_user"]
    assert len(tombstone) == 1 and tombstone[0].details["nodes"]["Memory"] == memories
    assert smem.users.delete(user).deleted == 0
    record(
        "delete",
        {
            "memories": memories,
            "made": made,
            "nodes": nodes,
            "left_after_kill": left,
            "tombstone": tombstone[0].details,
            "restart_seconds": round(seconds, 1),
        },
    )
