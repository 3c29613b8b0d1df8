"""``mem.jobs``: run, record, list and schedule the maintenance jobs (their steps: graphmem.dynamics.steps).

Every step is idempotent at a given ``now``, so a run that dies midway leaves committed batches that are
consistent on their own, and a rerun finishes the rest. Each run is recorded as a ``JobRun`` node (running →
success | failed | interrupted); a run left ``running`` by a process that died is marked ``interrupted`` by
the next run of the same job."""

from __future__ import annotations

import builtins
import json
import logging
import threading
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from graphmem.automation.config import JOB_NAMES, AutomationConfig
from graphmem.automation.control import Automation, JobRun, JobStatus
from graphmem.automation.scheduler import Scheduler, fresh, job_states, slot_gate
from graphmem.dynamics.steps import JOBS, Context
from graphmem.errors import GraphMemError, MemoryNotFound, TransientError, ValidationError, capped
from graphmem.governance import users
from graphmem.model import validation as check
from graphmem.store import audit, lenient, owners
from graphmem.store.driver import Tx
from graphmem.store.runtime import Runtime

logger = logging.getLogger(__name__)


STALE_AFTER = timedelta(hours=6)
"""A running JobRun of another host without a heartbeat for this long is taken as interrupted."""


class _RolledBack(Exception):
    """Ends a dry run's transaction (rolled back) and carries its counts out."""

    def __init__(self, counts: dict[str, Any]) -> None:
        super().__init__("dry run")
        self.counts = counts


_ACTIVE: set[str] = set()
"""Ids of the runs executing in this process now. A run of this process that is still ``running`` in the
store but not here lost its end (the database went away before the run could record it): interrupted."""
_ACTIVE_LOCK = threading.Lock()


def _holder(run: dict[str, Any]) -> tuple[bool, bool, bool]:
    """Whether a running JobRun is this process's, of this machine, and of a process of this machine that
    died: by its ``owner`` (graphmem.store.owners: containers sharing a host name are told apart) or, for a
    run recorded before round 54, by host name and pid (a pid that is not a positive integer, written by
    hand, is no process of this host)."""
    owner = run.get("owner")
    if isinstance(owner, str):
        return owner == owners.owner(), owners.here(owner), owners.died(owner)
    host, pid = owners.identity()
    number = run.get("pid")
    holder = number if isinstance(number, int) and not isinstance(number, bool) and number > 0 else None
    if holder is None or run.get("host") != host:
        return False, False, False
    return holder == pid, True, holder != pid and not owners.process_alive(holder)


