"""Shared fixtures: the real local Neo4j server, one embedder per run, a fresh tenant per test."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from graphmem import GraphMemory, OnnxEmbedder
from graphmem.server import LocalServer


@pytest.fixture(scope="session")
def server() -> LocalServer:
    local = LocalServer()
    local.start()
    return local


@pytest.fixture(scope="session")
def embedder() -> OnnxEmbedder:
    return OnnxEmbedder()


@pytest.fixture(scope="session")
def mem(server: LocalServer, embedder: OnnxEmbedder) -> Iterator[GraphMemory]:
    with GraphMemory.connect(embedder=embedder) as memory:
        memory.init()
        yield memory


@pytest.fixture()
def user_id() -> str:
    """Each test isolates itself with its own tenant instead of wiping the database."""
    return f"test-{uuid.uuid4()}"
