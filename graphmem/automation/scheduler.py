"""Runs the enabled jobs on their schedules with APScheduler, in-process or as a worker.

A schedule is either a five-field crontab (``"0 3 * * *"``) or an interval (``"every 15m"``, units s, m, h,
d). The stored automation configuration is the single source of truth: :meth:`Scheduler.reconcile` brings
the scheduler in line with it; :func:`job_states` compares the two (scheduled, disabled, missing, drifted).
"""

from __future__ import annotations

import logging
import re
import threading
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.base import BaseTrigger
from apscheduler.triggers.interval import IntervalTrigger

from graphmem.automation.crontab import cron_trigger
from graphmem.store.owners import identity

logger = logging.getLogger(__name__)

_INTERVAL = re.compile(r"^every\s+([0-9]+)\s*([smhd])$")
INTERVAL_MAX_DAYS = 3650
"""The longest interval schedule (ten years): a longer one overflowed the scheduler's time arithmetic."""
EPOCH = datetime(2024, 1, 1, tzinfo=UTC)
"""Interval schedules are aligned to this instant, so every worker computes the same slots."""
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def _interval_seconds(spec: str) -> int | None:
    """The seconds of an interval schedule (``every N[s|m|h|d]``), None for any other. A count of more digits
    than any bound allows reads as one just above them (``int()`` refuses thousands of digits)."""
    match = _INTERVAL.match(" ".join(spec.split()))
    if match is None:
        return None
    digits = match.group(1).lstrip("0") or "0"
    return (int(digits) if len(digits) <= 12 else 10**12) * _UNIT_SECONDS[match.group(2)]


def parse_schedule(spec: str) -> BaseTrigger:
    """A trigger from a schedule string; ``ValueError`` with the reason when it is malformed."""
    seconds = _interval_seconds(spec)
    if seconds is not None:
        if seconds <= 0:
            raise ValueError(f"interval must be positive: {spec!r}")
        if seconds > INTERVAL_MAX_DAYS * 86400:
            raise ValueError(f"interval must be at most {INTERVAL_MAX_DAYS} days: {spec!r}")
        return IntervalTrigger(seconds=seconds, start_date=EPOCH, timezone=UTC)
    text = " ".join(spec.split())
    if len(text.split(" ")) != 5:
        raise ValueError(f"not a 5-field crontab or 'every N[s|m|h|d]': {spec!r}")
    try:
        return cron_trigger(text)  # cron's weekday numbering and day rule (graphmem.automation.crontab)
    except (ValueError, OverflowError) as exc:
        raise ValueError(f"malformed crontab {spec!r}: {exc}") from exc


def within_bound(spec: str) -> str | None:
    """An interval schedule longer than :data:`INTERVAL_MAX_DAYS` (stored before the bound) as the longest
    one, else None: it meant 'hardly ever', which the default schedule would not."""
    seconds = _interval_seconds(spec)
    return (
        f"every {INTERVAL_MAX_DAYS}d" if seconds is not None and seconds > INTERVAL_MAX_DAYS * 86400 else None
    )


