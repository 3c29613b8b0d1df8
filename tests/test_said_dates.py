"""A memory with no date expression is about the day it was said (graphmem.retrieval.signals.event_of): a
question's date span ("last week") finds it by that day (real server)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graphmem import GraphMemory
from graphmem.retrieval.signals import DAY_MS, event_of


def said(mem: GraphMemory, user_id: str, asked: datetime, *turns: tuple[str, int]) -> None:
    """Each (text, days before ``asked``) as a user message of its own session, said then."""
    for text, days_before in turns:
        mem.add_messages(
            [{"role": "user", "content": text, "timestamp": asked - timedelta(days=days_before)}],
            user_id=user_id,
            session_id=f"s{days_before}",
        )


def test_an_undated_memory_is_about_the_day_it_was_said() -> None:
    said = 1_700_000_000_000
    assert event_of({"said": said}) == [said, said + DAY_MS]
    assert event_of({"said": said, "event": [1, 2]}) == [1, 2]  # its own date expressions come first
    assert event_of({"said": None}) is None


def test_last_week_finds_what_was_said_last_week(mem: GraphMemory, user_id: str) -> None:
    asked = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)  # a Friday; last week is 9-15 November
    said(
        mem,
        user_id,
        asked,
        ("I went to a pottery class with Ben.", 40),
        ("Pottery class again, this time Lena came along.", 9),
        ("My dog Rex is a beagle.", 2),
    )
    hits = mem.recall("Who came to pottery class with me last week?", user_id=user_id, k=3, as_of=asked)
    dated = {h.memory.content.split()[-1]: h.explanation.components["date"] for h in hits}
    assert dated["along."] > 0 and dated["Ben."] == dated["beagle."] == 0  # said last week, and not
    assert "Lena" in hits[0].memory.content


def test_a_date_match_covers_the_date_words_of_the_question(mem: GraphMemory, user_id: str) -> None:
    """The words of a relative date expression are not content words (they name no date alone); the
    expression is one more term of the question's coverage, covered by a memory whose time overlaps its span,
    as the date boost rewards it in ranking. "Where am I travelling later this year?" asked in March: the
    trip in October covers the date, not "travelling" (before, it covered nothing, and the confidence called
    the right answer doubtful); without a date expression the question has nothing there to cover."""
    asked = datetime(2026, 3, 21, 9, 0, tzinfo=UTC)
    said(
        mem,
        user_id,
        asked,
        ("I'm planning a trip to Japan in October with my friend Tom.", 1),
        ("My sister Emma looks after Rex on weekends.", 13),
    )
    dated = mem.recall("Where am I travelling later this year?", user_id=user_id, k=2, as_of=asked)
    plain = mem.recall("Where am I travelling?", user_id=user_id, k=2, as_of=asked)
    assert "Japan" in dated[0].memory.content and "Japan" in plain[0].memory.content
    assert dated[0].explanation.components["coverage"] > 0  # the date; "travelling" and "later" are not in it
    assert plain[0].explanation.components["coverage"] == 0.0
    assert dated[0].confidence > plain[0].confidence
    # an absolute expression keeps its words as terms and adds none: "october" covered once, "travelling" not
    named = mem.recall("Where am I travelling in October?", user_id=user_id, k=1, as_of=asked)[0]
    assert "Japan" in named.memory.content and named.explanation.components["coverage"] == 0.5
