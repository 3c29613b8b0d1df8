"""Tests of graphmem.server against the real local Neo4j server (no mocks).

They use the default-home server (``LocalServer()``, honouring ``GRAPHMEM_HOME``) on 127.0.0.1:7687/7474,
start it if needed (the first run assembles it with Maven) and leave it running. The tests that stop and
restart a server do it on one of their own (``own_server``: its own home and ports, seeded from the shared
server's jars like the reliability suite's spare), so whatever else runs against the shared one is never
cut off.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from neo4j import Driver, GraphDatabase
from neo4j.exceptions import AuthError

from graphmem.errors import PortInUse, ServerError, ValidationError
from graphmem.server import LocalServer, ServerStatus, default_home
from tests.reliability import spare

NEO4J_VERSION = "2026.01.4"
GDS_VERSION = "2.26.0"
OWN_HOME = Path(
    os.environ.get("GRAPHMEM_RESTART_HOME", Path(__file__).parents[1] / "benchmarks/cache/restart")
)
OWN_BOLT = int(os.environ.get("GRAPHMEM_RESTART_BOLT", "7691"))  # the reliability spare uses 7697/7484
OWN_HTTP = int(os.environ.get("GRAPHMEM_RESTART_HTTP", "7478"))


@pytest.fixture(scope="module")
def server() -> LocalServer:
    local = LocalServer()
    local.start(timeout=600)
    return local


@pytest.fixture()
def driver(server: LocalServer) -> Iterator[Driver]:
    status = server.start()
    with GraphDatabase.driver(status.bolt_uri, auth=server.credentials()) as drv:
        yield drv


@pytest.fixture()
def own_server(server: LocalServer) -> Iterator[LocalServer]:
    """A server of the test's own (home ``OWN_HOME``, ports ``OWN_BOLT``/``OWN_HTTP``), seeded from the
    shared server's assembled jars (``server`` assembles them on a first run; it is never stopped), not
    started; stopped again at the end. Never the shared server."""
    own = spare.spare_server(OWN_HOME, OWN_BOLT, OWN_HTTP)
    assert own.bolt_port != server.bolt_port and own.http_port != server.http_port
    assert own.home.resolve() != default_home().resolve()
    try:
        yield own
    finally:
        own.stop()


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


# --- no server needed ------------------------------------------------------------------------------
def test_default_home_honours_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GRAPHMEM_HOME", str(tmp_path / "gm"))
    assert default_home() == tmp_path / "gm"
    monkeypatch.delenv("GRAPHMEM_HOME")
    assert default_home() == Path.home() / ".local" / "share" / "graphmem"


def _fake_java(folder: Path, version: str) -> Path:
    java = folder / "bin" / "java"
    java.parent.mkdir(parents=True)
    java.write_text(f"#!/bin/sh\necho 'openjdk version \"{version}\" 2026-01-20' >&2\n")
    java.chmod(0o755)
    return java


def test_find_java_looks_past_an_old_default_java(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Debian 12's default java is 17; a Java 21+ installed beside it under /usr/lib/jvm is found."""
    from graphmem.errors import PrerequisiteMissing
    from graphmem.server import assembly

    old = _fake_java(tmp_path / "path", "17.0.12")
    jvm = tmp_path / "jvm"
    new = _fake_java(jvm / "temurin-25-jdk-amd64", "25.0.1")
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(old.parent))
    monkeypatch.setattr(assembly, "_JVM_FOLDERS", ((str(jvm), "bin/java"),))
    assert assembly.find_java() == new.resolve()
    new.unlink()
    with pytest.raises(PrerequisiteMissing, match=r"Java 21 or newer; found .*Java 17"):
        assembly.find_java()


def test_bad_arguments_rejected(tmp_path: Path) -> None:
    with pytest.raises(ValidationError):
        LocalServer(tmp_path, heap="lots")
    with pytest.raises(ValidationError):
        LocalServer(tmp_path, bolt_port=7000, http_port=7000)


