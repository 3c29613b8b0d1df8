"""A value said again without a change word (graphmem.retrieval.restated, round 64): for a question that
asks who, when or how much holds now, a later statement of the same thing that gives such a value outdates
the earlier ones; a change statement outdates every earlier one that names the thing asked
(graphmem.retrieval.changes._claimed). Pure rules first, then the scenarios on the real server."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from conversation import say, small_talk

from graphmem import GraphMemory
from graphmem.retrieval.changes import _candidates, _claimed
from graphmem.retrieval.restated import _kind, asked_of, people_named, restated_later

DAY = 86_400_000


def _pool(*texts: str, speaker: str = "user") -> dict[str, dict[str, object]]:
    """Statements said a day apart, in order: ids s0, s1, ..."""
    return {f"s{i}": {"content": t, "said": i * DAY, "speaker": speaker} for i, t in enumerate(texts)}


def _restated(query: str, memories: dict[str, dict[str, object]]) -> dict[str, set[str]]:
    own = {mid: 1.0 for mid in memories}
    return restated_later(memories, _candidates(memories, own, query, 10), query)


COACH = (
    "jaylen has soccer tues n thurs 5:30, coach rivera",
    "jaylens soccer team got a dad volunteer, mr pham, as coach",
)
SWIM = ("swim lessons are tuesdays at 5pm", "swim lessons thursdays 6pm for the rest of term")


@pytest.mark.parametrize(
    ("query", "texts", "expected"),
    [
        ("who's jaylen's soccer coach now?", COACH, {"s0": {"s1"}}),  # a person named, "coach" shared
        ("when are my swim lessons now?", SWIM, {"s0": {"s1"}}),  # a time
        (
            "what do the swim lessons cost these days?",
            ("swim lessons are $40", "swim lessons $45 a month"),
            {"s0": {"s1"}},
        ),
        (
            "how much are the swim lessons now?",
            ("swim lessons are $40", "swim lessons $45 a month"),
            {"s0": {"s1"}},
        ),
        # asked of the present without "now" (round 66: what was said once is not restated, so the rule does
        # not fire on it; what was restated is answered by the later value, "now" or not)
        ("who's jaylen's soccer coach?", COACH, {"s0": {"s1"}}),
        ("when are my swim lessons?", SWIM, {"s0": {"s1"}}),
        # asked of the past
        ("who was jaylen's soccer coach back then?", COACH, {}),
        # "what" and "where" values have no shape: a later mention could be anything (the thing is shared)
        (
            "what is the wifi password now?",
            ("wifi password is Tulip77", "wifi was slow again, the password sticker fell off"),
            {},
        ),
        ("hey when are swim lessons now?", SWIM, {"s0": {"s1"}}),  # a lead-in before "when"
        ("so who\u2019s jaylen's soccer coach now?", COACH, {"s0": {"s1"}}),  # a curly apostrophe
        # chatter that gives no value of the kind asked: no person, no time, no money
        ("who's jaylen's soccer coach now?", (COACH[0], "coach was sick so soccer got cancelled lol"), {}),
        ("when are my swim lessons now?", (SWIM[0], "I may skip swim lessons, the sun is out"), {}),
        ("how much is the rent now?", ("rent is $1450 a month", "paid the rent 2 days late, oops"), {}),
        (
            "how much is the rent now?",
            ("rent is $1450 a month", "rent goes up to 1500 in march"),
            {"s0": {"s1"}},
        ),
        # the later statement must name the thing as the earlier does: every word of it the earlier holds
        (
            "when are Noah's piano lessons now?",
            ("noah's piano lessons are wednesdays at 4pm", "noah practiced piano for an hour on sunday"),
            {},
        ),
        # a value said again is no change
        (
            "who watches the kids these days?",
            ("mrs duarte watches the kids wed n fri", "mrs duarte watches the kids on fridays now too"),
            {},
        ),
        # a value beside another thing is not its (NEAR)
        (
            "who is my dentist now?",
            (
                "My dentist is Dr. Patel",
                "Saw the dentist today for a cleaning, the hygienist Maria was really gentle",
            ),
            {},
        ),
        # another child's schedule: whose the thing is, where the earlier says
        (
            "when is leo's swimming now?",
            ("leo's swimming is fridays at 4pm", "mira's swimming moved to thursdays at 6pm"),
            {},
        ),
        # a given name whose stem differs ("lili"): still whose, not what
        (
            "when does Lily have swimming now?",
            ("Lily's swimming is tuesdays at 5pm", "Lily has the dentist on friday"),
            {},
        ),
        # the later one gives no value of the kind asked
        (
            "when is jaylen's soccer practice now?",
            ("soccer practice is tues 5:30", "jaylen wants to quit soccer"),
            {},
        ),
        # only the person's name shared: every statement about Jaylen names him
        (
            "who's jaylen's soccer coach now?",
            ("coach rivera is jaylen's coach", "jaylen invited Tom over"),
            {},
        ),
        # a question names nothing
        ("who's jaylen's soccer coach now?", (COACH[0], "can you ask coach Pham about the schedule?"), {}),
    ],
)
def test_a_later_statement_of_the_kind_asked_restates_the_value(
    query: str, texts: tuple[str, ...], expected: dict[str, set[str]]
) -> None:
    assert _restated(query, _pool(*texts)) == expected


def test_only_the_same_speaker_restates() -> None:
    memories = _pool(*SWIM)
    memories["s1"]["speaker"] = "assistant"
    assert _restated("when are my swim lessons now?", memories) == {}


def test_the_thing_asked_leaves_out_whose_it_is() -> None:
    asked = asked_of("who's jaylen's soccer coach now?")
    assert asked.thing == {"soccer", "coach"}
    assert asked.whose == {"jaylen"}
    assert asked_of("When does Lily have swimming now?").whose == {"lili"}  # stemmed, as the words are
    assert asked_of("how much is my gym membership these days?").thing == {"gym", "membership"}  # no "days"
    assert asked_of("what time is standup now?").head == "standup"


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("jen's replacement is a guy named Tomasz", {"tomasz"}),
        ("mrs duarte said shed watch the kids", {"duart"}),
        ("Tomasz starts monday", {"tomasz"}),
        ("My shift moved to Mondays. Can you remind me? LOL", set()),  # no name: "My", "Can", a weekday
        ("coach was sick, I miss the team, called the dentist", set()),
        ("launch party is Nov 13", set()),
    ],
)
def test_who_a_statement_names(text: str, named: set[str]) -> None:
    assert {name for name, _ in people_named(text)} == named


@pytest.mark.parametrize(
    ("query", "kind"),
    [
        ("when is the guy who is fixing the boiler coming now?", "time"),
        ("who is coming now?", "person"),
        ("how many students do I have now?", "count"),
        ("what's the rent now?", "money"),
        ("where do I live now?", None),
    ],
)
def test_the_kind_of_value_asked(query: str, kind: str | None) -> None:
    """Each kind's test passes its own sample first (in the order time, person, count, money)."""
    samples = {"time": "thursdays 6pm", "person": "Dr. Okafor", "count": "three students", "money": "$900"}
    test = _kind(query)
    assert (test is None) == (kind is None)
    if test is not None:
        assert [k for k, text in samples.items() if test(text)][:1] == [kind]


