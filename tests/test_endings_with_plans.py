"""An ending said while a plan waits ("I'm moving to Bath in February", then "I no longer live in Leeds"): the
value the plan would replace ends when said, the plan still stands, and calling it off later resumes
nothing (real server). It used to be ignored: the pending plan was the key's current version."""

from __future__ import annotations

from conversation import MARCH, NOW, history, on, say, value_at

from graphmem import GraphMemory


def _moving(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, on(1), "I live in Leeds.")
    say(mem, user_id, on(2), "I'm moving to Bath in February.")


def test_the_home_a_plan_replaces_ends_before_the_move(mem: GraphMemory, user_id: str) -> None:
    _moving(mem, user_id)
    say(mem, user_id, on(9), "I no longer live in Leeds, I'm staying with my parents until the move.")
    assert value_at(mem, user_id, "location", on(5)) == "Leeds"
    assert value_at(mem, user_id, "location", NOW) is None, history(mem, user_id, "location")
    assert value_at(mem, user_id, "location", MARCH) == "Bath", history(mem, user_id, "location")
    ended = [h for h in history(mem, user_id, "location") if h[3] == "ended"]
    assert ended == [("Leeds", "2026-12-01", "2026-12-09", "ended")]


def test_a_plan_called_off_after_the_ending_resumes_nothing(mem: GraphMemory, user_id: str) -> None:
    _moving(mem, user_id)
    say(mem, user_id, on(9), "I no longer live in Leeds.")
    say(mem, user_id, on(12), "I'm not moving to Bath after all.")
    assert value_at(mem, user_id, "location", NOW) is None, history(mem, user_id, "location")
    assert value_at(mem, user_id, "location", MARCH) is None, history(mem, user_id, "location")


def test_the_plan_settled_early_after_the_ending(mem: GraphMemory, user_id: str) -> None:
    _moving(mem, user_id)
    say(mem, user_id, on(9), "I no longer live in Leeds.")
    say(mem, user_id, on(15), "I moved to Bath yesterday!")
    assert value_at(mem, user_id, "location", NOW) == "Bath", history(mem, user_id, "location")
    assert value_at(mem, user_id, "location", on(10)) is None
    assert not [h for h in history(mem, user_id, "location") if h[3] == "conflicted"]


def test_a_job_quit_while_the_next_one_waits(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, on(1), "I work at Acme.")
    say(mem, user_id, on(2), "I'm starting a new job at Monzo in March.")
    say(mem, user_id, on(9), "I quit my job yesterday.")
    assert value_at(mem, user_id, "employer", on(5)) == "Acme"
    assert value_at(mem, user_id, "employer", NOW) is None, history(mem, user_id, "employer")
    assert value_at(mem, user_id, "employer", MARCH) == "Monzo", history(mem, user_id, "employer")


def test_an_ending_of_another_value_or_of_the_plans_changes_nothing(mem: GraphMemory, user_id: str) -> None:
    _moving(mem, user_id)
    before = history(mem, user_id, "location")
    say(mem, user_id, on(9), "I no longer live in York.")
    say(mem, user_id, on(10), "I no longer live in Bath.")
    assert history(mem, user_id, "location") == before
