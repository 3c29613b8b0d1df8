"""Shared fixtures: a real Neo4j server, one embedder per run, a fresh tenant per test.

Which server (docs/testing.md):
- by default the managed local server (``graphmem server``, started when needed);
- any server named by ``NEO4J_URI`` (+ ``NEO4J_USERNAME``/``NEO4J_PASSWORD``), e.g. Neo4j Desktop or Aura:
  graphmem's own connection settings read the same variables;
- ``GRAPHMEM_TEST_SERVER=testcontainers``: a throw-away ``neo4j:2026.01`` container with APOC and GDS through
  the ``testcontainers`` package, when a Docker engine is present.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pytest

from graphmem import GraphMemory, OnnxEmbedder, Settings
from graphmem.models import Memory
from graphmem.server import LocalServer
from graphmem.store.audit import user_hash

NEO4J_IMAGE = "neo4j:2026.01.4-community"


@dataclass
class ExternalServer:
    """A server graphmem did not start (NEO4J_URI or a container): only its address is known."""

    bolt_uri: str
    running: bool = True


def docker_engine() -> str | None:
    """Why testcontainers cannot run here, or None when it can."""
    try:
        import testcontainers  # noqa: F401
    except ImportError:
        return "the testcontainers package is not installed (pip install 'testcontainers[neo4j]')"
    if shutil.which("docker") is None and not os.path.exists("/var/run/docker.sock"):
        return "no Docker engine on this machine (no docker CLI, no /var/run/docker.sock)"
    return None


def neo4j_container() -> Iterator[ExternalServer]:
    from testcontainers.neo4j import Neo4jContainer

    password = uuid.uuid4().hex
    container = Neo4jContainer(NEO4J_IMAGE, password=password).with_env(
        "NEO4J_PLUGINS", '["apoc", "graph-data-science"]'
    )
    with container as running:
        uri = running.get_connection_url()
        os.environ.update(NEO4J_URI=uri, NEO4J_USERNAME="neo4j", NEO4J_PASSWORD=password)
        yield ExternalServer(bolt_uri=uri)


@pytest.fixture(scope="session")
def server() -> Iterator[Any]:
    """The server the tests use: testcontainers when asked for, else NEO4J_URI, else the managed one."""
    if os.environ.get("GRAPHMEM_TEST_SERVER") == "testcontainers":
        reason = docker_engine()
        if reason is not None:
            pytest.exit(f"GRAPHMEM_TEST_SERVER=testcontainers, but {reason}", returncode=4)
        yield from neo4j_container()
        return
    if os.environ.get("NEO4J_URI"):
        yield ExternalServer(bolt_uri=os.environ["NEO4J_URI"])
        return
    local = LocalServer()
    local.start()
    yield local


@pytest.fixture(scope="session")
def embedder() -> OnnxEmbedder:
    return OnnxEmbedder()


@pytest.fixture(scope="session")
def mem(server: Any, embedder: OnnxEmbedder) -> Iterator[GraphMemory]:
    with GraphMemory.connect(embedder=embedder) as memory:
        memory.init()
        yield memory


@pytest.fixture()
def config_id() -> str:
    """An automation config of the test's own, so tests that change schedules never meet (swept at the end
    with the session's tenants)."""
    return disposable(f"test-{uuid.uuid4()}")


@pytest.fixture()
def auto(server: Any, embedder: OnnxEmbedder, config_id: str) -> Iterator[GraphMemory]:
    """A client bound to the test's own automation config (``config_id``)."""
    with GraphMemory.connect(settings=Settings(automation_config_id=config_id), embedder=embedder) as memory:
        memory.init()
        yield memory


@pytest.fixture(scope="module")
def dyn(server: Any, embedder: OnnxEmbedder) -> Iterator[GraphMemory]:
    """A client with an automation config of the module's own, for the dynamics tests that set parameters:
    no test changes the shared configuration."""
    settings = Settings(automation_config_id=disposable(f"test-{uuid.uuid4()}"))
    with GraphMemory.connect(settings=settings, embedder=embedder) as memory:
        memory.init()
        yield memory


def forget_after_newer(mem: GraphMemory, count: int) -> GraphMemory:
    """Set ``mem``'s automation config's ``forget_min_newer`` (the newer memories decay's forgetting waits
    for) to ``count``."""
    cfg = mem.automation.get_config()
    dynamics = cfg.dynamics.model_copy(update={"forget_min_newer": count})
    mem.automation.set_config(cfg.model_copy(update={"dynamics": dynamics}))
    return mem


