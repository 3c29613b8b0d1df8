"""Recall usage: what promotion reads from recall events; compaction rolls them up without changing it.

The specification of ``cypher/compact_recalls.cypher`` and the usage part of ``cypher/promote_common.cypher``
(``tests/test_recall_rollup.py`` runs both jobs on the real server over generated events and compares them
with these functions).

A recall is recorded as one raw ``RecallEvent`` (query, returned ids, intent, latency: what feedback and the
value panel read). Promotion only needs, per returned memory, the *session* it was used in (the event's
session, else its day) and the *context* (the event's context, else its intent, else ``default``): a set of
``(session, context, memory id)`` uses. Raw events older than ``recall_rollup_days`` are therefore folded into
one rollup per user and day that stores exactly that set (``entries``, each ``session␟context␟id``), the
number of events (``events``), the distinct ids (``memory_ids``), every event's latency (``latencies``, for
the value panel's weekly mean and p95) and the context tokens used and dropped, summed over the events that
record them (``context_tokens_used``, ``context_tokens_dropped``); the memories' ``recalls_compacted``
counters add up how often each was returned. Promotion reads rollups and raw events alike, so compaction
does not change what it promotes (a rollup is dated by the day's last event, so at the window's start a
day counts while its last event does). The store keeps about one node per user and day of recalls instead
of one per recall.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from graphmem.model.dynamics import DynamicsParams

SEP = "\x1f"
"""Separates the parts of a rollup entry (the unit separator: never in a session id, context or memory id)."""


@dataclass(frozen=True)
class RecallRecord:
    """A stored ``RecallEvent``: a raw event, or a rollup of one user's events of one day."""

    user_id: str
    at: datetime
    memory_ids: tuple[str, ...] = ()
    session_id: str | None = None
    context: str | None = None
    intent: str | None = None
    rollup: bool = False
    entries: frozenset[str] = frozenset()
    events: int = 1
    latencies: tuple[float, ...] = ()  # a raw event's latency_ms (none when not recorded); a rollup's events'
    context_tokens_used: int | None = None  # a context() recall's tokens (None: not recorded); a rollup's sum
    context_tokens_dropped: int | None = None


def entry(session: str, context: str, memory_id: str) -> str:
    return f"{session}{SEP}{context}{SEP}{memory_id}"


def uses(record: RecallRecord) -> frozenset[tuple[str, str, str]]:
    """The (session, context, memory id) uses a record stands for."""
    if record.rollup:
        return frozenset(tuple(e.split(SEP, 2)) for e in record.entries)  # type: ignore[misc]
    session = record.session_id or record.at.date().isoformat()
    context = record.context or record.intent or "default"
    return frozenset((session, context, mid) for mid in record.memory_ids)


def compactable(record: RecallRecord, now: datetime, params: DynamicsParams) -> bool:
    """Raw events older than ``recall_rollup_days`` are folded into their day's rollup."""
    return not record.rollup and record.at < now - timedelta(days=params.recall_rollup_days)


def compact(
    records: list[RecallRecord], now: datetime, params: DynamicsParams
) -> tuple[list[RecallRecord], Counter[str]]:
    """The records after compaction (raw events kept, rollups per user and day, an existing rollup of the
    day extended), and how many times each memory id was folded into a counter."""
    kept = [r for r in records if not compactable(r, now, params)]
    folded: dict[tuple[str, date], list[RecallRecord]] = {}
    for r in records:
        if compactable(r, now, params):
            folded.setdefault((r.user_id, r.at.date()), []).append(r)
    counters: Counter[str] = Counter(mid for group in folded.values() for r in group for mid in r.memory_ids)
    out = [r for r in kept if not (r.rollup and (r.user_id, r.at.date()) in folded)]
    for (uid, _day), group in folded.items():
        previous = [r for r in kept if r.rollup and r.user_id == uid and r.at.date() == _day]
        members = previous + group
        out.append(
            RecallRecord(
                user_id=uid,
                at=max(r.at for r in members),
                memory_ids=tuple(sorted({m for r in members for m in r.memory_ids})),
                rollup=True,
                entries=frozenset(entry(*u) for r in members for u in uses(r)),
                events=sum(r.events for r in members),
                latencies=tuple(sorted(x for r in members for x in r.latencies)),
                context_tokens_used=_total(r.context_tokens_used for r in members),
                context_tokens_dropped=_total(r.context_tokens_dropped for r in members),
            )
        )
    return out, counters


TOKENS_MAX = 2**40
"""A stored token count is an integer from 0 below this; a larger one was written by hand (and could overflow
the server's 64-bit sums), so it counts as not recorded."""


def token_count(value: object) -> int | None:
    """A stored ``context_tokens_*`` value as a count, or None (not recorded)."""
    ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < TOKENS_MAX
    return value if ok else None  # type: ignore[return-value]


def _total(values: Iterable[int | None]) -> int | None:
    """The sum of the recorded values; None when none is recorded (the panel says "not recorded")."""
    recorded = [v for v in values if v is not None]
    return sum(recorded) if recorded else None


@dataclass(frozen=True)
class Usage:
    sessions: int  # distinct sessions the memory was used in over the window
    contexts: int  # distinct contexts


def usage(
    records: list[RecallRecord], user_id: str, now: datetime, params: DynamicsParams
) -> tuple[int, dict[str, Usage]]:
    """Over the promotion window: the user's distinct sessions with a recall, and each recalled memory's
    usage."""
    start = now - timedelta(days=params.promote_window_days)
    used = {u for r in records if r.user_id == user_id and start <= r.at <= now for u in uses(r)}
    per: dict[str, tuple[set[str], set[str]]] = {}
    for session, context, mid in used:
        s, c = per.setdefault(mid, (set(), set()))
        s.add(session)
        c.add(context)
    return len({s for s, _, _ in used}), {m: Usage(len(s), len(c)) for m, (s, c) in per.items()}


def promotes(sessions: int, use: Usage, params: DynamicsParams) -> bool:
    """Whether promotion makes a live, not yet common memory with this usage common knowledge."""
    return (
        use.sessions >= params.promote_min_sessions
        and use.contexts >= params.promote_min_contexts
        and sessions > 0
        and use.sessions / sessions > params.promote_session_share
    )
