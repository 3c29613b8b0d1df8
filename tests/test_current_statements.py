"""Which statement recall puts first for a question about the present, when a statement says several things
(round 44): outdated for one key is not outdated for another that still holds; a plan changed while the
value it would replace still holds leaves that value's statement current; a change only supposed ("If I
moved to ...") outdates nothing; a question that first states something of the speaker is a statement.
Pure rules first, then the scenarios on the real server."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime
from pathlib import Path

import conversation
import pytest
from conversation import NOW, say

from graphmem import GraphMemory
from graphmem.model.fact_keys import RELATIONS, asks_of, key_words
from graphmem.model.scoring import asks_only
from graphmem.model.timescope import (
    CURRENT_FACTOR,
    STALE_FACTOR,
    TimeScope,
    asks_about_the_future,
    backs,
    currency,
    not_yet,
    still_holds,
)
from graphmem.retrieval.changes import changed_later

T0 = datetime(2026, 1, 1, tzinfo=UTC)
BEFORE = datetime(2025, 12, 20, 12, tzinfo=UTC)  # after the scenarios' turns, before any plan's date


def on(day: int) -> datetime:
    """A scenario turn's time: November 2025, in the past whenever the suite runs."""
    return conversation.on(day, 11, 2025)


OUTDATED = {"outdated_from": T0, "outdated_at": T0}


@pytest.mark.parametrize(
    ("holds", "outdated", "cosines", "expected"),
    [
        (["employer"], ["location"], {"employer": 0.66, "location": 0.64}, True),  # asked of the work
        (["employer"], ["location"], {"employer": 0.53, "location": 0.71}, False),  # asked of the home
        (["employer"], ["location"], {"employer": 0.66}, False),  # a cosine missing: outdated, as before
        (["location"], ["location"], {}, True),  # the plan changed, the value holds
        # the home corrected, then a new job planned: listed for both keys while the job still holds
        (["employer"], ["location", "employer"], {"employer": 0.53, "location": 0.71}, False),
        (["employer"], ["location", "employer"], {"employer": 0.66, "location": 0.64}, True),
        (["employer"], ["location", "employer"], {}, False),
        (["location", "employer"], ["location", "employer"], {}, True),
        ([], ["location"], {"location": 0.9}, False),  # nothing of it holds
        (None, ["location"], {}, False),  # read by an older graphmem: no holds
        (["employer"], None, {"employer": 0.9}, False),
        ("employer", ["location"], {"employer": 0.9, "location": 0.1}, False),  # written by hand
        ([3, None], ["location"], {}, False),
    ],
)
def test_an_outdated_statement_still_holds_for_what_of_it_holds(
    holds: object, outdated: object, cosines: dict[str, float], expected: bool
) -> None:
    memory = {**OUTDATED, "holds": holds, "outdated_keys": outdated}
    assert still_holds(memory, cosines) is expected
    present = currency(memory, "Where do I work now?", TimeScope(), NOW, cosines)
    assert present == (1.0 if expected else STALE_FACTOR)
    # asked about the past, or a memory never outdated: no factor either way
    assert currency(memory, "Where did I work before?", TimeScope(), NOW, cosines) == 1.0
    assert currency({"holds": holds}, "Where do I work now?", TimeScope(), NOW, cosines) == 1.0


WHERE = "Where do I live now?"
ASKED_OF_HOME = {
    "location": 0.70,
    "employer": 0.52,
    "occupation": 0.45,
    "name": 0.50,
    "age": 0.50,
    "partner": 0.43,
    # the people one has one of at a time (round 62): bge-small's cosines of the question with their words
    "manager": 0.46,
    "mother": 0.45,
    "father": 0.44,
    "dentist": 0.40,
    "doctor": 0.42,
    "therapist": 0.44,
    "landlord": 0.51,
}


