"""The test fixture's server choices (tests/conftest.py, docs/testing.md)."""

from __future__ import annotations

import os
import uuid

import pytest
from conftest import DISPOSABLE, ExternalServer, docker_engine, neo4j_container, sweep

from graphmem import GraphMemory
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
