"""GDPR on the real server: export round-trips through JSON, deletion leaves zero remnants (twice),
anonymization keeps structure, per-memory decisions and their audit records."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from graphmem import GraphMemory, MemoryNotFound, ValidationError
from graphmem.formation.drafts import session_uid_prefix
from graphmem.governance import users as governance_users


def build(mem: GraphMemory, user_id: str) -> list[str]:
    ids = [
        m.id
        for m in mem.add_messages(
            [
                "My name is Alice and I live in Paris.",
                "I adopted a dog named Rex because I felt lonely.",
                "I love hiking in the Alps with Bob.",
            ],
            user_id=user_id,
            session_id="s1",
        )
    ]
    mem.facts.set(user_id, "base", "Paris", fact_type="profile", valid_from=datetime(2026, 1, 1, tzinfo=UTC))
    mem.facts.set(user_id, "base", "Berlin", fact_type="profile")
    mem.memories.link(ids[0], ids[2], "RELATED_TO", weight=0.7)
    return ids


def remnants(mem: GraphMemory, user_id: str) -> list[dict[str, object]]:
    return mem.query(
        "MATCH (n) WHERE n.user_id = $u RETURN labels(n) AS labels UNION ALL "
        "MATCH ()-[r]->() WHERE r.user_id = $u RETURN [type(r)] AS labels",
        {"u": user_id},
    )


def test_export_round_trips_through_json(mem: GraphMemory, user_id: str) -> None:
    build(mem, user_id)
    exported = mem.users.export(user_id)
    again = json.loads(json.dumps(exported))
    assert again == exported
    assert len(again["memories"]) == 3 and "embedding" not in again["memories"][0]
    city = sorted((f for f in again["facts"] if f["key"] == "base"), key=lambda f: f["version"])
    assert [f["value"] for f in city] == ["Paris", "Berlin"]
    assert any(r["type"] == "SUPERSEDES" for r in again["relationships"])
    assert any(r["type"] == "FOLLOWS" for r in again["relationships"])
    assert again["sessions"] and again["entities"]
    assert {e["action"] for e in again["audit"]} >= {"add_messages", "set_fact", "link"}
    other = mem.users.export(f"{user_id}-nobody")
    assert other["memories"] == [] and other["relationships"] == [] and other["audit"] == []


def test_export_reads_a_user_page_by_page(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each page of nodes is its own read, with its relationships; an edge between two pages is exported
    once, and the export equals the one of a single page (before round 57 one read took every node's
    properties: 16 s for a 50,000-memory user, so the transaction time limit bounded what could be
    exported)."""
    build(mem, user_id)
    whole = mem.users.export(user_id)
    pages: list[int] = []
    read = mem.runtime.store.read

    def counted(name: str, /, **params: Any) -> Any:
        if name == "user_node_page":
            pages.append(len(params["ids"]))
        return read(name, **params)

    monkeypatch.setattr(governance_users, "EXPORT_PAGE", 2)
    monkeypatch.setattr(mem.runtime.store, "read", counted)
    paged = mem.users.export(user_id)
    assert len(pages) > 3 and max(pages) == 2
    for out in (whole, paged):
        del out["exported_at"]
    assert paged == whole
    assert any(r["type"] == "FOLLOWS" for r in paged["relationships"])  # edges between pages, once each


def test_delete_user_leaves_zero_remnants_and_is_idempotent(mem: GraphMemory, user_id: str) -> None:
    build(mem, user_id)
    mem.recall("where does Alice live?", user_id=user_id)
    neighbours = mem.query(
        "MATCH (n)--(x) WHERE n.user_id = $u AND x.user_id IS NULL AND NOT x:AuditEvent "
        "RETURN DISTINCT elementId(x) AS id",
        {"u": user_id},
    )
    report = mem.users.delete(user_id)
    assert report.nodes["Memory"] == 3 and report.nodes["Fact"] >= 2 and report.relationships > 0
    assert remnants(mem, user_id) == []
    for row in neighbours:  # nothing without a user_id hangs orphaned
        assert mem.query("MATCH (x) WHERE elementId(x) = $id RETURN count { (x)--() } AS degree", row) in (
            [],
            [{"degree": 1}],
        )
    assert mem.users.export(user_id)["memories"] == []
    assert mem.facts.history(user_id, "city") == [] and mem.facts.get(user_id, "city") is None

    events = mem.temporal.audit_log(user_id=user_id)
    assert events[-1].action == "delete_user" and events[-1].details["nodes"]["Memory"] == 3
    assert all(e.user_id is None and e.target_ids == () for e in events)  # a tombstone, no personal data

    second = mem.users.delete(user_id)
    assert second.deleted == 0 and second.relationships == 0


