"""Facts without an LLM: pattern extraction, conflict classification and version planning (pure).

A fact is identified by ``(user_id, agent_id, fact_type, key)`` and has one *current* version. A new value
is classified against the current one:

- ``merge``: the same value (after normalization): no new version, the current one is confirmed;
- ``keep_both``: a contradiction that is kept rather than resolved, because the new value is less trusted
  (its source ranks below the current one's): it is stored with status ``conflicted`` and a
  ``CONFLICTS_WITH`` edge; the current value stays;
- ``backfill``: older (its ``valid_from`` precedes the current one's): history arriving late, placed in the
  key's past until the next version (:mod:`graphmem.model.fact_history`; else kept as a contradiction);
- ``supersede``: the new value replaces the old: the old version's ``valid_to`` closes at the new
  ``valid_from``, its ``expired_at`` at now, its status becomes ``superseded`` and ``SUPERSEDES`` links them.

A *plan* is a version stated before it starts (``planned_at`` earlier than ``valid_from``: "I'm moving to
Manchester next month", :mod:`graphmem.model.planned`, or a ``set_fact`` with a future ``valid_from``). It
supersedes the current value from its start, so reads at a valid time before then still find the old value.
A value stated after the plan but starting before it (the move happened early, or went elsewhere) replaces
the plan, which closes as never valid (:func:`settles_plan`); the value it replaces, stated again, confirms
that value and leaves the plan (:func:`restates`). A plan called off before its start ("I'm not moving to
Manchester after all") is withdrawn, and the value it would have replaced goes on
(:func:`graphmem.model.fact_endings.plan_withdraw`).

Without a current version (never set, or retracted), a value is ``new``, unless its ``valid_from`` precedes
the end of the key's last known valid interval (the *floor*; a version valid nowhere, such as a withdrawn
plan, ends none): then it is history arriving late too. A retraction
(:func:`plan_retraction`) closes the current version's transaction time; with a ``valid_to`` it also
records an ``ended`` version valid over ``[valid_from, valid_to)``.

Every classification is recorded as a ``Conflict`` row, so an audit can see why.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import datetime
from typing import Any

from graphmem.model import fact_history
from graphmem.model.fact_endings import (
    Retraction,
    plan_correction,
    plan_end,
    plan_retraction,
    plan_withdraw,
    withdrawable,
)
from graphmem.model.fact_versions import (
    COPIED,
    ENDED,
    RETRACTED,
    SOURCE_TRUST,
    CurrentFact,
    FactInput,
    FactPlan,
    Identity,
    KeyState,
    Resolution,
    audit_row,
    held_value,
    normalize_value,
    stored_source,
    stored_version,
)

__all__ = [
    "COPIED",
    "ENDED",
    "RETRACTED",
    "SOURCE_TRUST",
    "CurrentFact",
    "FactInput",
    "FactPlan",
    "KeyState",
    "Resolution",
    "Retraction",
    "classify",
    "normalize_value",
    "plan",
    "plan_retraction",
    "restates",
    "settles_plan",
    "stored_source",
    "stored_version",
]


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


def plan(
    inputs: list[FactInput],
    currents: dict[Identity, CurrentFact],
    now: datetime,
    keys: dict[Identity, KeyState] | None = None,
) -> FactPlan:
    """Plan the writes for ``inputs`` (applied in order; later inputs see earlier ones' results).
    ``keys``: the stored state of each key (see :class:`KeyState`)."""
    out = FactPlan()
    state = dict(currents)
    history = keys or {}
    queue = list(reversed(inputs))
    while queue:
        new = queue.pop()
        valid_from = new.valid_from or now
        if new.planned_at is None and valid_from > now:  # set_fact with a future valid_from: planned now
            new = replace(new, planned_at=now)
        current = state.get(new.identity)
        past = history.get(new.identity, KeyState())
        new = _redated(new, current, valid_from)
        valid_from = new.valid_from or now
        if new.ends or new.withdraws or new.corrects or new.holds:  # "I no longer ...", "I meant ..."
            again = _end_or_withdraw(out, state, history, new, current, valid_from, past.last_version)
            fact_history.stale(history, new.identity)
            if again is not None:  # a plan put off, a value corrected: the value to record
                queue.append(again)
            continue
        resolution, reason = classify(current, new, valid_from, past.floor)
        if resolution is Resolution.KEEP_BOTH:
            placed, reason = _placed_late(out, history, new, current, valid_from, now, reason)
            if placed:
                continue
        audit = {**audit_row(new, current), "resolution": resolution.value, "reason": reason}
        if resolution is Resolution.MERGE:
            assert current is not None
            kept = current.replaced if current.replaced and restates(current, new) else current.id
            out.audit.append({**audit, "new_id": kept})
            out.results.append((kept, resolution))
            continue
        version = max(current.version if current else 0, past.last_version) + 1  # conflicts count too
        row = _version_row(new, valid_from, resolution, version)
        new_id = row["id"]
        out.create.append(row)
        out.results.append((new_id, resolution))
        if current is not None and resolution is Resolution.KEEP_BOTH:
            out.conflicts_with.append({"src": row["id"], "dst": current.id, "valid_from": valid_from})
        if resolution is Resolution.KEEP_BOTH:
            history[new.identity] = replace(past, last_version=max(past.last_version, version))
        else:
            _take_over(out, state, history, new, current, row, now, past.floor)
        out.audit.append({**audit, "new_id": row["id"]})
    _write_closed_in_batch(out)
    return out


def _take_over(
    out: FactPlan,
    state: dict[Identity, CurrentFact],
    history: dict[Identity, KeyState],
    new: FactInput,
    current: CurrentFact | None,
    row: dict[str, Any],
    now: datetime,
    floor: datetime | None,
) -> None:
    """``row``, a new or superseding version of ``new``, becomes the key's current one (``current``, if any,
    closes for it)."""
    valid_from = row["valid_from"]
    replaced, held, resumes = None, None, None
    if current is not None:
        replaced = _plan_supersede(out, new.key, row["id"], current, valid_from)
        # a plan settled early hands over the version it replaced
        resumes = current.fields if replaced == current.id else current.resumes
        held = held_value(resumes, new.planned_at)
    state[new.identity] = CurrentFact(
        id=row["id"], value=new.value, valid_from=valid_from, source=new.source, version=row["version"],
        planned_at=new.planned_at, replaced=replaced, floor=current.floor if current else floor,
        replaced_value=held, resumes=resumes if new.planned_at is not None else None,
        fields={**{f: row[f] for f in COPIED}, "valid_from": valid_from},
    )  # fmt: skip
    closed = current.id if current is not None else None
    fact_history.track(history, new.identity, row, closed, now, exact=replaced == closed)


def _placed_late(
    out: FactPlan,
    history: dict[Identity, KeyState],
    new: FactInput,
    current: CurrentFact | None,
    valid_from: datetime,
    now: datetime,
    reason: str,
) -> tuple[bool, str]:
    """Place ``new``, dated before the current value's start (or the key's floor), in the key's history
    (:mod:`graphmem.model.fact_history`); False when it stays a kept contradiction, with the reason why."""
    past = history.get(new.identity, KeyState())
    if not fact_history.late(current, valid_from, past.floor):
        return False, reason
    where = fact_history.place(current, new, valid_from, past)
    if where is None or where.resolution is Resolution.KEEP_BOTH:
        return False, reason if where is None else where.reason
    version = max(current.version if current else 0, past.last_version) + 1
    fact_history.write(
        out, history, new, where, _version_row(new, valid_from, Resolution.BACKFILL, version), now
    )
    return True, where.reason


def _redated(new: FactInput, current: CurrentFact | None, valid_from: datetime) -> FactInput:
    """A pending plan's value planned again for another date ("I'm moving to Manchester next month", then
    "I'm moving to Manchester on the 20th"), by a source at least as trusted, puts the plan off (or forward)
    to that date: as a put-off withdrawal said when the new plan was made (:func:`_end_or_withdraw`);
    anything else is returned unchanged."""
    said = new.planned_at
    if (
        said is None
        or new.ends
        or new.withdraws
        or new.corrects
        or current is None
        or current.valid_from == valid_from
    ):
        return new
    if normalize_value(current.value) != normalize_value(new.value) or not withdrawable(current, "", said):
        return new
    if SOURCE_TRUST[new.source] < SOURCE_TRUST[current.source]:  # an agent does not re-date the user's plan
        return new
    if (
        valid_from.day == 1
        and valid_from < current.valid_from
        and _same_month(valid_from, current.valid_from)
    ):
        return replace(new, valid_from=current.valid_from)  # "next month" of a plan for the 12th: the same
    return replace(new, withdraws=True, put_off_to=valid_from, valid_from=said)


def _holds_until(current: CurrentFact, new: FactInput, valid_from: datetime) -> bool:
    """Whether ``new``, a value said as still held ("still in Geneva till then": ``holds``), holds until
    pending plan ``current`` starts rather than replacing it: stated before the plan's start, another value
    than the plan's and not the one it replaces (that one confirms it)."""
    return (
        settles_plan(current, valid_from)
        and not restates(current, new)
        and normalize_value(current.value) != normalize_value(new.value)
    )


