"""The automation control plane: configuration stored in Neo4j (versioned), job runs, health.

The configuration (decay parameters, thresholds, schedules, enabled flags, context budget) lives in one
``AutomationConfig`` node per id, with every version kept as an ``AutomationConfigVersion`` node. The CLI,
the API and any UI only read and write it through :class:`Automation`; schedulers reconcile against it.
"""

from __future__ import annotations

import json
import logging
import uuid
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from graphmem.automation.config import (
    DEFAULT_SCHEDULES,
    DUE_MARKS,
    JOB_NAMES,
    AutomationConfig,
    DueMark,
    JobConfig,
    read_config,
    validate_config,
)
from graphmem.automation.scheduler import fresh
from graphmem.errors import GraphMemError, ValidationError, VersionConflict
from graphmem.model import validation as check
from graphmem.model.dynamics import DynamicsParams
from graphmem.store import audit, records
from graphmem.store.driver import Tx
from graphmem.store.runtime import Runtime

logger = logging.getLogger(__name__)

__all__ = [  # the configuration's names are importable from here too, as before round 34
    "DEFAULT_SCHEDULES",
    "DUE_MARKS",
    "JOB_NAMES",
    "Automation",
    "AutomationConfig",
    "DueMark",
    "Health",
    "JobConfig",
    "JobRun",
    "JobStatus",
    "RunStatus",
    "read_config",
    "validate_config",
]

# --- value types of the API ------------------------------------------------------------------------
RunStatus = Literal["running", "success", "failed", "interrupted", "dry_run", "skipped"]
"""``skipped``: a run for a user of whom nothing is stored (a mistyped id), not run and not recorded."""


