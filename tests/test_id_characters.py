"""Invisible characters in ids (graphmem.model.new_ids, docs/scopes.md), on the real server: a write refuses
an id holding a format character (Unicode Cf: zero-width space, byte order mark, soft hyphen, the
right-to-left override) with a ValidationError naming the field, and writes nothing; an id already stored
with one (written before, or by hand) stays readable, exportable and erasable."""

from __future__ import annotations

from typing import Any

import pytest

from graphmem import GraphMemory, ValidationError
from graphmem.adapters.langgraph import GraphMemStore
from graphmem.cli.importer import parse_lines

INVISIBLE = ["\u200b", "\ufeff", "\u202e", "\u00ad", "\u2060", "\u200d"]


def cypher(mem: GraphMemory, statement: str, **params: Any) -> list[dict[str, Any]]:
    return mem.runtime.store.run_statement(statement, params)


def stored(mem: GraphMemory, prefix: str) -> int:
    """The nodes of tenants whose key starts with ``prefix``, the audit's events aside."""
    tenant = "MATCH (n) WHERE n.user_id STARTS WITH $p AND NOT n:AuditEvent"
    rows = cypher(mem, f"{tenant} RETURN count(n) AS n", p=prefix)
    return int(rows[0]["n"])


@pytest.mark.parametrize("char", INVISIBLE)
def test_a_write_refuses_an_id_with_an_invisible_character(mem: GraphMemory, user_id: str, char: str) -> None:
    """``remember``, ``add_messages``, ``facts.set``, ``core.set`` and the LangGraph store's ``put`` stored
    such an id: ``"alice\\u200b"`` was a second tenant that prints as ``alice``, and ``"\\u202e"`` turned
    the rest of an id around in every listing and log."""
    odd = f"{user_id}{char}x"
    calls = {
        "user_id": lambda: mem.remember("I like tea", user_id=odd),
        "session_id": lambda: mem.add_messages(["I like tea"], user_id=user_id, session_id=f"s{char}1"),
        "agent_id": lambda: mem.remember("Refunds need a receipt", agent_id=f"bot{char}", scope="agent"),
        "org_id": lambda: mem.remember("Policy", user_id=user_id, org_id=f"acme{char}", scope="org"),
        "key": lambda: mem.facts.set(user_id, f"home{char}/city", "Berlin"),
        "label": lambda: mem.core.set(user_id, f"persona{char}", "calm"),
    }
    for field, call in calls.items():
        with pytest.raises(ValidationError, match=f"^{field}: contains the invisible character U\\+"):
            call()
    with pytest.raises(ValidationError, match=r"^user_id: contains the invisible"):
        mem.facts.set(odd, "home/city", "Berlin")
    with pytest.raises(ValidationError, match=r"^key: contains the invisible"):
        GraphMemStore(mem, user_id=user_id).put(("memories",), f"pet{char}", {"text": "Rex"})
    with pytest.raises(ValidationError, match=r"^namespace\[0\]: contains the invisible"):
        GraphMemStore(mem, user_id=user_id).put((f"mem{char}",), "pet", {"text": "Rex"})
    assert stored(mem, user_id) == 0


def test_plain_ids_in_any_script_are_still_written(mem: GraphMemory, user_id: str) -> None:
    """Only invisible characters are refused: letters of any script, emoji and spaces inside an id are not."""
    memory = mem.remember("I like tea", user_id=f"{user_id}-Zoë-δ-東京-🙂 x", session_id="سلام")
    assert memory.user_id == f"{user_id}-Zoë-δ-東京-🙂 x"
    # a joiner is spelling between two characters beyond ASCII: a Persian word, an emoji sequence
    spelled_id = f"{user_id}-می\u200cخواهم-👨\u200d👩\u200d👧"
    assert mem.remember("I like tea", user_id=spelled_id, session_id="s").user_id == spelled_id
    with pytest.raises(ValidationError, match=r"^user_id: contains the invisible character U\+200D"):
        mem.remember("I like tea", user_id=f"{user_id}-👨\u200d")  # at the end: nothing it joins


def test_a_stored_id_with_an_invisible_character_stays_readable_and_erasable(
    mem: GraphMemory, user_id: str
) -> None:
    """Reads, export and deletion take an id as it was stored: a tenant, session, fact key and memory id
    renamed by hand to hold U+200B and U+202E are found, exported and erased (GDPR) like any other."""
    odd = f"{user_id}\u200b\u202e"
    memories = mem.add_messages(
        ["I live in Berlin", "My dog Rex loves hiking"], user_id=user_id, session_id="s"
    )
    mem.facts.set(user_id, "home/city", "Berlin")
    renamed = (
        "SET n.user_id = $odd, n.session_id = CASE WHEN n.session_id IS NULL THEN null ELSE 's\u200b' END"
    )
    cypher(mem, f"MATCH (n) WHERE n.user_id = $u {renamed}", u=user_id, odd=odd)
    cypher(mem, "MATCH (u:User {id: $u}) SET u.id = $odd", u=user_id, odd=odd)
    cypher(mem, "MATCH (f:Fact) WHERE f.user_id = $odd SET f.key = 'home\u200b/location'", odd=odd)
    cypher(mem, "MATCH (m:Memory {id: $id}) SET m.id = 'm\u202e1'", id=memories[0].id)
    assert mem.recall("Where do I live?", user_id=odd)
    assert mem.memories.get("m\u202e1", user_id=odd) is not None
    assert mem.memories.list(odd, session_id="s\u200b")
    assert mem.facts.get(odd, "home\u200b/city") is not None
    mem.memories.feedback("m\u202e1", user_id=odd, useful=True)
    mem.forget("m\u202e1", user_id=odd)
    assert mem.jobs.run("decay", user_id=odd).status == "success"
    exported = mem.users.export(odd)
    assert len(exported["memories"]) == 2
    mem.users.delete(odd)
    assert stored(mem, odd) == 0  # the audit's tombstones aside, as for any user


def test_the_import_refuses_an_invisible_session_id_before_any_batch() -> None:
    """``graphmem import`` checks every line's session id as ``add_messages`` does, before the first batch is
    written: a session id with U+200B is refused there, naming its line, not after earlier batches."""
    lines = ['{"role": "user", "content": "hi", "session_id": "s1"}', '"hello"']
    assert len(parse_lines(lines, session_id="s2")) == 2
    refused = r"^line 2: session_id contains the invisible character U\+200B"
    with pytest.raises(ValidationError, match=refused):
        parse_lines(lines, session_id="s\u200b")