def slot_of(spec: str, now: datetime) -> datetime:
    """The slot a run due at ``now`` belongs to: the aligned interval start, or the crontab minute. Workers
    that fire for the same slot (on any host) compute the same value."""
    seconds = _interval_seconds(spec)
    if seconds:
        # a run fires at (or just after) its slot; half a second of slack for a clock a bit behind
        elapsed = (now - EPOCH).total_seconds() + 0.5
        return EPOCH + timedelta(seconds=seconds * (elapsed // seconds))
    return now.replace(second=0, microsecond=0)


def canonical(spec: str) -> str:
    """The normal form of a schedule string (whitespace collapsed), for drift comparison."""
    return " ".join(spec.split())


@dataclass(frozen=True)
class Planned:
    """What the stored configuration says about one job."""

    enabled: bool
    schedule: str


def job_states(planned: Mapping[str, Planned], scheduled: Mapping[str, str] | None) -> dict[str, str]:
    """Each job's state: scheduled, disabled, missing (enabled, not scheduled) or drifted (other schedule).

    ``scheduled`` maps job name to the schedule a running scheduler has; ``None`` when none runs. A job
    that is scheduled but disabled in the config counts as drifted.
    """
    states: dict[str, str] = {}
    current = scheduled or {}
    for name, plan in planned.items():
        have = current.get(name)
        if not plan.enabled:
            states[name] = "disabled" if have is None else "drifted"
        elif have is None:
            states[name] = "missing"
        elif canonical(have) != canonical(plan.schedule):
            states[name] = "drifted"
        else:
            states[name] = "scheduled"
    return states


class Scheduler:
    """An APScheduler ``BackgroundScheduler`` holding one APScheduler job per enabled graphmem job.

    ``runner(name)`` is called by APScheduler's thread pool when a job is due; at most one instance of each
    job runs at a time, and missed runs are coalesced into one.
    """

    def __init__(
        self,
        runner: Callable[[str], Any],
        on_stop: Callable[[], Any] | None = None,
        gate: SlotLease | None = None,
    ) -> None:
        self._runner = runner
        self._on_stop = on_stop
        self._gate = gate
        self._scheduler = BackgroundScheduler(
            timezone=UTC, job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": 3600}
        )
        self._lock = threading.Lock()
        self._specs: dict[str, str] = {}

    @property
    def running(self) -> bool:
        return bool(self._scheduler.running)

    def start(self, *, paused: bool = False) -> None:
        """Start the scheduler thread (call ``mem.jobs.reconcile()`` to load the stored schedules)."""
        if not self.running:
            self._scheduler.start(paused=paused)
            logger.info("scheduler started")

    def shutdown(self, wait: bool = True) -> None:
        if self.running:
            self._scheduler.shutdown(wait=wait)
            self._specs.clear()
            logger.info("scheduler stopped")
            if self._on_stop is not None:
                self._on_stop()

    def scheduled(self) -> dict[str, str] | None:
        """Job name → schedule string of what is scheduled now; ``None`` when the scheduler is not running."""
        if not self.running:
            return None
        return {job.id: self._specs.get(job.id, "") for job in self._scheduler.get_jobs()}

    def add(self, name: str, schedule: str) -> None:
        """Schedule (or reschedule) one job; used by reconcile, and by tests to create drift."""
        self._scheduler.add_job(
            self._fire,
            trigger=parse_schedule(schedule),
            args=[name],
            id=name,
            name=f"graphmem:{name}",
            replace_existing=True,
        )
        self._specs[name] = canonical(schedule)

    def _fire(self, name: str) -> Any:
        """A due job: run it unless another worker already claimed this slot (with a gate)."""
        if self._gate is None:
            return self._runner(name)
        slot = slot_of(self._specs.get(name, ""), datetime.now(UTC))
        if not self._gate(name, slot):
            logger.info("job %s: slot %s taken by another worker", name, slot.isoformat())
            return None
        return self._run_slot(name, self._gate.slot_id(name, slot))

    def _run_slot(self, name: str, slot_id: str) -> Any:
        """Run a claimed slot's job, renewing its lease meanwhile, and mark the slot done (not when
        interrupted: its lease then expires and another worker runs it)."""
        gate = self._gate
        if gate is None:
            return self._runner(name)
        ended = threading.Event()

        def keep() -> None:
            while not ended.wait(gate.lease.total_seconds() / 3):
                try:
                    gate.renew()
                except Exception as exc:  # the database went away: the next renewal may work
                    logger.warning("slot lease not renewed: %s", type(exc).__name__)

        renewer = threading.Thread(target=keep, name=f"graphmem-lease-{name}", daemon=True)
        renewer.start()
        try:
            result = self._runner(name)
        finally:
            ended.set()
        gate.finish(slot_id)
        return result

    def retake(self, before: Callable[[Takeover], Any] | None = None) -> list[Takeover]:
        """Take over the slots whose owner's lease expired and run their jobs on the scheduler's thread
        pool (``before(takeover)`` first, e.g. to mark the dead run); called from the worker's poll loop."""
        if self._gate is None or not self.running:
            return []
        taken = self._gate.take_expired()
        for t in taken:
            logger.warning("job %s: slot %s taken over from %s", t.job, t.slot, t.previous)
            if before is not None:
                before(t)
            self._scheduler.add_job(self._run_slot, args=[t.job, t.id], name=f"graphmem:{t.job}:retake")
        return taken

    def remove(self, name: str) -> None:
        if self._scheduler.get_job(name) is not None:
            self._scheduler.remove_job(name)
        self._specs.pop(name, None)

    def reconcile(self, planned: Mapping[str, Planned]) -> dict[str, str]:
        """Add missing jobs, reschedule drifted ones, remove disabled ones; returns name → action taken."""
        with self._lock:
            actions: dict[str, str] = {}
            for name, state in job_states(planned, self.scheduled() or {}).items():
                plan = planned[name]
                if state in ("missing", "drifted") and plan.enabled:
                    self.add(name, plan.schedule)
                    actions[name] = "added" if state == "missing" else "rescheduled"
                elif state == "drifted":
                    self.remove(name)
                    actions[name] = "removed"
            for extra in set(self.scheduled() or {}) - set(planned):
                self.remove(extra)
                actions[extra] = "removed"
            return actions


def fresh(seen_at: datetime | None, now: datetime, poll_seconds: float) -> bool:
    """A heartbeat counts as alive for three poll intervals."""
    return seen_at is not None and now - seen_at <= timedelta(seconds=3 * poll_seconds)


SLOT_HISTORY = timedelta(days=7)
"""How long claimed slots are kept (pruned by later claims)."""


@dataclass(frozen=True)
class Takeover:
    """A slot this worker took over after its owner's lease expired: ``previous`` is ``host:pid:token``."""

    id: str
    job: str
    slot: datetime
    previous: str

    @property
    def previous_host_pid(self) -> tuple[str, int] | None:
        host, _, rest = self.previous.rpartition(":")[0].rpartition(":")
        try:
            return host, int(rest)
        except ValueError:
            return None


class SlotLease:
    """A gate that claims slots in Neo4j for this worker (host, pid and a per-process token), so that
    several ``graphmem worker`` processes on one or many hosts, serving the same automation config
    (``config_id``), run each scheduled job once per slot.

    A claim holds a lease of ``lease`` seconds; the owner renews it (:meth:`renew`, every third of the
    lease, from a thread beside the job: :meth:`Scheduler._run_slot`) while the job runs, and marks the
    slot done when it ends (:meth:`finish`). A slot whose lease expired unfinished (its worker died) is
    taken over by one other worker (:meth:`take_expired`, from the worker's poll loop).
    """

    def __init__(self, store: SlotStore, config_id: str, lease: float) -> None:
        host, pid = identity()
        self.owner = f"{host}:{pid}:{uuid.uuid4().hex[:8]}"
        self.lease = timedelta(seconds=lease)
        self._store = store
        self._prefix = f"{config_id}/"
        self._held: set[str] = set()
        self._lock = threading.Lock()

    def slot_id(self, job: str, slot: datetime) -> str:
        return f"{self._prefix}{job}@{slot.isoformat()}"

    def __call__(self, job: str, slot: datetime) -> bool:
        now = datetime.now(UTC)
        sid = self.slot_id(job, slot)
        rows = self._store.write(
            "job_slot_claim",
            id=sid,
            job=job,
            slot=slot,
            owner=self.owner,
            now=now,
            until=now + self.lease,
            horizon=now - SLOT_HISTORY,
        )
        granted = bool(rows and rows[0]["granted"])
        if granted:
            with self._lock:
                self._held.add(sid)
        return granted

    def renew(self) -> int:
        """Extend the leases of the slots this worker runs now; returns how many it still holds."""
        with self._lock:
            ids = sorted(self._held)
        if not ids:
            return 0
        rows = self._store.write(
            "job_slot_renew", ids=ids, owner=self.owner, until=datetime.now(UTC) + self.lease
        )
        kept = {r["id"] for r in rows}
        with self._lock:
            self._held -= set(ids) - kept
        for lost in set(ids) - kept:
            logger.warning("slot %s: lease lost to another worker", lost)
        return len(kept)

    def finish(self, slot_id: str) -> None:
        """The slot's job ended (success or failure): done, never taken over."""
        self._store.write("job_slot_done", id=slot_id, owner=self.owner, now=datetime.now(UTC))
        with self._lock:
            self._held.discard(slot_id)

    def take_expired(self, limit: int = 10) -> list[Takeover]:
        """Take over unfinished slots whose lease expired (one winner per slot); this worker must run them."""
        now = datetime.now(UTC)
        rows = self._store.write(
            "job_slot_takeover",
            prefix=self._prefix,
            owner=self.owner,
            now=now,
            until=now + self.lease,
            limit=limit,
        )
        taken = [Takeover(r["id"], r["job"], _native(r["slot"]), r["previous"]) for r in rows]
        with self._lock:
            self._held.update(t.id for t in taken)
        return taken


def _native(value: Any) -> datetime:
    return value.to_native() if hasattr(value, "to_native") else value  # type: ignore[no-any-return]


def slot_gate(store: SlotStore, config_id: str, lease: float = 90.0) -> SlotLease:
    """The slot lease of this worker for ``config_id`` (see :class:`SlotLease`)."""
    return SlotLease(store, config_id, lease)


class SlotStore(Protocol):
    def write(self, name: str, /, **params: Any) -> list[dict[str, Any]]: ...
