"""A worker asked to stop (SIGTERM, Ctrl-C) waits for the job it is running (probe of round 58): its loop
returned at once and `graphmem worker` closed the driver under the running job, which then failed on
"Driver closed", logged a traceback and stayed `running` in the store with its slot unfinished."""

from __future__ import annotations

import threading
import time

from graphmem import GraphMemory
from graphmem.automation.scheduler import Scheduler
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
