"""anonymize-user left words on relationships, topics and outdated marks: consolidate copies a fact's key and
both values onto the CONFLICTS_WITH it draws between the two memories that stated them (every graphmem since
30 November did; the oldest also wrote a `winner`), a Topic keeps its members' entity names and keywords until
its next rebuild, and a fact key names the person it is about ('Emma/location'), kept in the outdated
memory's `outdated_keys` and on the SUPERSEDES edge. Found upgrading stores written by older commits (round
59): after anonymisation the edge still said 'location: Leeds -> Bristol' and the export carried it. The
edge and the topic are written here by raw Cypher, as those versions stored them."""

from __future__ import annotations

import json
from typing import Any

from graphmem import GraphMemory

WORDS = ("Leeds", "Bristol", "Emma", "Porto", "Lisbon")

OLD_EDGE = """
MATCH (a:Memory {id: $old}), (b:Memory {id: $new})
CREATE (a)-[:CONFLICTS_WITH {key: 'location', old_value: 'Leeds', new_value: 'Bristol', winner: b.id,
                             reason: 'fact_superseded', detected_by: 'consolidate', resolution: 'newer_wins',
                             recorded_at: datetime(), valid_from: datetime(), resolved_at: datetime(),
                             weight: 1.0}]->(b)
"""

TOPIC = """
MATCH (m:Memory) WHERE m.id IN [$old, $new]
MERGE (t:Topic {id: $u + '-topic'})
ON CREATE SET t.user_id = $u, t.name = 'Leeds, Bristol', t.entities = ['Leeds', 'Bristol', 'Emma'],
              t.keywords = ['leeds', 'bristol'], t.size = 2, t.created_at = datetime()
CREATE (m)-[:IN_TOPIC {recorded_at: datetime()}]->(t)
"""

LATER = """
MATCH (m:Memory {id: $new})
CREATE (x:Reconstruction {id: $u + '-rec', user_id: $u, memory_id: m.id, confidence: 0.4, at: datetime(),
                          text: 'Yes, it was amazing! (in reply to: Did you see Emma new flat in Lisbon?)'})
CREATE (x)-[:RECONSTRUCTS]->(m)
CREATE (s:Memory:StoreItem {id: $u + '-item', user_id: $u, store_ns: 'prefs', store_key: 'Emma in Lisbon',
                            store_value: '{"who": "Emma", "city": "Lisbon"}', content: 'Emma Lisbon',
                            status: 'active', priority: 'P0', created_at: datetime(), recorded_at: datetime(),
                            occurred_at: datetime(), version: 1})
"""
# (round 59's review: a Reconstruction's text and a LangGraph store item's value and key outlived it too)

STORED = """
MATCH (n) WHERE n.user_id = $u OR (n:User AND n.id = $u)
RETURN labels(n) AS what, properties(n) AS props
UNION ALL
MATCH (a)-[r]-() WHERE a.user_id = $u
RETURN [type(r)] AS what, properties(r) AS props
"""


def _words(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Every (label or type, property) whose value names one of WORDS (vectors aside)."""
    found = []
    for row in rows:
        for key, value in row["props"].items():
            if key in ("embedding", "context_embedding"):
                continue
            text = json.dumps(value, default=str).lower()
            if any(w.lower() in text for w in WORDS):
                found.append((row["what"][0], key))
    return sorted(set(found))


def test_anonymize_redacts_conflict_edges_topics_and_keys(mem: GraphMemory, user_id: str) -> None:
    old = mem.remember("I live in Leeds", user_id=user_id)
    new = mem.remember("I moved to Bristol", user_id=user_id)
    mem.remember("My sister Emma lives in Porto", user_id=user_id)
    mem.remember("Emma moved to Lisbon last week", user_id=user_id)
    ids = {"old": old.id, "new": new.id, "u": user_id}
    mem.runtime.store.run_statement(OLD_EDGE, ids)
    mem.runtime.store.run_statement(TOPIC, ids)
    mem.runtime.store.run_statement(LATER, ids)
    before = _words(mem.query(STORED, {"u": user_id}))
    assert {("CONFLICTS_WITH", "old_value"), ("Topic", "entities"), ("SUPERSEDES", "key")} <= set(before)
    assert {("Reconstruction", "text"), ("Memory", "store_value"), ("Memory", "store_key")} <= set(before)
    assert ("Memory", "outdated_keys") in before

    mem.users.anonymize(user_id)

    assert _words(mem.query(STORED, {"u": user_id})) == []
    exported = json.dumps(mem.users.export(user_id), default=str)
    assert not [w for w in WORDS if w in exported]
    edge = mem.query(
        "MATCH (:Memory {id: $old})-[c:CONFLICTS_WITH]->(:Memory {id: $new}) RETURN properties(c) AS p", ids
    )[0]["p"]
    assert edge["winner"] == new.id and edge["reason"] == "fact_superseded"  # structure stays
    assert mem.query("MATCH (t:Topic {id: $t}) RETURN t.size AS n", {"t": user_id + "-topic"})[0]["n"] == 2
