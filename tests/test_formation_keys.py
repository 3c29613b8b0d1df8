"""Richer keys at formation (issue 13 item 4): speaker, search_text, context_text and its embedding, and the
event's date range, on the real server."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

from graphmem import GraphMemory
from graphmem.model.keys import chained_context_vectors, context_vector
from graphmem.store import migrations

T0 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # a Monday


def nodes(mem: GraphMemory, user_id: str) -> dict[str, dict[str, object]]:
    rows = mem.runtime.store.run_readonly(
        "MATCH (m:Memory) WHERE m.user_id = $u RETURN m {.*} AS m", {"u": user_id}
    )
    return {str(r["m"]["content"]): r["m"] for r in rows}


def cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


def test_keys_are_written_at_formation(mem: GraphMemory, user_id: str) -> None:
    mem.add_messages(
        [
            {"role": "user", "name": "Caroline", "content": "Hi Mel, guess what happened!", "timestamp": T0},
            {
                "role": "user",
                "name": "Caroline",
                "content": "I went to an LGBTQ support group yesterday with Melanie.",
                "timestamp": T0 + timedelta(minutes=1),
            },
        ],
        user_id=user_id,
        session_id="s1",
    )
    mem.add_messages(
        [{"role": "assistant", "content": "That sounds great.", "timestamp": T0 + timedelta(minutes=2)}],
        user_id=user_id,
        session_id="s1",
    )
    by = nodes(mem, user_id)
    first = by["Hi Mel, guess what happened!"]
    group = by["I went to an LGBTQ support group yesterday with Melanie."]
    reply = by["That sounds great."]
    assert group["speaker"] == "Caroline"
    text = str(group["search_text"])
    assert text.startswith("I went to an LGBTQ support group yesterday with Melanie.")
    for word in ["Caroline", "2023-05-07", "Sunday", "May"]:
        assert word in text
    assert group["event_start"] == datetime(2023, 5, 7, tzinfo=UTC)
    assert group["event_end"] == datetime(2023, 5, 8, tzinfo=UTC)
    assert first.get("event_start") is None and first.get("event_end") is None
    assert group["context_text"] == (
        "Caroline: Hi Mel, guess what happened!\n"
        "Caroline: I went to an LGBTQ support group yesterday with Melanie."
    )
    assert first["context_text"] == "Caroline: Hi Mel, guess what happened!"
    # the first turn of a later call follows the session's last stored memory
    assert reply["context_text"] == (
        "Caroline: I went to an LGBTQ support group yesterday with Melanie.\nassistant: That sounds great."
    )
    # the context key is the normalised sum of the previous turn's own vector and the turn's (no second model
    # call); the first turn of a later call takes the stored vector of the session's last memory
    for turn, previous in ((group, first), (reply, group)):
        stored = turn["context_embedding"]
        assert isinstance(stored, list) and len(stored) == mem.runtime.embedder.dimension
        expected = context_vector(previous["embedding"], turn["embedding"])  # type: ignore[arg-type]
        assert cosine(stored, expected) > 0.9999
    assert cosine(first["context_embedding"], first["embedding"]) > 0.9999  # no previous turn: its own


def test_full_text_finds_memories_by_their_resolved_date_and_speaker(mem: GraphMemory, user_id: str) -> None:
    mem.add_messages(
        [
            {
                "role": "user",
                "name": "Caroline",
                "content": "I painted a sunrise last week.",
                "timestamp": T0,
            },
            {"role": "user", "name": "Caroline", "content": "Dinner was pasta.", "timestamp": T0},
        ],
        user_id=user_id,
        session_id="s1",
    )
    rows = mem.runtime.store.run_readonly(
        "CALL db.index.fulltext.queryNodes('memory_content', $q) YIELD node, score "
        "WHERE node.user_id = $u RETURN node.content AS content",
        {"q": '"2023-05-01" AND Caroline', "u": user_id},
    )
    assert [r["content"] for r in rows] == ["I painted a sunrise last week."]


def test_memories_without_the_new_keys_still_match_on_content(mem: GraphMemory, user_id: str) -> None:
    """A store written before the keys existed: no search_text, no context_embedding, no event range."""
    from graphmem.formation.writer import user_key

    mem.runtime.store.run_statement(
        "CREATE (m:Memory {id: randomUUID(), user_id: $u, user_key: $k, content: 'zebrafish aquarium notes', "
        "status: 'active', memory_type: 'episodic', priority: 'P2', importance: 0.5, strength: 1.0, "
        "retention: 1.0, access_count: 0, layer: 'working', source: 'user', confidence: 1.0, tags: [], "
        "metadata: '{}', occurred_at: datetime(), created_at: datetime(), recorded_at: datetime(), "
        "version: 1, embedding: $e})",
        {
            "u": user_id,
            "k": user_key(user_id),
            "e": mem.runtime.embedder.embed(["zebrafish aquarium notes"])[0],
        },
    )
    hits = mem.recall("zebrafish", user_id=user_id)
    assert [h.memory.content for h in hits] == ["zebrafish aquarium notes"]


def test_schema_is_current_and_migration_is_idempotent(mem: GraphMemory) -> None:
    assert migrations.migrate(mem.runtime) == []
    rows = mem.runtime.store.read("schema_fulltext_properties", name="memory_content")
    assert set(rows[0]["properties"]) == set(migrations.FULLTEXT_PROPERTIES)
    names = {r["name"] for r in mem.runtime.store.run_readonly("SHOW INDEXES YIELD name RETURN name", {})}
    assert {"memory_context_embedding", "memory_user_event_start"} <= names


def test_the_context_vector_sums_the_two_turns_and_falls_back_to_the_turns_own() -> None:
    own, previous = [0.6, 0.8, 0.0], [0.0, 0.6, 0.8]
    summed = context_vector(previous, own)
    assert math.isclose(math.hypot(*summed), 1.0)
    assert cosine(summed, own) == cosine(summed, previous) > 0.8  # halfway between the two turns
    for stored in (None, [1.0, 0.0], "x", [math.nan, 0.0, 0.0], [-0.6, -0.8, 0.0]):  # none, by hand, opposite
        assert context_vector(stored, own) == own
    # a batch: each turn pairs with the one before, the first with the stored vector; outside a session none
    turns = [own, previous, [0.0, 0.0, 1.0]]
    chained = chained_context_vectors(None, turns, chained=True)
    assert chained == [own, context_vector(own, previous), context_vector(previous, turns[2])]
    assert chained_context_vectors(previous, turns, chained=True)[0] == summed
    assert chained_context_vectors(previous, turns, chained=False) == turns


def test_formation_embeds_each_turn_once(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The context keys cost no model call: a conversation's turns are embedded once each, lower-case so no
    entity name is embedded besides (two texts each while the context keys were embedded)."""
    asked: list[str] = []
    embed = mem.runtime.embedder.embed

    def counting(texts: Sequence[str]) -> list[list[float]]:
        asked.extend(texts)
        return embed(texts)

    monkeypatch.setattr(mem.runtime.embedder, "embed", counting)
    turns = ["we baked bread all morning", "did it rise this time?", "it did, twice as high as last week"]
    mem.add_messages([{"role": "user", "content": t} for t in turns], user_id=user_id, session_id="s")
    assert sorted(asked) == sorted(turns)
