"""Review of d7d4039/ef3a11f (50780bd..HEAD): everyday sentences the new location/employer wordings misread.
Pure extraction; each case fails on HEAD."""

from __future__ import annotations

import pytest

from graphmem.model.fact_patterns import extract


def _facts(text: str) -> set[tuple[str, str, bool]]:
    return {(f.key, f.value, f.ends) for f in extract(text) if f.key in ("location", "employer")}


NOTHING = [
    # "based in" / subjectless "Living in": a department, a state of mind, a gerund subject, a stay
    "I'm based in marketing.",
    "I'm based in sales now.",
    "I'm based in HR.",
    "I'm based in Finance now.",
    "Living in denial, honestly.",
    "Living in sin, as my gran says.",
    "Living in London is expensive, my friend says.",
    "Living in London has changed me.",
    "Living in Spain for a month was fun.",
    # a move after "and" that is no home: furniture, software
    "I got up and moved to the Couch.",
    "I tried Vim and moved to Emacs.",
    "I used Windows and moved to Linux last year.",
    "I liked Spotify and moved to Apple Music.",
    "I lost my keys and moved to Plan B.",
    # "I've been at/with ... for N years": a partner, a phone company, a university, a job since left
    "I've been with Tom for a year.",
    "I've been with Vodafone for ten years and the signal is awful.",
    "I've been at University for three years.",
    "I've been at Uni for two years now.",
    "I've been at Oxford for three years.",
    "I've been at Tesco for three years but I left last month.",
    # "my job at ...": a job left, being left, missed, in the past
    "I'm quitting my job at Tesco.",
    "I'm leaving my job at Tesco next month.",
    "I miss my job at Tesco.",
    "Hated my job at Tesco so I quit.",
    "My job at Tesco was great, but I left in 2019.",
    "My job at Tesco ended last week.",
    "My job at Uni is running the bar.",
    # subjectless job taken: no employer
    "Got a new job at last!",
    "Took a job at short notice.",
    # "Not working at ... anymore": no employer ends
    "Not working at the weekend anymore.",
    "Not working at all anymore.",
    "Not working at night anymore, thank god.",
    "Not working at Christmas anymore.",
    "I'm not working for free any more.",
    # a rented or owned place that is no home
    "We rent a place in Spain every summer.",
    "We rent a house in Cornwall for the holidays.",
    "We own a house in France that we visit in summer.",
    "We own a flat in Spain as a holiday home.",
    # a comma after a correction that goes on about something else
    "Actually it's Leeds, not York, for the concert.",
    "Actually it's Leeds, not York, my sister lives there.",
    "Sorry, Leeds, not York, the city my sister lives in.",
]


@pytest.mark.parametrize("text", NOTHING)
def test_no_location_or_employer(text: str) -> None:
    assert _facts(text) == set()


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I work at Theatre in the Park.", "employer", "Theatre in the Park"),
        ("I work at Pizza on the Park.", "employer", "Pizza on the Park"),
    ],
)
def test_a_name_with_in_the_stays_whole(text: str, key: str, value: str) -> None:
    assert _facts(text) == {(key, value, False)}


def test_a_household_plan_is_read_once() -> None:
    facts = [f for f in extract("My wife and I will be moving to Leeds.") if f.key == "location"]
    assert len(facts) == 1 and facts[0].value == "Leeds" and facts[0].planned