def test_fresh_home_is_not_running(tmp_path: Path) -> None:
    local = LocalServer(tmp_path / "fresh", bolt_port=_free_port(), http_port=_free_port())
    local.stop()  # no-op
    status = local.status()
    assert not status.running
    assert status.pid is None
    assert status.neo4j_version == ""
    assert status.plugins == []
    with pytest.raises(ServerError):
        local.credentials()


@pytest.mark.parametrize("taken", ["bolt", "http"])
def test_port_in_use(tmp_path: Path, taken: str) -> None:
    bolt_port, http_port = _free_port(), _free_port()
    while http_port == bolt_port:
        http_port = _free_port()
    busy = bolt_port if taken == "bolt" else http_port
    home = tmp_path / "other"
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as blocker:
        blocker.bind(("127.0.0.1", busy))
        blocker.listen(1)
        with pytest.raises(PortInUse) as caught:
            LocalServer(home, bolt_port=bolt_port, http_port=http_port).start(timeout=30)
    assert caught.value.port == busy
    assert not (home / "neo4j" / "lib").exists(), "the port check must come before assembling"


# --- the default-home server -----------------------------------------------------------------------
def test_start_is_idempotent(server: LocalServer) -> None:
    first = server.start()
    second = LocalServer().start()
    assert first.running and second.running
    assert first.pid == second.pid


def test_status_fields(server: LocalServer) -> None:
    status = server.status()
    assert isinstance(status, ServerStatus)
    assert status.running
    assert isinstance(status.pid, int) and status.pid > 0
    assert status.home == default_home().expanduser().absolute()
    assert status.bolt_uri == "bolt://127.0.0.1:7687"
    assert status.browser_url == "http://127.0.0.1:7474/browser/"
    assert status.username == "neo4j"
    assert status.password_file.is_file()
    assert status.neo4j_version == NEO4J_VERSION
    assert {"apoc", "gds"} <= set(status.plugins)
    as_dict = status.to_dict()
    assert json.loads(json.dumps(as_dict)) == as_dict
    assert as_dict["pid"] == status.pid and as_dict["home"] == str(status.home)


def test_password_file_is_private(server: LocalServer) -> None:
    mode = stat.S_IMODE(os.stat(server.status().password_file).st_mode)
    assert mode == 0o600
    user, password = server.credentials()
    assert user == "neo4j"
    assert len(password) >= 16


def test_logs(server: LocalServer) -> None:
    text = server.logs(1_000_000)  # the whole log: plugins (GDS) keep logging after start-up
    assert "Started." in text or "Remote interface available" in text
    assert len(server.logs(3).splitlines()) <= 3


def test_browser_answers(server: LocalServer) -> None:
    with urllib.request.urlopen(server.status().browser_url, timeout=10) as response:
        assert response.status == 200
        body = response.read().decode("utf-8", errors="replace")
    assert "Neo4j Browser" in body


def test_auth_is_on(server: LocalServer) -> None:
    with (
        GraphDatabase.driver(server.status().bolt_uri, auth=("neo4j", "not-the-password")) as drv,
        pytest.raises(AuthError),
    ):
        drv.verify_connectivity()


def test_apoc_available(driver: Driver) -> None:
    # APOC Core on Maven Central stops at 5.26.x (later ones ship with Neo4j's own distribution only); its
    # pure function namespaces, the ones the allowlist loads, run on 2026.01 (Neo4j logs a version warning)
    records, _, _ = driver.execute_query("RETURN apoc.version() AS v")
    assert str(records[0]["v"]).startswith("5.26.")
    records, _, _ = driver.execute_query("RETURN apoc.text.join(['a', 'b'], '-') AS j")
    assert records[0]["j"] == "a-b"


