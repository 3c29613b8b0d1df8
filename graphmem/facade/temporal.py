"""``mem.temporal``: the user's graph over time (timeline, snapshot, diff) and who changed what (audit)."""

from __future__ import annotations

from datetime import datetime

from graphmem.errors import ValidationError
from graphmem.facade.memories import MAX_PAGE
from graphmem.model import validation as check
from graphmem.store import audit
from graphmem.store.audit import AuditEvent
from graphmem.store.runtime import Runtime
from graphmem.temporal import snapshots
from graphmem.temporal.snapshots import GraphDiff, GraphSnapshot, TimelineEvent

__all__ = ["Temporal"]


def _required(value: object, field: str) -> datetime:
    when = check.aware_datetime(value, field)
    if when is None:
        raise ValidationError(field, "is required")
    return when


def _window(start: object, end: object, names: tuple[str, str]) -> tuple[datetime | None, datetime | None]:
    """A time window's bounds, checked: a start after the end is a refusal naming both (it selected nothing,
    silently, which read as an empty history)."""
    first, last = check.aware_datetime(start, names[0]), check.aware_datetime(end, names[1])
    if first is not None and last is not None and first > last:
        raise ValidationError(
            names[1], f"{last.isoformat()} is before {names[0]} {first.isoformat()} (swap the two bounds?)"
        )
    return first, last


class Temporal:
    """Read the user's graph as it was, and the audit trail of its changes (``mem.temporal``)."""

    def __init__(self, rt: Runtime) -> None:
        self._rt = rt

    def timeline(
        self,
        user_id: str,
        *,
        start: datetime | None = None,
        end: datetime | None = None,
        known_at: datetime | None = None,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> list[TimelineEvent]:
        """A user's dated events, oldest first: memories (at their valid time, ``occurred_at``), updates,
        forgetting, fact values starting and stopping to hold (valid time); ``start``/``end`` bound them
        (inclusive);
        ``known_at`` keeps only what the engine had recorded by then. ``limit`` (1 to 1,000; ``None``: all)
        keeps the first events in that order; ``newest_first`` reverses it ("what happened lately": the
        latest ``limit`` events, latest first). The memories are read from an index in that order, so a page
        or a window costs what it returns, not the user's history (versions and facts, fewer, are sorted).
        A ``start`` after ``end`` is a :class:`ValidationError`."""
        first, last = _window(start, end, ("start", "end"))
        return snapshots.timeline(
            self._rt,
            check.user_id(user_id),
            start=first,
            end=last,
            known_at=check.aware_datetime(known_at, "known_at"),
            limit=None if limit is None else check.bounded_int(limit, "limit", 1, MAX_PAGE),
            newest_first=check.boolean(newest_first, "newest_first"),
        )

    def snapshot(self, user_id: str, *, as_of: datetime, known_at: datetime | None = None) -> GraphSnapshot:
        """The user's nodes and edges valid at ``as_of`` as recorded by ``known_at`` (default: now);
        ``to_networkx()`` and ``to_json()`` export it."""
        return snapshots.snapshot(
            self._rt,
            check.user_id(user_id),
            as_of=_required(as_of, "as_of"),
            known_at=check.aware_datetime(known_at, "known_at"),
        )

    def diff(
        self, user_id: str, t1: datetime, t2: datetime, *, known_at: datetime | None = None
    ) -> GraphDiff:
        """What was added, closed or changed in the user's graph between valid times ``t1`` and ``t2``, both
        read as recorded by ``known_at`` (default: now; pass ``known_at=t1`` etc. for what was known then)."""
        start, end = _required(t1, "t1"), _required(t2, "t2")
        return snapshots.diff(
            self._rt, check.user_id(user_id), start, end, known_at=check.aware_datetime(known_at, "known_at")
        )

    def audit_log(
        self,
        *,
        user_id: str | None = None,
        target_id: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        after: str | None = None,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> list[AuditEvent]:
        """Audit events, oldest first (``newest_first``: latest first, for "what happened lately");
        ``user_id`` also finds a deleted user's tombstone; ``since`` / ``until`` bound their time (inclusive).
        One page at a time: at most ``limit`` events (1 to 1,000; ``None``: all) after the event ``after`` in
        that order (the previous page's last id; an id that is not an event of the same user's log is a
        :class:`ValidationError`); a ``since`` after ``until`` is one too."""
        first, last = _window(since, until, ("since", "until"))
        events, found = audit.page(
            self._rt,
            user_id=check.identifier(user_id, "user_id", required=False),
            target_id=check.identifier(target_id, "target_id", required=False),
            since=first,
            until=last,
            after=check.identifier(after, "after", required=False),
            limit=None if limit is None else check.bounded_int(limit, "limit", 1, MAX_PAGE),
            newest_first=check.boolean(newest_first, "newest_first"),
        )
        if not found:
            raise ValidationError("after", "is not an event of this audit log")
        return events
