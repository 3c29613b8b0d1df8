"""Where the user lives and works now, after conversations a user would have: plans with calendar dates,
plans called off or put off in everyday words, moves said as "we", questions and suppositions that state
nothing, and jobs that end. Each scenario: turns (day of December 2026, text), then the value ``facts.get``
gives on 20 December and on 1 March 2027 (real server)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from conversation import NOW, assert_values_after, on, say

from graphmem import GraphMemory

SCENARIOS = [
    # a calendar date ends the value and is the coming one
    (
        "location",
        [(1, "I live in Leeds."), (2, "I'm moving to Manchester on January 15th.")],
        "Leeds",
        "Manchester",
    ),
    (
        "location",
        [(1, "I live in Leeds."), (2, "I'll be moving to Cardiff on the 28th.")],
        "Leeds",
        "Cardiff",
    ),
    (
        "employer",
        [(1, "I work at Acme."), (2, "I'm starting a new job at Monzo on January 11th.")],
        "Acme",
        "Monzo",
    ),
    # a move said to come later without a date is no fact yet; a holiday is a date
    (
        "location",
        [(1, "I live in Leeds."), (2, "I'm moving to Cardiff after Christmas.")],
        "Leeds",
        "Cardiff",
    ),
    ("location", [(1, "I live in Leeds."), (2, "I'm moving to Cardiff at some point.")], "Leeds", "Leeds"),
    # questions and suppositions state nothing
    (
        "location",
        [(1, "I live in Leeds."), (2, "Should I move to Berlin? The salaries are better.")],
        "Leeds",
        "Leeds",
    ),
    (
        "location",
        [(1, "I live in Leeds."), (2, "If I moved to Berlin, would I need a visa?")],
        "Leeds",
        "Leeds",
    ),
    (
        "location",
        [
            (1, "I live in Leeds."),
            (2, "I'm moving to Manchester in February."),
            (3, "Once I move to Manchester I'll get a dog."),
        ],
        "Leeds",
        "Manchester",
    ),
    # the household moves: in a home's words, or to a place (GeoNames)
    (
        "location",
        [(1, "I live in York."), (12, "We moved to Harrogate last weekend, it's so much quieter.")],
        "Harrogate",
        "Harrogate",
    ),
    ("location", [(1, "I live in Leeds."), (2, "Emma and I are moving to Bath in March.")], "Leeds", "Bath"),
    (
        "location",
        [(1, "I live in York."), (12, "We moved house to Harrogate last weekend, it's so much quieter.")],
        "Harrogate",
        "Harrogate",
    ),
    # plans called off in everyday words
    (
        "location",
        [
            (1, "I live in Leeds."),
            (2, "We're moving to Swansea in February!"),
            (9, "Our move to Swansea got cancelled."),
        ],
        "Leeds",
        "Leeds",
    ),
    (
        "location",
        [
            (1, "I live in Glasgow."),
            (2, "I'm moving to Edinburgh in January."),
            (9, "We've decided to stay in Glasgow after all."),
        ],
        "Glasgow",
        "Glasgow",
    ),
    (
        "location",
        [
            (1, "I live in Leeds."),
            (2, "I'm moving to New York in February."),
            (9, "I'm not moving to York after all."),
        ],
        "Leeds",
        "New York",  # York is another city
    ),
    (
        "employer",
        [
            (1, "I work at Acme."),
            (2, "I'm starting a new job at Monzo in January."),
            (9, "Monzo withdrew the offer, so I'm staying."),
        ],
        "Acme",
        "Acme",
    ),
    # a plan moved to another date, by saying it again
    (
        "location",
        [
            (1, "I live in Leeds."),
            (2, "I'm moving to Bath in January."),
            (9, "I'm moving to Bath in April instead of January."),
        ],
        "Leeds",
        "Leeds",
    ),
    # history told with its dates is history, not news (a month or more ago); news is current when told
    (
        "location",
        [(1, "I live in Berlin."), (9, "I moved to Paris in 2015 and then to Berlin in 2019.")],
        "Berlin",
        "Berlin",
    ),
    (
        "location",
        [(1, "I live in Berlin."), (9, "I moved to London ten years ago and hated the weather at first.")],
        "Berlin",
        "Berlin",
    ),
    ("employer", [(1, "I work at Acme."), (9, "I started at Spotify as an intern in 2015.")], "Acme", "Acme"),
    (
        "location",
        [(1, "I live in York."), (9, "I moved to the UK in 2019 and now live in Leeds.")],
        "Leeds",
        "Leeds",
    ),
    ("location", [(1, "I live in Leeds."), (9, "I moved to York yesterday!")], "York", "York"),
    # a value or a plan said by mistake, corrected; a correction naming nothing held changes nothing
    (
        "location",
        [(1, "I live in Manchester."), (2, "Sorry, I meant Liverpool, not Manchester.")],
        "Liverpool",
        "Liverpool",
    ),
    (
        "location",
        [
            (1, "I live in Leeds."),
            (2, "I'm moving to Manchester in February."),
            (3, "Turns out it's Liverpool, not Manchester."),
        ],
        "Leeds",
        "Liverpool",
    ),
    ("employer", [(1, "I work at Monzo."), (2, "I said Monzo but I meant Revolut.")], "Revolut", "Revolut"),
    (
        "location",
        [(1, "I live in Leeds."), (2, "Sorry, I meant Liverpool, not Manchester.")],
        "Leeds",
        "Leeds",
    ),
    # more everyday wordings of a home, a job, a household's plan and a correction (read after the held-out
    # probe of round 41 was scored)
    ("location", [(1, "I'm based in Denver.")], "Denver", "Denver"),
    ("location", [(1, "Living in Glasgow these days.")], "Glasgow", "Glasgow"),
    ("location", [(1, "I'm living in Dublin at the moment.")], "Dublin", "Dublin"),
    (
        "location",
        [
            (1, "I live in Denver."),
            (9, "We relocated to Austin a couple of weeks ago because of my wife's job."),
        ],
        "Austin",
        "Austin",
    ),
    (
        "location",
        [(1, "I live in Glasgow."), (9, "We moved over to Edinburgh last week.")],
        "Edinburgh",
        "Edinburgh",
    ),
    (
        "location",
        [
            (1, "I live in Madrid."),
            (9, "I got a job at Airbus and relocated from Madrid to Toulouse for it."),
        ],
        "Toulouse",
        "Toulouse",
    ),
    (
        "location",
        [(1, "I live in Brighton."), (2, "Our lease is up so we'll be moving to Oxford on 1 February.")],
        "Brighton",
        "Oxford",
    ),
    (
        "location",
        [(1, "I live in Dublin."), (2, "We move to Galway on the 9th of January.")],
        "Dublin",
        "Galway",
    ),
    ("location", [(1, "We rent a flat in Brighton.")], "Brighton", "Brighton"),
    ("employer", [(1, "My job at Tesco is pretty chill.")], "Tesco", "Tesco"),
    (
        "employer",
        [(1, "I work at Tesco."), (9, "Started a new job at Sainsbury's on Monday.")],
        "Sainsbury's",
        "Sainsbury's",
    ),
    (
        "employer",
        [(1, "I work at Shopify."), (9, "I left Shopify and I've been at Stripe for about a month now.")],
        "Stripe",
        "Stripe",
    ),
    ("employer", [(1, "I work at Unilever in the marketing team.")], "Unilever", "Unilever"),
    ("employer", [(1, "I work at Ford."), (9, "Not working at Ford anymore, I retired early.")], None, None),
    (
        "location",
        [
            (1, "I just moved to Newcastle."),
            (2, "Sorry, I meant Newport, not Newcastle, autocorrect got me."),
        ],
        "Newport",
        "Newport",
    ),
    # a job taken that starts later; a home moved out of
    (
        "employer",
        [(1, "I work at Acme."), (2, "I've accepted a job at Google, starting in January.")],
        "Acme",
        "Google",
    ),
    (
        "employer",
        [(1, "I work at Acme."), (2, "I've accepted an offer from Monzo and I start on January 4th.")],
        "Acme",
        "Monzo",
    ),
    ("location", [(1, "I live in London."), (9, "I've moved out of London.")], None, None),
    (
        "location",
        [(1, "I live in London."), (9, "I moved out of London to Brighton.")],
        "Brighton",
        "Brighton",
    ),
    # jobs that end, and a job left for another
    ("employer", [(1, "I work at Acme."), (9, "I got laid off from Acme last week.")], None, None),
    (
        "employer",
        [(1, "I work at Acme."), (9, "I quit my job yesterday, I couldn't take it any more.")],
        None,
        None,
    ),
    (
        "employer",
        [(1, "I work at Acme."), (9, "I left Acme last week to join Spotify.")],
        "Spotify",
        "Spotify",
    ),
]


@pytest.mark.parametrize(("key", "turns", "now", "march"), SCENARIOS)
def test_the_current_value_after_a_conversation(
    mem: GraphMemory, user_id: str, key: str, turns: list[tuple[int, str]], now: str | None, march: str | None
) -> None:
    assert_values_after(mem, user_id, key, turns, now, march)


# ordinary sentences with the words of the rules above, none of which changes where the user lives or works
# (from a helper's probe of 85 such sentences: before they were tightened, 52 changed a fact or a plan)
NOT_CHANGES = [
    "We moved to Slack for team chat last year.",
    "We're moving to Python 3.12 next week.",
    "Tom and I are moving to the Premium plan in March.",
    "We're not moving, we're stuck in traffic on the M62.",
    "I didn't move, I just froze when I saw the spider.",
    "I decided to stay, the party was too good.",
    "We decided to stay in Paris.",
    "I'm not moving until you apologise!",
    "I changed my mind about Manchester, it's actually lovely.",
    "Monzo pulled the offer of free travel insurance.",
    "Tom offered me a gig painting his fence, but I'm not taking the job.",
    "The job was pulled.",
    "The move to the new office was postponed until June.",
    "My start date for the course was moved to May.",
    "I'm not starting with the new diet until Monday.",
    "I left the party early to join my friends at the pub.",
    "I start work at 9 tomorrow.",
    "I'm working as a waiter tonight for my cousin's party.",
    "I lost my job interview notes on the train.",
    "I've retired for the night, goodnight!",
    "I was fired in 2015 and it taught me a lot.",
    "I moved from London to be closer to family.",
    "I moved out of my flat in Leeds and into a bigger one.",
    "I left Leeds at 6am to beat the traffic.",
    "I've been offered a role at Meta starting next month.",
    "I got an offer from Rightmove, starting at 300k.",
    "Sorry, I meant Tuesday, not Monday.",
    "We moved to Teams for meetings.",
    "Actually it's Leeds, not York, where my sister lives.",
    "I lost my job at Door Dash last year.",
    "I've been at Disneyland for three days!",
    "We're moving to Notion next month.",
    "Actually, Paris not Rome is my favourite city.",
]


@pytest.mark.parametrize("text", NOT_CHANGES)
def test_an_ordinary_sentence_changes_no_home_job_or_plan(mem: GraphMemory, user_id: str, text: str) -> None:
    for day, said in [
        (1, "I live in Leeds."),
        (1, "I work as a nurse at Acme."),
        (2, "I'm moving to Manchester in February."),
        (2, "I'm starting a new job at Monzo in March."),
    ]:
        say(mem, user_id, on(day), said)
    before = {
        k: [(f.value, f.valid_from, f.status) for f in mem.facts.history(user_id, k)]
        for k in ("location", "employer", "occupation")
    }
    say(mem, user_id, on(9), text)
    after = {
        k: [(f.value, f.valid_from, f.status) for f in mem.facts.history(user_id, k)]
        for k in ("location", "employer", "occupation")
    }
    assert after == before


def test_staying_home_after_a_plan_whose_date_passed(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, on(1, 10), "I live in Bath.")
    say(mem, user_id, on(10, 10), "I'm moving to Bristol next month for a new job.")
    say(mem, user_id, on(2), "In the end I stayed in Bath, the Bristol job didn't work out.")
    got = mem.facts.get(user_id, "location", as_of=NOW)
    assert got is not None and got.value == "Bath"


def test_a_move_told_with_its_year_holds_from_then(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, on(9), "In 2019 I moved to Leeds, and I love it here.")
    got = mem.facts.get(user_id, "location", as_of=datetime(2020, 6, 1, tzinfo=UTC))
    assert got is not None and got.value == "Leeds"
    assert got.valid_from == datetime(2019, 1, 1, tzinfo=UTC)


def test_a_value_said_by_mistake_was_never_true(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, on(1), "I live in York.")
    say(mem, user_id, on(5), "I moved to Manchester.")
    say(mem, user_id, on(6), "Oops, I meant Liverpool, not Manchester!")
    assert mem.facts.get(user_id, "location", as_of=on(3)).value == "York"  # type: ignore[union-attr]
    fixed = mem.facts.get(user_id, "location", as_of=on(5, 12).replace(hour=11))
    assert fixed is not None and fixed.value == "Liverpool" and fixed.valid_from == on(5)
    history = mem.facts.history(user_id, "location")
    wrong = next(f for f in history if f.value == "Manchester")
    before = mem.facts.get(user_id, "location", as_of=NOW, known_at=wrong.recorded_at)
    assert before is not None and before.value == "Manchester"  # what was known before the correction
    statuses = {f.value: f.status for f in history}
    assert statuses == {"York": "superseded", "Manchester": "retracted", "Liverpool": "current"}
