"""Plans to move home or change job in the words people use: "I'll be at <firm> from <date>", an offer signed
"from" a firm, a job or a home taken with its day in the next sentence, a firm started at that is named like
a person, a plan re-dated "now it's <date>" or changed "instead" after the old one is dropped, the plan's
own date in a long sentence, and a last day said ahead or without "my". First what a turn states (pure),
then conversations on the real server, then sentences with the same words that plan or end nothing."""

from __future__ import annotations

from datetime import datetime

import pytest
from conversation import NOW, assert_values_on, noon, on

from graphmem import GraphMemory
from graphmem.formation.plan import _when
from graphmem.model.fact_patterns import extract


def _planned(text: str, said: datetime) -> set[tuple[str, str, str | None]]:
    """(key, value, start day) of each value the turn plans or states (not ends nor calls off; a plan
    without its day is no fact yet)."""
    out = set()
    for f in extract(text):
        start = _when(f, text, said)[0]
        if not (f.ends or f.withdraws or (f.planned and start is None)):  # a plan only with its day
            out.add((f.key, f.value, start.date().isoformat() if start else None))
    return out


@pytest.mark.parametrize(
    ("text", "said", "plan"),
    [
        (
            "Leaving Nokia, I'll be at Supercell from the 1st of September.",
            on(4),
            ("employer", "Supercell", "2027-09-01"),
        ),
        (
            "Signed the offer from Stripe today. My start date is February 2nd, so I'll give notice next "
            "week.",
            on(4),
            ("employer", "Stripe", "2027-02-02"),
        ),
        (
            "I've signed my new contract with Arup! First day is 8 February.",
            on(4),
            ("employer", "Arup", "2027-02-08"),
        ),
        (
            "Accepted a position with the International School of Kigali! I start January 11 and I'm "
            "terrified.",
            on(4),
            ("employer", "International School of Kigali", "2027-01-11"),
        ),
        # a firm named like a person or a town, in a message about work (not "I'm starting at Victoria on
        # Monday")
        ("I'll be starting at Meta on December 1, new job!", on(20, 11), ("employer", "Meta", "2026-12-01")),
        (
            "actually turned Barclays down, going to Lloyds instead, start 11 Jan",
            on(4),
            ("employer", "Lloyds", "2027-01-11"),
        ),
        (
            "Got the flat in Glasgow! Moving on 9 January, can you give me a moving checklist?",
            on(4),
            ("location", "Glasgow", "2027-01-09"),
        ),
        (
            "We found a house in Dundee. We move in on the 3rd of February.",
            on(4),
            ("location", "Dundee", "2027-02-03"),
        ),
        (
            "My sister's wedding is in Perth over Christmas so I'll be there from the 20th to the 28th, "
            "then straight after, on January 4th, I'm relocating to Singapore for good since Atlassian is "
            "letting me transfer to their office there.",
            on(4),
            ("location", "Singapore", "2027-01-04"),
        ),
        (
            "Resigned today. Last day at Takealot is the 31st, then I join Yoco on 4 January.",
            on(4),
            ("employer", "Yoco", "2027-01-04"),
        ),
    ],
)
def test_a_plan_and_its_day_in_everyday_words(text: str, said: datetime, plan: tuple[str, str, str]) -> None:
    assert plan in _planned(text, said)


@pytest.mark.parametrize(
    ("text", "wrong", "right"),
    [
        ("scratch Hamburg, the job there fell through. we're going to Cologne instead, same date", "Hamburg",
         "Cologne"),
        ("actually turned Barclays down, going to Lloyds instead, start 11 Jan", "Barclays", "Lloyds"),
    ],
)  # fmt: skip
def test_a_plan_dropped_then_replaced_instead(text: str, wrong: str, right: str) -> None:
    assert {(f.value, f.corrects, f.replans) for f in extract(text) if f.corrects} == {(right, wrong, True)}


@pytest.mark.parametrize(
    ("text", "said", "day"),
    [
        (
            "Resigned today. Last day at Takealot is the 31st, then I join Yoco on 4 January.",
            on(4),
            "2027-01-01",
        ),
        ("handed in my notice, last day was friday. going travelling for a year", on(4), "2026-12-04"),
    ],
)
def test_a_last_day_ends_the_job_when_it_comes(text: str, said: datetime, day: str) -> None:
    from graphmem.model.planned import ended_by

    ends = [f for f in extract(text) if f.ends]
    assert [f.key for f in ends] == ["employer"]
    assert ended_by(text, ends[0].span or (0, 0), said).date().isoformat() == day


@pytest.mark.parametrize(
    "text",
    [
        # I'll be at ... from ...: a visit, a time, a trip for work
        "I'll be at my mum's from Friday.",
        "I'll be at Heathrow from 6am, my flight leaves at 9.",
        "I'll be at Google from Monday for a conference, work is paying.",
        "I'll be at Costa from Monday, working from there while the office is shut.",
        "I'll be at Glastonbury from the 24th, can't wait!",
        # signed, accepted, got: not a firm, no day of it, or a trip
        "I signed the contract with the builder on Monday. First day is Tuesday.",
        "Signed the offer from Stripe today, so excited.",
        "Accepted a role with Sarah's team! I start on Monday.",
        "I've taken a job with Dad on the farm. I start on Monday.",
        "We found a flat in Porto for the holidays. We fly out on 3 May.",
        "Got a place in Rome for a week! Moving on to Naples on the 9th.",
        "I got a flat in Leeds. My birthday is on 3 January.",
        # started at: a person, a place of study
        "I'm joining Sarah on Friday.",
        "I'm starting at Sarah's on Monday.",
        "I start at Lincoln in September, the course looks fun.",
        # a day next sentence about something else
        "Signed with Rocket Lab yesterday! My birthday is on 8 February.",
    ],
)
def test_the_same_words_plan_nothing(text: str) -> None:
    assert {p for p in _planned(text, on(4)) if p[0] in ("location", "employer")} == set()


