"""A move stated in the progressive reads a bare month or weekday of its own phrase forwards ("I'm moving to
York in March", said in January), not one elsewhere in its clause: "I'm moving to Leeds, I got the job offer
in May", said in June, names the past May and is no plan for next May."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem import GraphMemory
from graphmem.model.fact_patterns import extract
from graphmem.model.planned import fact_start

JUNE = datetime(2026, 6, 10, 12, tzinfo=UTC)  # a Wednesday


@pytest.mark.parametrize(
    ("text", "said", "start"),
    [
        (
            "I'm moving to York in March.",
            datetime(2026, 1, 10, 12, tzinfo=UTC),
            datetime(2026, 3, 1, tzinfo=UTC),
        ),
        ("I'm relocating to Bristol on Friday", JUNE, datetime(2026, 6, 12, tzinfo=UTC)),
        (
            "In March, I'm moving to York.",
            datetime(2026, 1, 10, 12, tzinfo=UTC),
            datetime(2026, 3, 1, tzinfo=UTC),
        ),
        ("I'm moving to Leeds, I got the job offer in May.", JUNE, None),
        ("I'm moving to Leeds, we signed the lease on Monday.", JUNE, None),
        ("My sister Emma is moving to Porto, she decided in January.", JUNE, None),
    ],
)
def test_only_the_moves_own_bare_date_is_read_forwards(
    text: str, said: datetime, start: datetime | None
) -> None:
    (fact,) = [
        f for f in extract(text) if not f.key.startswith("person:")
    ]  # "My sister Emma": a relation too
    assert fact.ahead and fact_start(text, fact.span, said, ahead=True) == start


@pytest.mark.parametrize(
    ("text", "ahead"),
    [
        ("I'm finally moving to York in March.", True),
        ("I was moving boxes on Monday and now live in Leeds.", False),
        ("I spent Monday moving furniture and now live in Leeds.", False),
    ],
)
def test_only_a_move_in_the_present_progressive_reads_ahead(text: str, ahead: bool) -> None:
    (fact,) = extract(text)
    assert fact.ahead is ahead


def test_a_past_month_elsewhere_in_the_clause_makes_no_plan(mem: GraphMemory, user_id: str) -> None:
    turn = {"role": "user", "content": "I'm moving to Leeds, I got the job offer in May.", "timestamp": JUNE}
    mem.add_messages([turn], user_id=user_id, session_id="s")
    (leeds,) = mem.facts.history(user_id, "location")
    assert (leeds.value, leeds.valid_from, leeds.planned_at) == ("Leeds", JUNE, None)