@pytest.mark.parametrize(
    ("ahead", "holds", "cosines", "expected"),
    [
        (["location"], [], ASKED_OF_HOME, True),  # "we'll be moving to Oxford on 1 February"
        (["location"], None, ASKED_OF_HOME, True),
        (["location"], ["location"], ASKED_OF_HOME, False),  # "I live in Leeds and we're moving to York ..."
        (["employer"], ["location"], ASKED_OF_HOME, False),
        (["employer"], [], ASKED_OF_HOME, False),  # a job planned: not what "Where do I live?" asks
        (["location"], [], {**ASKED_OF_HOME, "name": 0.8}, False),  # "What's my cat called?": nearer name
        (["location"], [], {"location": 0.7}, False),  # a cosine missing: left whole
        ([], [], ASKED_OF_HOME, False),
        (None, None, ASKED_OF_HOME, False),  # no fact extracted
        ("location", [], ASKED_OF_HOME, False),  # written by hand
        # "... moving to Oxford in February with my partner Sam" (round 62): who one's people are is no state
        (["location"], ["partner", "person:Sam"], ASKED_OF_HOME, True),
    ],
)
def test_a_statement_of_a_plan_only_is_not_yet_current(
    ahead: object, holds: object, cosines: dict[str, float], expected: bool
) -> None:
    memory = {"ahead": ahead, "holds": holds}
    assert not_yet(memory, cosines) is expected
    stale = STALE_FACTOR if expected else CURRENT_FACTOR if holds == ["location"] else 1.0  # the home's own
    assert currency(memory, WHERE, TimeScope(), NOW, cosines) == stale
    assert currency(memory, "Where will I live in March?", TimeScope(), NOW, cosines) == 1.0
    assert currency(memory, "Where did I live last year?", TimeScope(), NOW, cosines) == 1.0


ASKED_OF_WORK = {**ASKED_OF_HOME, "location": 0.62, "employer": 0.66, "Sam/employer": 0.58}
WORK_NOW = "Where do I work now?"


@pytest.mark.parametrize(
    ("holds", "question", "cosines", "expected"),
    [
        (["employer"], WORK_NOW, ASKED_OF_WORK, True),  # "I'm a consultant at Bain"
        (["employer", "location"], WORK_NOW, ASKED_OF_WORK, True),  # "I live in Oslo and work for Equinor"
        (["location"], WORK_NOW, ASKED_OF_WORK, False),  # the home's statement: not what is asked
        (["employer"], WORK_NOW, ASKED_OF_HOME, False),  # nearer the home by its vector
        (["employer"], "What car do I drive?", ASKED_OF_WORK, False),  # no word of the relation
        (["Sam/employer"], WORK_NOW, {**ASKED_OF_WORK, "Sam/employer": 0.7}, False),  # Sam is not asked of
        (["Sam/employer"], "Where does Sam work?", {**ASKED_OF_WORK, "Sam/employer": 0.7}, True),
        (["Sam/employer"], "Where does Sam work?", ASKED_OF_WORK, False),  # nearer the user's own key
        (["employer"], "Where does Sam work?", ASKED_OF_WORK, False),  # the user's job, someone else asked
        (["employer"], "Where does my sister work?", ASKED_OF_WORK, False),
        (["sister/employer"], "Where does my sister work?", {**ASKED_OF_WORK, "sister/employer": 0.7}, True),
        (["employer"], "Is the post office open?", ASKED_OF_WORK, False),  # a word of work, not asked of it
        (
            ["preference:green tea"],
            "What tea do I like?",
            {**ASKED_OF_WORK, "preference:green tea": 0.9},
            False,
        ),
        (["employer"], WORK_NOW, {"employer": 0.66, "location": 0.62}, False),  # a relation's cosine missing
        ([], WORK_NOW, ASKED_OF_WORK, False),
        (None, WORK_NOW, ASKED_OF_WORK, False),  # no fact extracted
        ("employer", WORK_NOW, ASKED_OF_WORK, False),  # written by hand
    ],
)
def test_the_statement_a_current_fact_was_read_from_backs_a_question_of_its_key(
    holds: object, question: str, cosines: dict[str, float], expected: bool
) -> None:
    memory = {"holds": holds}
    assert backs(memory, cosines, question) is expected
    current = CURRENT_FACTOR if expected else 1.0
    assert currency(memory, question, TimeScope(), NOW, cosines) == current
    # asked about the past or about what is planned: the current statement is not the answer to prefer
    assert currency(memory, "Where did I work before?", TimeScope(), NOW, cosines) == 1.0
    assert currency(memory, "Where will I work next year?", TimeScope(), NOW, cosines) == 1.0
    # outdated for a key that no longer holds, asked about it: stale whatever else it states
    held = [k for k in holds if k != "location"] if isinstance(holds, list) else holds
    stale = {**OUTDATED, "holds": held, "outdated_keys": ["location"]}
    assert currency(stale, "Where do I live now?", TimeScope(), NOW, ASKED_OF_HOME) == STALE_FACTOR


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Where do I live now?", {"location"}),
        ("Where am I based these days?", {"location"}),
        ("What city do I live in?", {"location"}),
        ("Where does my sister live?", {"location"}),
        ("Where do I work now?", {"employer"}),
        ("Who does Sam work for?", {"employer"}),
        ("What do I do for a living?", {"occupation"}),
        ("How old am I?", {"age"}),
        ("How old is my sister?", {"age"}),
        ("What is my name?", {"name"}),
        ("Am I married?", {"partner"}),
        ("What's my dog called?", set()),
        ("How old is my car?", set()),
        ("What's my email address?", set()),
        ("Is the post office open?", set()),
        ("What's the title of the book?", set()),
        ("What's the living room paint colour?", set()),
        ("Which dating app is best?", set()),
        ("Which country should I visit?", set()),
        ("What is a good home workout?", set()),
        ("How do I work on my posture?", set()),
        ("What car do I drive?", set()),
    ],
)
def test_what_a_question_asks_about(question: str, asked: set[str]) -> None:
    assert asks_of(question) == asked


