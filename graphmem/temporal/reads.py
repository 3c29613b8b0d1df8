"""Point-in-time reads of facts: valid time (``as_of``) and transaction time (``known_at``).

A fact version is one ``Fact`` node. Superseding a version closes it in place: ``valid_to`` becomes the new
version's ``valid_from`` and ``expired_at`` the time of the supersession. Read back at a ``known_at``, a
version therefore looks like this (pure logic in :func:`known_interval`, mirrored by ``fact_at.cypher``):

- not yet recorded (``recorded_at > known_at``) or a kept contradiction (``conflicted``): not known;
- never closed (``expired_at`` null): valid over ``[valid_from, valid_to)`` as recorded (``valid_to`` null:
  open-ended; only the ``ended`` version a retraction records is born with a ``valid_to``);
- closed after ``known_at``: valid from ``valid_from``, open-ended (as it read before it was closed);
- closed by then: valid over ``[valid_from, valid_to)`` (a closed version without ``valid_to`` was
  withdrawn, e.g. retracted, and is valid nowhere);
- revoked by then (``revoked_at``: recorded again later with another end, as when the value a pending plan
  replaces ends before the plan's start): valid nowhere.

A retraction (``mem.retract_fact``) closes the current version's transaction time; given a ``valid_to``,
it also records an ``ended`` version, the same value valid over ``[valid_from, valid_to)``.

So later writes never change what an earlier ``known_at`` returns, and :func:`as_known` shows a version
with the fields it had at ``known_at``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Protocol, TypeVar

from graphmem.model.fact_keys import canonical_key
from graphmem.models import Fact
from graphmem.store.runtime import Runtime
from graphmem.temporal.facts import fact_from_row

__all__ = ["as_known", "fact_at", "fact_history", "holds_at", "known_interval", "pick"]

CONFLICTED = "conflicted"


class Versioned(Protocol):
    @property
    def valid_from(self) -> datetime | None: ...
    @property
    def valid_to(self) -> datetime | None: ...
    @property
    def recorded_at(self) -> datetime | None: ...
    @property
    def expired_at(self) -> datetime | None: ...
    @property
    def status(self) -> str: ...


V = TypeVar("V", bound=Versioned)


def known_interval(v: Versioned, known_at: datetime) -> tuple[datetime, datetime | None] | None:
    """The valid interval ``[start, end)`` of ``v`` as recorded by ``known_at`` (end None: open), or None."""
    if v.recorded_at is None or v.valid_from is None or v.recorded_at > known_at or v.status == CONFLICTED:
        return None
    revoked = getattr(v, "revoked_at", None)
    if revoked is not None and revoked <= known_at:  # recorded again later with another end
        return None
    if v.expired_at is None:
        if v.valid_to is None:
            return (v.valid_from, None)
        return (v.valid_from, v.valid_to) if v.valid_to > v.valid_from else None
    if known_at < v.expired_at:
        return (v.valid_from, None)
    end = v.valid_to if v.valid_to is not None else v.valid_from
    return (v.valid_from, end) if end > v.valid_from else None


def holds_at(v: Versioned, as_of: datetime, known_at: datetime) -> bool:
    """Whether ``v`` was valid at ``as_of`` according to what was recorded by ``known_at``."""
    interval = known_interval(v, known_at)
    if interval is None:
        return False
    start, end = interval
    return start <= as_of and (end is None or as_of < end)


def pick(versions: Iterable[V], as_of: datetime, known_at: datetime) -> V | None:
    """The version valid at ``as_of`` as known at ``known_at``: the latest recorded one if several, and of
    those recorded together the latest started (``fact_at.cypher``'s order: a value that replaced a plan
    early overlaps the plan's predecessor, which keeps its end)."""
    holding = [v for v in versions if holds_at(v, as_of, known_at)]
    if not holding:
        return None
    never = datetime.min.replace(tzinfo=UTC)
    return max(holding, key=lambda v: (v.recorded_at or never, v.valid_from or never))


def as_known(fact: Fact, known_at: datetime) -> Fact:
    """``fact`` as it read at ``known_at``: a version closed later shows still open and current."""
    if fact.expired_at is not None and known_at < fact.expired_at:
        return fact.model_copy(update={"valid_to": None, "expired_at": None, "status": "current"})
    return fact


def fact_at(
    rt: Runtime,
    user_id: str,
    key: str,
    *,
    agent_id: str | None,
    as_of: datetime | None,
    known_at: datetime | None,
) -> Fact | None:
    """The version of ``key`` valid at ``as_of`` as known at ``known_at`` (both default to now)."""
    valid, known = _times(as_of, known_at)
    rows = rt.store.read(
        "fact_at",
        user_id=user_id,
        key=canonical_key(key, user_id),
        agent_id=agent_id,
        as_of=valid,
        known_at=known,
    )
    return as_known(fact_from_row(rows[0]["fact"]), known) if rows else None


def fact_list(
    rt: Runtime,
    user_id: str,
    *,
    agent_id: str | None,
    as_of: datetime | None,
    known_at: datetime | None,
) -> list[Fact]:
    """Every key's version valid at ``as_of`` as it read at ``known_at`` (the rule of :func:`fact_at`; each
    defaults to now: the current versions)."""
    valid, known = _times(as_of, known_at)
    rows = rt.store.read("fact_list", user_id=user_id, agent_id=agent_id, as_of=valid, known_at=known)
    return [as_known(fact_from_row(r["fact"]), known) for r in rows]


def _times(as_of: datetime | None, known_at: datetime | None) -> tuple[datetime, datetime]:
    """A point-in-time read's valid and transaction times, the unset one now."""
    now = datetime.now(UTC)
    return as_of or now, known_at or now


def fact_history(
    rt: Runtime, user_id: str, key: str, *, agent_id: str | None = None, limit: int | None = None
) -> list[Fact]:
    """Every version of ``key`` (kept contradictions included; ``limit``: the latest in valid time), oldest
    recorded first."""
    key = canonical_key(key, user_id)
    rows = rt.store.read("fact_history", user_id=user_id, key=key, agent_id=agent_id, limit=limit)
    return [fact_from_row(r["fact"]) for r in rows]


def overlapping(intervals: Sequence[tuple[datetime, datetime | None]]) -> bool:
    """Whether any two ``[start, end)`` intervals (end None: open) overlap."""
    ordered = sorted(intervals, key=lambda i: i[0])
    return any(end is None or start < end for (_, end), (start, _) in itertools.pairwise(ordered))
