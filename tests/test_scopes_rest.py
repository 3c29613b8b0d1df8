"""Scopes through REST (docs/scopes.md): agent and organisation keys reach exactly their scope's routes;
a user key reaches the shared scopes it was granted and no other."""

from __future__ import annotations

import json
import uuid

from conftest import disposable
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from graphmem import GraphMemory
from graphmem.adapters import auth
from graphmem.adapters.rest import create_app
from graphmem.cli.main import app as cli

ADMIN = "admin-test-key"


def fresh(kind: str) -> str:
    return disposable(f"test-scope-rest-{kind}-{uuid.uuid4()}")


def test_agent_and_org_keys_reach_exactly_their_scope(mem: GraphMemory) -> None:
    agent, other_agent, org, user = fresh("agent"), fresh("agent"), fresh("org"), fresh("user")
    agent_key, _ = auth.create_key(mem.runtime.store, "agent", agent)
    org_key, _ = auth.create_key(mem.runtime.store, "org", org)
    with TestClient(create_app(mem, ADMIN), raise_server_exceptions=False) as client:
        as_agent, as_org = {"X-API-Key": agent_key}, {"X-API-Key": org_key}
        made = client.post(
            f"/agents/{agent}/memories", json={"content": "Refunds need the order number"}, headers=as_agent
        )
        assert made.status_code == 201, made.text
        assert made.json()["scope"] == "agent" and made.json()["user_id"] == f"agent::{agent}"
        found = client.post(f"/agents/{agent}/recall", json={"query": "refunds order"}, headers=as_agent)
        assert [h["memory"]["id"] for h in found.json()] == [made.json()["id"]], found.text
        fact = client.put(f"/orgs/{org}/facts", json={"key": "hq", "value": "Oslo"}, headers=as_org)
        assert fact.status_code == 200 and fact.json()["scope"] == "org", fact.text
        assert (
            client.get(f"/orgs/{org}/facts", params={"key": "hq"}, headers=as_org).json()["value"] == "Oslo"
        )
        refused = [
            ("post", f"/agents/{other_agent}/recall", as_agent),
            ("post", f"/agents/{other_agent}/memories", as_agent),
            ("post", f"/orgs/{org}/recall", as_agent),
            ("post", f"/users/{user}/recall", as_agent),
            ("post", f"/agents/{agent}/recall", as_org),
            ("post", f"/users/{user}/recall", as_org),
            ("get", "/stats", as_org),
        ]
        for method, path, headers in refused:
            body = {"query": "refunds", "content": "x"}
            response = client.request(method, path, json=body, headers=headers)
            assert response.status_code == 403, (path, response.text)
        assert client.post(f"/agents/{other_agent}/recall", json={"query": "x"}, headers={"X-API-Key": ADMIN})
        assert client.post(f"/agents/{agent}/recall", json={"query": "x"}).status_code == 401


def test_user_key_reaches_only_granted_shared_scopes(mem: GraphMemory) -> None:
    agent, other_agent, org, user = fresh("agent"), fresh("agent"), fresh("org"), fresh("user")
    mem.remember("Procedure: reboot the modem before escalating", agent_id=agent, scope="agent")
    mem.remember("Procedure: never reboot modems remotely", agent_id=other_agent, scope="agent")
    mem.remember("The org modem supplier is Acme", org_id=org, scope="org")
    granted, _ = auth.create_key(mem.runtime.store, "user", user, agent_id=agent)
    plain, _ = auth.create_key(mem.runtime.store, "user", user)
    with TestClient(create_app(mem, ADMIN), raise_server_exceptions=False) as client:
        url = f"/users/{user}/recall"
        ok = client.post(
            url, json={"query": "modem procedure", "agent_id": agent}, headers={"X-API-Key": granted}
        )
        assert ok.status_code == 200, ok.text
        assert {h["memory"]["scope"] for h in ok.json()} == {"agent"}
        assert all("never reboot" not in h["memory"]["content"] for h in ok.json())
        for body, key in (
            ({"query": "modem", "agent_id": other_agent}, granted),
            ({"query": "modem", "org_id": org}, granted),
            ({"query": "modem", "agent_id": agent}, plain),
        ):
            assert client.post(url, json=body, headers={"X-API-Key": key}).status_code == 403, body
        write = {"content": "Procedure: ask for the serial", "scope": "agent", "agent_id": other_agent}
        memories = f"/users/{user}/memories"
        assert client.post(memories, json=write, headers={"X-API-Key": granted}).status_code == 403
        write["agent_id"] = agent
        assert client.post(memories, json=write, headers={"X-API-Key": granted}).status_code == 201
        fact = {"key": "tone", "value": "formal", "scope": "org", "org_id": org}
        assert (
            client.put(f"/users/{user}/facts", json=fact, headers={"X-API-Key": granted}).status_code == 403
        )
        missing = client.post(memories, json={"content": "x", "scope": "org"}, headers={"X-API-Key": granted})
        assert missing.status_code == 422 and "org_id" in missing.text


def test_cli_creates_a_user_key_with_grants(mem: GraphMemory) -> None:
    user, agent, org = fresh("user"), fresh("agent"), fresh("org")
    made = CliRunner().invoke(
        cli, ["keys", "create", "--user", user, "--agent", agent, "--org", org, "--json"]
    )
    assert made.exit_code == 0, made.output
    created = json.loads(made.stdout)
    principal = auth.verify(mem.runtime.store, created["key"])
    assert principal == auth.Principal("user", user, created["id"], agent_id=agent, org_id=org)
    assert principal.may_use(agent, org) and not principal.may_use(fresh("agent"), None)
