"""The worker loop (probe of round 58). Asked to stop (SIGTERM, Ctrl-C) it waits for the job it is running:
it returned at once and `graphmem worker` closed the driver under the running job, which then failed on
"Driver closed", logged a traceback and stayed `running` in the store with its slot unfinished. And a poll
the database cannot answer no longer ends it."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from graphmem import ConnectionFailed, GraphMemory
from graphmem.automation.config import AutomationConfig
from graphmem.automation.scheduler import Scheduler
from graphmem.config import Settings
from graphmem.dynamics.jobs import Jobs


def test_the_worker_loop_returns_after_the_running_job_ends(auto: GraphMemory) -> None:
    config = auto.automation.get_config().model_dump()
    for name, job in config["jobs"].items():
        job["enabled"] = name == "review"
    config["jobs"]["review"]["schedule"] = "every 1s"
    auto.automation.set_config(config)  # this test's own automation config (the `auto` fixture)
    started, ended = threading.Event(), threading.Event()

    def runner(name: str) -> None:  # stands in for Jobs.run: the test touches no tenant's data
        started.set()
        time.sleep(1.5)
        ended.set()

    jobs = Jobs(auto.runtime, auto.automation, Scheduler(runner))
    stop = threading.Event()
    loop = threading.Thread(target=jobs.work, args=(stop,))
    loop.start()
    try:
        assert started.wait(10), "the scheduled job never started"
        stop.set()
        loop.join(10)
        assert not loop.is_alive()
        assert ended.is_set()  # work() returned only once the running job had ended
    finally:
        stop.set()
        jobs.clear_heartbeat()  # the loop's heartbeat for this test's config (a worker's Scheduler clears it)
    left = auto.query("MATCH (h:SchedulerHeartbeat {id: $id}) RETURN h", {"id": auto.automation.config_id})
    assert not left


def test_the_worker_loop_outlives_the_database_going_away(
    server: Any, embedder: Any, config_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A poll the database cannot answer (it restarts) is logged and made again at the next poll: the first
    ConnectionFailed ended `graphmem worker` (exit 1), so a Neo4j restart stopped every schedule."""
    settings = Settings(automation_config_id=config_id, worker_poll_seconds=0.1)
    with GraphMemory.connect(settings=settings, embedder=embedder) as mem:
        config = mem.automation.get_config().model_dump()
        for name, job in config["jobs"].items():
            job["enabled"] = name == "review"
        mem.automation.set_config(config)  # review every hour: nothing runs during the test
        reads = {"n": 0}
        real = mem.automation.get_config

        def flaky() -> AutomationConfig:
            reads["n"] += 1
            if reads["n"] <= 2:
                raise ConnectionFailed("Neo4j is unreachable (test)")
            return real()

        monkeypatch.setattr(mem.automation, "get_config", flaky)
        jobs = Jobs(mem.runtime, mem.automation, Scheduler(lambda name: None))
        stop, failed = threading.Event(), []

        def work() -> None:
            try:
                jobs.work(stop)
            except BaseException as exc:
                failed.append(exc)

        loop = threading.Thread(target=work)
        loop.start()
        try:
            deadline = time.monotonic() + 10
            while reads["n"] < 4 and time.monotonic() < deadline and loop.is_alive():
                time.sleep(0.05)
            assert not failed and loop.is_alive()
            assert reads["n"] >= 4  # it polled again after the two failed reads
            assert (jobs._scheduler.scheduled() or {}).get("review") == "every 1h"
        finally:
            stop.set()
            loop.join(10)
            jobs.clear_heartbeat()


def test_closing_a_memory_lets_its_schedulers_job_end(server: Any, embedder: Any, config_id: str) -> None:
    """``mem.scheduler`` (the in-process scheduler ``graphmem doctor`` suggests) was stopped without waiting
    by ``close()``, which then closed the driver under the running job, the worker's failure above (the
    stop review's finding). A synchronous client now waits for it."""
    started, ended = threading.Event(), threading.Event()

    def runner(name: str) -> None:  # stands in for Jobs.run: the test touches no tenant's data
        started.set()
        time.sleep(1.5)
        ended.set()

    mem = GraphMemory.connect(settings=Settings(automation_config_id=config_id), embedder=embedder)
    try:
        mem.scheduler._runner = runner
        mem.scheduler.start()
        mem.scheduler.add("review", "every 1s")
        assert started.wait(10), "the scheduled job never started"
    finally:
        mem.close()
    assert ended.is_set()  # close() returned only once the running job had ended
    assert not mem.scheduler.running
