"""Who someone is, and what happened at an event (round 63, from a blind set of an assistant's users): a
person is introduced where first named (graphmem.retrieval.changes.introductions), an event is told of after
it happened rather than in the plan said before it (timescope.foretold), and a date or a plan moved is a
change of what was said of it (graphmem.retrieval.changes). Pure rules, then the real server and embedder."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem import GraphMemory
from graphmem.model.timescope import (
    CURRENT_FACTOR,
    STALE_FACTOR,
    TimeScope,
    currency,
    foretold,
)
from graphmem.retrieval.changes import CHANGE, changed_later, introductions

START = datetime(2026, 9, 7, 9, 0, tzinfo=UTC)


def ms(day: int) -> int:
    return int((START + timedelta(days=day)).timestamp() * 1000)


def test_a_person_asked_about_is_introduced_where_first_named() -> None:
    memories = {
        "later": {"content": "Sal replaced the water heater. $1,400 ouch", "said": ms(23)},
        "intro": {"content": "water heater died. plumber coming tomorrow, a guy named Sal", "said": ms(22)},
        "other": {"content": "Salsa class moved to Thursdays", "said": ms(1)},  # not the name, as a word
    }
    assert introductions(memories, "Who's Sal?") == {"intro"}
    assert introductions(memories, "who is Sal") == {"intro"}
    assert introductions(memories, "What did Sal replace?") == set()  # not who he is
    # a whole name: both words
    two = {
        "a": {"content": "Tom called", "said": ms(1)},
        "b": {"content": "Tom Becker is my manager", "said": ms(2)},
    }
    assert introductions(two, "Who is Tom Becker?") == {"b"}
    # a relation fact read from a statement says who they are, wherever it is said
    memories["later"]["holds"] = ["person:Sal"]
    assert introductions(memories, "Who's Sal?") == set()
    assert currency(memories["later"], "Who's Sal?", TimeScope(), datetime.now(UTC), {}) == CURRENT_FACTOR


def test_an_introduction_is_the_name_said_so_and_in_the_shape_of_one() -> None:
    """The review of round 63: a capitalised name is not the word ("Who is Will?" is not "I will pick up
    the kids"), and a statement that introduces them outranks an earlier plain mention."""
    memories = {
        "word": {"content": "I will pick up the kids at 5", "said": ms(1)},
        "call": {"content": "Need to call Sal about the leak again", "said": ms(2)},
        "intro": {"content": "Sal is the plumber my landlord uses", "said": ms(3)},
        "will": {"content": "Will from accounts sent the invoice", "said": ms(4)},
    }
    assert introductions(memories, "Who is Will?") == {"will"}
    assert introductions(memories, "Who's Sal?") == {"intro"}
    del memories["intro"]
    assert introductions(memories, "Who's Sal?") == {"call"}  # no introducing shape: the first mention
    named = {
        "later": {"content": "karina says no running for a week", "said": ms(12)},
        "intro": {"content": "physio is Karina at Move Well, seeing her for my IT band", "said": ms(10)},
    }
    assert introductions(named, "who's karina") == {"intro"}  # typed in lower case: any case
    # the second review of round 63: a determiner before a preposition, a vocative, a question
    shapes = {
        "a": {"content": "What time is Sal coming?", "said": ms(1)},
        "b": {"content": "went to the game with Sal yesterday", "said": ms(2)},
        "c": {"content": "Sal, can you check the sink?", "said": ms(3)},
        "d": {"content": "Sal's the plumber my landlord uses", "said": ms(4)},
    }
    assert introductions(shapes, "Who is Sal?") == {"d"}


def test_a_plan_said_before_its_event_does_not_tell_what_happened() -> None:
    plan = {"content": "remind me that my besties bday is the 30th", "said": ms(2), "event": [ms(23), ms(24)]}
    report = {
        "content": "last night for tash's bday we did karaoke",
        "said": ms(24),
        "event": [ms(23), ms(24)],
    }
    after, before = TimeScope(as_of=START + timedelta(days=60)), TimeScope(as_of=START + timedelta(days=10))
    now = datetime.now(UTC)
    asked = "what did we do for tash's birthday?"
    assert foretold(plan, asked, after, now) and not foretold(report, asked, after, now)
    assert currency(plan, asked, after, now, {}) == STALE_FACTOR
    assert currency(report, asked, after, now, {}) == 1.0
    assert not foretold(plan, asked, before, now)  # the event had not come: nothing told of it yet
    for question in (
        "When was Tash's birthday?",
        "What did we plan for Tash's birthday?",
        "What day was it?",
    ):
        assert not foretold(plan, question, after, now), question  # when, or the plan: the plan answers
    assert foretold(
        plan, "What did I do with Leah when she visited?", after, now
    )  # a clause, not a when-question
    assert not foretold({"content": "no date", "said": ms(2)}, asked, after, now)
    assert not foretold({"content": "odd", "said": 0, "event": [True, 5]}, asked, after, now)
    # the review of round 63: what the plan itself says is asked of it, not what happened
    for question in (
        "What did I say about Tash's party?",
        "Where was Tash's party?",
        "Who was hosting Tash's party?",
        "What was I bringing to the party?",
        "What did I have on Saturday?",
    ):
        assert not foretold(plan, question, after, now), question
    for question in (
        "How was Tash's party?",
        "What did the doctor say?",
        "what did i get on the exam",
        "Was the party fun?",
        "Did the party go well?",
    ):
        assert foretold(plan, question, after, now), question


@pytest.mark.parametrize(
    "text",
    [
        "Darlene's surgery got bumped to the 19th, surgeon had a conflict",
        "the dinner is postponed to Friday",
        "they delayed the launch until next month",
        "we put back the party to the 21st",
        "Brad is leaving Halvorsen. new supervisor is Latoya Grant starting Nov 2",
        "New CFO will be Ms. Olga Kim from 12 Oct",
        "new kierownik from monday is Agnieszka Mazur",
        "he'll have Saga Monday-Wednesday from now on instead of weekends",
        # a third blind set's (round 63): a choice made, a holder taking over, a subject that changed
        "apparently Mei Lin is taking over the team from nov 1",
        "pottery moving to thursdays starting next week",
        "It is announced: Ms. Fujita from Tokyo will be new department head from November.",
        "We chose the Mazda CX-5.",
        "The renovation finished early, so choir is back on Wednesdays from next week.",
        "restaurant changed again: now closed only mondays",
        "anke is going on sabbatical for 6 months. interim lead is Bogdan",
        "We decided!! Mai it is.",
        "decided. i buy the MG4 not the renault",
        "Westlands is too expensive. Karen it is, found a small space",
    ],
)
def test_a_time_moved_or_a_new_holder_named_is_a_change(text: str) -> None:
    assert CHANGE.search(text) is not None


def test_a_change_and_the_statement_it_changes_share_a_word_by_its_stem() -> None:
    memories = {
        "old": {"content": "got the Kralingen apartment! moving on the 14th", "said": ms(46), "speaker": "u"},
        "new": {
            "content": "the move date is pushed to the 21st, painters are late",
            "said": ms(50),
            "speaker": "u",
        },
    }
    links = [["old", "new", "RELATED_TO", 0.5]]
    assert changed_later(memories, {"old": 1.0, "new": 0.9}, "When am I moving?", 10, links) == {
        "old": {"new"}
    }


def _say(mem: GraphMemory, user_id: str, turns: list[tuple[int, str]]) -> list[str]:
    ids = []
    for day, text in turns:
        message = {"role": "user", "content": text, "timestamp": START + timedelta(days=day)}
        ids.append(mem.add_messages([message], user_id=user_id, session_id=f"d{day}")[0].id)
    return ids


def test_who_someone_is_and_what_happened_at_a_planned_event(mem: GraphMemory, user_id: str) -> None:
    ids = _say(
        mem,
        user_id,
        [
            (1, "hey, I'm Jo. I teach year 5 and I have two cats"),
            (2, "remind me that my best mate Tash's birthday is the 30th"),
            (5, "the boiler is making a weird noise again"),
            (9, "boiler died. engineer coming tomorrow, a guy called Osei"),
            (10, "Osei fixed the boiler, new pump, cost a fortune"),
            (18, "Osei came back to check the pressure, all good now"),
            (24, "last night for Tash's birthday we did karaoke and I lost my voice"),
            (30, "marking all weekend, send help"),
        ],
    )
    as_of = START + timedelta(days=40)
    who = mem.recall("Who is Osei?", user_id=user_id, k=3, reinforce=False, as_of=as_of)
    assert who[0].memory.id == ids[3]
    what = mem.recall(
        "What did we do for Tash's birthday?", user_id=user_id, k=3, reinforce=False, as_of=as_of
    )
    assert what[0].memory.id == ids[6]
    # when it was: the plan's date answers too, so it is not scored down
    when = mem.recall("When was Tash's birthday?", user_id=user_id, k=3, reinforce=False, as_of=as_of)
    plan = next(h for h in when if h.memory.id == ids[1])
    assert plan.explanation.components["currency"] == 1.0


def test_a_speaker_named_in_both_is_no_shared_word_when_stemmed() -> None:
    """The review of round 63: stemmed words ("melani") no longer left out the speakers' names ("melanie")."""
    memories = {
        "a": {"content": "Hey Melanie, I painted the fence", "said": 1, "speaker": "Caroline"},
        "b": {
            "content": "Thanks Melanie! I switched to a new job at the library",
            "said": 2,
            "speaker": "Caroline",
        },
        "c": {"content": "Nice!", "said": 3, "speaker": "Melanie"},
    }
    links = [["a", "b", "RELATED_TO", 0.5]]
    assert changed_later(memories, {"a": 1.0, "b": 0.9, "c": 0.1}, "What does Caroline do?", 5, links) == {}


@pytest.mark.parametrize(
    "text",
    [
        "The new café is lovely",
        "the new season is great",
        "new phone is fine, battery lasts",
        "it changed my life",
        "So it is.",
        "Have you decided?",
        "I have not decided.",
        "booked! train to madurai on 18 nov night, back on the 23rd",  # a return, not a time moved
        "I am moving to Leeds",
        # the second review of round 63: the same words in their ordinary sense
        "Paris it is, the most beautiful city",
        "Yeah it is!",
        "Maybe it is, maybe not.",
        "Times have changed!",
        "My dad is taking over the grill",
        "From now on I'll try to be more patient",
        "It's back to Monday blues",
        "Mom's back on the 23rd",
        "We picked strawberries",
        "I went for a run",
        "I chose to go to the support group",
        "The new album is Taylor's best",
        "That will be new territory",
        "Acting class is fun!",
    ],
)
def test_a_new_thing_described_is_no_change(text: str) -> None:
    assert CHANGE.search(text) is None
