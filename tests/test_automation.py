"""The automation control plane on the real server: stored config, drift, health, interrupted runs, CLI."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from typer.testing import CliRunner

from graphmem import GraphMemory, OnnxEmbedder, Settings, ValidationError, VersionConflict
from graphmem.automation.config import DEFAULT_SCHEDULES, AutomationConfig
from graphmem.automation.scheduler import Scheduler
from graphmem.cli.main import app
from graphmem.errors import MAX_MESSAGE_CHARS
from graphmem.store.queries import expand


def test_config_is_stored_versioned_and_checked(auto: GraphMemory) -> None:
    cfg = auto.automation.get_config()
    assert cfg.version == 0 and cfg.dynamics.preset == "balanced"
    v1 = auto.automation.set_config(cfg.with_job("decay", schedule="every 30m"))
    assert v1.version == 1 and auto.automation.get_config().jobs["decay"].schedule == "every 30m"
    with pytest.raises(VersionConflict):
        auto.automation.set_config(cfg.with_job("decay", schedule="every 5m"))  # read at version 0
    bad_rate = cfg.dynamics.model_copy(update={"strength_decay": {**cfg.dynamics.strength_decay, "P2": -0.1}})
    for bad in [
        v1.model_copy(update={"dynamics": bad_rate}),
        v1.model_copy(update={"dynamics": v1.dynamics.model_copy(update={"forget_retention": 1.5})}),
        {**v1.model_dump(), "jobs": {**v1.model_dump()["jobs"], "forget": {"schedule": "0 25 * * *"}}},
    ]:
        with pytest.raises(ValidationError):
            auto.automation.set_config(bad)
    with pytest.raises(ValidationError):
        v1.with_job("decay", schedule="every now and then")
    stored = auto.automation.get_config()
    assert stored.version == 1 and stored == v1  # unchanged by the rejected writes
    history = auto.query(
        "MATCH (h:AutomationConfigVersion {config_id: $id}) RETURN count(h) AS n",
        {"id": auto.automation.config_id},
    )
    assert history[0]["n"] == 1
    assert AutomationConfig.from_preset("aggressive").dynamics.preset == "aggressive"


def test_drift_is_detected_and_reconciled(auto: GraphMemory) -> None:
    auto.scheduler.start(paused=True)  # paused: nothing fires during the test
    try:
        assert {s.state for s in auto.jobs.list()} == {"missing"}
        assert {s.state for s in auto.jobs.reconcile()} == {"scheduled"}
        auto.scheduler.add("decay", "every 5m")  # someone changed the live scheduler
        states = {s.name: s for s in auto.jobs.list()}
        assert states["decay"].state == "drifted" and states["decay"].scheduled_as == "every 5m"
        assert {s.name: s.state for s in auto.jobs.reconcile()}["decay"] == "scheduled"
        status = auto.jobs.disable("review")  # reconciled at once while the scheduler runs
        assert status.state == "disabled" and not status.enabled
        assert auto.jobs.enable("review").state == "scheduled"
        assert "scheduler_not_running" not in auto.automation.health().reasons
    finally:
        auto.scheduler.shutdown()
    assert "scheduler_not_running" in auto.automation.health().reasons


def test_a_missing_plugin_is_reported_without_degrading_health(
    server: Any, embedder: OnnxEmbedder, config_id: str, user_id: str
) -> None:
    """A Neo4j without APOC and GDS serves graphmem fully: the plugins show in the details, the jobs run."""
    settings = Settings(automation_config_id=config_id, gds_probe="gds.not.installed", apoc_probe="apoc.nope")
    with GraphMemory.connect(settings=settings, embedder=embedder) as mem:
        health = mem.automation.health()
        assert health.details["plugins"]["gds"] is False and health.details["plugins"]["apoc"] is False
        assert not any("gds" in r or "apoc" in r for r in health.reasons), health.reasons
        assert health.details["associate_method"] == "knn"
        mem.remember("I like green tea", user_id=user_id)
        mem.remember("Green tea is my favourite drink", user_id=user_id)
        run = mem.jobs.run("associate", user_id=user_id)
        assert run.counts["method"] == "knn" and run.counts["edges"] > 0  # the first pass needs no GDS
    with GraphMemory.connect(settings=Settings(automation_config_id=config_id), embedder=embedder) as mem:
        health = mem.automation.health()
        assert health.details["plugins"]["gds"] is True and health.details["plugins"]["apoc"] is True
        assert "vector_index_missing" not in health.reasons


def test_cli_health_names_the_absent_optional_plugins(mem: GraphMemory) -> None:
    from typer.testing import CliRunner

    from graphmem.cli.main import app

    env = {"GRAPHMEM_GDS_PROBE": "gds.not.installed", "GRAPHMEM_APOC_PROBE": "apoc.nope"}
    absent = CliRunner().invoke(app, ["health"], env=env)
    assert "optional plugins not installed: apoc, gds" in absent.output, absent.output
    assert "optional plugins" not in CliRunner().invoke(app, ["health"]).output


def _bulk_memories(mem: GraphMemory, user_id: str, n: int, created: datetime) -> None:
    mem.runtime.store.run_statement(
        "UNWIND range(1, $n) AS i CREATE (m:Memory {id: randomUUID()}) "
        "SET m.user_id = $u, m.content = 'bulk ' + i, m.memory_type = 'episodic', m.priority = 'P3', "
        "m.strength = 1.0, m.retention = 1.0, m.access_count = 0, m.status = 'active', m.layer = 'working', "
        "m.created_at = $t",  # no decay_due: written outside graphmem, the first decay run migrates them
        {"n": n, "u": user_id, "t": created},
    )


def _until_settled(mem: GraphMemory, user_id: str) -> None:
    """Wait until the tenant's decayed count stops moving: a statement whose client was killed runs on in the
    server until it notices (one more inner transaction committed after the count was read: 5 memories)."""
    count = "MATCH (m:Memory {user_id: $u}) WHERE m.strength_rate IS NOT NULL RETURN count(m) AS n"
    last, still = -1, 0
    deadline = time.monotonic() + 30
    while still < 5 and time.monotonic() < deadline:
        n = mem.query(count, {"u": user_id})[0]["n"]
        still, last = (still + 1, n) if n == last else (0, n)
        time.sleep(0.2)


def test_a_killed_job_is_marked_interrupted_and_a_rerun_completes_it(
    auto: GraphMemory, config_id: str, user_id: str
) -> None:
    created = datetime(2025, 1, 1, tzinfo=UTC)
    now = created + timedelta(days=5)
    _bulk_memories(auto, user_id, 6000, created)
    cfg = auto.automation.get_config()
    auto.automation.set_config(cfg.model_copy(update={"batch_size": 5}))  # many small transactions
    script = (
        "import sys; from datetime import datetime; from graphmem import GraphMemory\n"
        "class E:\n    dimension = 384\n    def embed(self, texts): return [[0.0] * 384 for _ in texts]\n"
        "mem = GraphMemory.connect(embedder=E())\n"
        "mem.jobs.run('decay', user_id=sys.argv[1], now=datetime.fromisoformat(sys.argv[2]))\n"
    )
    env = {**os.environ, "GRAPHMEM_AUTOMATION_CONFIG_ID": config_id}
    proc = subprocess.Popen([sys.executable, "-c", script, user_id, now.isoformat()], env=env)
    done = 0
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            done = auto.query(
                "MATCH (m:Memory {user_id: $u}) WHERE m.strength_rate IS NOT NULL RETURN count(m) AS n",
                {"u": user_id},
            )[0]["n"]
            if done >= 200:
                os.kill(proc.pid, signal.SIGKILL)
                break
            time.sleep(0.02)
    finally:
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL, "the job finished before it could be killed"
    _until_settled(auto, user_id)  # the server finishes the inner transaction it was running: then it stops
    left = auto.automation.runs(5, job="decay", user_id=user_id)
    assert left[0].status == "running"  # the killed process could not record anything
    partial = auto.query(
        "MATCH (m:Memory {user_id: $u}) RETURN count(m.strength_rate) AS done, count(m) AS total",
        {"u": user_id},
    )[0]
    assert 0 < partial["done"] < partial["total"] == 6000
    # each committed batch is consistent on its own: decayed memories carry the strength of 5 days
    rerun = auto.jobs.run("decay", user_id=user_id, now=now)
    # only what moved is written: the memories the killed run left
    assert rerun.status == "success" and rerun.counts["memories"] == 6000 - partial["done"]
    runs = {r.id: r for r in auto.automation.runs(5, job="decay", user_id=user_id)}
    assert runs[left[0].id].status == "interrupted"
    final = auto.query(
        expand(
            "MATCH (m:Memory {user_id: $u}) WITH m, {{strength_now(m, $now)}} AS s "
            "RETURN min(s) AS lo, max(s) AS hi, count(m.strength_rate) AS done"
        ),
        {"u": user_id, "now": now},
    )[0]
    assert final["done"] == 6000
    assert final["lo"] == pytest.approx(0.9**5) and final["hi"] == pytest.approx(0.9**5)
    auto.runtime.store.run_statement("MATCH (m:Memory {user_id: $u}) DETACH DELETE m", {"u": user_id})


def test_failed_runs_are_recorded(auto: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    store = auto.runtime.store
    real = store.write_auto

    def flaky(name: str, /, **params: Any) -> list[dict[str, Any]]:
        if name == "forget_hard":
            raise RuntimeError("disk on fire")
        return real(name, **params)

    auto.remember("I adopted a dog named Rex", user_id=user_id)  # a job skips a user of no data
    monkeypatch.setattr(store, "write_auto", flaky)
    run = auto.jobs.run("forget", user_id=user_id)
    assert run.status == "failed" and "disk on fire" in (run.error or "")
    assert "soft_forgotten" in run.counts and "hard_deleted" not in run.counts
    assert auto.automation.runs(1, job="forget", user_id=user_id)[0].id == run.id


def test_a_failed_run_logs_its_message_capped(
    auto: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The runner logged only the exception's type name ('job consolidate failed: TypeError'); the run that
    keeps the message is deleted with its user, so the log is all that is left of why. A line at INFO carries
    the message, capped as a graphmem error's is (the run's recorded error too); the WARNING names the type
    and the run (no stored text at WARNING: STYLE's quiet logging)."""
    store = auto.runtime.store
    real = store.write_auto
    said = ["'<' not supported between instances of 'NoneType' and 'int'"]

    def failing(name: str, /, **params: Any) -> list[dict[str, Any]]:
        if name == "promote_common":
            raise TypeError(said[0])
        return real(name, **params)

    auto.remember("I adopted a dog named Rex", user_id=user_id)  # a job skips a user of no data
    monkeypatch.setattr(store, "write_auto", failing)
    with caplog.at_level(logging.INFO, logger="graphmem.dynamics.jobs"):
        run = auto.jobs.run("promote", user_id=user_id)
    assert run.status == "failed"
    assert f"job promote failed: TypeError: {said[0]}" in caplog.messages
    warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warned == [f"job promote failed: TypeError (run {run.id})"]
    said[0] = "x" * 10 * MAX_MESSAGE_CHARS
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="graphmem.dynamics.jobs"):
        run = auto.jobs.run("promote", user_id=user_id)
    (line,) = [m for m in caplog.messages if m.startswith("job promote failed: TypeError: xxx")]
    assert len(line) <= len("job promote failed: ") + MAX_MESSAGE_CHARS and "characters left out" in line
    assert run.error is not None and len(run.error) <= MAX_MESSAGE_CHARS


