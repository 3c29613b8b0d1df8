"""Three real ``graphmem worker`` processes against one schedule on the spare server.

Each worker claims slots through ``JobSlot`` nodes (graphmem.automation.scheduler.slot_gate). Asserted: every
slot runs once (never twice, whichever worker fires), a worker killed with SIGKILL in the middle of a run is
replaced (the next slots run on the other workers), its run is marked ``interrupted``, not left ``running``,
and once its slot lease expires a survivor takes the slot over and reruns it (once).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from graphmem import GraphMemory, OnnxEmbedder, Settings
from graphmem.automation.config import JOB_NAMES
from graphmem.server import LocalServer

pytestmark = pytest.mark.reliability

FIGURES = Path(__file__).parents[2] / "benchmarks/cache/reliability"
SPEC = "every 5s"
CLONES = 1500
"""Memories the decay job rewrites (one per inner transaction), so a run lasts long enough to be killed."""


@pytest.fixture(scope="module")
def config_id() -> str:
    return f"test-workers-{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="module")
def wmem(spare: LocalServer, embedder: OnnxEmbedder, config_id: str) -> Iterator[GraphMemory]:
    settings = Settings(automation_config_id=config_id)
    with GraphMemory.connect(
        spare.status().bolt_uri, auth=spare.credentials(), settings=settings, embedder=embedder
    ) as mem:
        mem.init()
        yield mem


def _seed(mem: GraphMemory, user: str) -> None:
    """One real memory, then CLONES copies of it written by hand (the spare server is disposable)."""
    mem.remember("the orchard needs pruning in February", user_id=user)
    mem.runtime.store.run_statement(
        "MATCH (m:Memory {user_id: $u}) WITH m LIMIT 1 UNWIND range(1, $n) AS i "
        "CREATE (c:Memory) SET c = m {.*, id: randomUUID()}",
        {"u": user, "n": CLONES},
    )


def _workers(spare: LocalServer, config_id: str, n: int) -> list[subprocess.Popen[bytes]]:
    user, password = spare.credentials()
    env = {
        **os.environ,
        "NEO4J_URI": spare.status().bolt_uri,
        "NEO4J_USERNAME": user,
        "NEO4J_PASSWORD": password,
        "GRAPHMEM_AUTOMATION_CONFIG_ID": config_id,
        "GRAPHMEM_WORKER_POLL_SECONDS": "2",
    }
    cli = Path(sys.executable).with_name("graphmem")
    FIGURES.mkdir(parents=True, exist_ok=True)
    workers = []
    for i in range(n):  # to files: a pipe could fill and block a worker
        with (FIGURES / f"worker-{i}.log").open("wb") as log:
            workers.append(
                subprocess.Popen([str(cli), "worker"], env=env, stdout=log, stderr=subprocess.STDOUT)
            )
    return workers


def _runs(mem: GraphMemory, since: datetime) -> list[dict[str, Any]]:
    return mem.query(
        "MATCH (r:JobRun {job: 'decay', trigger: 'schedule'}) WHERE r.started_at >= $since "
        "RETURN r.id AS id, r.pid AS pid, r.status AS status, r.started_at AS started ORDER BY started",
        {"since": since},
    )


def test_three_worker_processes_share_one_schedule(
    spare: LocalServer, wmem: GraphMemory, config_id: str
) -> None:
    _seed(wmem, f"workers-{uuid.uuid4()}")
    config = wmem.automation.get_config()
    jobs = {name: {"enabled": name == "decay", "schedule": SPEC} for name in JOB_NAMES}
    wmem.automation.set_config({**config.model_dump(), "jobs": jobs, "batch_size": 1}, by="worker-test")
    since = datetime.now(UTC)
    workers = _workers(spare, config_id, 3)
    pids = {w.pid for w in workers}
    killed: int | None = None
    try:
        deadline = time.monotonic() + 600
        while killed is None:  # kill the worker of the first run caught in flight
            assert time.monotonic() < deadline, "no run was caught in flight"
            assert all(w.poll() is None for w in workers), (
                "a worker exited (benchmarks/cache/reliability/worker-*.log)"
            )
            running = [r for r in _runs(wmem, since) if r["status"] == "running" and r["pid"] in pids]
            if running:
                killed = int(running[0]["pid"])
                os.kill(killed, signal.SIGKILL)
            time.sleep(0.05)
        victim = next(w for w in workers if w.pid == killed)
        victim.wait(30)  # reaped, as a supervisor (systemd, the shell) does
        deadline = time.monotonic() + 600
        while True:  # the survivors take over: two more runs finished after the kill, the slot rerun
            after = [r for r in _runs(wmem, since) if r["pid"] != killed and r["status"] == "success"]
            if len(after) >= 2 and len(_retaken(wmem, config_id, killed)) == 1:
                break
            assert time.monotonic() < deadline, "the surviving workers did not take over"
            time.sleep(0.5)
    finally:
        _disable_all(wmem)  # the workers drop the job within a poll interval; the run in flight finishes
        _await_idle(wmem, since)
        for w in workers:
            if w.poll() is None:
                w.send_signal(signal.SIGTERM)
        for w in workers:
            try:
                w.wait(60)
            except subprocess.TimeoutExpired:
                w.kill()
                w.wait(10)

    runs = _runs(wmem, since)
    victim_runs = [r for r in runs if r["pid"] == killed]
    assert [r["status"] for r in victim_runs] == ["interrupted"], victim_runs
    assert {r["status"] for r in runs if r["pid"] != killed} == {"success"}, runs
    claims = wmem.query(
        "MATCH (s:JobSlot) WHERE s.id STARTS WITH $p RETURN s.owner AS owner, s.slot AS slot",
        {"p": config_id + "/"},
    )
    retaken = _retaken(wmem, config_id, killed)
    assert len(retaken) == 1 and retaken[0]["done"] and retaken[0]["takeovers"] == 1, retaken
    assert int(retaken[0]["owner"].split(":")[1]) in pids - {killed}
    claims_by_pid = Counter(int(c["owner"].split(":")[1]) for c in claims)
    runs_by_pid = Counter(int(r["pid"]) for r in runs)
    # one run per claimed slot, plus the killed worker's run whose slot a survivor took over and reran
    assert runs_by_pid == claims_by_pid + Counter({killed: 1}), (runs_by_pid, claims_by_pid)
    assert len({c["slot"] for c in claims}) == len(claims)  # and one claim per slot
    assert len(runs_by_pid) >= 2  # the schedule did not live on one worker
    FIGURES.mkdir(parents=True, exist_ok=True)
    (FIGURES / "workers.json").write_text(
        json.dumps(
            {
                "workers": 3,
                "schedule": SPEC,
                "runs": len(runs),
                "slots_claimed": len(claims),
                "runs_per_worker": sorted(runs_by_pid.values()),
                "killed_worker_run": [r["status"] for r in victim_runs],
                "slots_taken_over": len(retaken),
            },
            indent=2,
        )
        + "\n"
    )


def _retaken(mem: GraphMemory, config_id: str, killed: int) -> list[dict[str, Any]]:
    """The finished slots a survivor took over from the killed worker (lease expired)."""
    rows = mem.query(
        "MATCH (s:JobSlot) WHERE s.id STARTS WITH $p AND split(s.taken_from, ':')[1] = $pid AND s.done "
        "RETURN s {.*} AS s",
        {"p": config_id + "/", "pid": str(killed)},
    )
    return [dict(r["s"]) for r in rows]


def _disable_all(mem: GraphMemory) -> None:
    config = mem.automation.get_config()
    jobs = {name: {"enabled": False, "schedule": SPEC} for name in JOB_NAMES}
    mem.automation.set_config({**config.model_dump(), "jobs": jobs}, by="worker-test")


def _await_idle(mem: GraphMemory, since: datetime, budget: float = 600.0) -> None:
    """Until no run of a live worker is in flight (the workers re-read the config every 2 s)."""
    deadline = time.monotonic() + budget
    time.sleep(5)
    while any(r["status"] == "running" and _alive(int(r["pid"])) for r in _runs(mem, since)):
        assert time.monotonic() < deadline, "a run never finished"
        time.sleep(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
