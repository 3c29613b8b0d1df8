"""Plans and endings in more everyday words: a move "for good" (not a trip), a move one's employer makes, a
plan called off by a name typed in lower case or in chat words, "instead of" the old plan first, a plan after
a dash, a job with an adjective ("a faculty position"), endings in chat words ("moved out of brighton", "no
fixed address", "they fire me from Tesco", "my UN contract's over"), and the home or job held while a plan
waits ("still in Geneva till then"). First what a turn states (pure), then conversations on the real server,
then sentences with the same words that plan, end or call off nothing."""

from __future__ import annotations

from datetime import datetime

import pytest
from conversation import NOW, assert_values_on, noon, on

from graphmem import GraphMemory
from graphmem.formation.plan import _when
from graphmem.model.fact_patterns import extract


def _said(text: str, said: datetime = on(4)) -> set[tuple[str, str, str | None, str]]:
    """(key, value, start day, kind) of each fact the turn states: "plan", "now", "ends" or "off"."""
    out = set()
    for f in extract(text):
        start = _when(f, text, said)[0]
        kind = "ends" if f.ends else "off" if f.withdraws else "plan" if start else "now"
        if not (f.planned and start is None and kind == "now") and not f.corrects:
            out.add((f.key, f.value, start.date().isoformat() if start else None, kind))
    return out


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        # 1: for good
        ("I'm flying to Auckland on 9 January for good", ("location", "Auckland", "2027-01-09", "plan")),
        (
            "we fly out to Auckland on the 3rd of january for good",
            ("location", "Auckland", "2027-01-03", "plan"),
        ),
        (
            "I finished my contract in Hong Kong and came home to Batangas for good last month",
            ("location", "Batangas", None, "now"),
        ),
        # 2: moved by one's employer
        ("the company is sending me to Edmonton in April", ("location", "Edmonton", "2027-04-01", "plan")),
        ("my job is moving me to Calgary next spring", ("location", "Calgary", "2027-03-01", "plan")),
        ("they're transferring me to the Leeds office in March", ("location", "Leeds", "2027-03-01", "plan")),
        (
            "I got transferred to Harrogate District Hospital, started monday",
            ("employer", "Harrogate District Hospital", None, "now"),
        ),
        (
            "We transferred to Davao City last month because of my husband's job",
            ("location", "Davao City", None, "now"),
        ),
        # 3: called off by a name in lower case
        ("berlin's off, jonas lost the job offer so we're staying put", ("location", "berlin", None, "off")),
        ("nah scrap cardiff, lost the deposit", ("location", "cardiff", None, "off")),
        ("toronto's on hold indefinitely", ("location", "toronto", None, "off")),
        ("ok i turned down revolut in the end", ("employer", "revolut", None, "off")),
        ("deliveroo fell through", ("employer", "deliveroo", None, "off")),
        ("The CPS role has been withdrawn", ("employer", "CPS", None, "off")),
        # 5, 6: a plan after a dash; a job with an adjective
        (
            "I'm leaving Shopify - starting at the Canada Revenue Agency on January 11 - and since I'll have "
            "more time I'm taking a course",
            ("employer", "Canada Revenue Agency", "2027-01-11", "plan"),
        ),
        (
            "I have accepted a faculty position at Oregon State University, starting March 16, 2027",
            ("employer", "Oregon State University", "2027-03-16", "plan"),
        ),
        # 7: endings
        (
            "moved out of brighton last week, sofa-surfing at mates' places till I figure it out",
            ("location", "brighton", None, "ends"),
        ),
        (
            "sold the perth house and we're off travelling round asia indefinitely, no fixed address for now",
            ("location", "", None, "ends"),
        ),
        ("they fire me from Tesco yesterday", ("employer", "Tesco", None, "ends")),
        ("my UN contract's over and I'm job hunting now", ("employer", "UN", None, "ends")),
        ("I'm now retired from LTA", ("employer", "", None, "ends")),
        # 8: held while a plan waits
        ("still in Geneva till then", ("location", "Geneva", None, "now")),
        ("still in madrid till april, then we move", ("location", "madrid", None, "now")),
        ("we're staying in Halifax for now", ("location", "Halifax", None, "now")),
        ("staying put in Hamburg", ("location", "Hamburg", None, "now")),
        ("still at IBM till then", ("employer", "IBM", None, "now")),
        ("staying at Ocado till then", ("employer", "Ocado", None, "now")),
    ],
)
def test_a_change_in_more_everyday_words(text: str, fact: tuple[str, str, str | None, str]) -> None:
    assert fact in _said(text)


