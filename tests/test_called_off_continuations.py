"""The value a called-off plan continues, on the real server: it is no change, so calling the move off again
or stating the old place again leaves it (and its statement current), and a plan made instead before the
first plan's date, then called off, leaves the old place too, in one batch as in one call per message."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem import GraphMemory
from graphmem.model.timescope import CURRENT_FACTOR

SAID = datetime(2026, 3, 10, 15, 30, tzinfo=UTC)  # a Tuesday: "next month" is April
MAY = datetime(2026, 5, 5, tzinfo=UTC)
LEEDS = (SAID - timedelta(days=8), "I live in Leeds.")
PLAN = (SAID, "I'm moving to Manchester next month, can't wait.")


def _say(mem: GraphMemory, user_id: str, turns: list[tuple[datetime, str]], batch: bool = False) -> list[str]:
    messages = [{"role": "user", "content": text, "timestamp": when} for when, text in turns]
    if batch:
        return [m.id for m in mem.add_messages(messages, user_id=user_id, session_id="s")]
    return [mem.add_messages([m], user_id=user_id, session_id="s")[0].id for m in messages]


def _currency(mem: GraphMemory, user_id: str, memory_id: str) -> float:
    hits = mem.recall("Where do I live?", user_id=user_id, k=8, reinforce=False)
    return {h.memory.id: h.explanation.components.get("currency", 1.0) for h in hits}[memory_id]


@pytest.mark.parametrize(
    "again", ["Like I said, I've decided not to move.", "I live in Leeds, I'm staying put."]
)
def test_the_old_place_called_off_again_or_stated_again_stays(
    mem: GraphMemory, user_id: str, again: str
) -> None:
    off = (SAID + timedelta(days=3), "The move is off.")
    leeds, *_ = _say(mem, user_id, [LEEDS, PLAN, off, (SAID + timedelta(days=4), again)])
    assert mem.facts.get(user_id, "location", as_of=MAY).value == "Leeds"  # type: ignore[union-attr]
    assert [f.status for f in mem.facts.history(user_id, "location")] == [
        "superseded",
        "retracted",
        "current",
    ]
    assert _currency(mem, user_id, leeds) == CURRENT_FACTOR  # the current home's statement again


@pytest.mark.parametrize("batch", [False, True])
def test_a_plan_made_instead_then_called_off_leaves_the_old_place(
    mem: GraphMemory, user_id: str, batch: bool
) -> None:
    instead = (SAID + timedelta(days=1), "Change of plans: I'm moving to Oslo next week instead.")
    off = (SAID + timedelta(days=2), "Actually, I'm not moving to Oslo after all.")
    leeds, *_ = _say(mem, user_id, [LEEDS, PLAN, instead, off], batch)
    for at in (SAID + timedelta(days=10), MAY):  # after Oslo's date, and after Manchester's
        assert mem.facts.get(user_id, "location", as_of=at).value == "Leeds", at  # type: ignore[union-attr]
    assert _currency(mem, user_id, leeds) == CURRENT_FACTOR  # the current home's statement again