# --- mem.jobs --------------------------------------------------------------------------------------
class Jobs:
    """``mem.jobs``: run, list, enable, disable and reconcile the maintenance jobs."""

    def __init__(self, rt: Runtime, automation: Automation, scheduler: Scheduler) -> None:
        self._rt = rt
        self._automation = automation
        self._scheduler = scheduler

    def _name(self, name: str) -> str:
        if not isinstance(name, str) or name not in JOBS:  # a list or dict is no name (and unhashable)
            raise ValidationError("job", f"unknown job {name!r}; known: {', '.join(JOB_NAMES)}")
        return name

    # running
    def run(
        self,
        name: str,
        *,
        user_id: str | None = None,
        now: datetime | None = None,
        trigger: str = "manual",
        dry_run: bool = False,
    ) -> JobRun:
        """Run one job now for one user or all (``user_id=None``) at ``now`` (a virtual clock; default: now).

        Returns the recorded run; a failure is recorded and returned (status ``failed``), not raised. An
        interrupt (``KeyboardInterrupt``, ``SystemExit``) is recorded as ``interrupted`` and re-raised.
        ``dry_run``: run every step in one transaction and roll it back; the returned run (status
        ``dry_run``, not recorded) counts what the job would change. Nothing is written. A ``user_id`` of
        whom nothing is stored (a typo) is not run: status ``skipped`` (not recorded, ``error`` says why).
        """
        name, trigger = self._name(name), check.identifier(trigger, "trigger") or ""
        uid = None if user_id is None else check.user_id(user_id)
        clock = check.aware_datetime(now, "now") or datetime.now(UTC)
        dry = check.boolean(dry_run, "dry_run")
        if uid is not None and not users.stored(self._rt, uid):  # as users.delete: a no-op, told
            return JobRun.skipped(name, uid, clock, trigger)
        if dry:
            return self._dry_run(name, uid, clock, trigger)
        self._mark_dead_runs(name)
        config = self._automation.get_config()
        self._automation.apply_due_marks(config)  # a configuration change's marking that did not complete
        host, pid = owners.identity()
        run_id = str(uuid.uuid4())
        run_row = {
            "id": run_id,
            "job": name,
            "user_id": uid,
            "started_at": datetime.now(UTC),
            "as_of": clock,
            "trigger": trigger,
            "host": host,
            "pid": pid,
            "owner": owners.owner(),
            "config_version": config.version,
        }
        with _ACTIVE_LOCK:
            _ACTIVE.add(run_id)
        try:
            run = self._begin(name, run_row, config, uid, clock)
            self._automation.note_run(name, config.dynamics)  # dates written under values since changed?
            return run
        finally:
            with _ACTIVE_LOCK:
                _ACTIVE.discard(run_id)

    def _begin(
        self, name: str, run_row: dict[str, Any], config: AutomationConfig, uid: str | None, clock: datetime
    ) -> JobRun:
        """Record the run's start, then execute it."""
        run_id = run_row["id"]
        self._rt.store.write("jobrun_start", run=run_row)
        ctx = Context(self._rt, self._automation, config, uid, clock, run_id.replace("-", ""))
        return self._execute(name, ctx, run_row)

    def _execute(self, name: str, ctx: Context, run_row: dict[str, Any]) -> JobRun:
        """Run the job's steps, recording progress after each, and record how the run ended."""
        counts: dict[str, Any] = {}
        status, error = "success", None
        try:
            for step in JOBS[name](ctx):
                counts.update(step(ctx))
                self._rt.store.write(
                    "jobrun_progress",
                    id=run_row["id"],
                    counts=json.dumps(counts, default=str),
                    at=datetime.now(UTC),
                )
        except Exception as exc:  # the message too (capped): the run that keeps it is deleted with its user
            status, error = "failed", capped(f"{type(exc).__name__}: {exc}")
            logger.warning("job %s failed: %s (run %s)", name, type(exc).__name__, run_row["id"])
            logger.info("job %s failed: %s", name, error)  # it may quote stored text: not at WARNING
        except BaseException:
            self._finish(run_row, "interrupted", counts, "interrupted")
            raise
        run = self._finish(run_row, status, counts, error)
        logger.info("job %s %s: %s", name, status, counts)
        return run

    def _dry_run(self, name: str, uid: str | None, clock: datetime, trigger: str) -> JobRun:
        config = self._automation.get_config()
        run_id = str(uuid.uuid4())
        started = datetime.now(UTC)

        def work(tx: Tx) -> None:
            ctx = Context(self._rt, self._automation, config, uid, clock, run_id.replace("-", ""), tx)
            counts: dict[str, Any] = {}
            for step in JOBS[name](ctx):
                counts.update(step(ctx))
            raise _RolledBack(counts)

        counts: dict[str, Any] = {}
        status, error = "dry_run", None
        try:
            self._rt.store.unit_of_work(work)
        except _RolledBack as done:
            counts = done.counts
            if (
                self._automation.due_dates(config).get(name) == "pending"
            ):  # a real run marks every memory first
                counts["due_marking_pending"] = True
        except Exception as exc:
            status, error = "failed", capped(f"{type(exc).__name__}: {exc}")
        return JobRun.model_validate(
            {
                "id": run_id,
                "job": name,
                "status": status,
                "user_id": uid,
                "started_at": started,
                "finished_at": datetime.now(UTC),
                "as_of": clock,
                "trigger": trigger,
                "counts": counts,
                "error": error,
            }
        )

    def _finish(self, run: dict[str, Any], status: str, counts: dict[str, Any], error: str | None) -> JobRun:
        """Record the run's end and its one aggregate audit event (``job:<name>``) in one transaction."""
        at = datetime.now(UTC)
        run_id, user_id = run["id"], run.get("user_id")

        def work(tx: Tx) -> list[dict[str, Any]]:
            rows = tx.run(
                "jobrun_finish",
                id=run_id,
                status=status,
                counts=json.dumps(counts, default=str),
                error=error,
                at=at,
            )
            audit.append(
                tx,
                f"job:{run['job']}",
                user_id=user_id,
                now=at,
                actor=run.get("trigger"),
                target_ids=[run_id],
                details={"status": status, "counts": counts},
            )
            return rows

        rows = self._rt.store.unit_of_work(work)
        if user_id is not None:
            self._rt.changes.touch(user_id)
        return JobRun.from_row(rows[0]["run"])

    def _mark_dead_runs(self, name: str, dead_owner: tuple[str, int] | None = None) -> None:
        """Runs left ``running`` by a dead process of this host (or silent for long), by ``dead_owner`` (a
        worker whose slot lease expired), or by this process when the database went away before the run could
        record its end, become interrupted."""
        now = datetime.now(UTC)
        for row in self._rt.store.read("jobrun_running", job=name):
            run = row["run"]
            ours, here, gone = _holder(run)
            with _ACTIVE_LOCK:
                lost = ours and run["id"] not in _ACTIVE
            beat = run.get("heartbeat_at")
            silent = not isinstance(beat, datetime) or now - beat > STALE_AFTER
            dead = (
                gone
                or (not here and silent)
                or (not ours and dead_owner is not None and (run.get("host"), run.get("pid")) == dead_owner)
            )
            if dead or lost:
                self._finish(
                    run,
                    "interrupted",
                    lenient.parse_object(run.get("counts")) or {},  # unreadable counts: none
                    "the database went away during the run" if lost else "the process running it died",
                )

    def restore(self, memory_ids: str | list[str], *, user_id: str, now: datetime | None = None) -> list[str]:
        """Bring soft-forgotten memories back (one id or many); returns the ids restored.

        Raises MemoryNotFound (``memory_id``: the first id not restored) when an id is not a forgotten memory
        of this user; the other ids are restored all the same, and the message says which were and why each
        other was not (not found for this user, or found but not forgotten).
        """
        uid = check.user_id(user_id)
        wanted = list(memory_ids) if isinstance(memory_ids, list | tuple | set | frozenset) else [memory_ids]
        ids = [check.identifier(i, "memory_id") for i in wanted]
        clock = check.aware_datetime(now, "now") or datetime.now(UTC)
        rows = self._rt.store.write("memory_restore", ids=ids, user_id=uid, now=clock)
        restored = [r["id"] for r in rows]
        missing = [i for i in ids if i not in set(restored)]
        if not missing:
            return restored
        found = self._rt.store.read("memory_fetch", ids=missing, tenants=[uid], embedding=None, now=clock)
        status = {r["memory"]["id"]: r["memory"].get("status") for r in found}
        why = [f"{i!r} is {status[i]}, not forgotten" if i in status else f"{i!r} not found" for i in missing]
        done = f"restored {len(restored)}: {', '.join(restored)}" if restored else "none restored"
        error = MemoryNotFound(str(missing[0]))
        error.args = (f"not restored: {'; '.join(why)} ({done})",)  # str(error): the whole story
        raise error

    # control
    def list(self) -> list[JobStatus]:
        """Every job with its state against the stored config (from this process's scheduler, else from the
        last heartbeat of a worker)."""
        config = self._automation.get_config()
        scheduled = self._scheduler.scheduled()
        if scheduled is None:
            beat = self._automation.worker_heartbeat()
            if beat is not None and fresh(
                beat.get("seen_at"), datetime.now(UTC), self._rt.settings.worker_poll_seconds
            ):
                scheduled = dict(item.split("=", 1) for item in beat.get("jobs") or [])
        states = job_states(config.planned(), scheduled)
        last = {r["job"]: r["run"] for r in self._rt.store.read("jobrun_last", jobs=list(JOB_NAMES))}
        return [
            JobStatus(
                name=name,
                state=states[name],  # type: ignore[arg-type]
                enabled=job.enabled,
                schedule=job.schedule,
                scheduled_as=(scheduled or {}).get(name),
                last_run=JobRun.from_row(last[name]) if last.get(name) else None,
            )
            for name, job in config.jobs.items()
        ]

    def status(self, name: str) -> JobStatus:
        name = self._name(name)
        return next(s for s in self.list() if s.name == name)

    def _set_enabled(self, name: str, enabled: bool) -> JobStatus:
        name = self._name(name)
        config = self._automation.get_config()
        self._automation.set_config(config.with_job(name, enabled=enabled), by="jobs")
        if self._scheduler.running:
            self.reconcile()
        return self.status(name)

    def enable(self, name: str) -> JobStatus:
        return self._set_enabled(name, True)

    def disable(self, name: str) -> JobStatus:
        return self._set_enabled(name, False)

    def reconcile(self) -> builtins.list[JobStatus]:
        """Bring this process's scheduler in line with the stored config (a no-op when it is not running:
        a worker reconciles on its own every ``worker_poll_seconds``)."""
        config = self._automation.get_config()
        if self._scheduler.running:
            actions = self._scheduler.reconcile(config.planned())
            if actions:
                logger.info("reconciled: %s", actions)
            self._heartbeat(config)
        return self.list()

    def _heartbeat(self, config: AutomationConfig) -> None:
        host, pid = owners.identity()
        jobs = [f"{k}={v}" for k, v in sorted((self._scheduler.scheduled() or {}).items())]
        self._rt.store.write(
            "scheduler_heartbeat",
            id=self._automation.config_id,
            now=datetime.now(UTC),
            host=host,
            pid=pid,
            jobs=jobs,
            config_version=config.version,
        )

    def clear_heartbeat(self) -> None:
        host, pid = owners.identity()
        try:
            self._rt.store.write(
                "scheduler_heartbeat_clear", id=self._automation.config_id, host=host, pid=pid
            )
        except GraphMemError as exc:  # stopping must not fail because the database went away
            logger.info("scheduler heartbeat not cleared: %s", type(exc).__name__)

    def work(self, stop: threading.Event) -> None:
        """The worker loop: schedule, re-read the config every ``worker_poll_seconds`` until ``stop`` (a poll
        the database could not answer, e.g. while it restarts, is logged and made again at the next one);
        then wait for the jobs running to end (they use this memory's driver, which the caller closes next:
        a job cut off there failed, stayed ``running`` and logged a traceback)."""
        self._scheduler.start()
        try:
            while not stop.is_set():
                try:
                    self.reconcile()
                    self._scheduler.retake(lambda t: self._mark_dead_runs(t.job, t.previous_host_pid))
                except TransientError as exc:  # the database went away (a restart): poll again, not die
                    logger.warning("worker poll failed, retried in the next poll: %s", exc)
                stop.wait(self._rt.settings.worker_poll_seconds)
        finally:
            self._scheduler.shutdown(wait=True)


@dataclass(frozen=True)
class ControlPlane:
    """What ``GraphMemory`` exposes as ``jobs``, ``automation`` and ``scheduler``. Builds no thread."""

    jobs: Jobs
    automation: Automation
    scheduler: Scheduler

    @classmethod
    def build(cls, rt: Runtime) -> ControlPlane:
        holder: list[Jobs] = []
        scheduler = Scheduler(
            lambda name: holder[0].run(name, trigger="schedule"),
            on_stop=lambda: holder[0].clear_heartbeat(),
            # several workers: each slot runs once, a dead worker's slot is retaken after its lease
            gate=slot_gate(rt.store, rt.settings.automation_config_id, rt.settings.worker_lease()),
        )
        automation = Automation(rt, lambda: scheduler.running)
        jobs = Jobs(rt, automation, scheduler)
        holder.append(jobs)
        return cls(jobs=jobs, automation=automation, scheduler=scheduler)