class JobRun(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    job: str
    status: RunStatus
    user_id: str | None = None
    started_at: datetime
    finished_at: datetime | None = None
    as_of: datetime | None = Field(default=None, description="the (virtual) clock the job ran with")
    trigger: str = "manual"
    counts: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None

    @classmethod
    def skipped(cls, job: str, user_id: str, as_of: datetime, trigger: str) -> JobRun:
        """What ``jobs.run(job, user_id=...)`` returns for a user of whom nothing is stored: nothing was run
        or written (no JobRun, no audit event); ``error`` says why."""
        now = datetime.now(UTC)
        why = f"nothing is stored for user {user_id!r}: not run (a mistyped user id, or one already deleted?)"
        return cls(
            id=str(uuid.uuid4()),
            job=job,
            status="skipped",
            user_id=user_id,
            started_at=now,
            finished_at=now,
            as_of=as_of,
            trigger=trigger,
            error=why,
        )

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> JobRun:
        """A run from its stored row, never raising (stored data can never make a read fail): ``counts`` not
        a JSON object read as ``{}``, an unknown status as ``interrupted``, other odd fields at defaults."""
        what = f"job run {records.text(row.get('id'))}"
        data = {**row, "counts": records.load_object(row.get("counts"), what)}
        data["error"] = records.optional_text(row.get("error"))
        fallback = {"status": "interrupted", "started_at": records.EPOCH}
        return records.model_from_row(cls, data, what=what, fallback=fallback)


class JobStatus(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    state: Literal["scheduled", "disabled", "missing", "drifted"]
    enabled: bool
    schedule: str
    scheduled_as: str | None = None
    last_run: JobRun | None = None


class Health(BaseModel):
    model_config = ConfigDict(frozen=True)

    status: Literal["healthy", "degraded"]
    reasons: list[str] = Field(default_factory=list)
    details: dict[str, Any] = Field(default_factory=dict)


# --- the control plane -----------------------------------------------------------------------------
class Automation:
    """``mem.automation``: the stored configuration, run history and health."""

    def __init__(self, rt: Runtime, scheduler_running: Any) -> None:
        self._rt = rt
        self._scheduler_running = scheduler_running  # () -> bool: the in-process scheduler runs
        self.config_id = rt.settings.automation_config_id
        from graphmem.dynamics.evolution import Evolution  # dynamics builds on this module

        self.evolution = Evolution(rt)
        """Per-user retrieval parameters adapted from feedback, versioned with their evidence."""

    # configuration
    def get_config(self) -> AutomationConfig:
        """The stored configuration, or the default of the settings' preset (version 0) if none is stored."""
        rows = self._rt.store.read("automation_config_get", id=self.config_id)
        if not rows or rows[0]["body"] is None:
            return AutomationConfig.from_preset(self._rt.settings.dynamics_preset)
        preset = self._rt.settings.dynamics_preset
        return read_config(rows[0]["body"], rows[0]["version"], config_id=self.config_id, preset=preset)

    def set_config(
        self, cfg: AutomationConfig | dict[str, Any], *, expected_version: int | None = None, by: str = "api"
    ) -> AutomationConfig:
        """Store a new version. ``expected_version`` defaults to the version ``cfg`` was read at.

        Raises :class:`ValidationError` for invalid values and :class:`VersionConflict` when the stored
        version moved; in both cases nothing is written. A change of a parameter the decay or review job
        reads (:data:`DUE_MARKS`) then makes every live memory due for that job, so its next run applies the
        change to all (a set-based write over the store: 8-9 s at 1M memories for decay)."""
        checked = validate_config(cfg)
        expected = checked.version if expected_version is None else expected_version
        before = self.get_config().dynamics
        body = json.dumps(checked.model_dump(exclude={"version"}), sort_keys=True)
        now = datetime.now(UTC)

        def work(tx: Tx) -> int:
            found = int(tx.run("automation_config_lock", id=self.config_id, now=now)[0]["version"])
            if found != expected:
                raise VersionConflict(f"automation config {self.config_id!r}", expected, found)
            tx.run(
                "automation_config_write",
                id=self.config_id,
                version=found + 1,
                body=body,
                now=now,
                by=by,
                basis=[mark.basis(before) for mark in DUE_MARKS],
            )
            audit.append(
                tx,
                "config_change",
                user_id=None,
                now=now,
                actor=by,
                target_ids=[self.config_id],
                version=found + 1,
            )
            return found + 1

        version = self._rt.store.unit_of_work(work)
        logger.info("automation config %s stored at version %d", self.config_id, version)
        try:
            self.apply_due_marks()  # the stored basis is the values before the change
        except GraphMemError as exc:  # the basis still differs: the next job run marks
            logger.warning(
                "automation config %s: marking memories due deferred to the next job run: %s",
                self.config_id,
                exc,
            )
        return checked.model_copy(update={"version": version})

    def apply_due_marks(self, cfg: AutomationConfig | None = None) -> int:
        """Make every live memory due again for each job whose stored dates were computed under other values
        than the effective configuration's (``cfg``, read if not given; :data:`DUE_MARKS`), then store the
        new basis; a configuration id seen for the first time adopts the present values. ``set_config`` calls
        this right after a change, and every job run first, so a marking that was interrupted, or a preset
        changed in ``Settings`` without a stored configuration, is completed by the next run. Returns the
        memories marked."""
        cfg = cfg or self.get_config()
        basis, pending = self._stored_basis()
        total = 0
        for mark in DUE_MARKS:
            own, needs = mark.own(basis), mark.needs(basis, pending, cfg.dynamics)
            if needs == "nothing":
                continue
            if needs == "mark":
                token = f"{mark.statement}=marking-{uuid.uuid4().hex}"  # a run ending meanwhile replaces it
                self._store_basis(mark, seen=own, entry=token)
                done = self._rt.store.write_auto(mark.statement, batch=cfg.batch_size)
                marked = int(done[0]["marked"]) if done else 0
                logger.info("%s: %d memories due again", mark.statement, marked)
                total += marked
                own = [token]
            self._store_basis(mark, seen=own, entry=mark.basis(cfg.dynamics))
        return total

    def due_dates(self, cfg: AutomationConfig | None = None) -> dict[str, str]:
        """Per scheduling job, whether its stored dates were computed under the effective configuration
        (``cfg``, read if not given): ``current``, or ``pending`` (the next job run makes every live memory
        due for it first; a memory not due yet still carries dates from other values). Read-only."""
        want = (cfg or self.get_config()).dynamics
        basis, pending = self._stored_basis()
        return {
            mark.job: "pending" if mark.needs(basis, pending, want) == "mark" else "current"
            for mark in DUE_MARKS
        }

    def note_run(self, job: str, used: DynamicsParams) -> None:
        """After a run of ``job`` that computed dates under ``used``: if the stored basis is another (the
        configuration changed while it ran, and its marking came before the run's writes), the stored dates
        mix old values; the basis is marked stale, so the next job run makes every memory due again."""
        marks = [mark for mark in DUE_MARKS if mark.job == job]
        basis = self._stored_basis()[0] if marks else []
        for mark in marks:
            if mark.own(basis) != [mark.basis(used)]:
                logger.info("%s ran under changed parameters: every memory due at the next run", job)
                self._store_basis(mark, seen=None, entry=mark.stale())

    def _stored_basis(self) -> tuple[list[str], list[str]]:
        """The stored due-date basis entries and an older version's pending markings."""
        rows = self._rt.store.read("automation_due_basis", id=self.config_id)
        return (rows[0]["basis"], rows[0]["pending"]) if rows else ([], [])

    def _store_basis(self, mark: DueMark, *, seen: list[str] | None, entry: str) -> None:
        """Replace the stored entry of ``mark`` if it is still ``seen`` (``None``: whatever it is)."""
        self._rt.store.write(
            "automation_due_basis_set",
            id=self.config_id,
            now=datetime.now(UTC),
            statement=mark.statement,
            seen=seen,
            entry=entry,
            known=[m.statement for m in DUE_MARKS],
        )

    # history
    def runs(self, limit: int = 20, *, job: str | None = None, user_id: str | None = None) -> list[JobRun]:
        """The latest job runs, newest first, of one job and/or one tenant; an unknown job is a
        :class:`ValidationError` (a typo must not read as "never ran")."""
        if job is not None and job not in JOB_NAMES:
            raise ValidationError("job", f"unknown job {job!r}; known: {', '.join(JOB_NAMES)}")
        rows = self._rt.store.read(
            "jobrun_list",
            job=check.identifier(job, "job", required=False),
            user_id=check.identifier(user_id, "user_id", required=False),
            limit=check.bounded_int(limit, "limit", 1, 10_000),
        )
        return [JobRun.from_row(r["run"]) for r in rows]

    # health
    def probe(self) -> dict[str, bool]:
        """Which optional server parts are there: GDS, APOC, the vector index (online)."""
        settings = self._rt.settings
        names = self._rt.store.read("procedures_present", names=[settings.gds_probe, settings.apoc_probe])
        present = set(names[0]["names"]) if names else set()
        index = self._rt.store.read("vector_index_options", name="memory_embedding")
        return {
            "gds": settings.gds_enabled and settings.gds_probe in present,
            "apoc": settings.apoc_probe in present,
            "vector_index": bool(index) and index[0].get("state") == "ONLINE",
        }

    def worker_heartbeat(self) -> dict[str, Any] | None:
        rows = self._rt.store.read("scheduler_heartbeat_get", id=self.config_id)
        return rows[0]["heartbeat"] if rows else None

    def health(self, *, now: datetime | None = None) -> Health:
        """Healthy, or degraded with reasons (``vector_index_missing``, ``scheduler_not_running``,
        ``last_run_failed:<job>``). The plugins are reported in ``details["plugins"]`` and degrade nothing:
        graphmem's own queries use neither APOC (offered to ``query()`` and the Browser) nor, below
        ``associate_in_process_max`` memories a tenant, GDS (associate's full pass runs in process
        without it)."""
        now = check.aware_datetime(now, "now") or datetime.now(UTC)
        parts = self.probe()
        reasons = []
        if not parts["vector_index"]:
            reasons.append("vector_index_missing")
        beat = self.worker_heartbeat()
        worker_alive = beat is not None and fresh(
            beat.get("seen_at"), now, self._rt.settings.worker_poll_seconds
        )
        if not (self._scheduler_running() or worker_alive):
            reasons.append("scheduler_not_running")
        last = self._rt.store.read("jobrun_last", jobs=list(JOB_NAMES))
        for row in last:
            if row["run"] and row["run"].get("status") == "failed":
                reasons.append(f"last_run_failed:{row['job']}")
        details: dict[str, Any] = {
            "plugins": parts,
            # the full pass: in process, GDS kNN for a tenant above associate_in_process_max if installed
            "associate_method": "knn+gds_knn" if parts["gds"] else "knn",
            "worker": beat,
            "due_dates": self.due_dates(),  # pending: a parameter change not yet applied to every memory
            "recall_effects": {  # this client's deferred writer (graphmem.store.deferred)
                "mode": self._rt.settings.recall_effects,
                "pending": self._rt.deferred.pending,
                "written": self._rt.deferred.written,
                "failed": self._rt.deferred.failed,
            },
        }
        return Health(status="degraded" if reasons else "healthy", reasons=reasons, details=details)
