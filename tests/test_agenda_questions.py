"""A question about a day's agenda asks by its date alone, and a question about how a planned event went is
answered by what was said after it (round 65, from the misses of the blind assistant sets). Pure rules, then
the real server and embedder."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from conversation import say

from graphmem import GraphMemory
from graphmem.model.date_queries import query_dates
from graphmem.model.timescope import TimeScope, asks_about_the_past, foretold
from graphmem.retrieval.signals import AGENDA_BOOST, agenda, date_cue
from graphmem.retrieval.terms import keywords, query_terms

START = datetime(2026, 9, 7, 9, 0, tzinfo=UTC)  # a Monday
DAY = 86_400_000


def ms(day: int) -> int:
    return int((START + timedelta(days=day)).timestamp() * 1000)


def test_a_stop_word_contracted_is_a_stop_word() -> None:
    """ "What's", "who's", "I've" searched the index for "what", "who", "i" (its possessive filter keeps the
    word before the apostrophe), so "What's on Friday?" matched every memory that asks something."""
    assert query_terms("What's Tom's new job? who's he working for, whats the pay") == [
        "tom's",
        "new",
        "job",
        "working",
        "pay",
    ]
    assert query_terms("I've got O'Brien's number") == ["got", "o'brien's", "number"]
    assert query_terms("When is Will's party? Don't forget Don's") == ["will's", "party", "forget", "don's"]


@pytest.mark.parametrize(
    ("question", "way"),
    [
        ("anything on tmrw?", "ahead"),
        ("What do I have tomorrow?", "ahead"),
        ("what's happening tomorrow", "ahead"),
        ("what've i got tomorrow morning", "ahead"),
        ("What's on Wednesday?", "ahead"),
        ("am I free on saturday?", "ahead"),
        ("What did I do yesterday?", "past"),
        ("And last Friday?", "past"),  # a time over: the past, whatever the words
        ("What did I plan for tomorrow?", "ahead"),  # a time to come, though asked with "did"
        ("What happened yesterday?", "past"),
        ("what time is my dentist tomorrow", None),  # asks of the dentist
        ("Where was John between August 11 and August 15 2023?", None),  # of John, not of the days
        ("What's on Will's calendar tomorrow?", None),  # of Will ("will's" is no stop word)
        ("What is on my mind?", None),  # no date
    ],
)
def test_a_question_that_asks_by_its_date_alone(question: str, way: str | None) -> None:
    at = START + timedelta(days=30)
    dates = query_dates(question, at)
    assert agenda(question, dates, at) == way
    if way is not None:  # its other words ("happening", "got") would find chatter: only its date's are
        assert set(keywords(question, at)) <= {"wednesday", "saturday", "friday"}


def test_the_date_cue_of_an_agenda_question() -> None:
    span = (ms(10) - ms(10) % DAY, ms(10) - ms(10) % DAY + DAY)  # the day asked about
    plan = {"content": "vet thurs 10am", "said": ms(8), "event": [span[0], span[1]]}
    year = {"content": "Biscuit is 11 this year", "said": ms(9), "event": [ms(-200), ms(160)]}
    said = {"content": "long day at the bakery", "said": span[0] + 3_600_000}  # said that day, undated
    other = {"content": "vet on the 30th", "said": ms(8), "event": [ms(23), ms(24)]}
    assert date_cue(plan, span, 0.1, "ahead") == AGENDA_BOOST
    assert date_cue(year, span, 0.1, "ahead") == 0.1  # a year overlaps every day: no agenda of that one
    assert date_cue(said, span, 0.1, "ahead") == 0.1  # a remark made that day is no plan for it
    assert date_cue(said, span, 0.1, "past") == AGENDA_BOOST  # but what one did that day
    assert date_cue(year, span, 0.1, "past") == 0.1  # a year is no day's, asked of the past either
    assert date_cue(other, span, 0.1, "ahead") == 0.0
    assert date_cue(plan, span, 0.1, None) == 0.1  # not an agenda question: the preset's soft boost
    week = {"content": "physio twice this week", "said": ms(8), "event": [ms(7), ms(14)]}
    assert date_cue(week, span, 0.1, "ahead") == 0.1  # a week is no day's either
    assert date_cue(plan, None, 0.1, "ahead") == 0.0


def test_more_shapes_of_a_question_about_how_it_went() -> None:
    plan = {"content": "first scrimmage vs. Grady HS next Tue 6pm", "said": ms(2), "event": [ms(8), ms(9)]}
    after, now = TimeScope(as_of=START + timedelta(days=40)), datetime.now(UTC)
    for question in (
        "how'd the scrimmage vs Grady go?",
        "what did sneha and I do when she visited",
        "what did masha and i do while she was here?",
        "Did Yuki like the tea bowl I gave her?",
        "did kuba get in after the trial?",
        "Did I pass the theory test?",
        "What was wrong with Churro?",
        "where did we end up eating for mum's birthday?",
    ):
        assert asks_about_the_past(question) and foretold(plan, question, after, now), question
    for question in (
        "How would you plan it?",
        "Where did we plan to eat?",
        "Did I book it for Tuesday?",
        "How'd you like to come on Saturday?",  # "how would"
        "Did Yuki say what she'd like for her birthday?",  # what the plan says
        "Did the venue look like a barn?",
        "What did you and I agree to bring?",
    ):
        assert not foretold(plan, question, after, now), question


def test_what_is_on_a_day_and_how_it_went(mem: GraphMemory, user_id: str) -> None:
    """Both fail before round 65: "tmrw" and "thurs 10am" were no dates, so the question's words found the
    turn that says "tmrw" and "anything"; "how'd" was no question about the past, so the plan said before
    the visit came first."""
    turns = [
        (1, "hi! I run a small bakery, I'm up at 4 most days"),
        (3, "we got a huge wedding cake order, 4 tiers, lemon and elderflower"),
        (4, "new apprentice starts tmrw, anything I should prep for her?"),
        (5, "flour supplier is Marriage's, they deliver on mondays"),
        (8, "vet for Pepper thurs 10am, she's off her food"),
        (9, "such a long week, I'm knackered. what's a good name for a sourdough starter"),
        (11, "back from the vet: Pepper has a tooth abscess, antibiotics for a week, poor girl"),
        (12, "the wedding cake is done and delivered!! 4 hours of piping"),
    ]
    ids = [say(mem, user_id, START + timedelta(days=day), text) for day, text in turns]
    tomorrow = mem.recall(
        "anything on tmrw?", user_id=user_id, k=3, reinforce=False, as_of=START + timedelta(days=9, hours=3)
    )
    assert tomorrow[0].memory.id == ids[4]
    asked = START + timedelta(days=20)
    went = mem.recall("how'd Pepper's vet visit go?", user_id=user_id, k=3, reinforce=False, as_of=asked)
    assert went[0].memory.id == ids[6]
