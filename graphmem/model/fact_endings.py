"""Ending, withdrawing and retracting a fact key's current value (pure; planned with the rest of a batch by
:func:`graphmem.model.facts.plan`, or on their own by a retraction)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from graphmem.model.fact_versions import (
    COPIED,
    ENDED,
    RETRACTED,
    SAID_WRONG,
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
    "Retraction",
    "calls_off",
    "names",
    "plan_correction",
    "plan_end",
    "plan_retraction",
    "plan_withdraw",
    "resumed_start",
    "withdrawable",
]


def plan_end(
    out: FactPlan,
    state: dict[Identity, CurrentFact],
    history: dict[Identity, KeyState],
    new: FactInput,
    current: CurrentFact | None,
    valid_from: datetime,
) -> None:
    """ "I no longer live in Leeds": the current value ends at ``valid_from`` when it is the one named
    (as a withdrawal names a plan: :func:`names`; an empty value names any) and ``valid_from`` follows its
    start; while a plan waits, the value it would replace (:func:`_end_before_plan`); otherwise nothing
    changes."""
    if current is not None and _ends_held(current, new, valid_from):
        _end_before_plan(out, state, history, new, current, valid_from)
        return
    audit = {**audit_row(new, current), "new_value": None}
    if (
        current is None
        or (new.value and not names(current.value, new.value))
        or valid_from <= current.valid_from
    ):
        _ignored(out, audit, "end_ignored", "no matching current value")
        return
    out.close.append({"id": current.id, "valid_to": valid_from, "status": ENDED})
    out.outdated.append({"old": current.id, "new": None, "key": new.key, "at": valid_from})
    out.audit.append({**audit, "resolution": "end", "reason": "stated as no longer true", "new_id": None})
    out.results.append((current.id, Resolution.SUPERSEDE))
    _drop_current(state, history, new.identity, valid_from, current.version)


def _ends_held(current: CurrentFact, new: FactInput, said: datetime) -> bool:
    """Whether ending ``new`` ends the value pending plan ``current`` would replace, before the plan starts
    ("I'm moving to Bath in March", then "I no longer live in Leeds" in December): the value named (or any)
    is the one the plan resumes if called off, and it had started by ``said``."""
    held = current.resumes
    if (
        held is None
        or current.replaced is None
        or not withdrawable(current, "", said)
        or said >= current.valid_from
    ):
        return False
    start = held.get("valid_from")
    return (not new.value or names(str(held.get("value")), new.value)) and (
        not isinstance(start, datetime) or start < said
    )


def _end_before_plan(out: FactPlan, state: dict[Identity, CurrentFact], history: dict[Identity, KeyState],
                     new: FactInput, current: CurrentFact, said: datetime) -> None:  # fmt: skip
    """The value pending plan ``current`` would replace ends at ``said``, before the plan starts: the version
    the plan closed at its start is revoked (its record no longer holds from now: ``Fact.revoked_at``) and
    recorded again as ended at ``said``; its statement is outdated from then. The plan stands, with nothing to
    resume when called off."""
    held, replaced = current.resumes, current.replaced
    assert held is not None and replaced is not None
    version, ended_id = _next_version(history, new.identity, current), str(uuid.uuid4())
    row = {
        **{f: held.get(f) for f in COPIED},
        "id": ended_id,
        "valid_from": resumed_start(held, current.valid_from),
        "valid_to": said,
        "status": ENDED,
        "version": version,
        "planned_at": None,
    }
    out.create.append(row)
    out.revoked.append(replaced)
    out.outdated.append({"old": replaced, "new": None, "key": new.key, "at": said, "memory": new.memory_id})
    audit = {**audit_row(new, current), "new_value": None, "old_value": held.get("value"), "new_id": ended_id}
    reason = "the value a pending plan replaces ended before the plan's start; the plan stands"
    out.audit.append({**audit, "resolution": "end", "reason": reason})
    out.results.append((ended_id, Resolution.SUPERSEDE))
    floor = said if current.floor is None or current.floor < said else current.floor
    # the plan's line goes on from the plan; the key's next version is numbered after the ended copy
    state[new.identity] = replace(current, resumes=None, replaced_value=None, floor=floor)


def plan_withdraw(
    out: FactPlan,
    state: dict[Identity, CurrentFact],
    history: dict[Identity, KeyState],
    new: FactInput,
    current: CurrentFact | None,
    said: datetime,
) -> None:
    """ "I'm not moving to Manchester after all": the key's plan made by ``said`` (the one naming
    ``new.value``, or any) is withdrawn as :func:`plan_retraction` withdraws one: its transaction time closes,
    the version it had closed at its start goes on from its own start (a plan made ``said`` if that is
    later), the plan's statement is outdated from ``said`` and the continued value's statement is current
    again. A plan whose date has passed is called off too: a move said to be off never happened, whatever
    day "next month" was read as. Without a current plan nothing changes (a continued value is no change:
    "the move is off" said again leaves it)."""
    audit = {**audit_row(new, current), "new_value": None}
    if current is None or not calls_off(current, new, said):
        pending = withdrawable(current, "", said)
        _ignored(
            out, audit, "withdraw_ignored", "no pending plan of this value" if pending else "no pending plan"
        )
        return
    out.close.append({"id": current.id, "valid_to": None, "status": RETRACTED})
    out.outdated.append({"old": current.id, "new": None, "key": new.key, "at": said, "memory": new.memory_id})
    resumed_id = None
    if current.resumes is not None:  # the value the plan would have ended goes on, from its own start
        resumed_id, version = str(uuid.uuid4()), _next_version(history, new.identity, current)
        copied = {f: current.resumes.get(f) for f in COPIED}
        start = resumed_start(current.resumes, current.valid_from)
        planned = said if start > said else None
        out.create.append(
            {**copied, "id": resumed_id, "valid_from": start, "status": "current", "version": version,
             "planned_at": planned}
        )  # fmt: skip
        out.supersedes.append({"src": resumed_id, "dst": current.id, "valid_from": current.valid_from})
        if current.replaced is not None:
            if planned is None:  # recorded again by the copy: the version the plan closed no longer holds
                out.revoked.append(current.replaced)  # (ended or retracted later, the copy alone tells)
            _reinstate(out, current.replaced, current.resumes.get("memory_id"), new.key)
        value, source = str(current.resumes["value"]), stored_source(current.resumes["source"])
        state[new.identity] = CurrentFact(  # it replaces what the plan replaced, as fact_current reads it
            id=resumed_id, value=value, valid_from=start, source=source, version=version, planned_at=planned,
            replaced=current.replaced, floor=current.floor,
            replaced_value=held_value(current.resumes, planned), resumes=current.resumes if planned else None,
            fields={**copied, "valid_from": start},
        )  # fmt: skip
    else:
        _drop_current(state, history, new.identity, current.floor, current.version)
    reason = "a plan called off before its start"
    out.audit.append({**audit, "resolution": "withdraw", "reason": reason, "new_id": resumed_id})
    out.results.append((current.id, Resolution.SUPERSEDE))


def plan_correction(
    out: FactPlan,
    state: dict[Identity, CurrentFact],
    history: dict[Identity, KeyState],
    new: FactInput,
    current: CurrentFact | None,
    said: datetime,
) -> FactInput | None:
    """ "Sorry, I meant Liverpool, not Manchester": the key's current value or pending plan named
    ``new.corrects`` was said by mistake. A pending plan is withdrawn (:func:`plan_withdraw`) and the right
    value planned for its date; a value is retracted as never true (its transaction time closes, its
    statement is outdated from its start) and the right one holds from its start; with ``new.replans`` (a
    plan changed, not a slip) only a pending plan is. Returns the input that records the right value (its
    result stands for ``new``'s); naming no such value, nothing changes."""
    audit = {**audit_row(new, current)}
    wrong = new.corrects or ""
    # a plan changed keeps its day unless it says its own ("going to Lloyds instead, start 11 Jan"): then
    # ``said`` is that day, and the plan was changed when it was said
    dated = new.replans and new.planned_at is not None
    said = new.planned_at if dated and new.planned_at is not None else said
    if (
        current is None
        or not (wrong == SAID_WRONG or names(current.value, wrong, whole=True))
        or _same_value(current.__dict__, new.__dict__)
    ):
        _ignored(out, audit, "correct_ignored", "no current value or plan of the value corrected")
        return None
    right = replace(
        new, corrects=None, replans=False, valid_from=new.valid_from if dated else current.valid_from
    )
    pending = withdrawable(current, "", said) and said < current.valid_from
    if new.replans and not pending:  # "I'm going to Tesco instead of Aldi": Aldi held is no plan changed
        _ignored(out, audit, "correct_ignored", "no pending plan of the value replaced")
        return None
    if pending:  # a plan: the right one, same date
        plan_withdraw(
            out,
            state,
            history,
            replace(new, value="", withdraws=True, corrects=None, replans=False),
            current,
            said,
        )
        out.results.pop()
        return replace(right, planned_at=said)
    out.close.append({"id": current.id, "valid_to": None, "status": RETRACTED})
    out.outdated.append(
        {"old": current.id, "new": None, "key": new.key, "at": current.valid_from, "memory": new.memory_id}
    )
    out.audit.append({**audit, "resolution": "correct", "reason": "a value said by mistake", "new_id": None})
    _drop_current(state, history, new.identity, current.floor, current.version)
    return replace(right, planned_at=None)


def _ignored(out: FactPlan, audit: dict[str, Any], resolution: str, reason: str) -> None:
    """An ending or withdrawal that changes nothing: audited, and merged into nothing."""
    out.audit.append({**audit, "resolution": resolution, "reason": reason, "new_id": None})
    out.results.append(("", Resolution.MERGE))


def _next_version(history: dict[Identity, KeyState], identity: Identity, current: CurrentFact) -> int:
    """The number of a version this plan records beside ``current``: after the key's highest, conflicts and
    ended copies included (recorded in ``history``, so the next one is numbered after it)."""
    past = history.get(identity, KeyState())
    version = max(current.version, past.last_version) + 1
    history[identity] = replace(past, last_version=version)
    return version


def _drop_current(
    state: dict[Identity, CurrentFact],
    history: dict[Identity, KeyState],
    identity: Identity,
    floor: datetime | None,
    version: int,
) -> None:
    """The key has no current value any more: its history keeps ``floor`` and its highest version."""
    del state[identity]
    past = history.get(identity, KeyState())
    history[identity] = KeyState(floor=floor, last_version=max(past.last_version, version))


def withdrawable(current: CurrentFact | None, named: str, said: datetime) -> bool:
    """Whether ``current`` is a plan made by ``said`` that a withdrawal naming ``named`` (or nothing) calls
    off: not a continuation (:func:`_continues`)."""
    if current is None or current.planned_at is None or current.planned_at > said or _continues(current):
        return False
    return not named or names(current.value, named)


def calls_off(current: CurrentFact | None, new: FactInput, said: datetime) -> bool:
    """Whether withdrawal ``new`` calls ``current`` off: a plan it names (or any, naming none), or, for a stay
    (``new.stays``), the plan that would replace the value it stays in."""
    if not new.stays:
        return withdrawable(current, new.value, said)
    held = current.replaced_value if current is not None else None
    return withdrawable(current, "", said) and held is not None and names(held, new.value)


def resumed_start(resumed: Mapping[str, Any], plan_start: datetime) -> datetime:
    """Where the value a withdrawn plan had ended goes on: from its own start, so that it reads as one value
    that never stopped (the later record holds where it overlaps the version the plan had closed); the plan's
    start when the stored start is not a time (written by hand)."""
    start = resumed.get("valid_from")
    return start if isinstance(start, datetime) else plan_start


def _reinstate(out: FactPlan, fact_id: str, memory_id: str | None, key: str) -> None:
    """The statement of ``fact_id`` (memory ``memory_id``) holds again for ``key``: a mark this batch made on
    it (through that version, or another stating it: a continued copy) is not written, an older one ends
    (reinstatements are written before this batch's marks, so a later change marks it afresh)."""
    out.outdated = [
        o
        for o in out.outdated
        if o["key"] != key or (o["old"] != fact_id and (memory_id is None or o.get("stated") != memory_id))
    ]
    out.reinstated.append({"fact": fact_id, "key": key})


def _continues(current: CurrentFact) -> bool:
    """Whether plan ``current`` continues the value of the version it replaces (a plan called off goes on as
    one): no change to call off or to continue again."""
    return current.resumes is not None and _same_value(current.resumes, {"value": current.value})


def _same_value(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return normalize_value(str(a.get("value"))) == normalize_value(str(b.get("value")))


def names(value: str, named: str, *, whole: bool = False) -> bool:
    """Whether ``named`` names ``value``: the same words, or the first words of the value or of one of its
    comma-separated parts ("Manchester" names "Ancoats, Manchester" and "Manchester, UK", "Spotify" names
    "Spotify London"; "York" does not name "New York"). ``whole``: the value or a comma part itself, as a
    correction names what it corrects (offered to every key, "Manchester" must not correct the employer
    "Manchester United")."""
    asked = _ARTICLE.sub("", normalize_value(named))
    parts = [_ARTICLE.sub("", normalize_value(p)) for p in (value, *value.split(","))]
    return bool(asked) and any(p == asked if whole else f"{p} ".startswith(f"{asked} ") for p in parts)


_ARTICLE = re.compile(r"^(?:the|a|an) ")


@dataclass(frozen=True)
class Retraction:
    """The writes of one retraction: close ``close_id``; ``create`` (or None) the ended version, or the
    version that resumes the value a withdrawn plan had closed; ``revoke`` (or None) that closed version,
    recorded again by the copy from its own start (as :func:`plan_withdraw` revokes it)."""

    close_id: str
    create: dict[str, Any] | None
    version: int  # the version the audit reports: the ended one, else the closed one
    revoke: str | None = None


def plan_retraction(
    current: dict[str, Any],
    *,
    valid_to: datetime | None,
    resumed: dict[str, Any] | None = None,
    now: datetime | None = None,
    last_version: int = 0,
) -> Retraction:
    """Retract the current version ``current`` (a stored row): without ``valid_to`` it was never true as
    recorded (its transaction time closes, nothing replaces it); with ``valid_to`` it was true until then
    (its transaction time closes and a new version, valid over ``[valid_from, valid_to)``, is recorded).
    ``valid_to`` must follow the version's ``valid_from`` (else ``ValueError``); the caller reads a stored
    ``valid_from`` of another type as the epoch (:func:`graphmem.store.records.moment`).
    Withdrawing a plan (no ``valid_to``) that had closed a version at its start (``resumed``: "I'm moving
    to Manchester next month", then the move is off) records that version's value again from its own start
    (:func:`resumed_start`), so the key keeps its value, as one that never stopped; the closed version is
    revoked (``Retraction.revoke``: ended or retracted later, the continuation alone tells). When
    that start is later than ``now`` (the retraction's time), the continuation is a plan made ``now``, as a
    ``set_fact`` starting later is: a value stated before its start replaces it (:func:`settles_plan`).
    A recorded version is numbered after the key's highest (``last_version``: conflicts too)."""
    version = stored_version(current["version"])
    planned = isinstance(current.get("planned_at"), datetime)
    if valid_to is None and (resumed is None or not planned or _same_value(resumed, current)):
        return Retraction(current["id"], None, version)
    if valid_to is not None and valid_to <= current["valid_from"]:
        raise ValueError("valid_to must be later than the current version's valid_from")
    copied = current if valid_to is not None else resumed
    assert copied is not None
    start = current["valid_from"]  # read by graphmem.store.records.moment: at UTC, as it is written back
    if valid_to is None:  # the value goes on from its own start (resumed's, read likewise)
        start = resumed_start(copied, start)
    row = {
        **{f: copied.get(f) for f in COPIED},
        "valid_from": start,
        "id": str(uuid.uuid4()),
        "valid_to": valid_to,
        "status": "current" if valid_to is None else ENDED,
        "version": max(version, last_version) + 1,
        "expire": False,
        "planned_at": now if valid_to is None and now is not None and start > now else None,
    }
    copy = valid_to is None and row["planned_at"] is None  # the value goes on now: its old record is done
    revoke = str(copied["id"]) if copy and copied.get("id") is not None else None
    return Retraction(current["id"], row, row["version"], revoke)