def test_instead_of_the_old_plan_first_replans_it() -> None:
    text = "Change of plans - instead of Calgary, the company is sending me to Edmonton in April."
    assert {(f.value, f.corrects, f.replans) for f in extract(text) if f.corrects} == {
        ("Edmonton", "Calgary", True)
    }
    assert ("location", "Edmonton", "2027-04-01", "plan") in _said(text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm in Paris for good food",
        "I'm flying to Rome on Friday",
        "We're going to Lisbon for good weather on 3 May",
        "the company is sending me a laptop on Monday",
        "they're sending me to the shops in March",
        "I got transferred to a new team last week",
        "it's off, the party's off",
        "the heating's off again",
        "scratch that, I'm going to bed instead",
        "nah scrap that",
        "I turned down dessert",
        "the wedding fell through",
        "work's off today",
        "I moved out of bed at noon",
        "I'm still in shock",
        "I'm still at work till then",
        "still in bed till noon",
        "I'm staying in Rome this week",
        "staying at the Hilton till Friday",
        "I'm still in reading till then",
        "we're still in touch",
        "My EE contract's over, switching to Three",
        "my EE contract ended, switching to Three",
        "they fired up the grill",
        "I'm retired from the choir",
        "a friend with no fixed address stayed over",
        "I'm a senior role model at work, starting on Monday",
    ],
)
def test_the_same_words_change_nothing(text: str) -> None:
    assert {f for f in _said(text) if f[0] in ("location", "employer")} == set()