def _hold_until_plan(
    out: FactPlan,
    state: dict[Identity, CurrentFact],
    new: FactInput,
    current: CurrentFact,
    valid_from: datetime,
    last_version: int,
) -> None:
    """Record ``new`` as held from ``valid_from`` until plan ``current`` starts, which supersedes it then and
    resumes it if called off."""
    version = max(current.version, last_version) + 1
    row = {**_version_row(new, valid_from, Resolution.NEW, version), "planned_at": None}
    out.create.append(row)
    out.close.append({"id": row["id"], "valid_to": current.valid_from, "status": "superseded"})
    out.supersedes.append({"src": current.id, "dst": row["id"], "valid_from": current.valid_from})
    reason = "a value held until a pending plan starts: the plan stands"
    audit = {"resolution": Resolution.NEW.value, "reason": reason, "new_id": row["id"]}
    out.audit.append({**audit_row(new, current), **audit})
    out.results.append((row["id"], Resolution.NEW))
    fields = {**{f: row[f] for f in COPIED}, "valid_from": valid_from}
    state[new.identity] = replace(
        current, version=version, replaced=row["id"], replaced_value=new.value, resumes=fields
    )


def _same_month(a: datetime, b: datetime) -> bool:
    return (a.year, a.month) == (b.year, b.month)