def test_the_scheduler_runs_jobs_on_their_schedule(auto: GraphMemory, user_id: str) -> None:
    # A scheduler scoped to this test's tenant: the library's own runs jobs for all users.
    auto.remember("I adopted a dog named Rex", user_id=user_id)  # a job skips a user of no data
    sched = Scheduler(lambda name: auto.jobs.run(name, user_id=user_id, trigger="schedule"))
    sched.start()
    try:
        sched.add("review", "every 1s")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not auto.automation.runs(5, job="review", user_id=user_id):
            time.sleep(0.2)
    finally:
        sched.shutdown()
    runs = auto.automation.runs(5, job="review", user_id=user_id)
    assert runs and runs[0].trigger == "schedule" and runs[0].status == "success"


@pytest.mark.parametrize("job", ["topics", "adapt"])
def test_the_scheduler_runs_the_per_tenant_jobs_and_they_skip_a_quiet_tenant(
    auto: GraphMemory, user_id: str, job: str
) -> None:
    for text in ["My beagle Rex loves the park", "Rex the beagle sleeps all day", "I walk Rex, my beagle"]:
        auto.remember(text, user_id=user_id)
    hit = auto.recall("beagle", user_id=user_id, reinforce=False)[0]
    auto.memories.feedback(hit.memory.id, user_id=user_id, useful=True, query="my dog")
    assert auto.jobs.status(job).schedule == DEFAULT_SCHEDULES[job] and auto.jobs.status(job).enabled
    sched = Scheduler(lambda name: auto.jobs.run(name, user_id=user_id, trigger="schedule"))
    sched.start()
    try:
        sched.add(job, "every 1s")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and len(auto.automation.runs(5, job=job, user_id=user_id)) < 2:
            time.sleep(0.2)
    finally:
        sched.shutdown()
    first, second = reversed(auto.automation.runs(5, job=job, user_id=user_id)[-2:])
    assert {first.trigger, second.trigger} == {"schedule"} and {first.status, second.status} == {"success"}
    assert first.counts["users"] == 1 and first.counts["skipped"] == 0
    assert first.counts["rebuilt" if job == "topics" else "adapted"] == 1, first.counts
    assert second.counts["users"] == 1 and second.counts["skipped"] == 1, second.counts  # nothing new


def test_cli_jobs_and_health(auto: GraphMemory, config_id: str, user_id: str) -> None:
    runner = CliRunner()
    env = {"GRAPHMEM_AUTOMATION_CONFIG_ID": config_id}
    listed = runner.invoke(app, ["jobs", "list", "--json"], env=env)
    assert listed.exit_code == 0 and '"decay"' in listed.stdout
    auto.remember("I adopted a dog named Rex", user_id=user_id)  # a user of nothing stored: exit 4
    ran = runner.invoke(app, ["jobs", "run", "review", "--user", user_id, "--json"], env=env)
    assert ran.exit_code == 0 and '"success"' in ran.stdout
    assert runner.invoke(app, ["jobs", "disable", "promote"], env=env).exit_code == 0
    assert auto.automation.get_config().jobs["promote"].enabled is False
    assert runner.invoke(app, ["jobs", "run", "nope"], env=env).exit_code == 1
    health = runner.invoke(app, ["health", "--json"], env=env)
    assert health.exit_code in (0, 2) and '"status"' in health.stdout
