"""How ``context()`` writes a memory for the agent: when it was said and by whom (real server)."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem import GraphMemory
from graphmem.model.date_queries import date_notes

MIGRAINE = "Yesterday I had a terrible migraine and missed the meeting."


def test_a_recalled_memory_carries_its_day_and_speaker(mem: GraphMemory, user_id: str) -> None:
    said = datetime(2026, 11, 9, 10, 0, tzinfo=UTC)
    mem.add_messages(
        [
            {"role": "user", "name": "Maya", "content": MIGRAINE, "timestamp": said},
            {"role": "user", "name": "Maya", "content": "My dog Rex is a beagle.", "timestamp": said},
        ],
        user_id=user_id,
        session_id="s1",
    )
    ctx = mem.context("When did I have a migraine?", user_id=user_id, reinforce=False)
    lines = [i.text for i in ctx.kept if i.kind in ("memory", "possible", "history")]
    assert f"[2026-11-09T10:00+00:00] Maya: {MIGRAINE} (Yesterday: Sun 2026-11-08)" in lines  # its day said
    assert "Maya: My dog Rex is a beagle." in "\n".join(lines)


def test_a_relative_date_is_read_for_the_agent() -> None:
    """A model counts days badly: the line says which days "next weekend" and "last week" were."""
    said = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)  # a Monday
    assert (
        date_notes("Ana is visiting me next weekend.", said)
        == "next weekend: Sat 2026-12-12 to Sun 2026-12-13"
    )
    assert date_notes("We moved here last week", said) == "last week: Mon 2026-11-23 to Sun 2026-11-29"
    assert date_notes("Planning a trip to Japan in May", said) == "in May: May 2027"
    assert date_notes("last year was hard", said) == "last year: 2025"
    assert date_notes("My son has a match on Saturday morning.", said) == "on Saturday: Sat 2026-12-05"
    assert date_notes("I started in 2021, see you on 2026-12-01", said) == ""  # named with their year
    assert date_notes("Rex is a beagle.", said) == ""
    assert date_notes("Yesterday was odd. yesterday I slept", said) == "Yesterday: Sun 2026-11-29"  # once
