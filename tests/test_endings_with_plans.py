"""An ending said while a plan waits ("I'm moving to Bath in February", then "I no longer live in Leeds"): the
value the plan would replace ends when said, the plan still stands, and calling it off later resumes
nothing (real server). It used to be ignored: the pending plan was the key's current version."""

from __future__ import annotations

from datetime import UTC, datetime

from conversation import say

from graphmem import GraphMemory

NOW = datetime(2026, 12, 20, 12, tzinfo=UTC)
MARCH = datetime(2027, 3, 1, 12, tzinfo=UTC)


def _on(day: int, month: int = 12) -> datetime:
    return datetime(2026, month, day, 10, tzinfo=UTC)


def _value(mem: GraphMemory, user_id: str, key: str, at: datetime) -> str | None:
    got = mem.facts.get(user_id, key, as_of=at)
    return got.value if got else None


def _history(mem: GraphMemory, user_id: str, key: str) -> list[tuple[str, str, str | None, str]]:
    return [
        (f.value, f.valid_from.date().isoformat(), f.valid_to and f.valid_to.date().isoformat(), f.status)
        for f in mem.facts.history(user_id, key)
    ]


def _moving(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, _on(1), "I live in Leeds.")
    say(mem, user_id, _on(2), "I'm moving to Bath in February.")


def test_the_home_a_plan_replaces_ends_before_the_move(mem: GraphMemory, user_id: str) -> None:
    _moving(mem, user_id)
    say(mem, user_id, _on(9), "I no longer live in Leeds, I'm staying with my parents until the move.")
    assert _value(mem, user_id, "location", _on(5)) == "Leeds"
    assert _value(mem, user_id, "location", NOW) is None, _history(mem, user_id, "location")
    assert _value(mem, user_id, "location", MARCH) == "Bath", _history(mem, user_id, "location")
    ended = [h for h in _history(mem, user_id, "location") if h[3] == "ended"]
    assert ended == [("Leeds", "2026-12-01", "2026-12-09", "ended")]


def test_a_plan_called_off_after_the_ending_resumes_nothing(mem: GraphMemory, user_id: str) -> None:
    _moving(mem, user_id)
    say(mem, user_id, _on(9), "I no longer live in Leeds.")
    say(mem, user_id, _on(12), "I'm not moving to Bath after all.")
    assert _value(mem, user_id, "location", NOW) is None, _history(mem, user_id, "location")
    assert _value(mem, user_id, "location", MARCH) is None, _history(mem, user_id, "location")


def test_the_plan_settled_early_after_the_ending(mem: GraphMemory, user_id: str) -> None:
    _moving(mem, user_id)
    say(mem, user_id, _on(9), "I no longer live in Leeds.")
    say(mem, user_id, _on(15), "I moved to Bath yesterday!")
    assert _value(mem, user_id, "location", NOW) == "Bath", _history(mem, user_id, "location")
    assert _value(mem, user_id, "location", _on(10)) is None
    assert not [h for h in _history(mem, user_id, "location") if h[3] == "conflicted"]


def test_a_job_quit_while_the_next_one_waits(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, _on(1), "I work at Acme.")
    say(mem, user_id, _on(2), "I'm starting a new job at Monzo in March.")
    say(mem, user_id, _on(9), "I quit my job yesterday.")
    assert _value(mem, user_id, "employer", _on(5)) == "Acme"
    assert _value(mem, user_id, "employer", NOW) is None, _history(mem, user_id, "employer")
    assert _value(mem, user_id, "employer", MARCH) == "Monzo", _history(mem, user_id, "employer")


def test_an_ending_of_another_value_or_of_the_plans_changes_nothing(mem: GraphMemory, user_id: str) -> None:
    _moving(mem, user_id)
    before = _history(mem, user_id, "location")
    say(mem, user_id, _on(9), "I no longer live in York.")
    say(mem, user_id, _on(10), "I no longer live in Bath.")
    assert _history(mem, user_id, "location") == before
