"""The automation control plane: configuration stored in Neo4j (versioned), job runs, health.

The configuration (decay parameters, thresholds, schedules, enabled flags, context budget) lives in one
``AutomationConfig`` node per id, with every version kept as an ``AutomationConfigVersion`` node. The CLI,
the API and any UI only read and write it through :class:`Automation`; schedulers reconcile against it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

import pydantic
from pydantic import BaseModel, ConfigDict, Field, field_validator

from graphmem.automation.scheduler import Planned, canonical, fresh, parse_schedule
from graphmem.errors import GraphMemError, ValidationError, VersionConflict
from graphmem.model.dynamics import PRESETS, DynamicsParams
from graphmem.store import audit, lenient, records
from graphmem.store.driver import Tx
from graphmem.store.queries import query
from graphmem.store.runtime import Runtime

logger = logging.getLogger(__name__)

JOB_NAMES = ("decay", "forget", "consolidate", "associate", "promote", "review", "topics", "adapt")

DEFAULT_SCHEDULES = {
    "decay": "every 1h",
    "forget": "15 3 * * *",
    "consolidate": "30 3 * * *",
    "associate": "every 6h",
    "promote": "45 3 * * *",
    "review": "every 1h",
    "topics": "0 3 * * *",  # before consolidate, which summarises per topic (docs/dynamics.md)
    "adapt": "0 4 * * *",  # after the nightly jobs; only users with new feedback (docs/dynamics.md)
}


class JobConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    enabled: bool = True
    schedule: str

    @field_validator("schedule")
    @classmethod
    def _valid_schedule(cls, value: str) -> str:
        parse_schedule(value)
        return canonical(value)


def _default_jobs() -> dict[str, JobConfig]:
    return {name: JobConfig(schedule=spec) for name, spec in DEFAULT_SCHEDULES.items()}


class AutomationConfig(BaseModel):
    """Everything the automation plane is configured with; ``version`` is the stored one (0: never stored).

    Strict as input (:func:`validate_config`: unknown keys and invalid values are errors); tolerant when read
    back from storage (:func:`read_config`)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    version: int = Field(default=0, ge=0)
    dynamics: DynamicsParams = Field(default_factory=DynamicsParams)
    jobs: dict[str, JobConfig] = Field(default_factory=_default_jobs)
    context_budget: int = Field(default=2000, ge=1, description="tokens of memory context per turn")
    batch_size: int = Field(default=5000, ge=1, le=1_000_000, description="rows per inner transaction")

    @field_validator("jobs")
    @classmethod
    def _all_jobs(cls, jobs: dict[str, JobConfig]) -> dict[str, JobConfig]:
        """Every job, in ``JOB_NAMES`` order: an unknown one is an error, a missing one (a config written
        before the job existed) gets its default schedule, enabled."""
        unknown = set(jobs) - set(JOB_NAMES)
        if unknown:
            raise ValueError(f"unknown jobs {sorted(unknown)}; known: {', '.join(JOB_NAMES)}")
        return {name: jobs.get(name) or JobConfig(schedule=DEFAULT_SCHEDULES[name]) for name in JOB_NAMES}

    @classmethod
    def from_preset(cls, name: str) -> AutomationConfig:
        if name not in PRESETS:
            raise ValidationError("preset", f"unknown preset {name!r}; known: {', '.join(PRESETS)}")
        return cls(dynamics=PRESETS[name])

    def planned(self) -> dict[str, Planned]:
        return {name: Planned(job.enabled, job.schedule) for name, job in self.jobs.items()}

    def with_job(self, name: str, **changes: Any) -> AutomationConfig:
        """A copy with one job's settings changed (validated)."""
        if name not in self.jobs:
            raise ValidationError("job", f"unknown job {name!r}; known: {', '.join(JOB_NAMES)}")
        data = self.model_dump()
        data["jobs"][name].update(changes)
        return validate_config(data)


def validate_config(data: AutomationConfig | dict[str, Any]) -> AutomationConfig:
    """Validate (again) a configuration: a copy made with ``model_copy(update=...)`` skips validation."""
    raw = data.model_dump() if isinstance(data, AutomationConfig) else data
    try:
        return AutomationConfig.model_validate(raw)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "config"
        raise ValidationError(field, first["msg"]) from exc


def read_config(body: object, version: object, *, config_id: str, preset: str) -> AutomationConfig:
    """The configuration stored as JSON ``body`` at ``version``, never raising: keys this version does not
    know (written by a newer graphmem) are ignored, values that do not validate take the defaults of the
    stored preset (else ``preset``), each read with one WARNING naming the keys."""
    found = lenient.Findings()
    data = lenient.parse_object(body)
    dynamics = data.get("dynamics") if data is not None else None
    stored_preset = dynamics.get("preset") if isinstance(dynamics, dict) else None
    known = isinstance(stored_preset, str) and stored_preset in PRESETS
    base = AutomationConfig.from_preset(stored_preset if known else preset)  # type: ignore[arg-type]
    number = version if isinstance(version, int) and version >= 0 else 0
    if data is not None:
        data.pop("version", None)  # the node's, not the body's
    cfg = lenient.load_stored(AutomationConfig, data, base, found)
    what = f"automation config {lenient.key_name(config_id)!r} (version {number})"
    lenient.report(what, found)
    return cfg.model_copy(update={"version": number})