def test_gds_available(driver: Driver) -> None:
    records, _, _ = driver.execute_query("RETURN gds.version() AS v")
    assert records[0]["v"] == GDS_VERSION
    tag = "GmSrvGds" + uuid.uuid4().hex[:8]
    graph = f"g_{tag}"
    driver.execute_query(
        f"CREATE (a:{tag} {{n: 1, v: [1.0, 0.0]}})-[:R]->(b:{tag} {{n: 2, v: [0.9, 0.1]}}), "
        f"(b)-[:R]->(c:{tag} {{n: 3, v: [0.0, 1.0]}}), (c)-[:R]->(a), (c)-[:R]->(b)"
    )
    try:
        records, _, _ = driver.execute_query(
            "CALL gds.graph.project($g, $nodes, 'R') YIELD nodeCount, relationshipCount "
            "RETURN nodeCount, relationshipCount",
            g=graph,
            nodes={tag: {"properties": ["v"]}},
        )
        assert (records[0]["nodeCount"], records[0]["relationshipCount"]) == (3, 4)
        records, _, _ = driver.execute_query(  # the procedures the associate job uses (policy.GDS_USED)
            "CALL gds.knn.stream($g, {nodeProperties: ['v'], topK: 1, concurrency: 1, randomSeed: 1}) "
            "YIELD node1, node2 RETURN gds.util.asNode(node1).n AS a, gds.util.asNode(node2).n AS b",
            g=graph,
        )
        nearest = {r["a"]: r["b"] for r in records}
        assert nearest[1] == 2 and nearest[2] == 1
    finally:
        driver.execute_query("CALL gds.graph.drop($g, false) YIELD graphName RETURN graphName", g=graph)
        driver.execute_query(f"MATCH (n:{tag}) DETACH DELETE n")


def test_data_survives_restart(own_server: LocalServer) -> None:
    shared_pid = LocalServer().status().pid
    marker = str(uuid.uuid4())
    status = own_server.start(timeout=spare.START_TIMEOUT)
    with GraphDatabase.driver(status.bolt_uri, auth=own_server.credentials()) as drv:
        drv.execute_query("CREATE (:GraphmemServerTest {id: $id})", id=marker)
    own_server.stop()
    assert not own_server.status().running
    restarted = own_server.start(timeout=spare.START_TIMEOUT)
    assert restarted.running and restarted.pid != status.pid
    assert restarted.bolt_uri == f"bolt://127.0.0.1:{OWN_BOLT}"
    with GraphDatabase.driver(restarted.bolt_uri, auth=own_server.credentials()) as drv:
        records, _, _ = drv.execute_query(
            "MATCH (n:GraphmemServerTest {id: $id}) RETURN count(n) AS c", id=marker
        )
        assert records[0]["c"] == 1
        drv.execute_query("MATCH (n:GraphmemServerTest {id: $id}) DETACH DELETE n", id=marker)
    assert LocalServer().status().pid == shared_pid  # the shared server was never touched


def test_a_stale_neo4j_pid_file_does_not_block_a_start(own_server: LocalServer) -> None:
    """A JVM killed with SIGKILL where nothing reaps it at once (a container whose PID 1 is not an init: the
    killed server stays a zombie for a while) leaves Neo4j's own pid file naming a process that still exists;
    Neo4j's launcher then refused every start ("Neo4j is already running"). The start clears a pid file that
    names no server of this home (gone, a zombie, or another program)."""
    zombie = subprocess.Popen(["true"])  # exits at once; not waited for: a zombie of this process
    try:
        time.sleep(0.3)
        assert Path(f"/proc/{zombie.pid}/stat").read_text().rsplit(")", 1)[-1].split()[0] == "Z"
        pid_file = own_server.neo4j_home / "run" / "neo4j.pid"
        pid_file.parent.mkdir(parents=True, exist_ok=True)
        pid_file.write_text(f"{zombie.pid}\n")
        status = own_server.start(timeout=spare.START_TIMEOUT)
        assert status.running and status.pid != zombie.pid
    finally:
        zombie.wait()