def test_a_change_claims_every_earlier_statement_of_the_thing_asked() -> None:
    """The closest earlier statement only where none shares a word of the thing asked (the requests case of
    tests/test_state_changes.py)."""
    memories = _pool(
        "my team lead oskar keeps moving our deadlines",
        "oskar handed in his notice, we get a new lead next month",
        "new lead is called Wren, seems calm",
    )
    words = _candidates(memories, {mid: 1.0 for mid in memories}, "who's my team lead now?", 10)
    links = [["s0", "s2", "RELATED_TO", 0.5], ["s1", "s2", "RELATED_TO", 0.8]]
    changers = {"s0": {"s2"}, "s1": {"s2"}}
    assert _claimed(changers, links, words, "who's my team lead now?") == {"s0": {"s2"}, "s1": {"s2"}}
    assert _claimed(changers, links, words, "who is Wren?") == {"s1": {"s2"}}  # no shared word asked


def test_a_change_claims_no_earlier_statement_another_change_is_closer_to() -> None:
    """The requests case of tests/test_state_changes.py asked with the word both things share: the rate
    limit's change claims neither the HTTP client's statement (closer to the switch to httpx) nor the switch
    (a change itself)."""
    memories = _pool(
        "We use requests as our HTTP client",
        "The API rate limit is 100 requests per minute",
        "We switched from requests to httpx",
        "We raised the API rate limit to 500 requests per minute",
    )
    query = "which HTTP client do we use for requests now?"
    words = _candidates(memories, {mid: 1.0 for mid in memories}, query, 10)
    changers = {"s0": {"s2", "s3"}, "s1": {"s2", "s3"}, "s2": {"s3"}}
    links = [
        ["s0", "s2", "RELATED_TO", 0.77],
        ["s0", "s3", "RELATED_TO", 0.61],
        ["s1", "s2", "RELATED_TO", 0.60],
        ["s1", "s3", "RELATED_TO", 0.84],
        ["s2", "s3", "RELATED_TO", 0.63],
    ]
    assert _claimed(changers, links, words, query) == {"s0": {"s2"}, "s1": {"s3"}}


def _on(day: int) -> datetime:
    return datetime(2025, 10, day, 10, tzinfo=UTC)


def _first(mem: GraphMemory, user_id: str, query: str) -> str:
    return mem.recall(query, user_id=user_id, k=5, reinforce=False)[0].memory.id


def test_a_time_said_again_answers_when_it_is_now(mem: GraphMemory, user_id: str) -> None:
    small_talk(mem, user_id, _on)
    say(mem, user_id, _on(5), "My swim lessons are on Tuesdays at 5pm at the leisure centre.")
    later = say(mem, user_id, _on(20), "pool emailed: swim lessons thursdays 6pm for the rest of term")
    assert _first(mem, user_id, "When are my swim lessons now?") == later


def test_a_person_named_again_answers_who_it_is_now(mem: GraphMemory, user_id: str) -> None:
    small_talk(mem, user_id, _on)
    say(mem, user_id, _on(5), "my physio is Karina at Move Well, she sorted my knee out last year")
    say(mem, user_id, _on(9), "knee is sore again after the 10k, lots of stretching tonight")
    tom = say(mem, user_id, _on(22), "first physio session with Tom at the new clinic today, he is great")
    assert _first(mem, user_id, "who is my physio now?") == tom
