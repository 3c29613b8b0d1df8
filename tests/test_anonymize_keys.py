"""anonymize-user kept the user's idempotency keys: `graphmem import` records each message as an
IdempotencyKey named by the user id and an unsalted hash of its session and content (and add_messages /
remember keep the caller's key), and the audit events kept the key each write was called with; so whoever
held the file (or a retried call) could confirm it was stored for the user after the anonymisation. The keys
go with it, as with a deletion; a re-import then stores the file again (docs/interfaces.md)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from graphmem import GraphMemory
from graphmem.cli.importer import fingerprints, read_messages
from graphmem.store import imports
from graphmem.store.audit import user_hash
from graphmem.store.idempotency import key_id

runner = CliRunner()
MESSAGES = [
    {"role": "user", "content": "I moved to Lisbon in March", "session_id": "s1"},
    {"role": "assistant", "content": "Lisbon is lovely in spring", "session_id": "s1"},
    {"role": "user", "content": "My sister Ana lives in Porto", "session_id": "s2"},
]


def _import(file: Path, user: str) -> dict[str, object]:
    from graphmem.cli.main import app

    result = runner.invoke(app, ["import", str(file), "-u", user, "--json"])
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.stdout))


def _keys(mem: GraphMemory, user: str, names: list[str]) -> dict[str, int]:
    row = mem.query(
        "RETURN COUNT { MATCH (k:IdempotencyKey) WHERE k.user_id = $u } AS by_user, "
        "COUNT { MATCH (k:IdempotencyKey) WHERE k.id IN $ids } AS by_id, "
        "COUNT { MATCH (k:IdempotencyKey) WHERE k.key IN $names AND k.user_id = $u } AS by_key, "
        "COUNT { MATCH (a:AuditEvent) WHERE a.user_hash = $h AND a.idempotency_key IS NOT NULL } AS audited",
        {"u": user, "ids": [key_id(user, n) for n in names], "names": names, "h": user_hash(user)},
    )
    return dict(row[0])


def _memories(mem: GraphMemory, user: str) -> int:
    return int(mem.query("MATCH (m:Memory) WHERE m.user_id = $u RETURN count(m) AS n", {"u": user})[0]["n"])


def test_anonymize_removes_the_users_import_and_idempotency_keys(
    mem: GraphMemory, user_id: str, tmp_path: Path
) -> None:
    file = tmp_path / "chat.jsonl"
    file.write_text("\n".join(json.dumps(m) for m in MESSAGES) + "\n")
    marks = fingerprints(read_messages(file.read_bytes(), session_id=None, source=str(file))[1])
    assert _import(file, user_id)["new"] == 3
    rex = ["I adopted a dog named Rex"]
    retried = mem.add_messages(rex, user_id=user_id, session_id="s3", idempotency_key="k1")
    mem.remember("My dentist is Dr Silva", user_id=user_id, idempotency_key="k2")
    names = [*marks, "k1", "k2"]
    before = _keys(mem, user_id, names)
    assert before["by_id"] == 5 and before["by_key"] == 5 and before["audited"] >= 3, before
    assert imports.imported(mem.runtime, user_id, marks) == set(marks)

    touched = mem.users.anonymize(user_id)
    assert _keys(mem, user_id, names) == {"by_user": 0, "by_id": 0, "by_key": 0, "audited": 0}
    assert imports.imported(mem.runtime, user_id, marks) == set()
    assert mem.users.anonymize(user_id) == touched  # idempotent: the keys were not counted as touched
    event = next(e for e in mem.temporal.audit_log(user_id=user_id) if e.action == "anonymize_user")
    assert event.details["idempotency_keys"] == before["by_user"] and event.details["audit_keys"] >= 3
    assert _memories(mem, user_id) == 5 and mem.memories.get(retried[0].id, user_id=user_id)

    # as documented: a re-import stores the file again (nothing marks it imported); an old key writes anew
    again = _import(file, user_id)
    assert again["skipped"] == 0 and again["new"] == 3, again
    assert _import(file, user_id)["skipped"] == 3
    assert _memories(mem, user_id) == 8
    fresh = mem.add_messages(rex, user_id=user_id, session_id="s3", idempotency_key="k1")
    assert fresh[0].id != retried[0].id and fresh[0].content == "I adopted a dog named Rex"


def test_anonymize_leaves_other_users_keys(mem: GraphMemory, user_id: str) -> None:
    other = f"{user_id}-other"
    mem.remember("I like tea", user_id=user_id, idempotency_key="same")
    kept = mem.remember("I like tea", user_id=other, idempotency_key="same")
    mem.users.anonymize(user_id)
    assert _keys(mem, other, ["same"])["by_id"] == 1
    assert mem.remember("I like tea", user_id=other, idempotency_key="same").id == kept.id  # still replayed
    mem.users.delete(other)
