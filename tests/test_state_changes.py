"""A later statement that says a state changed outranks the earlier one for a question about the present,
without a fact rule for it (graphmem.retrieval.changes.changed_later); past-tense and ``as_of`` questions
still reach the earlier one (real server, real embedder)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem import GraphMemory
from graphmem.model.timescope import CURRENT_FACTOR
from graphmem.retrieval.changes import CHANGE, _claimed, inherit

START = datetime(2026, 10, 1, 9, 0, tzinfo=UTC)
OTHERS = [
    "My dog Rex is a beagle.",
    "I work as a nurse.",
    "My sister Ana lives in Porto.",
    "I love hiking on weekends.",
    "I'm reading a mystery novel.",
]
CHANGES = [
    ("I drive a Toyota Corolla.", "I sold the Corolla and bought a Tesla Model 3.", "What car do I drive?"),
    ("Our wedding is on June 5th.", "We moved the wedding to August 20th.", "When is our wedding?"),
    (
        "I'm learning Spanish on Duolingo.",
        "I stopped learning Spanish and switched to Italian.",
        "Which language am I learning?",
    ),
    (
        "We're going to Tokyo and Kyoto, maybe Osaka for a day.",
        "Actually we decided to skip Osaka and spend more time in Kyoto.",
        "Are we still going to Osaka?",
    ),
    ("My manager is Tom.", "Tom left the company; my new manager is Priya.", "Who is my manager?"),
    # no change verb and no shared word: the diet fact (one at a time) outdates the earlier statement
    ("I'm vegetarian.", "I started eating fish again, so I'm pescatarian now.", "What is my diet?"),
    # round 62: an event moved to another time, a state said to hold now, a role's new holder, a choice
    (
        "Book club is on Wednesdays at 7.",
        "book club moved to thursdays at 8, the host works late",
        "When is book club?",
    ),
    (
        "Swim practice is Monday and Wednesday at 5.",
        "swim practice is now tuesdays and thursdays",
        "When is swim practice?",
    ),
    (
        "The team lead on my squad is Marco.",
        "Marco went to payments. New lead is called Aisha.",
        "Who leads my team?",
    ),
    (
        "We might call the puppy Biscuit or Maple.",
        "We decided on Maple for the puppy!",
        "What is the puppy's name?",
    ),
]


def _told(mem: GraphMemory, user_id: str, old: str, new: str) -> None:
    """Seven days of one user: the earlier statement on day 3, the change on day 12, others around them."""
    for day, text in enumerate([OTHERS[0], old, OTHERS[1], OTHERS[2], new, OTHERS[3], OTHERS[4]]):
        mem.add_messages(
            [{"role": "user", "content": text, "timestamp": START + timedelta(days=3 * day)}],
            user_id=user_id,
            session_id=f"s{day}",
        )


@pytest.mark.parametrize(("old", "new", "question"), CHANGES)
def test_the_later_statement_answers_the_present(
    mem: GraphMemory, user_id: str, old: str, new: str, question: str
) -> None:
    _told(mem, user_id, old, new)
    hits = mem.recall(question, user_id=user_id, k=7, reinforce=False)
    assert hits[0].memory.content == new
    stale = next(h for h in hits if h.memory.content == old)
    assert stale.explanation.components["currency"] < 1.0


def test_the_past_and_as_of_still_reach_the_earlier_statement(mem: GraphMemory, user_id: str) -> None:
    old, new, _ = CHANGES[0]
    _told(mem, user_id, old, new)
    past = mem.recall("What car did I drive before?", user_id=user_id, k=7, reinforce=False)
    assert next(h for h in past if h.memory.content == old).explanation.components["currency"] == 1.0
    before = mem.recall("What car do I drive?", user_id=user_id, k=3, as_of=START + timedelta(days=5))
    assert before[0].memory.content == old  # the sale had not happened yet


@pytest.mark.parametrize(
    ("text", "changes"),
    [
        ("I sold the Corolla and bought a Tesla.", True),
        ("We've just moved the wedding to August.", True),
        ("We decided to skip Osaka.", True),
        ("My new manager is Priya.", True),
        ("I don't drive any more.", True),
        ("I no longer eat meat.", True),
        ("It definitely changed my life.", False),
        ("Use coconut oil instead of butter.", False),
        ("Thanks! I won't quit on my dreams.", False),
        ("Have you made any more art lately?", False),
        ("I was so moved by the concert.", False),
        # a value set to another, by anyone (round 61)
        ("We raised the API rate limit to 500 requests per minute.", True),
        ("We migrated the database from MySQL to Postgres 16.", True),
        ("The staging URL changed to stage2.acme.io.", True),
        ("It was renamed to Billing last sprint.", True),
        ("My sister moved to Lisbon.", False),  # a person's move: the location rules read it
        ("I'm not used to the cold yet.", False),
        ("The rain changed our plans, so we went to the museum.", False),  # another clause
        ("We upgraded numpy from 1.26.4 to 2.0.", True),
        ("We bumped Python from 3.11 to 3.12.", True),
        ("They renamed parser.py to reader.py.", True),
        ("My parents raised me to be honest.", False),  # "to" and no value: an infinitive
        ("We raised money to help the animal shelter.", False),
        ("The updated schedule is attached to the email.", False),
        ("The increased workload led to burnout.", False),
        # round 62
        ("lab meeting moved to mondays at 11", True),
        ("Sue moved the shower to Sunday the 22nd", True),
        ("practice is now tues thurs 6 to 8", True),
        ("my new charge nurse is Lorraine", True),
        ("new lead is called hana", True),
        ("Miss Chen replaces him from Monday", True),
        ("switching to Dr. Okonkwo's lab", True),
        ("Going with Golden Prairie starting next month", True),
        ("we decided on Nora!", True),
        ("The meeting was moved to the big room", False),  # a place, not a time
        ("I was so moved by the concert on Sunday", False),
        ("Tom took over from Sarah", True),
        # the review's ordinary sentences (round 62): a value must follow "is now" and "going with"; whole
        # month names only ("Augusta" is no August)
        ("I'm going with my sister to Paris next week for her birthday.", False),
        ("The team is now so much happier since the reorg.", False),
        ("My daughter is now three months old", False),
        ("We went with friends to the lake", False),
        ("My brother moved to Augusta", False),
        ("She moved back home to Decatur", False),
    ],
)
def test_what_counts_as_saying_a_state_changed(text: str, changes: bool) -> None:
    assert (CHANGE.search(text) is not None) is changes


@pytest.mark.parametrize(
    ("old", "new", "question", "backed"),
    [
        ("I live in London.", "I moved to Glasgow.", "Where do I live now?", True),  # a fact marks the first
        (
            "I live in London.",
            "I'm moving to Glasgow next week.",
            "Where do I live now?",
            True,
        ),  # a plan: marked later
        (*CHANGES[0], False),  # the change rule marks it (no fact: no statement of a current fact)
    ],
)
def test_the_change_said_right_after_the_statement_it_outdates_stays_current(
    mem: GraphMemory, user_id: str, old: str, new: str, question: str, backed: bool
) -> None:
    """Two turns of one session, one after the other: the second is matched through its context key (the
    first turn with it), yet it is the current statement, not one borrowing the first's staleness."""
    turns = [
        {"role": "user", "content": t, "timestamp": START + timedelta(minutes=i)}
        for i, t in enumerate(OTHERS)
    ]
    turns += [
        {"role": "user", "content": old, "timestamp": START + timedelta(days=1)},
        {"role": "user", "content": new, "timestamp": START + timedelta(days=1, minutes=1)},
    ]
    mem.add_messages(turns, user_id=user_id, session_id="s1")
    hits = mem.recall(question, user_id=user_id, k=len(turns), reinforce=False)
    texts = [h.memory.content for h in hits]
    assert texts.index(new) < texts.index(old)
    currency = {h.memory.content: h.explanation.components["currency"] for h in hits}
    # not scored down; the statement of the current home backs the question (timescope.CURRENT_FACTOR)
    assert currency[new] == (CURRENT_FACTOR if backed else 1.0) and currency[old] < 1.0


