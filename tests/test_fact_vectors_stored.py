"""context() ranks current facts by the cosine of the query with each fact's text. A version's text vector
is stored with it once embedded (cypher/fact_embedding_set.cypher), so later contexts, in any process, score
it in the database instead of embedding every fact again (before round 56: a per-process cache of 4,096
texts, so a user with 5,000 facts paid 3.5-4 s a call and every process's first call embedded all of them)."""

from __future__ import annotations

from typing import Any

import pytest

from graphmem import GraphMemory
from graphmem.retrieval import fact_vectors

FACTS = {
    "location": "Leeds",
    "employer": "Acme Robotics",
    "pet": "a cat called Miso",
    "diet": "vegetarian",
    "sport": "bouldering",
    "instrument": "the cello",
}
QUESTION = "Which city do I live in?"


def _facts_in(ctx: Any) -> list[str]:
    return [item.text for item in ctx.items if item.kind == "fact"]


def _embedded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The fact texts embedded in process from now on; the per-process cache emptied, as in a new process."""
    monkeypatch.setattr(fact_vectors, "_fact_cache", type(fact_vectors._fact_cache)())
    texts: list[str] = []
    original = fact_vectors.fact_vectors

    def recording(embedder: Any, wanted: list[str]) -> list[list[float]]:
        texts.extend(wanted)
        return original(embedder, wanted)

    monkeypatch.setattr(fact_vectors, "fact_vectors", recording)
    return texts


def _stored(mem: GraphMemory, user_id: str) -> int:
    rows = mem.query(
        "MATCH (f:Fact) WHERE f.user_id = $u AND f.embedding IS NOT NULL RETURN count(f) AS n", {"u": user_id}
    )
    return int(rows[0]["n"])


def test_a_second_context_embeds_no_fact_and_ranks_the_same(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key, value in FACTS.items():
        mem.facts.set(user_id, key, value)
    embedded = _embedded(monkeypatch)
    first = mem.context(QUESTION, user_id=user_id, reinforce=False)
    assert len(embedded) == len(FACTS) and _stored(mem, user_id) == len(FACTS)
    assert _facts_in(first)[0] == "location: Leeds"
    embedded.clear()
    monkeypatch.setattr(fact_vectors, "_fact_cache", type(fact_vectors._fact_cache)())  # a new process
    second = mem.context(QUESTION, user_id=user_id, reinforce=False)
    assert embedded == [] and _facts_in(second) == _facts_in(first)
    mem.facts.set(user_id, "location", "York")  # a new version: its text alone is embedded
    third = mem.context(QUESTION, user_id=user_id, reinforce=False)
    assert embedded == ["location  York"] and _facts_in(third)[0] == "location: York"


def test_a_vector_that_does_not_fit_is_made_again(mem: GraphMemory, user_id: str) -> None:
    """A stored vector of another length (an embedder changed by hand, a value written by hand) is no score:
    the text is embedded again and its vector replaced; nothing fails."""
    for key, value in FACTS.items():
        mem.facts.set(user_id, key, value)
    mem.runtime.store.run_statement(
        "MATCH (f:Fact) WHERE f.user_id = $u SET f.embedding = [1.0, 2.0]", {"u": user_id}
    )
    ctx = mem.context(QUESTION, user_id=user_id, reinforce=False)
    assert _facts_in(ctx)[0] == "location: Leeds"
    sizes = mem.query("MATCH (f:Fact) WHERE f.user_id = $u RETURN size(f.embedding) AS n", {"u": user_id})
    assert {r["n"] for r in sizes} == {mem.runtime.embedder.dimension}


def test_fact_reads_leave_the_vector_out_and_reembed_remakes_it(mem: GraphMemory, user_id: str) -> None:
    mem.facts.set(user_id, "location", "Leeds")
    mem.facts.set(user_id, "employer", "Acme Robotics")
    mem.context(QUESTION, user_id=user_id, reinforce=False)
    row = mem.runtime.store.read("fact_at", **_at(mem, user_id))[0]["fact"]
    assert "embedding" not in row
    mem.runtime.store.run_statement(
        "MATCH (f:Fact) WHERE f.user_id = $u SET f.embedding = [0.5] + f.embedding[1..]", {"u": user_id}
    )
    from graphmem.store import embedding_space

    counts = embedding_space.reembed(mem.runtime.store, mem.runtime.embedder, user_id=user_id)
    assert counts["facts"] == 2
    firsts = mem.query("MATCH (f:Fact) WHERE f.user_id = $u RETURN f.embedding[0] AS x", {"u": user_id})
    assert all(abs(r["x"] - 0.5) > 1e-6 for r in firsts)


def _at(mem: GraphMemory, user_id: str) -> dict[str, Any]:
    from datetime import UTC, datetime

    now = datetime.now(UTC)
    return {"user_id": user_id, "key": "location", "agent_id": None, "as_of": now, "known_at": now}


def test_a_vector_is_stored_only_for_the_words_it_was_made_of(mem: GraphMemory, user_id: str) -> None:
    """A version anonymized between a context's read and its write of the vectors (its key and value
    redacted) keeps no vector of its old words (the review of round 56)."""
    fact = mem.facts.set(user_id, "location", "Leeds")
    vector = [0.1] * mem.runtime.embedder.dimension
    row = {"id": fact.id, "user_id": user_id, "key": "location", "embedding": vector}
    stored = mem.runtime.store.write("fact_embedding_set", rows=[{**row, "value": "[redacted]"}])
    assert stored[0]["stored"] == 0 and _stored(mem, user_id) == 0
    mem.runtime.store.write("fact_embedding_set", rows=[{**row, "value": "Leeds"}])
    assert _stored(mem, user_id) == 1
    mem.users.anonymize(user_id)
    assert _stored(mem, user_id) == 0
    mem.runtime.store.write("fact_embedding_set", rows=[{**row, "key": "[redacted]", "value": "[redacted]"}])
    assert _stored(mem, user_id) == 0
