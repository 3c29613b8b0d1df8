"""The test fixture's server choices (tests/conftest.py, docs/testing.md)."""

from __future__ import annotations

import os

import pytest
from conftest import ExternalServer, docker_engine, neo4j_container

from graphmem import GraphMemory


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