# A project's state told by a developer (round 61): each change said weeks after the statement it changes,
# in words the question does not share ("HTTP client"), two of them sharing a word with another thing
# ("requests" the library, "requests per minute" of the rate limit).
PROJECT = [
    (
        "We use requests as our HTTP client.",
        "We switched from requests to httpx last week.",
        "Which HTTP client do we use?",
    ),
    (
        "Our database is MySQL 5.7.",
        "We migrated the database from MySQL to Postgres 16.",
        "What database do we use?",
    ),
    (
        "The staging URL is staging.acme.io.",
        "The staging URL changed to stage2.acme.io.",
        "What is the staging URL?",
    ),
    (
        "The API rate limit is 100 requests per minute.",
        "We raised the API rate limit to 500 requests per minute.",
        "What is the API rate limit?",
    ),
]


def test_a_project_state_changed_in_other_words_answers_the_present(mem: GraphMemory, user_id: str) -> None:
    said = [old for old, _, _ in PROJECT] + ["I had a long meeting about the roadmap.", "Lunch was great."]
    said += [new for _, new, _ in PROJECT]
    for day, text in enumerate(said):
        mem.add_messages(
            [{"role": "user", "content": text, "timestamp": START + timedelta(days=5 * day)}],
            user_id=user_id,
            session_id=f"s{day}",
        )
    for old, new, question in PROJECT:
        hits = mem.recall(question, user_id=user_id, k=10, reinforce=False)
        assert hits[0].memory.content == new, question
        assert next(h for h in hits if h.memory.content == old).explanation.components["currency"] < 1.0
    past = mem.recall("Which HTTP client did we use before?", user_id=user_id, k=10, reinforce=False)
    before = next(h for h in past if h.memory.content == PROJECT[0][0])
    assert before.explanation.components["currency"] == 1.0  # the past: not outdated, nothing inherited


