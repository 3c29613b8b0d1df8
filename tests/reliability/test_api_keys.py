"""Per-user API keys (hashed in Neo4j, created and revoked with the CLI), 403 across users, body limits,
documentation behind a key."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

from conftest import disposable
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from graphmem import GraphMemory, Settings
from graphmem.adapters import auth
from graphmem.adapters.rest import create_app
from graphmem.cli.main import app as cli

ADMIN = "admin-test-key"


def test_user_key_reaches_only_its_user(mem: GraphMemory, user_id: str) -> None:
    other = disposable(f"test-{uuid.uuid4()}")
    key, record = auth.create_key(mem.runtime.store, "user", user_id)
    stored = mem.query("MATCH (k:ApiKey {id: $id}) RETURN k {.*} AS k", {"id": record["id"]})[0]["k"]
    assert key.split("_", 2)[2] not in json.dumps(stored, default=str)  # only the hash is stored
    with TestClient(create_app(mem, ADMIN), raise_server_exceptions=False) as client:
        mine = {"X-API-Key": key}
        made = client.post(
            f"/users/{user_id}/memories", json={"content": "my flat is on floor 3"}, headers=mine
        )
        assert made.status_code == 201, made.text
        assert (
            client.post(f"/users/{user_id}/recall", json={"query": "flat"}, headers=mine).status_code == 200
        )
        for method, path in (
            ("post", f"/users/{other}/recall"),
            ("get", f"/users/{other}/export"),
            ("get", "/stats"),
        ):
            response = client.request(method, path, json={"query": "flat"}, headers=mine)
            assert response.status_code == 403, (path, response.text)
        assert client.get(f"/users/{user_id}/export", headers={"X-API-Key": key + "x"}).status_code == 401
        assert client.get(f"/users/{other}/export", headers={"X-API-Key": ADMIN}).status_code == 200
        auth.revoke_key(mem.runtime.store, record["id"])
        assert client.get(f"/users/{user_id}/export", headers=mine).status_code == 401


def test_body_limit_and_protected_docs(mem: GraphMemory, user_id: str) -> None:
    settings = mem.runtime.settings
    limited = settings.model_copy(update={"max_body_bytes": 2_000, "protect_docs": True})
    view = GraphMemory(mem.runtime.store, mem.embedder, limited)  # shares the store; not closed here
    headers = {"X-API-Key": ADMIN, "content-type": "application/json"}
    with TestClient(create_app(view, ADMIN), raise_server_exceptions=False) as client:
        big = client.post(
            f"/users/{user_id}/memories", json={"content": "x" * 5_000}, headers={"X-API-Key": ADMIN}
        )
        assert big.status_code == 413
        declared = big.json()

        def streamed() -> Iterator[bytes]:  # chunked, no Content-Length: counted while read (it was a 400)
            yield b'{"content": "'
            yield from (b"x" * 1_000 for _ in range(5))
            yield b'"}'

        chunked = client.post(f"/users/{user_id}/memories", content=streamed(), headers=headers)
        assert "content-length" not in chunked.request.headers
        assert chunked.status_code == 413 and chunked.json() == declared
        url = f"/users/{user_id}/memories"
        small = client.post(url, content=iter([b'{"content": "ok"}']), headers=headers)
        assert small.is_success, small.text
        assert client.get("/openapi.json").status_code == 401
        assert client.get("/openapi.json", headers={"X-API-Key": ADMIN}).status_code == 200
    assert Settings().protect_docs is False


def test_cli_creates_lists_and_revokes(mem: GraphMemory, user_id: str) -> None:
    runner = CliRunner()
    made = runner.invoke(cli, ["keys", "create", "--user", user_id, "--json"])
    assert made.exit_code == 0, made.output
    created = json.loads(made.stdout)
    assert auth.verify(mem.runtime.store, created["key"]) == auth.Principal("user", user_id, created["id"])
    listed = runner.invoke(cli, ["keys", "list", "--json"])
    assert created["id"] in listed.stdout and created["key"] not in listed.stdout
    assert runner.invoke(cli, ["keys", "revoke", created["id"]]).exit_code == 0
    assert auth.verify(mem.runtime.store, created["key"]) is None
    assert runner.invoke(cli, ["keys", "create", "--user", "u", "--admin"]).exit_code == 1