@pytest.mark.parametrize(
    "text",
    [
        "Last day was Friday, the beach was lovely.",
        "Last day of the festival is Sunday!",
        "My last day is the best one, says the brochure.",
        "scratch that, I'm going to bed instead",
    ],
)
def test_the_same_words_end_or_replan_nothing(text: str) -> None:
    assert [f for f in extract(text) if f.ends or f.corrects or f.withdraws] == []


SCENARIOS = [
    (  # 1
        "employer",
        [
            (on(1), "I work at Nokia."),
            (on(2), "Leaving Nokia, I'll be at Supercell from the 1st of September."),
        ],
        {NOW: "Nokia", noon(2027, 9, 2): "Supercell"},
    ),
    (  # 2
        "employer",
        [
            (on(1), "I'm an engineer at Monzo."),
            (
                on(4),
                "Signed the offer from Stripe today. My start date is February 2nd, so I'll give notice "
                "next week.",
            ),
        ],
        {noon(2027, 2, 1): "Monzo", noon(2027, 2, 3): "Stripe"},
    ),
    (  # 3
        "employer",
        [
            (on(1), "I work at Greenfield Academy."),
            (
                on(4),
                "Accepted a position with the International School of Kigali! I start January 11 and I "
                "can't wait.",
            ),
        ],
        {noon(2027, 1, 10): "Greenfield Academy", noon(2027, 1, 12): "International School of Kigali"},
    ),
    (  # 4
        "employer",
        [
            (on(10, 11), "I work at Google."),
            (on(20, 11), "I'll be starting at Meta on December 1, new job!"),
            (on(25, 11), "Meta pushed my start date back to January 12, something about a headcount review."),
        ],
        {NOW: "Google", noon(2027, 1, 13): "Meta"},
    ),
    (  # 5
        "location",
        [
            (on(1), "I live in Dubai."),
            (on(2), "We're moving to Doha on 1 February."),
            (on(3), "The Doha move got delayed, now it's March 15."),
        ],
        {noon(2027, 2, 2): "Dubai", noon(2027, 3, 16): "Doha"},
    ),
    (  # 6
        "location",
        [
            (on(1), "I live in Berlin."),
            (on(2), "We're moving to Hamburg on 1 February."),
            (on(3), "scratch Hamburg, the job there fell through. we're going to Cologne instead, same date"),
        ],
        {noon(2027, 1, 31): "Berlin", noon(2027, 2, 2): "Cologne"},
    ),
    (
        "employer",
        [
            (on(1), "I work at HSBC."),
            (on(2), "I'm joining Barclays on 4 January."),
            (on(3), "actually turned Barclays down, going to Lloyds instead, start 11 Jan"),
        ],
        {noon(2027, 1, 5): "HSBC", noon(2027, 1, 12): "Lloyds"},
    ),
    (  # 7
        "location",
        [
            (on(1), "I live in Edinburgh."),
            (on(4), "Got the flat in Glasgow! Moving on 9 January, can you give me a moving checklist?"),
        ],
        {noon(2027, 1, 8): "Edinburgh", noon(2027, 1, 10): "Glasgow"},
    ),
    (  # 8
        "location",
        [
            (on(1), "I live in Sydney."),
            (
                on(4),
                "My sister's wedding is in Perth over Christmas so I'll be there from the 20th to the 28th, "
                "then straight after, on January 4th, I'm relocating to Singapore for good since Atlassian "
                "is letting me transfer to their office there.",
            ),
        ],
        {NOW: "Sydney", noon(2027, 1, 3): "Sydney", noon(2027, 1, 5): "Singapore"},
    ),
    (  # 9
        "employer",
        [
            (on(1), "I work at Takealot."),
            (on(4), "Resigned today. Last day at Takealot is the 31st, then I join Yoco on 4 January."),
        ],
        {NOW: "Takealot", noon(2027, 1, 2): None, noon(2027, 1, 5): "Yoco"},
    ),
    (
        "employer",
        [
            (on(1), "I work for the NHS."),
            (on(4), "handed in my notice, last day was friday. going travelling for a year"),
        ],
        {NOW: None},
    ),
    # the same words changing nothing held
    (
        "employer",
        [
            (on(1), "I work at Aldi."),
            (on(2), "Forget Tesco, I'm going to Lidl instead, the bread is better."),
        ],
        {NOW: "Aldi"},
    ),
    (
        "location",
        [
            (on(1), "I live in Leeds."),
            (on(2), "We found a flat in Porto for the holidays. We fly out on 3 May."),
        ],
        {NOW: "Leeds", noon(2027, 5, 4): "Leeds"},
    ),
]


@pytest.mark.parametrize(("key", "turns", "values"), SCENARIOS)
def test_the_value_on_each_day_after_a_plan_in_everyday_words(
    mem: GraphMemory,
    user_id: str,
    key: str,
    turns: list[tuple[datetime, str]],
    values: dict[datetime, str | None],
) -> None:
    assert_values_on(mem, user_id, key, turns, values)
