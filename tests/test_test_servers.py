"""The test fixture's server choices (tests/conftest.py, docs/testing.md)."""

from __future__ import annotations

import os
import uuid

import pytest
from conftest import DISPOSABLE, ExternalServer, docker_engine, neo4j_container, sweep

from graphmem import GraphMemory, Settings
from graphmem.store.audit import user_hash


def test_the_session_server_is_the_one_asked_for(server: object) -> None:
    if os.environ.get("NEO4J_URI") and os.environ.get("GRAPHMEM_TEST_SERVER") != "testcontainers":
        assert isinstance(server, ExternalServer) and server.bolt_uri == os.environ["NEO4J_URI"]
    else:
        uri = server.bolt_uri if isinstance(server, ExternalServer) else server.status().bolt_uri  # type: ignore[attr-defined]
        assert uri.startswith("bolt://")


def test_testcontainers_backend_when_a_docker_engine_is_present() -> None:
    """The container path of the `server` fixture (GRAPHMEM_TEST_SERVER=testcontainers): a real Neo4j 2026.01
    in Docker answers a graphmem init and a remember. Skipped, with the reason, where there is no engine."""
    reason = docker_engine()
    if reason is not None:
        pytest.skip(reason)
    saved = {k: os.environ.get(k) for k in ("NEO4J_URI", "NEO4J_USERNAME", "NEO4J_PASSWORD")}
    try:
        for external in neo4j_container():
            with GraphMemory.connect() as mem:
                mem.init()
                assert mem.remember("a container test", user_id="tc").content == "a container test"
            assert external.bolt_uri.startswith("bolt://")
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def test_the_session_deletes_its_tenants_and_nothing_else(mem: GraphMemory, user_id: str) -> None:
    """``make test`` leaves the server it ran on as it found it: the tenants the tests wrote (the
    ``user_id`` fixture's, any marked :func:`conftest.disposable`, and the keys built from them, such as a
    scope's ``agent::{id}`` or a second user ``{id}-other``) are swept when the session ends; a tenant not
    derived from one is kept."""
    kept = f"kept-{uuid.uuid4()}"
    derived_keys = [f"{user_id}-other", f"pets:{user_id}", f"{user_id}-inline"]
    for tenant in (user_id, *derived_keys, kept):
        mem.remember(f"a note of {tenant}", user_id=tenant, session_id="s")
    assert user_id in DISPOSABLE and kept not in DISPOSABLE
    sweep(mem.runtime.store, [user_id])
    count = "MATCH (n) WHERE n.user_id = $u OR (n:User AND n.id = $u) RETURN count(n) AS n"
    audit = "MATCH (a:AuditEvent {user_hash: $h}) RETURN count(a) AS n"
    assert mem.query(audit, {"h": user_hash(kept)})[0]["n"] >= 1
    for tenant in (user_id, *derived_keys):
        assert mem.query(count, {"u": tenant}) == [{"n": 0}], tenant
        assert mem.query(audit, {"h": user_hash(tenant)}) == [{"n": 0}], tenant  # their audit trail too
    assert mem.query(count, {"u": kept})[0]["n"] >= 2  # its memory and its User node
    sweep(mem.runtime.store, [kept])


def test_the_session_deletes_the_automation_configs_it_named(mem: GraphMemory, user_id: str) -> None:
    """A test's automation config (``Settings(automation_config_id=disposable(...))``) goes with its versions
    and change events; another config stays."""
    ids = {name: f"{name}-{user_id}" for name in ("mine", "kept")}
    for config in ids.values():
        with GraphMemory.connect(
            settings=Settings(automation_config_id=config), embedder=mem.runtime.embedder
        ) as other:
            other.automation.set_config(other.automation.get_config())
    versions = "MATCH (v:AutomationConfigVersion {config_id: $c}) RETURN count(v) AS n"
    changes = "MATCH (a:AuditEvent {action: 'config_change'}) WHERE $c IN a.target_ids RETURN count(a) AS n"
    assert mem.query(versions, {"c": ids["mine"]})[0]["n"] >= 1
    assert mem.query(changes, {"c": ids["mine"]})[0]["n"] >= 1
    sweep(mem.runtime.store, [ids["mine"]])
    for config, left in ((ids["mine"], 0), (ids["kept"], 1)):
        found = mem.query("MATCH (c:AutomationConfig {id: $c}) RETURN count(c) AS n", {"c": config})
        assert found == [{"n": left}]
        assert (mem.query(versions, {"c": config})[0]["n"] > 0) == bool(left)
        assert (mem.query(changes, {"c": config})[0]["n"] > 0) == bool(left)
    sweep(mem.runtime.store, [ids["kept"]])
