"""An edge into another tenant, made by hand (the Neo4j Browser, a script), never brings that tenant's data
into a read (round 53's probe of hand-made graph shapes): reads check the tenant of every node they return,
not only of the node they start from. Each assertion failed before its statement checked it."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from conftest import spoken

from graphmem import GraphMemory

SECRET = "Quuxforeign"


def _two_tenants(mem: GraphMemory, user_id: str) -> tuple[str, str, dict[str, str]]:
    """User A (``user_id``) with a reply that cannot stand alone, and user B whose memory, entity and fact
    carry the marker word; returns A, B and the ids the hand edits need."""
    a, b = user_id, f"{user_id}-other"
    start = datetime(2026, 5, 2, 18, 0, tzinfo=UTC)
    turns = [
        ("Caroline", "Did you enjoy the pottery workshop in Portland on Saturday?"),
        ("Melanie", "Yes, it was amazing! I made a bowl."),
    ]
    made = spoken(mem, a, turns, start=start)
    theirs = mem.add_messages(
        [{"role": "user", "name": "Zed", "content": f"{SECRET} Zed moved to {SECRET} Lisbon last year"}],
        user_id=b,
        session_id="s1",
    )[0]
    mem.facts.set(b, "location", f"{SECRET} Lisbon")
    st = mem.runtime.store
    entity = st.run_statement("MATCH (e:Entity {user_id: $b}) RETURN e.id AS id LIMIT 1", {"b": b})[0]["id"]
    fact = st.run_statement("MATCH (f:Fact {user_id: $b}) RETURN f.id AS id LIMIT 1", {"b": b})[0]["id"]
    return (
        a,
        b,
        {"asked": made[0].id, "reply": made[1].id, "theirs": theirs.id, "entity": entity, "fact": fact},
    )


def test_reads_of_a_tenant_ignore_edges_into_another(mem: GraphMemory, user_id: str) -> None:
    a, b, ids = _two_tenants(mem, user_id)
    st = mem.runtime.store
    topic = f"topic-{uuid.uuid4()}"
    st.run_statement(
        """
        MATCH (x:Memory {id: $reply}), (y:Memory {id: $theirs}), (q:Memory {id: $asked})
        MATCH (e:Entity {id: $entity}), (f:Fact {id: $fact})
        CREATE (x)-[:ENTITY]->(e), (q)-[:ENTITY]->(e), (f)-[:DERIVED_FROM]->(x)
        WITH x, y, q, e, f
        OPTIONAL MATCH (q)-[turn:FOLLOWS]-(x) // the foreign entity: then the reply's only way to the question
        DELETE turn
        CREATE (v:MemoryVersion {id: randomUUID(), user_id: $b, memory_id: $reply, version: 1,
                                 content: $secret + ' version', recorded_at: datetime(),
                                 expired_at: datetime()})
        CREATE (v)-[:VERSION_OF]->(x)
        CREATE (t:Topic {id: $topic, user_id: $a, name: 'crafts'})
        CREATE (x)-[:IN_TOPIC {weight: 1.0}]->(t), (y)-[:IN_TOPIC {weight: 1.0}]->(t)
        """,
        {**ids, "a": a, "b": b, "topic": topic, "secret": SECRET},
    )
    history = mem.memories.history(ids["reply"], user_id=a)
    assert [m.user_id for m in history] == [a] and SECRET not in str(history)
    members = mem.topics.memories(topic, user_id=a)
    assert [m.id for m in members] == [ids["reply"]]
    hits = mem.recall("how was the pottery workshop?", user_id=a, k=3, reinforce=False, reconstruct=True)
    assert SECRET not in str([h.reconstruction for h in hits])
    assert ids["entity"] not in str([h.model_dump() for h in hits])  # a path named the foreign entity
    exported = mem.users.export(a)
    assert b not in str(exported) and ids["theirs"] not in str(exported) and SECRET not in str(exported)
