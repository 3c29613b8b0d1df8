"""Recall filters: a recall returns only memories of the given types, carrying the given tags and holding the
given metadata (graphmem.model.recall_filter), through Python, context, REST and the CLI."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import sys
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from conftest import disposable
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from graphmem import AsyncGraphMemory, GraphMemory, ValidationError
from graphmem.adapters.rest import create_app
from graphmem.cli.main import app
from graphmem.model.recall_filter import check_filters
from graphmem.model.validation import stored_metadata
from graphmem.store.records import dump_metadata

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
import roundtrips

KEY = "test-key"


def test_filters_admit_by_type_tags_and_metadata() -> None:
    f = check_filters(
        {"memory_type": ["episodic", "semantic"], "tags": ["work"], "metadata": {"team": "blue", "n": 2}},
        max_metadata_bytes=1000,
    )
    assert f is not None
    row = {"memory_type": "episodic", "tags": ["work", "x"], "metadata": '{"n": 2.0, "team": "blue"}'}
    assert f.admits(row)
    assert not f.admits(row | {"memory_type": "procedural"})
    assert not f.admits(row | {"tags": ["x"]})
    assert not f.admits(row | {"metadata": '{"team": "red", "n": 2}'})
    # stored values of another shape (written by hand) pass nothing they are asked about, and never raise
    odd_values = ({"tags": "work"}, {"metadata": "{not json"}, {"metadata": "[1]"}, {"metadata": None})
    for odd in (*odd_values, {"memory_type": ["episodic"]}, {"memory_type": 7}):
        assert not f.admits(row | odd)
    assert (
        check_filters(None, max_metadata_bytes=10) is None
        and check_filters({}, max_metadata_bytes=10) is None
    )
    only_type = check_filters({"memory_type": "episodic"}, max_metadata_bytes=10)
    assert (
        only_type is not None
        and only_type.admits({"memory_type": "episodic"})
        and not only_type.reads_metadata
    )
    for bad in ({"kind": "x"}, {"memory_type": "poem"}, {"tags": "work"}, {"metadata": [1]}, ["tags"]):
        with pytest.raises(ValidationError):
            check_filters(bad, max_metadata_bytes=1000)


def _store(mem: GraphMemory, user_id: str) -> dict[str, str]:
    rows = {
        "standup": ("The team standup moved to 9:30 on Mondays", "episodic", ["work"], {"team": "blue"}),
        "deploy": ("Deploys to production need two reviews", "procedural", ["work"], {"team": "red"}),
        "gym": ("I go to the gym on Monday evenings", "episodic", ["health"], {}),
        "review": ("The quarterly review with the team is on Monday", "episodic", ["work"], {"team": "red"}),
    }
    return {
        name: mem.remember(text, user_id=user_id, memory_type=kind, tags=tags, metadata=meta).id
        for name, (text, kind, tags, meta) in rows.items()
    }


def test_recall_returns_only_what_the_filters_admit(mem: GraphMemory, user_id: str) -> None:
    ids = _store(mem, user_id)
    query = "what happens on Monday at work?"
    everything = [h.memory.id for h in mem.recall(query, user_id=user_id, reinforce=False)]
    assert ids["gym"] in everything  # a Monday memory outside work, which the filters below leave out
    work = mem.recall(query, user_id=user_id, reinforce=False, filters={"tags": ["work"]})
    assert {h.memory.id for h in work} == {ids["standup"], ids["deploy"], ids["review"]}
    red = mem.recall(query, user_id=user_id, reinforce=False, filters={"metadata": {"team": "red"}})
    assert {h.memory.id for h in red} == {ids["deploy"], ids["review"]}
    both = {"memory_type": "episodic", "metadata": {"team": "red"}}
    assert [h.memory.id for h in mem.recall(query, user_id=user_id, reinforce=False, filters=both)] == [
        ids["review"]
    ]
    ctx = mem.context(query, user_id=user_id, reinforce=False, filters={"tags": ["health"]})
    recalled = {i.memory_id for i in ctx.kept if i.kind in ("memory", "possible")}  # recent history stays
    assert recalled == {ids["gym"]}
    with pytest.raises(ValidationError):
        mem.recall(query, user_id=user_id, filters={"colour": "red"})


def test_a_filtered_recall_does_not_weaken_what_it_left_out(mem: GraphMemory, user_id: str) -> None:
    """Retrieval-induced forgetting weakens the competitors a recall could have returned, not the memories
    its filter left out."""
    ids = _store(mem, user_id)
    mem.recall("what happens on Monday at work?", user_id=user_id, k=1, filters={"tags": ["health"]})
    rows = mem.query(
        "MATCH (m:Memory) WHERE m.user_id = $u RETURN m.id AS id, m.inhibition AS inhibition", {"u": user_id}
    )
    inhibited = {r["id"] for r in rows if r["inhibition"]}
    assert not inhibited & {ids["standup"], ids["deploy"], ids["review"]}
    # the same recall without the filter does weaken them (so the assertion above can fail)
    other = f"{user_id}-unfiltered"
    try:
        ids = _store(mem, other)
        mem.recall("what happens on Monday at work?", user_id=other, k=1)
        rows = mem.query(
            "MATCH (m:Memory) WHERE m.user_id = $u RETURN m.id AS id, m.inhibition AS inhibition",
            {"u": other},
        )
        assert {r["id"] for r in rows if r["inhibition"]} & {ids["standup"], ids["deploy"], ids["review"]}
    finally:
        mem.users.delete(other)


def test_rest_and_cli_take_filters(mem: GraphMemory, user_id: str) -> None:
    ids = _store(mem, user_id)
    with TestClient(
        create_app(mem, KEY), headers={"X-API-Key": KEY}, raise_server_exceptions=False
    ) as client:
        body = {
            "query": "what happens on Monday?",
            "reinforce": False,
            "filters": {"metadata": {"team": "blue"}},
        }
        hits = client.post(f"/users/{user_id}/recall", json=body).json()
        assert [h["memory"]["id"] for h in hits] == [ids["standup"]]
        bad = client.post(f"/users/{user_id}/recall", json=body | {"filters": {"memory_type": "poem"}})
        assert bad.status_code == 422
        ctx = client.post(f"/users/{user_id}/context", json=body).json()
        relevant = ctx["text"].split("## Recent history")[0]
        assert "standup" in relevant and "gym" not in relevant
    out = CliRunner().invoke(
        app, ["recall", "what happens on Monday?", "-u", user_id, "--type", "procedural", "--json"]
    )
    assert out.exit_code == 0, out.output
    assert [h["memory"]["id"] for h in json.loads(out.output)] == [ids["deploy"]]
    red = CliRunner().invoke(app, ["recall", "Monday", "-u", user_id, "--meta", "team=red", "--json"])
    assert red.exit_code == 0, red.output
    assert {h["memory"]["id"] for h in json.loads(red.output)} == {ids["deploy"], ids["review"]}
    bad = CliRunner().invoke(app, ["recall", "Monday", "-u", user_id, "--meta", "team"])
    assert bad.exit_code != 0 and "KEY=VALUE" in bad.output


# --- filter, then rank: a selective filter on a larger tenant (graphmem.retrieval.filtered) ----------------

TOPICS = [
    "budget",
    "roadmap",
    "hiring plan",
    "release date",
    "office move",
    "security audit",
    "customer churn",
    "pricing",
    "onboarding",
    "sales targets",
    "marketing campaign",
    "server costs",
    "team offsite",
    "quarterly goals",
    "bug backlog",
    "design review",
    "vendor contract",
    "support tickets",
    "training",
    "performance reviews",
]
SETTINGS = [
    "in the morning standup",
    "at the weekly team meeting",
    "in the planning meeting",
    "over lunch with colleagues",
    "in the all-hands meeting",
    "on the team call",
    "in the one-to-one with my manager",
    "at the office retro",
    "during the sprint review",
    "in the leadership sync",
]
OPENINGS = ["We discussed the", "My colleagues argued about the", "Someone presented the", "We agreed on the"]
TAGGED = [
    "I keep my laptop charger in the second desk drawer",
    "The parking garage closes at nine in the evening",
    "My badge number is on the back of my ID card",
    "The coffee machine on the fourth floor is broken",
    "I need to renew the certificate for the VPN",
    "The printer near the kitchen jams on thick paper",
    "My standing desk height is set to 110 centimetres",
    "The fire drill is scheduled for the first Friday",
    "I parked my bike at the rack by the north entrance",
    "The spare monitor cable is in the supply room",
    "I booked the quiet room for focused writing on Thursdays",
    "The air conditioning in the corner office is too cold",
]
QUERY = "what did we talk about in team meetings at work?"
FIRST_TAGGED = datetime(2026, 2, 1, 12, tzinfo=UTC)


@dataclass(frozen=True)
class Office:
    user_id: str
    tagged: list[str]  # ids, the first one said first (a day apart)
    agent_id: str
    shared: str  # an agent-scoped memory tagged "work", which a recall naming the agent may read


@pytest.fixture(scope="module")
def office(mem: GraphMemory) -> Office:
    """400 memories: 388 about meetings at work (episodic, untagged, in sessions), and 12 short office notes
    tagged "work", of type procedural, with metadata ``{"project": "apollo", "n": 2}``, whose words and
    meaning lie further from :data:`QUERY` than the meetings': the pool (100 by cosine, 100 by full text and
    their neighbours) holds none of them. Another user holds the same notes, tagged alike."""
    user_id, agent_id = disposable(f"test-{uuid.uuid4()}"), disposable(f"test-agent-{uuid.uuid4()}")
    combos = list(itertools.product(OPENINGS, TOPICS, SETTINGS))
    random.Random(5).shuffle(combos)
    start = datetime(2026, 1, 5, 9, tzinfo=UTC)
    turns = [
        {"role": "user", "content": " ".join(c), "timestamp": start + timedelta(minutes=i)}
        for i, c in enumerate(combos[:388])
    ]
    for i in range(0, len(turns), 50):
        mem.add_messages(turns[i : i + 50], user_id=user_id, session_id=f"s{i // 50}")
    notes = {"tags": ["work"], "memory_type": "procedural", "metadata": {"project": "apollo", "n": 2}}
    tagged = [
        mem.remember(text, user_id=user_id, occurred_at=FIRST_TAGGED + timedelta(days=i), **notes).id
        for i, text in enumerate(TAGGED)
    ]
    for text in TAGGED[:3]:  # another tenant's notes, tagged alike: never read
        mem.remember(text, user_id=f"{user_id}-other", **notes)
    shared = mem.remember(
        "The team's shared drive is mounted at /mnt/team", agent_id=agent_id, scope="agent", **notes
    )
    return Office(user_id, tagged, agent_id, shared.id)


def _ids(hits: list[Any]) -> list[str]:
    return [h.memory.id for h in hits]


def test_a_selective_filter_returns_k_memories_it_admits(mem: GraphMemory, office: Office) -> None:
    """12 of 400 memories match, none in the pool: each filter still returns k = 10 of them (without the
    second read: none), and a filter that matches nothing returns []."""
    tagged = set(office.tagged)

    def recall(filters: dict[str, Any], k: int = 10, **kwargs: Any) -> list[str]:
        return _ids(
            mem.recall(QUERY, user_id=office.user_id, k=k, reinforce=False, filters=filters, **kwargs)
        )

    for filters in (
        {"tags": ["work"]},
        {"memory_type": "procedural"},
        {"metadata": {"project": "apollo"}},
        {"metadata": {"n": 2.0}},  # JSON equality: stored 2
        {"tags": ["work"], "memory_type": ["procedural", "semantic"], "metadata": {"project": "apollo"}},
    ):
        found = recall(filters)
        assert len(found) == 10 and set(found) <= tagged, filters
    unfiltered = _ids(mem.recall(QUERY, user_id=office.user_id, k=10, reinforce=False))
    assert not set(unfiltered) & tagged  # the scenario holds: the query's best are the meetings
    assert recall({"tags": ["work"]}) == recall({"tags": ["work"]})  # ranked, deterministically
    assert recall({"tags": ["holiday"]}) == []
    assert recall({"metadata": {"project": "gemini"}}) == []
    assert recall({"tags": ["work"], "memory_type": "episodic"}) == []
    early = recall({"tags": ["work"]}, as_of=FIRST_TAGGED + timedelta(days=5, hours=1))  # said by then: 6
    assert sorted(early) == sorted(office.tagged[:6])
    assert len(recall({"tags": ["work"]}, k=20)) == 12  # every match, and only matches


def test_a_number_asked_of_metadata_narrows_the_filtered_read(mem: GraphMemory, user_id: str) -> None:
    """Every memory carries the metadata key ``n``; the 12 office notes, far from the query, have ``n = 7``
    and the 388 meetings other numbers: the second read narrows by the number too (its text, a prefix of
    both ``7`` and ``7.0`` as stored), else its 3k best by cosine were meetings and none passed."""
    combos = list(itertools.product(OPENINGS, TOPICS, SETTINGS))
    random.Random(7).shuffle(combos)
    start = datetime(2026, 1, 5, 9, tzinfo=UTC)
    turns = [
        {"role": "user", "content": " ".join(c), "timestamp": start + timedelta(minutes=i)}
        | {"metadata": {"n": 10 + i % 30}}
        for i, c in enumerate(combos[:388])
    ]
    for i in range(0, len(turns), 50):
        mem.add_messages(turns[i : i + 50], user_id=user_id, session_id=f"s{i // 50}")
    notes = {mem.remember(text, user_id=user_id, metadata={"n": 7}).id for text in TAGGED}
    for asked in (7, 7.0):
        hits = mem.recall(QUERY, user_id=user_id, k=10, reinforce=False, filters={"metadata": {"n": asked}})
        assert len(hits) == 10 and set(_ids(hits)) <= notes, asked


def test_the_filtered_read_reads_only_the_callers_tenants(mem: GraphMemory, office: Office) -> None:
    """The second read is scoped as the pool is (graphmem.model.scopes): another user's notes never come back;
    an agent's shared note does when the recall names the agent."""
    own = _ids(mem.recall(QUERY, user_id=office.user_id, k=20, reinforce=False, filters={"tags": ["work"]}))
    assert sorted(own) == sorted(office.tagged)
    with_agent = _ids(
        mem.recall(
            QUERY,
            user_id=office.user_id,
            agent_id=office.agent_id,
            k=20,
            reinforce=False,
            filters={"tags": ["work"]},
        )
    )
    assert sorted(with_agent) == sorted([*office.tagged, office.shared])


