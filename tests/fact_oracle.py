"""An independent in-memory model of a fact key's bi-temporal history, for property tests.

It knows nothing of graphmem's planner or read rules: it replays the operations (set, retract) that had
been made by a transaction time ``known_at`` and answers "which value held at ``as_of``" from the intervals
that replay produces. Its rules are the documented behaviour (docs/temporal.md):

- set(value, valid_from, source): with a current value: the same value changes nothing; a valid_from before
  the current one's is late (below); a less trusted source is kept aside (never read); otherwise the current
  value's interval ends at valid_from and the new value is current. Without a current value: a valid_from
  before the end of the key's last interval (of those valid somewhere) is late; otherwise the value is
  current. A late value holds from valid_from until the earliest later start of an interval, and an
  interval holding at valid_from ends there (recorded anew); it changes nothing when it is the value holding
  then or the next one's, and is kept aside when an interval's end comes first, when its source ranks below
  the value it displaces (holding then, else the next), or when the current value is a plan it would run up
  to (:func:`_late`).
  A set whose valid_from is later than its transaction time is a plan. A value set, by a source at least as
  trusted, after a current plan was made and starting before the plan starts (but not before the end of
  the last interval before the plan's line of values began) replaces the plan (the plan held nowhere; the
  value is current from its own start, and, a plan itself, takes over the interval the plan had ended; that
  interval keeps its end and, where the two overlap, the later operation's value holds), unless it is the
  value that held when the plan was made, which holds until the plan's start anyway: then the plan stands.
- retract(valid_to): without valid_to, the current value is withdrawn (held nowhere); with valid_to (after
  its start) it held over [valid_from, valid_to). Either way the key has no current value, except that
  withdrawing a plan which had ended an interval at its start continues that interval's value from that
  interval's own start (the ended interval keeps its end, and the continuation, a later operation, holds
  where they overlap; it is current, as trusted as the value it continues, and a plan made at the
  retraction when it starts later, which ended that interval in turn); a continuation
  withdrawn continues nothing again.
- withdraw(value, said): "I'm not moving to Paris after all", said at ``said`` (default its transaction
  time): when the current value is a plan made by then (started or not), naming ``value`` (or any when
  it is empty), and not a continuation (no change), it is withdrawn as a retraction withdraws it (the value
  it ended goes on; a plan made at ``said`` if it starts later); otherwise nothing changes.

  A plan (by a source at least as trusted) of the value of a current plan made by then, not a continuation,
  from another date puts that plan off to its date (put_off below), unless that date is the first of the
  month the plan's date falls in (a less precise statement of the same plan).
- put_off(value, to): "the move got pushed back to June", said at its transaction time: when withdraw(value)
  would withdraw the current plan, it does, and the plan's value is then set from ``to`` (a plan made then);
  otherwise nothing changes.

Replaying only the operations recorded by ``known_at`` gives what was known then, so a write-side bug
(a close that forgets its transaction time, a wrong interval end) shows as a different answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

TRUST = {"user": 3, "tool": 2, "agent": 1, "inference": 0}


@dataclass
class Interval:
    value: str
    start: datetime
    end: datetime | None = None  # None: open
    withdrawn: bool = False
    order: int = 0
    planned_at: datetime | None = None  # a plan: set at this transaction time, starting later
    ended: tuple[Interval, str] | None = None  # a plan's: the interval it ended at its start, and its source
    floor: datetime | None = None  # the end of the last interval before its line of values began
    source: str = "user"


@dataclass
class Op:
    at: datetime  # transaction time
    kind: str  # "set" | "retract" | "withdraw" | "put_off" | "end" | "correct"
    value: str | None = None
    when: datetime | None = None  # valid_from (set) or valid_to (retract); None: the transaction time / none
    source: str = "user"
    wrong: str = ""  # a correction's: the value said by mistake
    replans: bool = False  # a correction's: a pending plan's value changed, a value held left as it is
    # a correction's right value: the interval (said by mistake) whose place it takes, its floor with it
    replaced: Interval | None = None


@dataclass
class KeyModel:
    ops: list[Op] = field(default_factory=list)

    def set(self, at: datetime, value: str, valid_from: datetime | None, source: str = "user") -> None:
        self.ops.append(Op(at, "set", value, valid_from, source))

    def retract(self, at: datetime, valid_to: datetime | None) -> None:
        self.ops.append(Op(at, "retract", None, valid_to))

    def withdraw(self, at: datetime, value: str, said: datetime | None) -> None:
        self.ops.append(Op(at, "withdraw", value, said))

    def put_off(self, at: datetime, value: str, to: datetime) -> None:
        self.ops.append(Op(at, "put_off", value, to))

    def end(self, at: datetime, value: str, said: datetime | None) -> None:
        self.ops.append(Op(at, "end", value, said))

    def correct(self, at: datetime, value: str, wrong: str, *, replans: bool = False) -> None:
        self.ops.append(Op(at, "correct", value, None, wrong=wrong, replans=replans))

    def replay(self, known_at: datetime) -> list[Interval]:
        """The intervals known at ``known_at`` (withdrawn ones included, flagged)."""
        intervals: list[Interval] = []
        current: tuple[Interval, str] | None = None  # (interval, source)
        queue = [o for o in reversed(self.ops) if o.at <= known_at]
        n = 0
        while queue:
            op, n = queue.pop(), n + 1
            if op.kind == "put_off":  # a withdrawal, then a plan of the withdrawn (or named) value
                assert op.when is not None and op.value is not None
                cur = current[0] if current is not None else None
                continues = cur is not None and cur.ended is not None and cur.ended[0].value == cur.value
                pending = cur is not None and cur.planned_at is not None and cur.planned_at <= op.at
                pending = pending and not continues
                if cur is not None and pending and op.value in ("", cur.value):
                    queue += [
                        Op(op.at, "set", cur.value, op.when, op.source),
                        Op(op.at, "withdraw", op.value),
                    ]
                continue
            if op.kind == "correct":  # the value (or pending plan) named wrong: the right one in its place
                cur = current[0] if current is not None else None
                if cur is None or cur.value != op.wrong or cur.value == op.value:
                    continue
                continues = cur.ended is not None and cur.ended[0].value == cur.value
                if cur.planned_at is not None and cur.planned_at <= op.at < cur.start and not continues:
                    queue += [Op(op.at, "set", op.value, cur.start), Op(op.at, "withdraw", "")]
                    continue
                if op.replans:  # "going to Brisbane instead of Sydney": Sydney held is no plan changed
                    continue
                cur.withdrawn, current = True, None  # never true as recorded
                queue.append(Op(op.at, "set", op.value, cur.start, replaced=cur))
                continue
            if op.kind == "end":
                if current is not None and _end(intervals, current[0], op, n):
                    current = None
                continue
            if op.kind == "set" and current is not None and (op.when or op.at) > op.at:  # a plan ...
                cur, when = current[0], op.when
                assert when is not None
                continues = cur.ended is not None and cur.ended[0].value == cur.value
                pending = cur.planned_at is not None and cur.planned_at <= op.at and not continues
                trusted = TRUST[op.source] >= TRUST[current[1]]
                vaguer = when.day == 1 and when < cur.start and when.month == cur.start.month
                vaguer = vaguer and when.year == cur.start.year  # "next month" of a plan for the 12th
                if pending and trusted and cur.value == op.value and vaguer:
                    continue  # the same plan, said less precisely
                if pending and trusted and cur.value == op.value and cur.start != when:
                    queue.append(
                        Op(op.at, "put_off", op.value, op.when, op.source)
                    )  # put off (or forward) to its date
                    continue
            if op.kind == "set":
                assert op.value is not None
                start, ended, floor = op.when or op.at, None, None
                if current is not None:
                    cur, source = current
                    trusted = TRUST[op.source] >= TRUST[source]
                    early = cur.planned_at is not None and cur.planned_at <= start < cur.start
                    if trusted and early and (cur.floor is None or cur.floor <= start):
                        held = cur.ended[0] if cur.ended is not None else None
                        assert cur.planned_at is not None
                        if held is not None and held.start <= cur.planned_at and held.value == op.value:
                            continue  # the value holding when the plan was made, stated again: it stands
                        cur.withdrawn = True  # the plan is replaced before it started
                        ended = cur.ended  # and hands over the interval it had ended
                    elif cur.value == op.value:
                        continue
                    elif start < cur.start:
                        _late(intervals, op, start, n, cur)
                        continue
                    elif not trusted:
                        continue  # kept aside
                    else:
                        cur.end, ended = start, current
                elif op.replaced is not None:  # where the value said by mistake stood, as it stood
                    floor = op.replaced.floor
                else:
                    ends = [iv.end for iv in intervals if not iv.withdrawn and iv.end and iv.end > iv.start]
                    if ends and start < max(ends):
                        _late(intervals, op, start, n, None)
                        continue
                    floor = max(ends, default=None)
                planned = op.at if start > op.at else None
                if current is not None:
                    floor = current[0].floor  # a line of values keeps the floor it began over
                new = Interval(op.value, start, order=n, planned_at=planned, ended=ended if planned else None)
                new.source = op.source
                new.floor = floor
                intervals.append(new)
                current = (new, op.source)
            elif current is not None:
                cur, trust = current
                said = op.when or op.at
                continues = cur.ended is not None and cur.ended[0].value == cur.value  # a plan called off
                if op.kind == "withdraw":
                    pending = cur.planned_at is not None and cur.planned_at <= said and not continues
                    if not pending or (op.value and op.value != cur.value):
                        continue  # no pending plan of that value
                elif op.when is not None and op.when <= cur.start:
                    continue  # refused
                cur.withdrawn = True
                current = None
                if op.kind == "retract" and op.when is not None:
                    intervals.append(Interval(cur.value, cur.start, op.when, order=n, source=trust))
                elif cur.ended is not None and not continues:  # a withdrawn plan: the value it ended goes on
                    # from its own start (the later record holds where it overlaps what was recorded); from a
                    # later start: a plan made when it was withdrawn
                    start = cur.ended[0].start
                    planned = (said if op.kind == "withdraw" else op.at) if start > said else None
                    resumed = Interval(cur.ended[0].value, start, order=n, planned_at=planned)
                    resumed.source = cur.ended[1]
                    resumed.floor, resumed.ended = cur.floor, cur.ended if planned else None
                    if planned is None:  # recorded again: the ended interval no longer holds on its own
                        cur.ended[0].withdrawn = True
                    intervals.append(resumed)
                    current = (resumed, cur.ended[1])
        return intervals

    def answer(self, as_of: datetime, known_at: datetime) -> tuple[str, datetime, datetime | None] | None:
        """(value, valid_from, valid_to as known then) of the value that held at ``as_of``, or None."""
        holding = [
            iv
            for iv in self.replay(known_at)
            if not iv.withdrawn and iv.start <= as_of and (iv.end is None or as_of < iv.end)
        ]
        if not holding:
            return None
        best = max(holding, key=lambda iv: iv.order)
        return (best.value, best.start, best.end)

    def current(self, now: datetime) -> str | None:
        """The current value: the one that holds at ``now`` as known at ``now``."""
        found = self.answer(now, now)
        return found[0] if found else None

    def times(self) -> list[datetime]:
        """Every transaction and valid time the operations mention."""
        return sorted({t for o in self.ops for t in (o.at, o.when) if t is not None})


def _end(intervals: list[Interval], cur: Interval, op: Op, n: int) -> bool:
    """ "I no longer ..." said at ``op.when`` (else ``op.at``), naming ``op.value`` (or any): True when the
    current value ends then (after its start); a pending plan's held value (the interval it ended at its
    start, started by then) ends then instead, recorded anew (the old record no longer holds) and the plan
    stands, with nothing to continue when called off; anything else changes nothing."""
    said = op.when or op.at
    continues = cur.ended is not None and cur.ended[0].value == cur.value
    pending = cur.planned_at is not None and cur.planned_at <= said and not continues
    if pending and said < cur.start:
        held = cur.ended[0] if cur.ended is not None else None
        if held is not None and op.value in ("", held.value) and held.start < said:
            held.withdrawn = True
            intervals.append(Interval(held.value, held.start, said, order=n, source=held.source))
            cur.ended = None
            cur.floor = said if cur.floor is None or cur.floor < said else cur.floor
        return False
    if (op.value and op.value != cur.value) or said <= cur.start:
        return False
    cur.end = said
    return True


def _late(intervals: list[Interval], op: Op, start: datetime, n: int, cur: Interval | None) -> None:
    """A value dated before the current one's start (without one: before the end of the last interval),
    placed in the key's past: it holds from ``start`` until the earliest later start of a valid interval; an
    interval holding at ``start`` ends there (recorded anew, the old record no longer holds). Unless: it is
    the value holding then or the next one's (nothing changes); an interval's end comes before any later
    start (it ended with nothing known after it), its source ranks below the value it displaces (the one
    holding then, else the next), or the current value is a plan and it would run up to the plan's start:
    kept aside."""
    assert op.value is not None
    live = [iv for iv in intervals if not iv.withdrawn]
    covering = [iv for iv in live if iv.start <= start and (iv.end is None or start < iv.end)]
    holding = max(covering, key=lambda iv: iv.order, default=None)
    end = min((iv.start for iv in live if iv.start > start), default=None)
    following = max((iv for iv in live if iv.start == end), key=lambda iv: iv.order, default=None)
    if op.value in {iv.value for iv in (holding, following) if iv is not None}:
        return
    ends = [iv.end for iv in live if iv.end is not None and iv.end > start]
    if end is None or following is None or (ends and min(ends) < end):
        return
    displaced = holding or following
    if TRUST[op.source] < TRUST[displaced.source]:
        return
    if cur is not None and cur.planned_at is not None and end >= cur.start:
        return
    if holding is not None:
        holding.withdrawn = True
        if holding.start < start:
            intervals.append(Interval(holding.value, holding.start, start, order=n, source=holding.source))
    intervals.append(Interval(op.value, start, end, order=n, source=op.source))
