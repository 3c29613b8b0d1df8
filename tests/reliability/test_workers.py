"""Several workers, one schedule: each slot runs once, coordinated through JobSlot claims in Neo4j."""

from __future__ import annotations

import threading
import time
import uuid
from collections import Counter
from datetime import UTC, datetime

from conftest import disposable

from graphmem import GraphMemory
from graphmem.automation.scheduler import Scheduler, SlotLease, slot_gate, slot_of


def test_slots_are_shared_by_every_worker() -> None:
    spec = "every 2s"
    assert slot_of(spec, datetime(2026, 1, 1, 0, 0, 3, tzinfo=UTC)) == datetime(
        2026, 1, 1, 0, 0, 2, tzinfo=UTC
    )
    assert slot_of("0 3 * * *", datetime(2026, 1, 1, 3, 0, 1, 5, tzinfo=UTC)) == datetime(
        2026, 1, 1, 3, 0, tzinfo=UTC
    )


def test_three_workers_run_each_slot_once(mem: GraphMemory) -> None:
    config = disposable(f"test-workers-{uuid.uuid4().hex[:8]}")
    runs: list[int] = []
    granted: list[datetime] = []  # the slot of every granted claim (a run's clock may be in the next one)
    lock = threading.Lock()

    class Recorded(SlotLease):
        def __call__(self, job: str, slot: datetime) -> bool:
            won = super().__call__(job, slot)
            if won:
                with lock:
                    granted.append(slot)
            return won

    workers = []
    for n in range(3):

        def runner(name: str, n: int = n) -> None:
            with lock:
                runs.append(n)

        workers.append(Scheduler(runner, gate=Recorded(mem.runtime.store, config, 90.0)))
    for worker in workers:
        worker.start()
        worker.add("review", "every 2s")
    time.sleep(9)
    for worker in workers:
        worker.shutdown(wait=True)
    per_slot = Counter(granted)
    assert len(per_slot) >= 3, granted
    assert set(per_slot.values()) == {1}, per_slot  # no slot granted twice
    assert len(runs) == len(granted), (runs, granted)  # every run had a slot of its own
    claimed = mem.query(
        "MATCH (s:JobSlot) WHERE s.id STARTS WITH $p RETURN count(s) AS n", {"p": config + "/"}
    )[0]["n"]
    assert claimed == len(per_slot)


def _slot(mem: GraphMemory, sid: str) -> dict[str, object]:
    rows = mem.query("MATCH (s:JobSlot {id: $id}) RETURN s {.*} AS s", {"id": sid})
    return dict(rows[0]["s"])


def test_an_expired_lease_is_taken_over_once_and_a_done_slot_never(mem: GraphMemory) -> None:
    config = f"test-lease-{uuid.uuid4().hex[:8]}"
    store = mem.runtime.store
    a, b, c = (slot_gate(store, config, lease=1.0) for _ in range(3))
    slot = slot_of("every 2s", datetime.now(UTC))
    sid = a.slot_id("review", slot)
    assert a("review", slot) and not b("review", slot)
    assert b.take_expired() == []  # the lease is live
    time.sleep(0.7)
    assert a.renew() == 1  # the owner renews: still live after the first lease would have ended
    time.sleep(0.5)
    assert b.take_expired() == []
    time.sleep(1.0)  # A stops renewing (killed): its lease expires
    taken = b.take_expired()
    assert [(t.id, t.job, t.slot, t.previous) for t in taken] == [(sid, "review", slot, a.owner)]
    host, pid, _ = a.owner.split(":")
    assert taken[0].previous_host_pid == (host, int(pid))
    assert b.take_expired() == [] and c.take_expired() == []  # B holds it now
    assert a.renew() == 0  # A lost it
    b.finish(sid)
    time.sleep(1.2)
    assert b.take_expired() == [] and c.take_expired() == []  # done: never retaken
    got = _slot(mem, sid)
    assert got["done"] is True and got["owner"] == b.owner and got["takeovers"] == 1


def test_a_concurrent_takeover_has_one_winner(mem: GraphMemory) -> None:
    config = f"test-lease-{uuid.uuid4().hex[:8]}"
    store = mem.runtime.store
    dead = slot_gate(store, config, lease=0.5)
    slot = slot_of("every 2s", datetime.now(UTC))
    jobs = ["review", "decay", "associate", "consolidate"]
    assert all(dead(job, slot) for job in jobs)
    time.sleep(0.8)
    rivals = [slot_gate(store, config, lease=60.0) for _ in range(4)]
    barrier = threading.Barrier(len(rivals))
    won: dict[int, list[str]] = {}

    def take(n: int) -> None:
        barrier.wait()
        won[n] = [t.id for t in rivals[n].take_expired()]

    threads = [threading.Thread(target=take, args=(n,)) for n in range(len(rivals))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winners = Counter(sid for ids in won.values() for sid in ids)
    assert sorted(winners) == sorted(dead.slot_id(job, slot) for job in jobs), won
    assert set(winners.values()) == {1}, won  # every slot won exactly once
    for job in jobs:
        got = _slot(mem, dead.slot_id(job, slot))
        assert got["takeovers"] == 1 and got["owner"] in {r.owner for r in rivals}


def test_a_worker_reruns_a_taken_over_slot_and_renews_while_running(mem: GraphMemory) -> None:
    config = f"test-lease-{uuid.uuid4().hex[:8]}"
    store = mem.runtime.store
    dead = slot_gate(store, config, lease=0.5)
    slot = slot_of("every 2s", datetime.now(UTC))
    assert dead("review", slot)
    time.sleep(0.8)
    ran: list[str] = []
    marked: list[str] = []

    def runner(name: str) -> None:
        ran.append(name)
        time.sleep(2.0)  # four lease lengths: renewed meanwhile, so nobody retakes it

    survivor = Scheduler(runner, gate=slot_gate(store, config, lease=0.5))
    survivor.start()
    try:
        taken = survivor.retake(lambda t: marked.append(t.previous))
        assert [t.job for t in taken] == ["review"] and marked == [dead.owner]
        time.sleep(1.0)
        other = slot_gate(store, config, lease=0.5)
        assert other.take_expired() == []  # the survivor renews its lease while the job runs
    finally:
        survivor.shutdown(wait=True)
    assert ran == ["review"]
    got = _slot(mem, dead.slot_id("review", slot))
    assert got["done"] is True and got["takeovers"] == 1
