"""Memory formation on the real server, on a conversation written for it (issue #3, "Done when")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from store_calls import record_transactions

from graphmem import GraphMemory, MemoryNotFound, Settings, TenantMismatch, ValidationError
from graphmem.config import MAX_BATCH
from graphmem.model import fact_patterns, heuristics
from graphmem.temporal import facts as factbase_module

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)


def at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


DAY_ONE = [
    {
        "role": "user",
        "name": "Alice",
        "content": "Hi! My name is Alice and I live in Leeds.",
        "timestamp": at(0),
    },
    {"role": "assistant", "content": "Nice to meet you, Alice. What's new?", "timestamp": at(1)},
    {
        "role": "user",
        "name": "Alice",
        "content": "I adopted a dog named Rex last week.",
        "timestamp": at(2),
        "metadata": {"dia_id": "D1:3"},
    },
    {
        "role": "user",
        "name": "Alice",
        "content": "My dog Rex loves long walks on the beach.",
        "timestamp": at(3),
    },
    {
        "role": "user",
        "name": "Alice",
        "content": "Yesterday rex chewed through my favourite shoes.",
        "timestamp": at(4),
    },
    {
        "role": "user",
        "name": "Alice",
        "content": "The storm knocked the power out all night.",
        "timestamp": at(5),
    },
    {
        "role": "user",
        "name": "Alice",
        "content": "As a result, the storm left us without power for breakfast.",
        "timestamp": at(6),
    },
    {"role": "user", "name": "Alice", "content": "We are flying to New York next month.", "timestamp": at(7)},
]
DAY_TWO = [
    {
        "role": "user",
        "name": "Alice",
        "content": "Actually I moved to York because of work.",
        "timestamp": T0 + timedelta(days=1),
    },
    {
        "role": "user",
        "name": "Alice",
        "content": "I adopted a dog named Rex last week!",
        "timestamp": T0 + timedelta(days=1, minutes=1),
    },
    {
        "role": "user",
        "name": "Alice",
        "content": "The hotel in New York City is booked.",
        "timestamp": T0 + timedelta(days=1, minutes=2),
    },
]


def rows(mem: GraphMemory, cypher: str, user_id: str) -> list[dict[str, Any]]:
    return mem.query(cypher, {"u": user_id})


@pytest.fixture()
def conversation(mem: GraphMemory, user_id: str) -> dict[str, Any]:
    day_one = mem.add_messages(DAY_ONE, user_id=user_id, session_id="day-1")
    day_two = mem.add_messages(DAY_TWO, user_id=user_id, session_id="day-2")
    return {"day_one": day_one, "day_two": day_two}


def test_memories_keep_speaker_role_metadata_and_scores(
    mem: GraphMemory, user_id: str, conversation: Any
) -> None:
    first, second, third = conversation["day_one"][:3]
    assert (first.speaker, first.role, second.speaker, second.role) == (
        "Alice",
        "user",
        "assistant",
        "assistant",
    )
    assert third.metadata == {"dia_id": "D1:3"} and third.occurred_at == at(2)
    stored = rows(mem, "MATCH (m:Memory {user_id: $u}) RETURN m {.*, embedding: null} AS m", user_id)
    assert len(stored) == len(DAY_ONE) + len(DAY_TWO) - 1  # one duplicate
    for r in stored:
        m = r["m"]
        assert m["user_key"].startswith("u") and m["retention"] == 1.0 and 0 <= m["importance"] <= 1
        assert m["priority"] in {"P1", "P2"} and m["status"] == "active" and m["version"] == 1
    assert first.memory_type.value == "semantic"  # states profile facts


def test_follows_chain_within_and_across_sessions(mem: GraphMemory, user_id: str, conversation: Any) -> None:
    one, two = conversation["day_one"], conversation["day_two"]
    edges = rows(
        mem,
        "MATCH (a:Memory {user_id: $u})-[f:FOLLOWS]->(b) RETURN a.id AS a, b.id AS b, f.kind AS kind,"
        " f.valid_from AS vf, f.recorded_at AS ra, f.weight AS w",
        user_id,
    )
    chain = {(e["a"], e["b"]): e["kind"] for e in edges}
    expected = {(one[i].id, one[i + 1].id): "session" for i in range(len(one) - 1)}
    expected[(one[-1].id, two[0].id)] = "cross_session"
    expected[(two[0].id, two[2].id)] = "session"  # the duplicate in between made no node
    assert chain == expected
    assert all(e["vf"] is not None and e["ra"] is not None for e in edges)
    assert {e["kind"]: e["w"] for e in edges} == {"session": 1.0, "cross_session": 0.5}


def test_related_to_edges_carry_cosine_weights(mem: GraphMemory, user_id: str, conversation: Any) -> None:
    edges = rows(
        mem,
        "MATCH (a:Memory {user_id: $u})-[r:RELATED_TO]->(b:Memory) RETURN a.content AS a, b.content AS b,"
        " r.weight AS w, r.valid_to AS vt, r.expired_at AS ea",
        user_id,
    )
    assert edges, "no RELATED_TO edges"
    assert all(mem.runtime.settings.related_threshold <= e["w"] <= 1.0 and e["vt"] is None for e in edges)
    pairs = {(e["a"], e["b"]) for e in edges}
    assert ("My dog Rex loves long walks on the beach.", "I adopted a dog named Rex last week.") in pairs


def test_edges_hold_from_when_their_memory_happened(
    mem: GraphMemory, user_id: str, conversation: Any
) -> None:
    """Formation sends no per-edge times: FOLLOWS holds from its later memory's occurred_at, RELATED_TO from
    its new memory's, ENTITY from its memory's; a new memory is recorded and created now and due for decay."""
    edges = rows(
        mem,
        "MATCH (a:Memory {user_id: $u})-[r:FOLLOWS|RELATED_TO|ENTITY]->(b) "
        "RETURN type(r) AS t, r.valid_from AS vf, a.occurred_at AS a_at, b.occurred_at AS b_at",
        user_id,
    )
    assert {e["t"] for e in edges} == {"FOLLOWS", "RELATED_TO", "ENTITY"}
    for e in edges:
        assert e["vf"] == (e["b_at"] if e["t"] == "FOLLOWS" else e["a_at"]), e
    assert min(e["vf"] for e in edges) == T0  # the messages' own times, not the time of writing
    new = rows(
        mem,
        "MATCH (m:Memory {user_id: $u}) RETURN m.created_at = m.recorded_at AS same, "
        "m.decay_due = datetime({epochSeconds: 0}) AS due, m.occurred_at < m.recorded_at AS past",
        user_id,
    )
    assert new and all(r["same"] and r["due"] and r["past"] for r in new)


def test_entity_variants_merge_into_one_entity(mem: GraphMemory, user_id: str, conversation: Any) -> None:
    ents = rows(
        mem,
        "MATCH (m:Memory {user_id: $u})-[r:ENTITY]->(e:Entity) RETURN e.key AS key, e.aliases AS aliases,"
        " e.type AS type, collect(m.content) AS mentions, min(r.weight) AS w",
        user_id,
    )
    by_key = {e["key"]: e for e in ents}
    rex = by_key["rex"]
    assert len(rex["mentions"]) == 3  # "a dog named Rex", "My dog Rex", "rex chewed"
    assert set(rex["aliases"]) == {"Rex", "rex"} and rex["type"] == "animal"
    # "New York City" resolves to "New York" by embedding similarity (a variant of a known entity)
    ny = by_key["new york"]
    assert "New York City" in ny["aliases"] and len(ny["mentions"]) == 2
    assert "new york city" not in by_key
    assert {"leeds", "alice"} <= set(by_key)


def test_causal_cue_creates_a_causes_edge(mem: GraphMemory, user_id: str, conversation: Any) -> None:
    edges = rows(
        mem,
        "MATCH (a:Memory {user_id: $u})-[c:CAUSES]->(b:Memory) RETURN a.content AS cause,"
        " b.content AS effect, c.cue AS cue, c.weight AS w, c.recorded_at AS ra",
        user_id,
    )
    found = {(e["cause"], e["effect"], e["cue"]) for e in edges}
    assert (
        "The storm knocked the power out all night.",
        "As a result, the storm left us without power for breakfast.",
        "as a result",
    ) in found
    assert all(0 < e["w"] <= 1 and e["ra"] is not None for e in edges)


def test_extracted_fact_is_superseded_with_closed_intervals(
    mem: GraphMemory, user_id: str, conversation: Any
) -> None:
    current = mem.facts.get(user_id, "Alice/location")
    assert current is not None and current.value == "York" and current.version == 2
    assert current.valid_from == T0 + timedelta(days=1) and current.valid_to is None
    history = rows(
        mem,
        "MATCH (new:Fact {user_id: $u})-[s:SUPERSEDES]->(old:Fact) RETURN old {.*} AS old, new.id AS new,"
        " s.valid_from AS vf",
        user_id,
    )
    assert len(history) == 1
    old = history[0]["old"]
    assert old["value"] == "Leeds" and old["status"] == "superseded"
    assert old["valid_from"] == at(0) and old["valid_to"] == T0 + timedelta(days=1)
    assert old["expired_at"] is not None and old["recorded_at"] <= old["expired_at"]
    audit = rows(
        mem, "MATCH (c:Conflict {user_id: $u, key: 'Alice/location'}) RETURN c.resolution AS r", user_id
    )
    assert sorted(a["r"] for a in audit) == ["new", "supersede"]
    derived = rows(
        mem, "MATCH (f:Fact {user_id: $u})-[:DERIVED_FROM]->(m:Memory) RETURN count(*) AS n", user_id
    )
    assert derived[0]["n"] >= 3


def test_duplicate_reinforces_instead_of_duplicating(
    mem: GraphMemory, user_id: str, conversation: Any
) -> None:
    original, repeat = conversation["day_one"][2], conversation["day_two"][1]
    assert repeat.id == original.id
    assert repeat.access_count == 1 and repeat.last_accessed_at is not None
    # testing effect: stating it again strengthens half as much as a recall would (graphmem.model.heuristics)
    assert (
        1.0
        < repeat.strength
        <= heuristics.reinforce(1.0, 0, 365.0, "restore")
        < heuristics.reinforce(1.0, 0, 365.0, "recall")
    )
    copies = rows(
        mem, "MATCH (m:Memory {user_id: $u}) WHERE m.content STARTS WITH 'I adopted' RETURN m.id", user_id
    )
    assert len(copies) == 1
    merges = rows(
        mem,
        "MATCH (r:Merge {user_id: $u})-[e:MERGED_INTO]->(m:Memory) RETURN r.content AS c, e.weight AS w",
        user_id,
    )
    assert merges == [{"c": "I adopted a dog named Rex last week!", "w": pytest.approx(merges[0]["w"])}]
    assert merges[0]["w"] >= 0.95


def test_set_fact_versions_conflicts_and_merges(mem: GraphMemory, user_id: str) -> None:
    first = mem.facts.set(user_id, "diet", "vegetarian", fact_type="preference", valid_from=T0)
    assert mem.facts.set(user_id, "diet", "Vegetarian.", fact_type="preference").id == first.id  # merge
    guess = mem.facts.set(user_id, "diet", "vegan", fact_type="preference", source="inference")
    assert guess.status == "conflicted" and guess.version == 2  # numbered in the order recorded
    assert mem.facts.get(user_id, "diet").id == first.id  # type: ignore[union-attr]
    second = mem.facts.set(
        user_id, "diet", "pescatarian", fact_type="preference", valid_from=T0 + timedelta(days=9)
    )
    assert mem.facts.get(user_id, "diet") == second and second.version == 3  # never the conflict's number
    kinds = rows(mem, "MATCH (:Fact {user_id: $u})-[r]->(:Fact) RETURN type(r) AS t ORDER BY t", user_id)
    assert [k["t"] for k in kinds] == ["CONFLICTS_WITH", "SUPERSEDES"]
    audit = rows(mem, "MATCH (c:Conflict {user_id: $u}) RETURN c.resolution AS r ORDER BY r", user_id)
    assert [a["r"] for a in audit] == ["keep_both", "merge", "new", "supersede"]
    assert mem.facts.get(user_id, "unknown") is None


def test_remember_with_session_appends_like_add_messages(mem: GraphMemory, user_id: str) -> None:
    a = mem.add_messages(
        [{"role": "user", "content": "We painted the fence blue."}], user_id=user_id, session_id="s"
    )
    b = mem.remember(
        "The neighbours loved the colour.",
        user_id=user_id,
        session_id="s",
        priority="P0",
        importance=0.9,
        tags=["important"],
        agent_id="helper",
        source="agent",
    )
    edge = rows(
        mem,
        "MATCH (x:Memory {user_id: $u})-[f:FOLLOWS]->(y) RETURN x.id AS x, y.id AS y, f.kind AS k",
        user_id,
    )
    assert edge == [{"x": a[0].id, "y": b.id, "k": "session"}]
    assert (
        b.priority.value == "P0"
        and b.agent_id == "helper"
        and b.source.value == "agent"
        and b.importance > 0.5
    )


def test_link_allow_list_and_tenancy(mem: GraphMemory, user_id: str) -> None:
    a = mem.remember("Cause of it all", user_id=user_id)
    b = mem.remember("What followed from it", user_id=user_id)
    mem.memories.link(a.id, b.id, "CAUSES", weight=0.8, valid_from=T0)
    edge = rows(
        mem, "MATCH (:Memory {user_id: $u})-[c:CAUSES]->() RETURN c.weight AS w, c.valid_from AS v", user_id
    )
    assert edge == [{"w": 0.8, "v": T0}]
    with pytest.raises(ValidationError) as info:
        mem.memories.link(a.id, b.id, "KNOWS]->(x) DETACH DELETE x //")
    assert info.value.field == "rel_type"
    other = mem.remember("someone else's", user_id=f"{user_id}-other")
    with pytest.raises(TenantMismatch):
        mem.memories.link(a.id, other.id, "RELATED_TO")
    with pytest.raises(MemoryNotFound):
        mem.memories.link(a.id, "no-such-memory", "RELATED_TO")


def test_batch_over_maximum_is_refused(mem: GraphMemory, user_id: str) -> None:
    with pytest.raises(ValidationError) as info:
        mem.add_messages(["x"] * (MAX_BATCH + 1), user_id=user_id, session_id="s")
    assert info.value.field == "messages"


def test_failure_mid_batch_leaves_nothing(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("fact write failed")

    monkeypatch.setattr(factbase_module, "apply", explode)
    with pytest.raises(RuntimeError):
        mem.add_messages(DAY_ONE, user_id=user_id, session_id="s")
    left = rows(mem, "MATCH (n) WHERE n.user_id = $u RETURN count(n) AS n", user_id)
    assert left == [{"n": 0}]


def test_pii_is_redacted_when_enabled(mem: GraphMemory, user_id: str) -> None:
    settings = Settings(redact_pii=True)
    private = GraphMemory(mem.runtime.store, mem.embedder, settings)  # shares mem's driver: not closed here
    m = private.remember("Email me at alice@example.com or call 07700 900123", user_id=user_id)
    assert m.content == "Email me at [EMAIL] or call [PHONE]"
    assert m.metadata["pii_redacted"] == ["email", "phone"]


def test_a_new_event_close_to_an_old_one_is_not_merged_into_it(mem: GraphMemory, user_id: str) -> None:
    """bge-small puts these two turns 0.96 apart (above the duplicate threshold); the second is another win
    (in LoCoMo conv-42 such a pair made one memory of two tournaments)."""
    met = "It was so cool, plus I met some new people there."
    first = f"I just won another regional chess tournament last week! {met}"
    second = f"I won another chess tournament on Friday! {met} This one was online!"
    t0 = datetime(2026, 4, 1, 10, tzinfo=UTC)
    a = mem.add_messages(
        [{"role": "user", "content": first, "timestamp": t0}], user_id=user_id, session_id="d14"
    )
    b = mem.add_messages(
        [{"role": "user", "content": second, "timestamp": t0 + timedelta(days=20)}],
        user_id=user_id,
        session_id="d17",
    )
    assert a[0].id != b[0].id and b[0].content == second
    again = mem.add_messages(
        [{"role": "user", "content": first, "timestamp": t0 + timedelta(days=21)}],
        user_id=user_id,
        session_id="d18",
    )
    assert again[0].id == a[0].id  # the same words again are still a repeat


KEY = "Alice/location"  # a named speaker's fact is keyed by the speaker


def test_a_batch_writes_its_memories_edges_and_entities_in_one_statement(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round trips of the write transaction (issue 14): the session's tail, the memories and every edge and
    entity are one statement (formation_write); a fact adds its own; the audit step closes it."""
    store = mem.runtime.store
    mem.add_messages(DAY_ONE[:2], user_id=user_id, session_id="day-0")  # the next session has a tail
    transactions = record_transactions(store, "unit_of_work", monkeypatch)
    plain = [m for m in DAY_ONE[2:] if not fact_patterns.extract(m["content"])]  # no fact stated
    mem.add_messages(plain, user_id=user_id, session_id="day-1")

    def statements() -> list[list[str]]:
        return [[name for name, _ in t] for t in transactions]

    assert statements() == [["formation_write", "audit_append"]]
    moves = ["I live in Bristol now.", "Actually I moved to York last week."]  # day-0 said Leeds
    for said in moves:
        mem.add_messages(
            [{"role": "user", "name": "Alice", "content": said}], user_id=user_id, session_id="day-1"
        )
    assert statements()[1:] == [["formation_write", "fact_current", "fact_write", "audit_append"]] * 2
    history = [(f.value, f.status) for f in mem.facts.history(user_id, KEY)]
    assert sorted(history) == [("Bristol", "superseded"), ("Leeds", "superseded"), ("York", "current")]
    outdated = rows(
        mem,
        "MATCH (old:Memory {user_id: $u})<-[s:SUPERSEDES]-(new:Memory) "
        "RETURN old.content AS old, new.content AS new, old.outdated_keys AS keys, s.key AS key",
        user_id,
    )
    assert sorted((r["old"], r["new"]) for r in outdated) == [(DAY_ONE[0]["content"], moves[0]), tuple(moves)]
    assert all(r["keys"] == [KEY] and r["key"] == KEY for r in outdated)
    day_one = (
        "MATCH (m:Memory {user_id: $u, session_id: 'day-1'})-[r]-() RETURN collect(DISTINCT type(r)) AS kinds"
    )
    views = rows(mem, day_one, user_id)[0]["kinds"]
    assert {"FOLLOWS", "RELATED_TO", "ENTITY", "IN_SESSION", "CAUSES"} <= set(views)
    cross = rows(
        mem,
        "MATCH (:Memory {user_id: $u, session_id: 'day-0'})-[f:FOLLOWS {kind: 'cross_session'}]->"
        "(:Memory {session_id: 'day-1'}) RETURN count(f) AS n",
        user_id,
    )
    assert cross == [{"n": 1}]