def test_anonymize_user_keeps_structure(mem: GraphMemory, user_id: str) -> None:
    build(mem, user_id)
    before = mem.users.export(user_id)
    touched = mem.users.anonymize(user_id)
    after = mem.users.export(user_id)
    assert touched == sum(
        len(v) for k, v in before.items() if isinstance(v, list) and k not in ("audit", "relationships")
    )
    for name in ("memories", "facts", "entities", "sessions", "relationships"):
        assert len(after[name]) == len(before[name]), name
    text = json.dumps({k: v for k, v in after.items() if k != "audit"})
    for personal in ("Alice", "Paris", "Berlin", "Rex", "Bob", "hiking"):
        assert personal not in text, personal
    assert {m["content"] for m in after["memories"]} == {"[redacted]"}
    assert mem.temporal.audit_log(user_id=user_id)[-1].action == "anonymize_user"
    assert mem.users.anonymize(user_id) == touched  # idempotent
    hits = mem.recall("where does Alice live?", user_id=user_id, reinforce=False)  # still searchable
    assert hits and {h.memory.content for h in hits} == {"[redacted]"}


def test_per_memory_decisions_are_audited(mem: GraphMemory, user_id: str) -> None:
    keep, redact, drop = build(mem, user_id)
    mem.memories.govern(keep, user_id=user_id, decision="retain")
    mem.memories.govern(redact, user_id=user_id, decision="anonymize")
    mem.memories.govern(drop, user_id=user_id, decision="delete")
    rows = mem.query(
        "MATCH (m:Memory) WHERE m.user_id = $u "
        "RETURN m.id AS id, m.content AS content, m.retained AS retained",
        {"u": user_id},
    )
    by_id = {r["id"]: r for r in rows}
    assert drop not in by_id and by_id[keep]["retained"] is True and by_id[redact]["content"] == "[redacted]"
    assert all(h.memory.id != drop for h in mem.recall("hiking", user_id=user_id, reinforce=False))
    for memory_id, action in ((keep, "govern:retain"), (redact, "govern:anonymize"), (drop, "govern:delete")):
        assert [e.action for e in mem.temporal.audit_log(target_id=memory_id)][-1] == action
    with pytest.raises(MemoryNotFound):
        mem.memories.govern(drop, user_id=user_id, decision="delete")
    with pytest.raises(MemoryNotFound):
        mem.memories.govern(keep, user_id=f"{user_id}-other", decision="delete")
    with pytest.raises(ValidationError):
        mem.memories.govern(keep, user_id=user_id, decision="shred")


def test_an_export_page_reads_only_the_users_nodes(mem: GraphMemory, user_id: str) -> None:
    """An element id read in the listing's transaction can name another tenant's node by a page's read (Neo4j
    reuses a deleted node's): the page and its relationships keep to the user's own nodes."""
    other = f"{user_id}-other"
    mem.add_messages(["Mine: the blue bicycle.", "Mine: the red kettle."], user_id=user_id, session_id="s")
    mem.add_messages(["Theirs: a private diary entry."], user_id=other, session_id="s")
    try:
        read = "MATCH (m:Memory) WHERE m.user_id = $u RETURN elementId(m) AS e, m.id AS id"
        theirs, mine = mem.query(read, {"u": other}), mem.query(read, {"u": user_id})
        ids = [r["e"] for r in theirs + mine]
        owner = {"user_id": user_id, "session_prefix": session_uid_prefix(user_id)}
        page = mem.runtime.store.read("user_node_page", ids=ids, **owner)
        assert len(page) == len(mine) and all("Theirs" not in str(n["props"]) for n in page)
        edges = mem.runtime.store.read("user_relationships", ids=ids, **owner)
        foreign = {r["id"] for r in theirs}
        assert edges and not any({r["src"], r["dst"]} & foreign for r in edges)
    finally:
        mem.users.delete(other)