def test_the_async_facade_returns_k_memories_a_filter_admits(
    mem: GraphMemory, office: Office, embedder: Any
) -> None:
    async def scenario() -> list[str]:
        async with await AsyncGraphMemory.connect(embedder=embedder) as amem:
            hits = await amem.recall(
                QUERY, user_id=office.user_id, k=10, reinforce=False, filters={"tags": ["work"]}
            )
            return _ids(hits)

    found = asyncio.run(scenario())
    assert len(found) == 10 and set(found) <= set(office.tagged)


def test_an_unshort_filter_keeps_one_read(mem: GraphMemory, office: Office) -> None:
    """A filter the pool already satisfies (the meetings are episodic) reads nothing more."""
    calls = roundtrips.count(
        mem,
        lambda m: m.recall(
            QUERY, user_id=office.user_id, k=10, reinforce=False, filters={"memory_type": "episodic"}
        ),
    )
    assert calls == ["read:recall_pool", "transaction"]


@given(
    st.dictionaries(
        st.text(min_size=1, max_size=8),
        st.none()
        | st.booleans()
        | st.integers(-(10**6), 10**6)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=8)
        | st.lists(st.integers(0, 3) | st.text(max_size=3), max_size=3)
        | st.dictionaries(st.text(max_size=3), st.integers(0, 3), max_size=2),
        min_size=1,
        max_size=4,
    ),
    st.data(),
)
def test_metadata_needles_are_in_every_admitted_memorys_stored_text(
    metadata: dict[str, Any], data: Any
) -> None:
    """The filtered read narrows by substrings of the metadata JSON text; every memory the filter admits
    holds them, as graphmem stores that text (graphmem.store.records.dump_metadata), a number asked for as
    an int or a float alike."""
    try:
        stored = stored_metadata(metadata, "metadata")  # as a memory stores it (no '$' keys since round 54)
    except ValidationError:
        return
    keys = data.draw(st.lists(st.sampled_from(sorted(stored)), min_size=1, unique=True))
    asked = {k: float(v) if type(v) is int else v for k, v in stored.items() if k in keys}
    f = check_filters({"metadata": asked}, max_metadata_bytes=10_000)
    assert f is not None
    text = dump_metadata(stored)
    assert f.admits({"metadata": text})
    assert all(needle in text for needle in f.needles)
