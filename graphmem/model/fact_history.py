"""History arriving late (pure): a value dated before the key's current one starts, placed in the key's past.

Conversations are often imported out of order (sessions from several sources, a backlog loaded newest
first): "I live in York" dated 2021 arrives after "I moved to Manchester" dated 2023 is current. It does not
replace the current value: it held from its own date until the next thing known to have happened, the start
of the earliest known version after it (which supersedes it there). Where it falls inside an earlier
version's interval, it takes over from its own date, as it would have superseded that version had it arrived
in order: that version is recorded again ending then (its old record revoked from now, so an audit read
known before still sees it as it was). So reads ``as_of`` any time give what an in-order import gives, and
the current value is untouched.

It stays a kept contradiction (``keep_both``, as before) when it cannot be placed so: its source ranks below
the version it displaces (the one holding at its date, else the one after it); it falls inside an interval
that was ended with nothing known after it ("I no longer work at Acme": what followed is unknown); or the
key's current value is a plan and the placed value would run up to the plan's start (the plan keeps its
account of the value it replaces). The same value as the version holding at its date, or as the one after
it, confirms that version (``merge``; its start is not moved).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from graphmem.model.fact_versions import (
    COPIED,
    SOURCE_TRUST,
    CurrentFact,
    FactInput,
    FactPlan,
    Identity,
    KeyState,
    Known,
    Resolution,
    audit_row,
    normalize_value,
)
from graphmem.models import Source

__all__ = ["Placement", "late", "place", "stale", "track", "write"]


@dataclass(frozen=True)
class Placement:
    """Where a late value goes: ``resolution`` (merge, keep_both or backfill) and why; the version holding at
    its date (``holding``: the one it displaces, or the one a merge confirms), the one it runs up to
    (``following``) and its end (that one's start)."""

    resolution: Resolution
    reason: str
    holding: Known | None = None
    following: Known | None = None
    end: datetime | None = None


def late(current: CurrentFact | None, valid_from: datetime, floor: datetime | None) -> bool:
    """Whether a value from ``valid_from`` is dated before the current value's start (without one: before
    the end of the key's last interval, the floor)."""
    if current is not None:
        return valid_from < current.valid_from
    return floor is not None and valid_from < floor


def _latest(versions: list[Known]) -> Known | None:
    """Of versions holding at one time, the one reads take: the later recorded, then the later started."""
    return max(versions, key=lambda k: (k.recorded_at, k.valid_from), default=None)


def place(
    current: CurrentFact | None, new: FactInput, valid_from: datetime, past: KeyState
) -> Placement | None:
    """Where ``new``, dated ``valid_from`` before the current value's start (or, without one, before the end
    of the key's last interval), goes; None when the key's versions were not read back that far
    (``past.since``)."""
    if past.since is not None and valid_from < past.since:
        return None
    known = past.known
    holding = _latest(
        [k for k in known if k.valid_from <= valid_from and (k.valid_to is None or valid_from < k.valid_to)]
    )
    end = min((k.valid_from for k in known if k.valid_from > valid_from), default=None)
    following = _latest([k for k in known if k.valid_from == end]) if end is not None else None
    for version in (holding, following):
        if version is not None and normalize_value(version.value) == normalize_value(new.value):
            return Placement(Resolution.MERGE, "the same value as the version holding then, or the next one",
                             holding=version)  # fmt: skip
    ended = [k.valid_to for k in known if k.valid_to is not None and k.valid_to > valid_from]
    if end is None or following is None or (ended and min(ended) < end):
        return Placement(Resolution.KEEP_BOTH, "dated inside a value that ended with nothing known after it")
    displaced = holding or following
    if SOURCE_TRUST[new.source] < SOURCE_TRUST[displaced.source]:
        return Placement(
            Resolution.KEEP_BOTH, f"source {new.source.value} ranks below {displaced.source.value}"
        )
    if current is not None and current.planned_at is not None and end >= current.valid_from:
        return Placement(Resolution.KEEP_BOTH, "dated inside the value a plan replaces")
    reason = "dated before the current value: placed in the key's history, until the next known version"
    return Placement(Resolution.BACKFILL, reason, holding, following, end)


def write(
    out: FactPlan,
    history: dict[Identity, KeyState],
    new: FactInput,
    where: Placement,
    row: dict[str, Any],
    now: datetime,
) -> None:
    """Plan a placed value: a merge confirms ``where.holding``; a back-filled version (``row``, numbered by
    the caller) holds until ``where.end``, superseded by the version that starts then. The version it
    displaces is recorded again ending at the back-filled start (its old record revoked from now: an audit
    read known before still sees it as it was), and the statements are outdated likewise."""
    audit = {**audit_row(new, None), "resolution": where.resolution.value, "reason": where.reason}
    if where.resolution is Resolution.MERGE:
        assert where.holding is not None
        kept = where.holding
        out.audit.append({**audit, "old_id": kept.id, "old_value": kept.value, "new_id": kept.id})
        out.results.append((kept.id, Resolution.MERGE))
        return
    assert where.following is not None and where.end is not None
    start, version = row["valid_from"], row["version"]
    if (
        where.holding is not None
    ):  # the displaced version's copy takes the number first: history reads in order
        row["version"] = version + 1
    row.update(status="superseded", valid_to=where.end, expire=False)
    out.create.append(row)
    out.supersedes.append({"src": where.following.id, "dst": row["id"], "valid_from": where.end})
    out.outdated.append(
        {
            "old": row["id"],
            "new": where.following.id,
            "key": new.key,
            "at": where.end,
            "stated": new.memory_id,
        }
    )
    known = [k for k in history.get(new.identity, KeyState()).known if k is not where.holding]
    if where.holding is not None:
        displaced = _shortened(out, where.holding, row["id"], start, version, new)
        known += [displaced] if displaced is not None else []
        version += 1
    shown = where.holding or where.following
    out.audit.append({**audit, "old_id": shown.id, "old_value": shown.value, "new_id": row["id"]})
    out.results.append((row["id"], Resolution.BACKFILL))
    known.append(_known(row, where.end, now))
    past = history.get(new.identity, KeyState())
    history[new.identity] = replace(past, last_version=max(past.last_version, version), known=tuple(known))


def _shortened(
    out: FactPlan, holding: Known, placed: str, start: datetime, version: int, new: FactInput
) -> Known | None:
    """Record ``holding`` again ending at ``start``, where the value ``placed`` takes over, superseded by it
    (no copy when it began then too); its old record is revoked and its statement outdated from ``start``.
    The copy is of the same key as ``new`` (its owner, agent and key), with the holding version's own value,
    source and other fields."""
    key = new.key
    out.revoked.append(holding.id)
    if holding.valid_from >= start:  # it held nowhere after all: its record alone, revoked
        out.outdated.append(
            {"old": holding.id, "new": placed, "key": key, "at": start, "stated": holding.memory_id}
        )
        return None
    copy_id = str(uuid.uuid4())
    copy: dict[str, Any] = {
        **{f: holding.fields.get(f) for f in COPIED},
        "user_id": new.user_id,
        "agent_id": new.agent_id,
        "key": new.key,
        "value": holding.value,
        "source": holding.source.value,
        "memory_id": holding.memory_id,
        "id": copy_id,
        "valid_from": holding.valid_from,
        "valid_to": start,
        "status": "superseded",
        "version": version,
        "planned_at": None,
        "expire": False,
    }
    out.create.append(copy)
    out.supersedes.append({"src": placed, "dst": copy_id, "valid_from": start})
    out.outdated.append({"old": copy_id, "new": placed, "key": key, "at": start, "stated": holding.memory_id})
    return replace(holding, id=copy_id, valid_to=start)


def track(
    history: dict[Identity, KeyState],
    identity: Identity,
    row: dict[str, Any],
    closed: str | None,
    now: datetime,
    *,
    exact: bool,
) -> None:
    """A value the batch made current (``row``), closing ``closed`` at its start, seen by a later late value
    of the same batch; when the batch changed the key otherwise (``exact`` False: a plan replaced before its
    start; or an ending, withdrawal or correction: :func:`stale`), late values of that key in the rest of the
    batch are kept aside, as before."""
    past = history.get(identity, KeyState())
    if not exact:
        stale(history, identity)
        return
    start = row["valid_from"]
    known = [replace(k, valid_to=start) if k.id == closed else k for k in past.known]
    opened = _known(row, None, now)
    history[identity] = replace(past, known=(*[k for k in known if k.valid_to != k.valid_from], opened))


def _known(row: dict[str, Any], valid_to: datetime | None, now: datetime) -> Known:
    """A version this batch writes (``row``), as :attr:`KeyState.known` lists it: with the fields a copy of it
    takes (a later late value of the batch may fall inside it)."""
    fields = {**{f: row[f] for f in COPIED}, "valid_from": row["valid_from"]}
    return Known(
        row["id"],
        row["value"],
        row["valid_from"],
        valid_to,
        Source(row["source"]),
        now,
        row["memory_id"],
        fields,
    )


def stale(history: dict[Identity, KeyState], identity: Identity) -> None:
    """The batch changed the key in a way :attr:`KeyState.known` does not follow: no late value of the key is
    placed in the rest of the batch."""
    history[identity] = replace(history.get(identity, KeyState()), since=_NEVER)


_NEVER = datetime.max.replace(tzinfo=UTC)