# --- value types of the API ------------------------------------------------------------------------
RunStatus = Literal["running", "success", "failed", "interrupted", "dry_run"]


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
def _reads(name: str) -> frozenset[str]:
    return frozenset(re.findall(r"\$p\.(\w+)", query(name)))


@dataclass(frozen=True)
class DueMark:
    """A job that stores, per memory, when it must look at the memory again, computed from the dynamics
    parameters it reads; and the statement that makes every live memory due for it again."""

    job: str
    statement: str
    reads: frozenset[str]

    def basis(self, params: DynamicsParams) -> str:
        """The stored-basis entry for ``params``: the statement and a fingerprint of the values it reads."""
        values = json.dumps(params.model_dump(mode="json", include=set(self.reads)), sort_keys=True)
        return f"{self.statement}={hashlib.sha256(values.encode()).hexdigest()[:16]}"

    def stale(self) -> str:
        """An entry no parameters produce: the stored dates are known to mix old values."""
        return f"{self.statement}=stale"

    def own(self, basis: list[str]) -> list[str]:
        return [entry for entry in basis if entry.startswith(self.statement + "=")]


DUE_MARKS = (
    DueMark("decay", "decay_mark_due", _reads("dynamics_decay")),
    DueMark("review", "review_mark_due", _reads("review_schedule")),
)
"""The parameters each scheduling job reads are found in its Cypher (one source of truth): decay computes
each memory's coefficients and next status change, review its next review time, once, from these values.
The configuration node keeps, per job, the fingerprint of the values the stored dates were computed under
(``due_basis``); whenever the effective values differ (a stored change, another preset in ``Settings``, a
run that used values changed while it ran), every live memory is made due again for that job."""


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

    def apply_due_marks(self) -> int:
        """Make every live memory due again for each job whose stored dates were computed under other values
        than the effective configuration's (:data:`DUE_MARKS`), then store the new basis; a configuration id
        seen for the first time adopts the present values. ``set_config`` calls this right after a change,
        and every job run first, so a marking that was interrupted, or a preset changed in ``Settings``
        without a stored configuration, is completed by the next run. Returns the memories marked."""
        cfg = self.get_config()
        rows = self._rt.store.read("automation_due_basis", id=self.config_id)
        basis, pending = (rows[0]["basis"], rows[0]["pending"]) if rows else ([], [])
        total = 0
        for mark in DUE_MARKS:
            own, entry = mark.own(basis), mark.basis(cfg.dynamics)
            if own == [entry] and mark.statement not in pending:
                continue
            if own or mark.statement in pending:  # computed under other values (a first sight adopts)
                token = f"{mark.statement}=marking-{uuid.uuid4().hex}"  # a run ending meanwhile replaces it
                self._store_basis(mark, seen=own, entry=token)
                done = self._rt.store.write_auto(mark.statement, batch=cfg.batch_size)
                marked = int(done[0]["marked"]) if done else 0
                logger.info("%s: %d memories due again", mark.statement, marked)
                total += marked
                own = [token]
            self._store_basis(mark, seen=own, entry=entry)
        return total

    def note_run(self, job: str, used: DynamicsParams) -> None:
        """After a run of ``job`` that computed dates under ``used``: if the stored basis is another (the
        configuration changed while it ran, and its marking came before the run's writes), the stored dates
        mix old values; the basis is marked stale, so the next job run makes every memory due again."""
        marks = [mark for mark in DUE_MARKS if mark.job == job]
        rows = self._rt.store.read("automation_due_basis", id=self.config_id) if marks else []
        basis = rows[0]["basis"] if rows else []
        for mark in marks:
            if mark.own(basis) != [mark.basis(used)]:
                logger.info("%s ran under changed parameters: every memory due at the next run", job)
                self._store_basis(mark, seen=None, entry=mark.stale())

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
        if not 1 <= limit <= 10_000:
            raise ValidationError("limit", "must be between 1 and 10000")
        rows = self._rt.store.read("jobrun_list", job=job, user_id=user_id, limit=limit)
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
        now = now or datetime.now(UTC)
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
            "recall_effects": {  # this client's deferred writer (graphmem.store.deferred)
                "mode": self._rt.settings.recall_effects,
                "pending": self._rt.deferred.pending,
                "written": self._rt.deferred.written,
                "failed": self._rt.deferred.failed,
            },
        }
        return Health(status="degraded" if reasons else "healthy", reasons=reasons, details=details)
