"""Review r41 (6fd2561..1045dc5): cases that fail on HEAD, each for one bug (real server)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from conversation import MARCH, NOW, history, on, say, value_at

from graphmem import GraphMemory
from graphmem.store.queries import query


# 1. An ending while a plan waits, after the plan was re-dated / corrected / replaced "instead": the first
#    record of the held value (closed at the first plan's start) is not revoked, so it still reads as holding.
@pytest.mark.parametrize(
    "change",
    [
        "The move got pushed back to April.",
        "I'm moving to Bath in April instead.",
        "Sorry, I meant Bristol, not Bath.",
    ],
)
def test_an_ending_after_the_plan_changed_ends_the_home(mem: GraphMemory, user_id: str, change: str) -> None:
    say(mem, user_id, on(1), "I live in Leeds.")
    say(mem, user_id, on(2), "I'm moving to Bath in February.")
    say(mem, user_id, on(3), change)
    say(mem, user_id, on(9), "I no longer live in Leeds.")
    assert value_at(mem, user_id, "location", on(5)) == "Leeds"
    assert value_at(mem, user_id, "location", NOW) is None, history(mem, user_id)


# 2. Two changes in one turn: the same, when the plan's correction and the ending are said together.
def test_a_correction_and_an_ending_in_one_turn(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, on(1), "I live in Leeds.")
    say(mem, user_id, on(2), "I'm moving to Bath in February.")
    say(mem, user_id, on(9), "Sorry, I meant Bristol, not Bath, and I no longer live in Leeds.")
    assert value_at(mem, user_id, "location", NOW) is None, history(mem, user_id)
    assert value_at(mem, user_id, "location", MARCH) == "Bristol"


# 3. (also on 6fd2561) A withdrawal then an ending in one turn: the home the withdrawal resumed still holds.
def test_a_withdrawal_and_an_ending_in_one_turn(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, on(1), "I live in Leeds.")
    say(mem, user_id, on(2), "I'm moving to Bath in February.")
    say(mem, user_id, on(9), "I'm not moving to Bath after all, and I no longer live in Leeds.")
    assert value_at(mem, user_id, "location", on(5)) == "Leeds"
    assert value_at(mem, user_id, "location", NOW) is None, history(mem, user_id)


# 3b. (also on 6fd2561) The same in two turns: a plan called off resumes the home as a copy, and ending the
#     copy leaves the record the plan closed at its start holding until the plan's date.
def test_an_ending_after_the_plan_was_called_off(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, on(1), "I live in Leeds.")
    say(mem, user_id, on(2), "I'm moving to Bath in February.")
    say(mem, user_id, on(5), "I'm not moving to Bath after all.")
    say(mem, user_id, on(9), "I no longer live in Leeds.")
    assert value_at(mem, user_id, "location", on(7)) == "Leeds"
    assert value_at(mem, user_id, "location", NOW) is None, history(mem, user_id)


# 4. A correction applies to every plannable key whose value the wrong name names by its first words:
#    "Manchester" names the employer "Manchester United", which becomes "Liverpool".
def test_a_correction_of_the_home_leaves_an_employer_sharing_its_first_word(
    mem: GraphMemory, user_id: str
) -> None:
    say(mem, user_id, on(1), "I live in Manchester.")
    say(mem, user_id, on(3), "I work at Manchester United.")
    say(mem, user_id, on(4), "Sorry, I meant Liverpool, not Manchester.")
    assert value_at(mem, user_id, "location", NOW) == "Liverpool"
    assert value_at(mem, user_id, "employer", NOW) == "Manchester United", history(mem, user_id, "employer")


# 5. CORRECTED reads an ordinary contrast as a correction: the home is retracted as never true.
@pytest.mark.parametrize(
    "text",
    [
        "Actually it's Leeds, not York, where my sister lives.",
        "Turns out Leeds, not York, has the oldest pub.",
    ],
)
def test_a_contrast_is_no_correction(mem: GraphMemory, user_id: str, text: str) -> None:
    say(mem, user_id, on(1), "I live in York.")
    say(mem, user_id, on(2), text)
    assert value_at(mem, user_id, "location", NOW) == "York", history(mem, user_id)


# 7. "I moved out of London for a week" ends the home (the new ending pattern lets 'for' follow the place).
@pytest.mark.parametrize(
    "text", ["I moved out of London for a week.", "I moved out of London for the summer."]
)
def test_moving_out_for_a_while_is_no_ending(mem: GraphMemory, user_id: str, text: str) -> None:
    say(mem, user_id, on(1), "I live in London.")
    say(mem, user_id, on(2), text)
    assert value_at(mem, user_id, "location", NOW) == "London", history(mem, user_id)


# 8. A household move to a GeoNames name that is not a home (a tool, a provider, a station, a weekend away);
#    on 6fd2561 none of these was read.
@pytest.mark.parametrize(
    "text",
    [
        "At work we moved to Phoenix last sprint.",
        "We moved to Orange as our phone provider.",
        "We moved to Victoria for the meeting.",
        "We moved to Harrogate for the weekend.",
        "The launch was planned for February but we moved to March.",
    ],
)
def test_a_household_move_that_is_no_home(mem: GraphMemory, user_id: str, text: str) -> None:
    say(mem, user_id, on(1), "I live in Leeds.")
    say(mem, user_id, on(2), text)
    assert value_at(mem, user_id, "location", NOW) == "Leeds", history(mem, user_id)


# 9. 'at Christmas' is read as the plan's date but left in its value ('Cardiff at Christmas'); 'for
#    Christmas' and 'after Christmas' give 'Cardiff'.
@pytest.mark.parametrize("holiday", ["at Christmas", "at New Year"])
def test_a_holiday_date_is_not_part_of_the_value(mem: GraphMemory, user_id: str, holiday: str) -> None:
    say(mem, user_id, on(1), "I live in Leeds.")
    say(mem, user_id, on(2), f"I'm moving to Cardiff {holiday}.")
    assert value_at(mem, user_id, "location", on(2, 2, 2027)) == "Cardiff", history(mem, user_id)


# 10. 'after Christmas' said on 28 December (Christmas just past) plans the move from 26 December of NEXT
#     year: the home stays Leeds for a year.
def test_after_christmas_said_just_after_christmas(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, on(1), "I live in Leeds.")
    say(mem, user_id, on(28), "I'm moving to Cardiff after Christmas.")
    assert value_at(mem, user_id, "location", on(1, 3, 2027)) == "Cardiff", history(mem, user_id)


# 11. Regression: a job taken with 'starting' and no date after it is no fact any more (6fd2561: Google).
def test_an_accepted_job_starting_with_no_date_is_still_a_job(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, on(1), "I work at Acme.")
    say(mem, user_id, on(2), "I've accepted a job at Google, starting as a junior engineer.")
    assert value_at(mem, user_id, "employer", NOW) == "Google", history(mem, user_id, "employer")


# 12. The kit query documented as "the same rule as get_fact" does not read revoked_at: after an ending
#     while a plan waits it still believes Leeds.
def test_kit_beliefs_at_reads_a_revoked_version_as_get_does(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, on(1), "I live in Leeds.")
    say(mem, user_id, on(2), "I'm moving to Bath in February.")
    say(mem, user_id, on(9), "I no longer live in Leeds.")
    assert value_at(mem, user_id, "location", NOW) is None
    rows = mem.query(
        query("kit/beliefs_at"), {"user_id": user_id, "as_of": NOW, "known_at": datetime.now(UTC)}
    )
    assert [r["value"] for r in rows if r["key"] == "location"] == []


# 13. (also on 6fd2561) 'from London to Leeds to be closer to family' keeps the purpose in the value
#     (d55c67f fixed only 'from London to be closer to family').
def test_a_move_with_a_purpose_reads_the_place(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, on(1), "I live in York.")
    say(mem, user_id, on(2), "I moved from London to Leeds to be closer to family.")
    assert value_at(mem, user_id, "location", NOW) == "Leeds", history(mem, user_id)
