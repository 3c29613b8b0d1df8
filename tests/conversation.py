"""Saying things to graphmem in tests: one user turn at a time, stamped with when it was said."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from graphmem import GraphMemory
from graphmem.model.fact_patterns import extract

SMALL_TALK = (
    "Can you suggest a good recipe for banana bread?",
    "How do I fix a squeaky door hinge?",
    "Any tips for sleeping better?",
    "Recommend me a sci-fi novel please.",
)
"""Turns that name no place, person, time or state: a tenant's first days, before a scenario's statements."""


def small_talk(mem: GraphMemory, user_id: str, day: Callable[[int], datetime]) -> None:
    """:data:`SMALL_TALK` on days 1-4 (``day``: a scenario's time of a day number)."""
    for number, text in enumerate(SMALL_TALK, start=1):
        say(mem, user_id, day(number), text)


def say(mem: GraphMemory, user_id: str, when: datetime, text: str) -> str:
    """Store one user turn said at ``when`` (in that day's session); its memory's id."""
    turn = {"role": "user", "content": text, "timestamp": when}
    return mem.add_messages([turn], user_id=user_id, session_id=when.date().isoformat())[0].id


# the days the current-state tests speak on and read at
NOW = datetime(2026, 12, 20, 12, tzinfo=UTC)
MARCH = datetime(2027, 3, 1, 12, tzinfo=UTC)


def on(day: int, month: int = 12, year: int = 2026) -> datetime:
    """A turn's time: 10:00 UTC on that day (December 2026 unless said)."""
    return datetime(year, month, day, 10, tzinfo=UTC)


def value_at(mem: GraphMemory, user_id: str, key: str, at: datetime) -> str | None:
    """The key's value valid at ``at`` (None: none)."""
    got = mem.facts.get(user_id, key, as_of=at)
    return got.value if got else None


def history(mem: GraphMemory, user_id: str, key: str = "location") -> list[tuple[str, str, str | None, str]]:
    """The key's versions as (value, valid from, valid to, status), days only: an assertion's message."""
    return [
        (f.value, f.valid_from.date().isoformat(), f.valid_to and f.valid_to.date().isoformat(), f.status)
        for f in mem.facts.history(user_id, key)
    ]


def noon(year: int, month: int, day: int) -> datetime:
    """A day to read a value on: 12:00 UTC."""
    return datetime(year, month, day, 12, tzinfo=UTC)


def assert_values_on(
    mem: GraphMemory,
    user_id: str,
    key: str,
    turns: list[tuple[datetime, str]],
    values: dict[datetime, str | None],
) -> None:
    """Say ``turns`` (when, text), then the key's value on each day of ``values`` is the one given."""
    for when, text in turns:
        say(mem, user_id, when, text)
    for at, value in values.items():
        assert value_at(mem, user_id, key, at) == value, (at, history(mem, user_id, key))


def assert_values_after(
    mem: GraphMemory, user_id: str, key: str, turns: list[tuple[int, str]], now: str | None, march: str | None
) -> None:
    """Say ``turns`` (day of December 2026, text), then the key's value is ``now`` on :data:`NOW` and
    ``march`` on :data:`MARCH`."""
    assert_values_on(mem, user_id, key, [(on(day), text) for day, text in turns], {NOW: now, MARCH: march})


def home_and_work(text: str) -> set[tuple[str, str]]:
    """The home and employer a turn states as the speaker's own now, as (key, value): no ending, withdrawal,
    plan or someone else's."""
    return {
        (f.key, f.value)
        for f in extract(text)
        if f.key in ("location", "employer") and not (f.ends or f.withdraws or f.planned or f.subject)
    }