@pytest.mark.parametrize(
    ("question", "future"),
    [
        ("Where do I live now?", False),
        ("What is my job?", False),
        ("Which company am I at?", False),
        ("Where will I live?", True),
        ("Where'll I be in March?", True),
        ("When do I start at HSBC?", True),
        ("Where am I moving?", True),
        ("What's next for me?", True),
    ],
)
def test_what_asks_about_the_future(question: str, future: bool) -> None:
    assert asks_about_the_future(question) is future


def test_a_key_reads_as_its_relation_and_aliases() -> None:
    assert key_words("location").startswith("location, city, home")
    assert key_words("Sam/employer") == "Sam employer, company, works at, workplace, work place, job company"
    assert key_words("preference:green_tea") == "preference green tea"
    assert key_words("favourite_colour") == "favourite colour"


@pytest.mark.parametrize(
    ("text", "only_asks"),
    [
        ("living in Cape Town, any good hikes?", False),
        ("I live in Leeds, any tips for a gym?", False),
        ("my knee is playing up again - should I see a physio?", False),
        ("We drove up to Inverness on Friday, have you been?", False),
        ("What inspired it?", True),
        ("I mean, isn't it great?", True),  # three words: an interjection
        ("I love that, how did you do it?", True),
        ("If I moved to Leeds, would I like it?", True),  # supposes: begins with its subordinating word
        ("Wow, that sounds great, did you enjoy it?", True),  # not of the speaker
        ("Speaking of which, did you go?", True),
        ("Hey Mel, how are you?", True),
        # a preamble, or a word in -ing that says nothing of the speaker: the turn still only asks
        ("I have a quick question, how do I boil an egg?", True),
        ("I have a question: what is the capital of France?", True),
        ("I was just wondering, what's the weather like in Paris?", True),
        ("According to the forecast, will it rain tomorrow?", True),
        ("Looking at the map, which way is north?", True),
        ("Anything in particular you'd recommend, or should I pick?", True),
        ("Moving on to dessert, any ideas?", True),
    ],
)
def test_a_question_that_first_states_something_of_the_speaker_states_it(text: str, only_asks: bool) -> None:
    assert asks_only(text) is only_asks


def test_a_long_run_of_spaces_is_read_in_linear_time() -> None:
    started = time.perf_counter()
    assert asks_only("I am" + " " * 20_000 + "here?") is True  # a content of the size the write allows
    assert time.perf_counter() - started < 0.5  # was 5 s: the lookahead scanned the run at each character


def test_a_supposed_change_changes_nothing() -> None:
    memories = {
        "old": {"content": "I'm in Oslo and work for Equinor.", "said": 1, "speaker": "user"},
        "if": {
            "content": "If I moved to Bergen, could I stay at Equinor? I'm just daydreaming here.",
            "said": 2,
            "speaker": "user",
        },
        "did": {"content": "I moved to Bergen and still work for Equinor.", "said": 3, "speaker": "user"},
    }
    links = [["old", "if", "RELATED_TO"], ["old", "did", "RELATED_TO"]]
    own = {"old": 1.0, "if": 0.9, "did": 0.8}
    assert changed_later(memories, own, "Where do I live now?", 10, links) == {"old": {"did"}}
    del memories["did"]
    assert changed_later(memories, own, "Where do I live now?", 10, links) == {}


