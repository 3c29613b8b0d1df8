"""Profile facts as keys of the turn that states them (graphmem.model.keys.fact_lines): in the text its own
vector is made from and in its full-text key; formation, reembed and the pure rule agree."""

from __future__ import annotations

import math

from graphmem import GraphMemory
from graphmem.embedding import Embedder
from graphmem.formation.drafts import MemoryDraft, embedding_text
from graphmem.model import fact_patterns
from graphmem.model.keys import fact_lines, search_text
from graphmem.store import embedding_space

MOVED = "I moved to Lisbon last month and I love the tram 28."
FIRST_HOUR = [
    "Hi! I'm Maya, I work as a nurse at the children's hospital.",
    "My dog Rex is a two-year-old beagle.",
    MOVED,
    "My sister Ana is visiting in March.",
    "I'm allergic to peanuts, so please never suggest recipes with them.",
    "I prefer short answers, bullet points if possible.",
]


def test_profile_facts_become_lines_and_the_rest_do_not() -> None:
    stated = fact_patterns.extract(MOVED + " I'm allergic to peanuts. I no longer live in Leeds.")
    assert fact_lines(stated) == ["location: Lisbon", "allergy peanuts: yes"]  # not the preference, not ended
    draft = MemoryDraft(content=MOVED, user_id="u", role="user", speaker="Maya")
    assert embedding_text(draft, stated[:1]) == f"Maya: {MOVED}\nlocation: Lisbon"
    assert embedding_text(draft) == f"Maya: {MOVED}"
    assert "location" in search_text(MOVED, None, [], [], stated).split()
    assert embedding_space.memory_text({"content": MOVED, "speaker": "Maya", "role": "user"}) == (
        f"Maya: {MOVED}\nlocation: Lisbon"
    )


def test_formation_embeds_what_reembed_rebuilds(mem: GraphMemory, user_id: str, embedder: Embedder) -> None:
    stored = mem.remember(MOVED, user_id=user_id)
    row = mem.query(
        "MATCH (m:Memory {id: $id}) RETURN m.content AS content, m.speaker AS speaker, m.role AS role, "
        "m.embedding AS embedding, m.search_text AS search_text",
        {"id": stored.id},
    )[0]
    expected = embedder.embed([embedding_space.memory_text(row)])[0]
    dot = sum(a * b for a, b in zip(row["embedding"], expected, strict=True))
    assert math.isclose(dot, 1.0, abs_tol=0.003)  # the same text (INT8: a vector moves with its batch-mates)
    assert "location" in row["search_text"]


def test_a_question_by_the_relation_finds_the_turn_that_states_it(mem: GraphMemory, user_id: str) -> None:
    mem.add_messages([{"role": "user", "content": t} for t in FIRST_HOUR], user_id=user_id, session_id="s1")
    assert mem.recall("Where do I live?", user_id=user_id, k=3, reinforce=False)[0].memory.content == MOVED
    job = mem.recall("What is my job?", user_id=user_id, k=3, reinforce=False)[0]
    assert job.memory.content == FIRST_HOUR[0]


def test_an_edited_memory_is_embedded_by_the_same_rule(
    mem: GraphMemory, user_id: str, embedder: Embedder
) -> None:
    """``memories.update`` re-embeds the new content with its speaker and profile facts, as formation and
    reembed make the text (it embedded the bare content before)."""
    [stored] = mem.add_messages(
        [{"role": "user", "name": "Maya", "content": "I work in Porto"}], user_id=user_id, session_id="s1"
    )
    mem.memories.update(stored.id, user_id=user_id, content=MOVED, expected_version=stored.version)
    row = mem.query(
        "MATCH (m:Memory {id: $id}) RETURN m.content AS content, m.speaker AS speaker, m.role AS role, "
        "m.embedding AS embedding",
        {"id": stored.id},
    )[0]
    assert embedding_space.memory_text(row) == f"Maya: {MOVED}\nlocation: Lisbon"
    expected = embedder.embed([embedding_space.memory_text(row)])[0]
    assert math.isclose(
        sum(a * b for a, b in zip(row["embedding"], expected, strict=True)), 1.0, abs_tol=0.003
    )


def test_a_fact_about_someone_else_is_theirs_and_not_a_key_of_the_turn(
    mem: GraphMemory, user_id: str
) -> None:
    """ "Emma lives in Lisbon" is Emma's location, superseded by "Emma moved to Porto"; the speaker's own
    location is untouched, and the turn's vector and full-text key do not gain "location: Lisbon" (it would
    read as the speaker's)."""
    mem.remember("I live in Leeds.", user_id=user_id)
    said = "My sister Emma lives in Lisbon."
    assert fact_lines(fact_patterns.extract(said)) == []
    stored = mem.remember(said, user_id=user_id)
    mem.remember("Emma moved to Porto last month.", user_id=user_id)
    assert mem.facts.get(user_id, "Emma/location").value == "Porto"  # type: ignore[union-attr]
    assert [f.value for f in mem.facts.history(user_id, "Emma/location")] == ["Lisbon", "Porto"]
    assert mem.facts.get(user_id, "location").value == "Leeds"  # type: ignore[union-attr]
    row = mem.query("MATCH (m:Memory {id: $id}) RETURN m.search_text AS t", {"id": stored.id})[0]
    assert "location" not in row["t"]
    ctx = mem.context("Where does Emma live?", user_id=user_id, reinforce=False)
    assert "- Emma/location: Porto" in ctx.text and "Lisbon\n" not in ctx.text.split("## Relevant")[0]
