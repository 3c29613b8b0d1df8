"""Facts without an LLM: pattern extraction, conflict classification and version planning (pure).

A fact is identified by ``(user_id, agent_id, fact_type, key)`` and has one *current* version. A new value
is classified against the current one:

- ``merge``: the same value (after normalization): no new version, the current one is confirmed;
- ``keep_both``: a contradiction that is kept rather than resolved, because the new value is less trusted
  (its source ranks below the current one's) or older (its ``valid_from`` precedes the current one's):
  it is stored with status ``conflicted`` and a ``CONFLICTS_WITH`` edge; the current value stays;
- ``supersede``: the new value replaces the old: the old version's ``valid_to`` closes at the new
  ``valid_from``, its ``expired_at`` at now, its status becomes ``superseded`` and ``SUPERSEDES`` links them.

A *plan* is a version stated before it starts (``planned_at`` earlier than ``valid_from``: "I'm moving to
Manchester next month", :mod:`graphmem.model.planned`, or a ``set_fact`` with a future ``valid_from``). It
supersedes the current value from its start, so reads at a valid time before then still find the old value.
A value stated after the plan but starting before it (the move happened early, or went elsewhere) replaces
the plan, which closes as never valid (:func:`settles_plan`); the value it replaces, stated again, confirms
that value and leaves the plan (:func:`restates`).

Without a current version (never set, or retracted), a value is ``new``, unless its ``valid_from`` precedes
the end of the key's last known valid interval (the *floor*; a version valid nowhere, such as a withdrawn
plan, ends none): then it is kept as a contradiction too, so valid intervals never overlap. A retraction
(:func:`plan_retraction`) closes the current version's transaction time; with a ``valid_to`` it also
records an ``ended`` version valid over ``[valid_from, valid_to)``.

Every classification is recorded as a ``Conflict`` row, so an audit can see why.
"""

from __future__ import annotations

import math
import re
import uuid
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from graphmem.models import FactType, Source

SOURCE_TRUST: dict[Source, int] = {Source.USER: 3, Source.TOOL: 2, Source.AGENT: 1, Source.INFERENCE: 0}


RETRACTED = "retracted"  # the status of a current version closed by a retraction
ENDED = "ended"  # the status of the version a retraction records with a valid_to


class Resolution(StrEnum):
    NEW = "new"
    MERGE = "merge"
    KEEP_BOTH = "keep_both"
    SUPERSEDE = "supersede"


@dataclass(frozen=True)
class FactInput:
    """A value to set, from ``set_fact`` or from the extractor."""

    user_id: str
    key: str
    value: str
    fact_type: FactType = FactType.CUSTOM
    agent_id: str | None = None
    valid_from: datetime | None = None
    source: Source = Source.USER
    confidence: float = 1.0
    memory_id: str | None = None
    ends: bool = False  # "I no longer ...": close the current version if it has this value; create nothing
    # when the change was stated, for a value stated before it starts (a plan: "I'm moving to Manchester next
    # month"; graphmem.model.planned); a set_fact whose valid_from is later than now is planned now
    planned_at: datetime | None = None

    @property
    def identity(self) -> tuple[str, str | None, str]:
        """A key has one current value whatever the fact type: the type is a label, not part of the key."""
        return (self.user_id, self.agent_id, self.key)


@dataclass(frozen=True)
class CurrentFact:
    """What the planner needs to know about a stored current version."""

    id: str
    value: str
    valid_from: datetime
    source: Source
    version: int
    planned_at: datetime | None = None  # a plan (see FactInput.planned_at)
    replaced: str | None = None  # the version a plan superseded (its statement is outdated with the plan's)
    floor: datetime | None = None  # the floor (KeyState) its line of versions began over
    replaced_value: str | None = None  # a plan's: the value that held when it was made (see restates)


@dataclass(frozen=True)
class KeyState:
    """A key's stored history as the planner sees it when it has no current version: the end of its last
    known valid interval (None: no versions) and its highest version number."""

    floor: datetime | None = None
    last_version: int = 0