@pytest.mark.parametrize(
    "text",
    [
        "When I sold the Corolla last spring, I bought a Tesla.",
        "After I sold the Corolla, I bought a Tesla.",
        "Once we sold the Corolla, we bought a Tesla.",
    ],
)
def test_a_change_told_in_a_clause_of_time_is_stated(text: str) -> None:
    memories = {
        "old": {"content": "I drive a Toyota Corolla.", "said": 1, "speaker": "user"},
        "new": {"content": text, "said": 2, "speaker": "user"},
    }
    links = [["old", "new", "RELATED_TO"]]
    found = changed_later(memories, {"old": 1.0, "new": 0.9}, "What car do I drive?", 10, links)
    assert found == {"old": {"new"}}


def _first(mem: GraphMemory, user_id: str, question: str, as_of: datetime | None = None) -> str:
    hits = mem.recall(question, user_id=user_id, k=5, reinforce=False, as_of=as_of)
    assert hits, question
    return hits[0].memory.id


def _filler(mem: GraphMemory, user_id: str) -> None:
    conversation.small_talk(mem, user_id, on)


def test_a_home_corrected_leaves_the_work_stated_beside_it_current(mem: GraphMemory, user_id: str) -> None:
    _filler(mem, user_id)
    both = say(mem, user_id, on(10), "I rent a room in Porto and I work at Farfetch.")
    fixed = say(
        mem, user_id, on(12), "Correction: I don't live in Porto, I live in Braga. I only work in Porto."
    )
    node = mem.query("MATCH (m:Memory {id: $id}) RETURN m.outdated_keys AS k", {"id": both})[0]
    assert node["k"] == ["location"]
    assert _first(mem, user_id, "Where do I work now?") == both
    assert _first(mem, user_id, "Where do I live now?") == fixed


def test_a_plan_moved_leaves_the_home_stated_with_it_current(mem: GraphMemory, user_id: str) -> None:
    _filler(mem, user_id)
    home = say(mem, user_id, on(10), "I live in Ghent. We're moving to Antwerp on 20 January.")
    say(
        mem,
        user_id,
        on(12),
        "Oops, I had the date wrong: the move to Antwerp is on 27 January, not the 20th.",
    )
    assert mem.facts.get(user_id, "location", as_of=BEFORE).value == "Ghent"  # type: ignore[union-attr]
    node = mem.query("MATCH (m:Memory {id: $id}) RETURN m.outdated_from AS f", {"id": home})[0]
    assert node["f"] is not None  # the plan it stated was replaced: the statement is marked
    assert _first(mem, user_id, "Where do I live now?", as_of=BEFORE) == home


def test_a_move_only_supposed_outdates_nothing(mem: GraphMemory, user_id: str) -> None:
    _filler(mem, user_id)
    home = say(mem, user_id, on(10), "I'm in Oslo and work for Equinor.")
    say(
        mem,
        user_id,
        on(12),
        "If I moved to Bergen, could I stay at Equinor? I'm just daydreaming here.",
    )
    assert _first(mem, user_id, "Where do I live now?") == home


def test_a_home_said_before_a_question_outranks_a_trip(mem: GraphMemory, user_id: str) -> None:
    _filler(mem, user_id)
    home = say(mem, user_id, on(10), "renting in Cardiff atm, any tips on finding a cheaper flat?")
    say(mem, user_id, on(12), "We're off to Lisbon for a week in January, what should we pack?")
    assert _first(mem, user_id, "Where do I live now?") == home


def test_a_plan_brought_forward_leaves_the_old_job_outdated(mem: GraphMemory, user_id: str) -> None:
    """The old job's version keeps the end the plan gave it (March) while the job started early holds from
    November: two versions hold in between, and a read takes the later recorded (fact_at), so the old job's
    statement holds nothing then."""
    _filler(mem, user_id)
    old = say(mem, user_id, on(10), "I work at Ocado.")
    say(mem, user_id, on(12), "I'm joining Monzo in March.")
    early = say(mem, user_id, on(20), "Monzo wanted me sooner, so I started at Monzo last Monday!")
    assert mem.facts.get(user_id, "employer", as_of=BEFORE).value == "Monzo"  # type: ignore[union-attr]
    node = mem.query("MATCH (m:Memory {id: $id}) RETURN m.outdated_from AS f", {"id": old})[0]
    assert node["f"] is not None
    assert _first(mem, user_id, "Where do I work now?", as_of=BEFORE) == early