def test_a_change_claims_the_statement_it_is_closest_to_and_takes_its_score() -> None:
    """``_claimed``: each change statement outdates the earlier one it is closest to (heaviest RELATED_TO
    weight); ``inherit``: the later takes the earlier's score where higher, through a chain to the latest."""
    changers = {"client": {"httpx", "limit"}, "old_limit": {"httpx", "limit"}, "httpx": {"limit"}}
    links = [
        ["client", "httpx", "RELATED_TO", 0.77],
        ["client", "limit", "RELATED_TO", 0.61],
        ["old_limit", "httpx", "RELATED_TO", 0.60],
        ["old_limit", "limit", "RELATED_TO", 0.84],
        ["httpx", "limit", "RELATED_TO", 0.63],
    ]
    assert _claimed(changers, links, {}, "") == {"client": {"httpx"}, "old_limit": {"limit"}}
    # a chain of changes: each claims the one before it, so every earlier statement is outdated
    chain = [["a", "b", "RELATED_TO", 0.6], ["a", "c", "RELATED_TO", 0.7], ["b", "c", "RELATED_TO", 0.8]]
    assert _claimed({"a": {"b", "c"}, "b": {"c"}}, chain, {}, "") == {"a": {"b"}, "b": {"c"}}
    own = {"a": 0.9, "b": 0.3, "c": 0.2, "d": 0.5}
    assert inherit(own, {"a": {"b"}, "b": {"c"}}) == {"a": 0.9, "b": 0.9, "c": 0.9, "d": 0.5}
    assert inherit(own, {}) == own


def test_who_someone_is_is_the_statement_that_says_it(mem: GraphMemory, user_id: str) -> None:
    """A question asking who someone is: the statement a relation of theirs was read from, not a later one
    that names them; and a change of the role they held does not make the answer stale (round 62)."""
    said = [
        "My neighbour Phyllis brought over some zucchini bread, she's a dear.",
        "charge nurse on my unit is Bernadette, she's tough but fair",
        "phyllis fell and broke her wrist, poor thing. her son Gary is staying with her",
        "Bernadette made me a cake for my last shift",
        "first few days at the new hospital done. my new charge nurse is Lorraine",
    ]
    ids = []
    for day, text in enumerate(said):
        ids.append(
            mem.add_messages(
                [{"role": "user", "content": text, "timestamp": START + timedelta(days=3 * day)}],
                user_id=user_id,
                session_id=f"s{day}",
            )[0].id
        )
    assert mem.recall("Who is Phyllis?", user_id=user_id, k=3, reinforce=False)[0].memory.id == ids[0]
    bernadette = mem.recall("Who's Bernadette?", user_id=user_id, k=3, reinforce=False)
    assert bernadette[0].memory.id == ids[1]  # where she was first named (round 63: introductions)
    # not stale for a change of the role she held: introduced, as a relation fact would say
    assert bernadette[0].explanation.components["currency"] == CURRENT_FACTOR
    assert (
        mem.recall("Who is my charge nurse now?", user_id=user_id, k=3, reinforce=False)[0].memory.id
        == ids[4]
    )


def test_a_trip_with_someone_changes_nothing_of_theirs(mem: GraphMemory, user_id: str) -> None:
    """The review of round 62: "going with" my sister is no choice made, and her home stays the answer."""
    said = [
        "My dog Rex is a beagle.",
        "My sister lives in Paris, she loves the cafes there.",
        "I work as a nurse.",
        "I'm going with my sister to Paris next week for her birthday.",
    ]
    for day, text in enumerate(said):
        turn = {"role": "user", "content": text, "timestamp": START + timedelta(days=3 * day)}
        mem.add_messages([turn], user_id=user_id, session_id=f"s{day}")
    top = mem.recall("Where does my sister live?", user_id=user_id, k=4, reinforce=False)[0]
    assert top.memory.content == said[1]
    assert top.explanation.components["currency"] >= 1.0
