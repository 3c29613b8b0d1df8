"""The automation configuration: what is stored in Neo4j and validated on the way in, and what a change of it
calls for (:data:`DUE_MARKS`). :class:`graphmem.automation.control.Automation` reads and writes it."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import pydantic
from pydantic import BaseModel, ConfigDict, Field, field_validator

from graphmem.automation.scheduler import Planned, canonical, parse_schedule, within_bound
from graphmem.errors import ValidationError
from graphmem.model.dynamics import PRESETS, DynamicsParams
from graphmem.model.validation import CONTEXT_BUDGET, MAX_CONTEXT_BUDGET
from graphmem.store import lenient
from graphmem.store.queries import query

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


Budget = Annotated[int, Field(ge=1, le=MAX_CONTEXT_BUDGET)]
"""A context's token budget (``AutomationConfig.context_budget``; ``context(token_budget=...)`` checks
the same bounds)."""


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
    context_budget: Budget = Field(
        default=CONTEXT_BUDGET,
        description="tokens of a context() that names no token_budget (library, REST, MCP, CLI)",
    )
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


def configured_budget(body: object) -> int:
    """The ``context_budget`` of a stored configuration's JSON ``body`` (None: none stored), read where a
    context is assembled, by the field's own rules, as :func:`read_config` reads it (the default when absent
    or invalid; read_config reports that)."""
    data = lenient.parse_object(body)
    if data is None or "context_budget" not in data:
        return CONTEXT_BUDGET
    try:
        return _BUDGET.validate_python(data["context_budget"])
    except pydantic.ValidationError:
        return CONTEXT_BUDGET


_BUDGET: pydantic.TypeAdapter[int] = pydantic.TypeAdapter(Budget)


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
        _bound_schedules(data.get("jobs"), found)
    cfg = lenient.load_stored(AutomationConfig, data, base, found)
    what = f"automation config {lenient.key_name(config_id)!r} (version {number})"
    lenient.report(what, found)
    return cfg.model_copy(update={"version": number})


def _bound_schedules(jobs: object, found: lenient.Findings) -> None:
    """Stored interval schedules beyond the longest allowed, read as the longest (in place)."""
    for name, job in jobs.items() if isinstance(jobs, dict) else ():
        spec = job.get("schedule") if isinstance(job, dict) and name in JOB_NAMES else None
        if isinstance(spec, str) and (bounded := within_bound(spec)) is not None:
            job["schedule"] = bounded
            found.clamped.append(f"jobs.{lenient.key_name(name)}.schedule")


# --- what a change calls for ----------------------------------------------------------------------
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

    def needs(
        self, basis: list[str], pending: list[str], params: DynamicsParams
    ) -> Literal["nothing", "adopt", "mark"]:
        """What the stored ``basis`` (and an older version's ``pending`` markings) call for under ``params``:
        ``"nothing"`` (the dates are this configuration's), ``"adopt"`` (no entry yet: a configuration id
        seen first takes the present values) or ``"mark"`` (the dates are other values')."""
        own = self.own(basis)
        if self.statement in pending or own not in ([], [self.basis(params)]):
            return "mark"
        return "adopt" if not own else "nothing"


DUE_MARKS = (
    DueMark("decay", "decay_mark_due", _reads("dynamics_decay")),
    DueMark("review", "review_mark_due", _reads("review_schedule")),
)
"""The parameters each scheduling job reads are found in its Cypher (one source of truth): decay computes
each memory's coefficients and next status change, review its next review time, once, from these values.
The configuration node keeps, per job, the fingerprint of the values the stored dates were computed under
(``due_basis``); whenever the effective values differ (a stored change, another preset in ``Settings``, a
run that used values changed while it ran), every live memory is made due again for that job."""