def test_a_plan_does_not_outrank_the_job_it_will_replace(mem: GraphMemory, user_id: str) -> None:
    _filler(mem, user_id)
    job = say(mem, user_id, on(20), "I've been with Ocado for five years.")
    plan = say(mem, user_id, on(22), "Handed in my notice today, I start at Monzo on 12 January!")
    assert _first(mem, user_id, "Where do I work now?", as_of=BEFORE) == job
    assert _first(mem, user_id, "When do I start at Monzo?", as_of=BEFORE) == plan
    assert _first(mem, user_id, "Where do I work now?") == plan  # from 12 January 2026 it holds


def test_a_job_planned_after_the_home_was_corrected_leaves_the_home_outdated(
    mem: GraphMemory, user_id: str
) -> None:
    """The statement's mark lists both keys once the new job is planned, while its job still holds until the
    plan's date: for where one lives it is outdated all the same."""
    _filler(mem, user_id)
    both = say(mem, user_id, on(10), "I rent a room in Porto and I work at Farfetch.")
    say(mem, user_id, on(12), "Correction: I don't live in Porto, I live in Braga. I only work in Porto.")
    say(mem, user_id, on(14), "Big news: I'm joining Zalando on 1 February!")
    node = mem.query("MATCH (m:Memory {id: $id}) RETURN m.outdated_keys AS k", {"id": both})[0]
    assert sorted(node["k"]) == ["employer", "location"]
    hits = mem.recall("Where do I live now?", user_id=user_id, k=5, reinforce=False, as_of=BEFORE)
    found = {h.memory.id: h.explanation.components["currency"] for h in hits}
    assert found[both] == STALE_FACTOR
    hits = mem.recall("Where do I work now?", user_id=user_id, k=5, reinforce=False, as_of=BEFORE)
    assert hits[0].memory.id == both


@pytest.mark.parametrize(
    ("first", "later", "key", "value", "question"),
    [
        (  # a job offered for a year ahead, whose plan the rules do not read as one
            "I'm a teacher at Westfield Primary and I live in Sheffield. Need some ideas for a rainy-day PE "
            "lesson.",
            "Exciting: I've been offered deputy head at Oakwood Academy from September 2027. Until then I'm "
            "staying put at Westfield. Any advice for preparing for leadership?",
            "employer",
            "Westfield Primary",
            "Where do I work now?",
        ),
        (  # a move for next year, told as a flight
            "i'm in Lisbon, freelancing as a designer, how do i find clients on linkedin",
            "Got the visa for Canada!! We fly to Toronto in June 2027, can't believe it. What should I know "
            "about Toronto winters?",
            "location",
            "Lisbon",
            "Where do I live now?",
        ),
    ],
)
def test_the_statement_of_the_current_value_outranks_a_nearer_worded_turn(
    mem: GraphMemory, user_id: str, first: str, later: str, key: str, value: str, question: str
) -> None:
    """A later turn nearer to the question's words that states no current value (an offer, a flight): the
    statement the current fact was read from is the answer (it ranked second before, timescope.backs)."""
    _filler(mem, user_id)
    stated = say(mem, user_id, on(10), first)
    say(mem, user_id, on(20), later)
    assert mem.facts.get(user_id, key).value == value  # type: ignore[union-attr]
    hits = mem.recall(question, user_id=user_id, k=5, reinforce=False)
    assert hits[0].memory.id == stated
    assert hits[0].explanation.components["currency"] == CURRENT_FACTOR


def test_a_plan_stays_whole_for_a_question_about_something_else(mem: GraphMemory, user_id: str) -> None:
    _filler(mem, user_id)
    say(mem, user_id, on(18), "The cat keeps knocking plants off the balcony.")
    plan = say(mem, user_id, on(20), "I start at Monzo on 12 January, so my cat Luna gets a new routine.")
    assert _first(mem, user_id, "What's my cat called?", as_of=BEFORE) == plan


def test_the_pool_reads_the_key_scheme_s_relations() -> None:
    """The pool reads, of a memory neither outdated nor stating a plan, only the facts of the key scheme's
    relations (what timescope.backs weighs): its Cypher names them, and they must be RELATIONS."""
    text = (Path(__file__).parent.parent / "cypher" / "fragments" / "pool_memory.cypher").read_text()
    named = re.search(r"last\(split\(coalesce\(toStringOrNull\(f\.key\), ''\), '/'\)\) IN \[([^\]]*)\]", text)
    assert named is not None
    assert tuple(re.findall(r"'(\w+)'", named.group(1))) == RELATIONS