def by_time_alone(mem: GraphMemory) -> GraphMemory:
    """Forget by time alone (``forget_min_newer`` 0), for the tests of the time rules: their tenants hold a
    few memories, far fewer than the newer ones decay's forgetting waits for by default
    (tests/test_dynamics_absence.py pins that rule)."""
    return forget_after_newer(mem, 0)


DISPOSABLE: list[str] = []
"""The tenants this session's tests wrote (``user_id`` and :func:`disposable`), deleted when it ends with
every tenant whose key contains one of them (ids are unique: ``{user_id}-other``, ``pets:{user_id}``)."""


def disposable(tenant: str) -> str:
    """Mark ``tenant`` as the test session's own: :func:`pytest_sessionfinish` deletes its nodes and those of
    every tenant key built from it."""
    DISPOSABLE.append(tenant)
    return tenant


def spoken(
    mem: GraphMemory,
    user_id: str,
    turns: Sequence[tuple[str | None, str]],
    *,
    start: datetime,
    session: str = "s1",
) -> list[Memory]:
    """One session of (speaker, text) turns of ``user_id``, a minute apart from ``start`` (a speaker None:
    the turn has no name)."""
    return mem.add_messages(
        [
            {"role": "user", "content": text, "timestamp": start + timedelta(minutes=i)}
            | ({"name": who} if who else {})
            for i, (who, text) in enumerate(turns)
        ],
        user_id=user_id,
        session_id=session,
    )


@pytest.fixture()
def user_id() -> str:
    """Each test isolates itself with its own tenant instead of wiping the database; the tenant is deleted
    when the session ends, so that ``make test`` leaves the server it ran on as it found it."""
    return disposable(f"test-{uuid.uuid4()}")


SWEEP = """
MATCH (n) WHERE n.user_id IN $tenants OR (n:User AND n.id IN $tenants)
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS
"""


TENANT_KEYS = """
MATCH (n) WHERE n.user_id IS NOT NULL RETURN DISTINCT n.user_id AS key
UNION
MATCH (u:User) RETURN u.id AS key
"""


def derived(keys: list[str], tokens: list[str]) -> list[str]:
    """The ``keys`` that contain one of ``tokens``: a test tenant, and the keys tests build from it (a second
    user ``{id}-other``, an ADK app's ``pets:{id}``, the scope keys ``agent::{id}``, ``session::…{id}/s``)."""
    return [k for k in keys if isinstance(k, str) and any(t in k for t in tokens)]


SWEEP_AUDIT = """
MATCH (a:AuditEvent) WHERE a.user_hash IN $hashes
CALL (a) { DETACH DELETE a } IN TRANSACTIONS OF 5000 ROWS
"""


SWEEP_SHARED = """
MATCH (n) WHERE (n:AutomationConfig AND n.id IN $configs)
  OR (n:AutomationConfigVersion AND n.config_id IN $configs)
  OR (n:JobSlot AND any(c IN $configs + $tokens WHERE n.id STARTS WITH c + '/'))
  OR (n:AuditEvent AND n.action = 'config_change' AND any(c IN n.target_ids WHERE c IN $configs))
  OR (n:ApiKey AND (n.subject IN $tenants OR any(t IN $tokens WHERE n.subject CONTAINS t)
                    OR n.subject_hash IN $hashes)) // a deleted user's keys keep only its hash
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS
"""


def sweep(store: Any, tokens: list[str]) -> None:
    """Delete every node of the tenants named by ``tokens`` (and their User nodes) in one pass over the
    store, their audit events (kept by the tenant's hash, which outlives the tenant by design) and API keys,
    and the automation configs named by ``tokens`` with their versions, job slots and change events."""
    with store.driver.session(database=store.database) as s:  # auto-commit: CALL ... IN TRANSACTIONS
        tenants = derived([r["key"] for r in s.run(TENANT_KEYS)], tokens)
        configs = derived([r["id"] for r in s.run("MATCH (c:AutomationConfig) RETURN c.id AS id")], tokens)
        s.run(SWEEP, {"tenants": tenants}).consume()
        gone = [user_hash(t) for t in {*tenants, *tokens}]  # a tenant a test deleted keeps its events' hash
        s.run(SWEEP_AUDIT, {"hashes": gone}).consume()
        shared = {"configs": configs, "tenants": tenants, "tokens": tokens, "hashes": gone}
        s.run(SWEEP_SHARED, shared).consume()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Delete the session's tenants (a server already gone, as a testcontainers one is by now, has nothing
    to delete)."""
    if not DISPOSABLE:
        return
    try:
        from graphmem.store.connection import open_store

        store = open_store(None, None, None, Settings())
        try:
            sweep(store, DISPOSABLE)
        finally:
            store.close()
    except Exception as exc:  # cleaning up must never fail the run
        print(f"\nleft the test tenants in place: {exc}")
