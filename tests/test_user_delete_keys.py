"""Deleting a user revokes the user's API keys and keeps no personal id on them (round 57's probe: a key
outlived its user's GDPR deletion, kept the user id as its subject, and went on writing for the user)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from graphmem import GraphMemory
from graphmem.adapters import auth
from graphmem.adapters.rest import create_app
from graphmem.store.audit import user_hash

ADMIN = "admin-test-key"


def test_deleting_a_user_revokes_its_keys(mem: GraphMemory, user_id: str) -> None:
    keys_made: list[str] = []  # keys are not a tenant's nodes: the session's sweep would leave them
    key, record = auth.create_key(mem.runtime.store, "user", user_id, label="laptop")
    _, spare = auth.create_key(mem.runtime.store, "user", user_id)
    auth.revoke_key(mem.runtime.store, spare["id"])  # revoked already: its id goes too
    other, kept = auth.create_key(mem.runtime.store, "user", f"{user_id}-other")
    keys_made += [record["id"], spare["id"], kept["id"]]
    try:
        with TestClient(create_app(mem, ADMIN), raise_server_exceptions=False) as client:
            mine = {"X-API-Key": key}
            made = client.post(f"/users/{user_id}/memories", json={"content": "before"}, headers=mine)
            assert made.status_code == 201, made.text
            report = mem.users.delete(user_id)
            assert report.api_keys_revoked == 2 and report.nodes["Memory"] == 1
            after = client.post(f"/users/{user_id}/memories", json={"content": "after"}, headers=mine)
            assert after.status_code == 401, after.text
            assert mem.query("MATCH (m:Memory) WHERE m.user_id = $u RETURN m", {"u": user_id}) == []
            theirs = {"X-API-Key": other}
            assert (
                client.post(f"/users/{user_id}-other/recall", json={"query": "x"}, headers=theirs).status_code
                == 200
            )
        rows = mem.query(
            "MATCH (k:ApiKey) WHERE k.id IN $ids RETURN k.id AS id, k.subject AS subject, "
            "k.subject_hash AS hash, k.revoked_at IS NOT NULL AS revoked",
            {"ids": [record["id"], spare["id"]]},
        )
        assert {(r["subject"], r["hash"], r["revoked"]) for r in rows} == {(None, user_hash(user_id), True)}
        assert len(rows) == 2
        # a user of whom only a key was left is still a user to delete: the key is revoked
        _, only = auth.create_key(mem.runtime.store, "user", user_id)
        keys_made.append(only["id"])
        assert mem.users.delete(user_id).api_keys_revoked == 1
    finally:
        mem.runtime.store.run_statement("MATCH (k:ApiKey) WHERE k.id IN $ids DELETE k", {"ids": keys_made})