SCENARIOS = [
    (
        "location",
        [(on(1), "I live in Sydney."), (on(4), "I'm flying to Auckland on 9 January for good")],
        {NOW: "Sydney", noon(2027, 1, 8): "Sydney", noon(2027, 1, 10): "Auckland"},
    ),
    (
        "location",
        [
            (on(1), "I live in Hong Kong."),
            (on(4), "I finished my contract in Hong Kong and came home to Batangas for good last month"),
        ],
        {NOW: "Batangas"},
    ),
    (
        "location",
        [(on(1), "I live in Rome."), (on(2), "I'm flying to Paris on 9 January for good food.")],
        {noon(2027, 1, 10): "Rome"},
    ),
    (
        "location",
        [(on(1), "I live in Calgary."), (on(4), "the company is sending me to Edmonton in April")],
        {noon(2027, 3, 31): "Calgary", noon(2027, 4, 2): "Edmonton"},
    ),
    (
        "employer",
        [
            (on(1), "I work at Leeds General Infirmary."),
            (on(4), "I got transferred to Harrogate District Hospital, started monday"),
        ],
        {NOW: "Harrogate District Hospital"},
    ),
    (
        "location",
        [
            (on(1), "I live in Manila."),
            (on(4), "We transferred to Davao City last month because of my husband's job"),
        ],
        {NOW: "Davao City"},
    ),
    (
        "location",
        [
            (on(1), "I live in Munich."),
            (on(2), "We're moving to Berlin on 1 February."),
            (on(3), "berlin's off, jonas lost the job offer so we're staying put"),
        ],
        {noon(2027, 2, 2): "Munich"},
    ),
    (
        "location",
        [
            (on(1), "I live in Leeds."),
            (on(2), "We're moving to Cardiff on 1 February."),
            (on(3), "nah scrap cardiff, lost the deposit"),
        ],
        {noon(2027, 2, 2): "Leeds"},
    ),
    (
        "location",
        [
            (on(1), "I live in Munich."),
            (on(2), "We're moving to Berlin on 1 February."),
            (on(3), "toronto's on hold indefinitely"),
        ],
        {noon(2027, 1, 31): "Munich", noon(2027, 2, 2): "Berlin"},
    ),
    (
        "employer",
        [
            (on(1), "I work at HSBC."),
            (on(2), "I'm joining Revolut on 4 January."),
            (on(3), "ok i turned down revolut in the end"),
        ],
        {noon(2027, 1, 5): "HSBC"},
    ),
    (
        "employer",
        [
            (on(1), "I work at HSBC."),
            (on(2), "I'm joining Deliveroo on 4 January."),
            (on(3), "deliveroo fell through"),
        ],
        {noon(2027, 1, 5): "HSBC"},
    ),
    (
        "location",
        [
            (on(1), "I live in Vancouver."),
            (on(2), "The company is sending me to Calgary on 1 March."),
            (on(3), "Change of plans - instead of Calgary, the company is sending me to Edmonton in April."),
        ],
        {noon(2027, 3, 2): "Vancouver", noon(2027, 4, 2): "Edmonton"},
    ),
    (
        "location",
        [
            (on(1, 11), "I live in Brighton."),
            (on(4), "moved out of brighton last week, sofa-surfing at mates' places till I figure it out"),
        ],
        {NOW: None},
    ),
    (
        "location",
        [(on(1), "I live in Leeds."), (on(4), "moved out of brighton last week, sofa-surfing")],
        {NOW: "Leeds"},
    ),
    (
        "location",
        [
            (on(1), "I live in Perth."),
            (
                on(4),
                "sold the perth house and we're off travelling round asia indefinitely, no fixed "
                "address for now",
            ),
        ],
        {NOW: None},
    ),
    ("employer", [(on(1), "I work at Tesco."), (on(4), "they fire me from Tesco yesterday")], {NOW: None}),
    (
        "employer",
        [(on(1), "I work for the UN."), (on(4), "my UN contract's over and I'm job hunting now")],
        {NOW: None},
    ),
    (
        "employer",
        [(on(1), "I work at Aldi."), (on(4), "my EE contract ended, switching to Three")],
        {NOW: "Aldi"},
    ),
    ("employer", [(on(1), "I work at LTA."), (on(4), "I'm now retired from LTA")], {NOW: None}),
    (
        "location",
        [
            (on(1), "I live in Geneva."),
            (on(2), "I'm moving to Zurich on 1 March."),
            (on(4), "still in Geneva till then"),
        ],
        {NOW: "Geneva", noon(2027, 2, 27): "Geneva", noon(2027, 3, 2): "Zurich"},
    ),
    (
        "location",
        [(on(1), "I'm moving to Zurich on 1 March."), (on(4), "we're staying in Halifax for now")],
        {NOW: "Halifax", noon(2027, 3, 2): "Zurich"},
    ),
    (
        "employer",
        [
            (on(1), "I work at IBM."),
            (on(2), "I'm joining Google on 4 January."),
            (on(4), "still at IBM till then"),
        ],
        {NOW: "IBM", noon(2027, 1, 5): "Google"},
    ),
    # a value held until a plan, then the plan called off: the value held goes on
    (
        "location",
        [
            (on(1), "I'm moving to Zurich on 1 March."),
            (on(4), "still in Geneva till then"),
            (on(5), "I'm not moving to Zurich after all."),
        ],
        {NOW: "Geneva", noon(2027, 3, 2): "Geneva"},
    ),
    # the same words changing nothing held
    (
        "location",
        [
            (on(1), "I live in Leeds."),
            (on(2), "I'm moving to York on 1 March."),
            (on(4), "still in bed till noon"),
        ],
        {NOW: "Leeds", noon(2027, 3, 2): "York"},
    ),
    (
        "location",
        [(on(1), "I live in Leeds."), (on(2), "I'm flying to Rome on 9 January, for good food and wine.")],
        {noon(2027, 1, 10): "Leeds"},
    ),
]


@pytest.mark.parametrize(("key", "turns", "values"), SCENARIOS)
def test_the_value_on_each_day_in_more_everyday_words(
    mem: GraphMemory,
    user_id: str,
    key: str,
    turns: list[tuple[datetime, str]],
    values: dict[datetime, str | None],
) -> None:
    assert_values_on(mem, user_id, key, turns, values)
