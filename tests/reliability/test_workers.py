"""Several workers, one schedule: each slot runs once, coordinated through JobSlot claims in Neo4j."""

from __future__ import annotations

import threading
import time
import uuid
from collections import Counter
from datetime import UTC, datetime

from graphmem import GraphMemory
from graphmem.automation.scheduler import Scheduler, slot_gate, slot_of


def test_slots_are_shared_by_every_worker() -> None:
    spec = "every 2s"
    assert slot_of(spec, datetime(2026, 1, 1, 0, 0, 3, tzinfo=UTC)) == datetime(
        2026, 1, 1, 0, 0, 2, tzinfo=UTC
    )
    assert slot_of("0 3 * * *", datetime(2026, 1, 1, 3, 0, 1, 5, tzinfo=UTC)) == datetime(
        2026, 1, 1, 3, 0, tzinfo=UTC
    )


def test_three_workers_run_each_slot_once(mem: GraphMemory) -> None:
    config = f"test-workers-{uuid.uuid4().hex[:8]}"
    ran: list[tuple[int, datetime]] = []
    lock = threading.Lock()
    workers = []
    for n in range(3):

        def runner(name: str, n: int = n) -> None:
            with lock:
                ran.append((n, slot_of("every 2s", datetime.now(UTC))))

        workers.append(Scheduler(runner, gate=slot_gate(mem.runtime.store, config)))
    for worker in workers:
        worker.start()
        worker.add("review", "every 2s")
    time.sleep(9)
    for worker in workers:
        worker.shutdown(wait=True)
    per_slot = Counter(slot for _, slot in ran)
    assert len(per_slot) >= 3, ran
    assert set(per_slot.values()) == {1}, per_slot  # never twice in one slot
    claimed = mem.query(
        "MATCH (s:JobSlot) WHERE s.id STARTS WITH $p RETURN count(s) AS n", {"p": config + "/"}
    )[0]["n"]
    assert claimed == len(per_slot)