@dataclass
class FactPlan:
    """Everything one batch of fact inputs writes: new versions, closed ones, edges and audit rows."""

    create: list[dict[str, Any]] = field(default_factory=list)
    close: list[dict[str, Any]] = field(default_factory=list)
    supersedes: list[dict[str, Any]] = field(default_factory=list)
    conflicts_with: list[dict[str, Any]] = field(default_factory=list)
    audit: list[dict[str, Any]] = field(default_factory=list)
    results: list[tuple[str, Resolution]] = field(default_factory=list)  # (fact id, resolution) per input
    # memories whose stated value was superseded or ended: {old (fact id), new (fact id or None), key, at}
    outdated: list[dict[str, Any]] = field(default_factory=list)


def stored_version(value: Any) -> int:
    """A stored version number; one of another type (written by hand) reads as 0, so the next is 1."""
    ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    return int(value) if ok else 0


def stored_source(value: Any) -> Source:
    """A stored source; an unknown one (written by hand) reads as the least trusted, so any new value wins."""
    try:
        return Source(value)
    except ValueError:
        return min(Source, key=SOURCE_TRUST.__getitem__)


def normalize_value(value: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", value.lower()).split())


def classify(
    current: CurrentFact | None, new: FactInput, valid_from: datetime, floor: datetime | None = None
) -> tuple[Resolution, str]:
    """How a new value relates to the current one (or, without one, to the key's ``floor``), and why."""
    if current is None:
        if floor is not None and valid_from < floor:
            return Resolution.KEEP_BOTH, "the new value's valid_from precedes the end of the key's last value"
        return Resolution.NEW, "no current value"
    trusted = SOURCE_TRUST[new.source] >= SOURCE_TRUST[current.source]
    if trusted and settles_plan(current, valid_from):  # also the planned value itself, only earlier
        if restates(current, new):
            return (
                Resolution.MERGE,
                "the value that holds until a planned change, stated again: the plan stands",
            )
        return (
            Resolution.SUPERSEDE,
            "stated after a planned change and before its start: it replaces the plan",
        )
    if normalize_value(current.value) == normalize_value(new.value):
        return Resolution.MERGE, "same value"
    if not trusted:
        return Resolution.KEEP_BOTH, f"source {new.source.value} ranks below {current.source.value}"
    if valid_from < current.valid_from:
        return Resolution.KEEP_BOTH, "the new value's valid_from precedes the current value's"
    return Resolution.SUPERSEDE, "a newer value from a source at least as trusted"


def settles_plan(current: CurrentFact, valid_from: datetime) -> bool:
    """Whether a value from ``valid_from`` replaces ``current`` as a plan not yet started: stated after the
    plan (planned_at) and starting before it ("I've settled in Ancoats" a week before the planned move), not
    before the floor its line began over. The plan closes as never valid and the new value holds from
    ``valid_from``; the version the plan had superseded keeps its recorded end, and reads resolve the overlap
    to the later record (``fact_at.cypher``: recorded_at, then valid_from, latest first)."""
    early = current.planned_at is not None and current.planned_at <= valid_from < current.valid_from
    return early and (current.floor is None or current.floor <= valid_from)


def restates(current: CurrentFact, new: FactInput) -> bool:
    """Whether ``new`` is the value that held when plan ``current`` was made and that it replaces from its
    start ("I live in Leeds" after "I'm moving to Manchester next month"): before the plan starts it
    confirms that value, which holds until then, and leaves the plan (:func:`settles_plan` decides the
    time)."""
    return current.replaced_value is not None and (
        normalize_value(current.replaced_value) == normalize_value(new.value)
    )


def _holds(current: CurrentFact, planned_at: datetime | None) -> bool:
    """Whether ``current`` held when a plan superseding it was made (its value, stated again, restates)."""
    return planned_at is not None and current.valid_from <= planned_at


Identity = tuple[str, str | None, str]


def plan(
    inputs: list[FactInput],
    currents: dict[Identity, CurrentFact],
    now: datetime,
    keys: dict[Identity, KeyState] | None = None,
) -> FactPlan:
    """Plan the writes for ``inputs`` (applied in order; later inputs see earlier ones' results).
    ``keys``: the stored state of keys without a current version (see :class:`KeyState`)."""
    out = FactPlan()
    state = dict(currents)
    history = keys or {}
    for new in inputs:
        valid_from = new.valid_from or now
        if new.planned_at is None and valid_from > now:  # set_fact with a future valid_from: planned now
            new = replace(new, planned_at=now)
        current = state.get(new.identity)
        past = history.get(new.identity, KeyState())
        if new.ends:
            _plan_end(out, state, history, new, current, valid_from)
            continue
        resolution, reason = classify(current, new, valid_from, past.floor)
        audit = {
            "id": str(uuid.uuid4()),
            "user_id": new.user_id,
            "key": new.key,
            "fact_type": new.fact_type.value,
            "resolution": resolution.value,
            "reason": reason,
            "old_id": current.id if current else None,
            "new_value": new.value,
            "old_value": current.value if current else None,
        }
        if resolution is Resolution.MERGE:
            assert current is not None
            kept = current.replaced if current.replaced and restates(current, new) else current.id
            out.audit.append({**audit, "new_id": kept})
            out.results.append((kept, resolution))
            continue
        version = (current.version if current else past.last_version) + 1
        row = _version_row(new, valid_from, resolution, version)
        new_id = row["id"]
        out.create.append(row)
        out.results.append((new_id, resolution))
        if current is not None and resolution is Resolution.KEEP_BOTH:
            out.conflicts_with.append({"src": row["id"], "dst": current.id, "valid_from": valid_from})
        replaced, held = None, None
        if current is not None and resolution is Resolution.SUPERSEDE:
            replaced = _plan_supersede(out, new.key, new_id, current, valid_from)
            held = current.value if replaced == current.id and _holds(current, new.planned_at) else None
        if resolution is not Resolution.KEEP_BOTH:
            floor = current.floor if current is not None else past.floor
            state[new.identity] = CurrentFact(
                new_id, new.value, valid_from, new.source, version, new.planned_at, replaced, floor, held
            )
        else:
            history[new.identity] = replace(past, last_version=max(past.last_version, version))
        out.audit.append({**audit, "new_id": row["id"]})
    _write_closed_in_batch(out)
    return out


def _plan_supersede(
    out: FactPlan, key: str, new_id: str, current: CurrentFact, valid_from: datetime
) -> str | None:
    """Close ``current`` for the new version ``new_id`` valid from ``valid_from``; returns the version the
    new one replaces (a plan's predecessor when it settles the plan). A settled plan closes as never valid
    (its valid_to at its own valid_from), and the statement its plan had outdated from the planned date is
    outdated from ``valid_from``."""
    early = settles_plan(current, valid_from)
    out.close.append(
        {"id": current.id, "valid_to": current.valid_from if early else valid_from, "status": "superseded"}
    )
    out.supersedes.append({"src": new_id, "dst": current.id, "valid_from": valid_from})
    out.outdated.append({"old": current.id, "new": new_id, "key": key, "at": valid_from})
    if early and current.replaced is not None:
        out.outdated.append({"old": current.replaced, "new": new_id, "key": key, "at": valid_from})
    return current.replaced if early else current.id


def _version_row(
    new: FactInput, valid_from: datetime, resolution: Resolution, version: int
) -> dict[str, Any]:
    """The row of a new version of ``new`` (conflicted when kept beside the current one)."""
    return {
        "id": str(uuid.uuid4()),
        "user_id": new.user_id,
        "agent_id": new.agent_id,
        "key": new.key,
        "value": new.value,
        "fact_type": new.fact_type.value,
        "valid_from": valid_from,
        "source": new.source.value,
        "confidence": new.confidence,
        "memory_id": new.memory_id,
        "status": "conflicted" if resolution is Resolution.KEEP_BOTH else "current",
        "version": version,
        "planned_at": new.planned_at,
    }


def _write_closed_in_batch(out: FactPlan) -> None:
    """A version created and closed in the same batch is written closed (and not closed again)."""
    closing = {c["id"]: c for c in out.close}
    out.create = [
        {**r, "status": closing[r["id"]]["status"], "valid_to": closing[r["id"]]["valid_to"], "expire": True}
        if r["id"] in closing
        else r
        for r in out.create
    ]
    created = {r["id"] for r in out.create}
    out.close = [c for c in out.close if c["id"] not in created]


def _plan_end(
    out: FactPlan,
    state: dict[Identity, CurrentFact],
    history: dict[Identity, KeyState],
    new: FactInput,
    current: CurrentFact | None,
    valid_from: datetime,
) -> None:
    """ "I no longer live in Leeds": the current value ends at ``valid_from`` when it is the one named
    (an empty value names any) and ``valid_from`` follows its start; otherwise nothing changes."""
    named = not new.value or (
        current is not None and normalize_value(current.value) == normalize_value(new.value)
    )
    audit = {
        "id": str(uuid.uuid4()),
        "user_id": new.user_id,
        "key": new.key,
        "fact_type": new.fact_type.value,
        "old_id": current.id if current else None,
        "new_value": None,
        "old_value": current.value if current else None,
    }
    if current is None or not named or valid_from <= current.valid_from:
        out.audit.append(
            {**audit, "resolution": "end_ignored", "reason": "no matching current value", "new_id": None}
        )
        out.results.append(("", Resolution.MERGE))
        return
    out.close.append({"id": current.id, "valid_to": valid_from, "status": ENDED})
    out.outdated.append({"old": current.id, "new": None, "key": new.key, "at": valid_from})
    out.audit.append({**audit, "resolution": "end", "reason": "stated as no longer true", "new_id": None})
    out.results.append((current.id, Resolution.SUPERSEDE))
    del state[new.identity]
    past = history.get(new.identity, KeyState())
    history[new.identity] = KeyState(floor=valid_from, last_version=max(past.last_version, current.version))


@dataclass(frozen=True)
class Retraction:
    """The writes of one retraction: close ``close_id``; ``create`` (or None) the ended version, or the
    version that resumes the value a withdrawn plan had closed."""

    close_id: str
    create: dict[str, Any] | None
    version: int  # the version the audit reports: the ended one, else the closed one


_COPIED = ("user_id", "agent_id", "key", "value", "fact_type", "source", "confidence", "memory_id")


def plan_retraction(
    current: dict[str, Any],
    *,
    valid_to: datetime | None,
    resumed: dict[str, Any] | None = None,
    now: datetime | None = None,
) -> Retraction:
    """Retract the current version ``current`` (a stored row): without ``valid_to`` it was never true as
    recorded (its transaction time closes, nothing replaces it); with ``valid_to`` it was true until then
    (its transaction time closes and a new version, valid over ``[valid_from, valid_to)``, is recorded).
    ``valid_to`` must follow the version's ``valid_from`` (else ``ValueError``); the caller reads a stored
    ``valid_from`` of another type as the epoch (:func:`graphmem.store.records.moment`).
    Withdrawing a plan (no ``valid_to``) that had closed a version at its start (``resumed``: "I'm moving
    to Manchester next month", then the move is off) records that version's value again from the plan's
    start, so the key keeps its value after the planned date; the closed version keeps its recorded end.
    When that start is later than ``now`` (the retraction's time), the continuation is a plan made ``now``,
    as a ``set_fact`` starting later is: a value stated before its start replaces it (:func:`settles_plan`)
    instead of being kept aside as older than the current value."""
    version = stored_version(current["version"])
    if valid_to is None and (resumed is None or not isinstance(current.get("planned_at"), datetime)):
        return Retraction(current["id"], None, version)
    if valid_to is not None and valid_to <= current["valid_from"]:
        raise ValueError("valid_to must be later than the current version's valid_from")
    copied = current if valid_to is not None else resumed
    assert copied is not None
    start = current["valid_from"]  # read by graphmem.store.records.moment: at UTC, as it is written back
    row = {
        **{f: copied.get(f) for f in _COPIED},
        "valid_from": start,
        "id": str(uuid.uuid4()),
        "valid_to": valid_to,
        "status": "current" if valid_to is None else ENDED,
        "version": version + 1,
        "expire": False,
        "planned_at": now if valid_to is None and now is not None and start > now else None,
    }
    return Retraction(current["id"], row, version + 1)