def _end_or_withdraw(
    out: FactPlan,
    state: dict[Identity, CurrentFact],
    history: dict[Identity, KeyState],
    new: FactInput,
    current: CurrentFact | None,
    said: datetime,
    last_version: int = 0,
) -> FactInput | None:
    """Plan an ending, a withdrawal or a correction (:mod:`graphmem.model.fact_endings`), or a value held
    until a pending plan starts (:func:`_hold_until_plan`; no plan pending, it is returned as a plain value).
    For a plan put off to a new date ("the move got pushed back to June": ``new.put_off_to``) returns the
    input that plans the withdrawn plan's value from that date, and for a correction the input that records
    the right value; its result stands for ``new``'s. A put-off naming another value than the pending plan's,
    or with no plan pending, changes nothing."""
    if new.holds:  # "still in Geneva till then"
        if current is None or not _holds_until(current, new, said):
            return replace(new, holds=False)
        _hold_until_plan(out, state, new, current, said, last_version)
        return None
    if new.corrects:  # "Sorry, I meant Liverpool, not Manchester"
        return plan_correction(out, state, history, new, current, said)
    if new.ends:
        plan_end(out, state, history, new, current, said)
        return None
    plan_withdraw(out, state, history, new, current, said)
    if new.put_off_to is None or current is None or not withdrawable(current, new.value, said):
        return None
    out.results.pop()
    return replace(
        new, value=current.value, withdraws=False, put_off_to=None, valid_from=new.put_off_to, planned_at=said
    )


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
    stated = current.fields and current.fields.get("memory_id")  # its statement's memory (for a withdrawal)
    out.outdated.append({"old": current.id, "new": new_id, "key": key, "at": valid_from, "stated": stated})
    if early and current.replaced is not None:
        stated = current.resumes and current.resumes.get("memory_id")
        out.outdated.append(
            {"old": current.replaced, "new": new_id, "key": key, "at": valid_from, "stated": stated}
        )
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
