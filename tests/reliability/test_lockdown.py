"""Server lockdown: only the procedures graphmem and the Browser kit use are loaded, transactions and lock
waits are bounded, and query() can call no GDS procedure or function."""

from __future__ import annotations

from pathlib import Path

import pytest
from neo4j import GraphDatabase
from neo4j.exceptions import ClientError

from graphmem import GraphMemory, ValidationError
from graphmem.server import LocalServer, policy

GDS_ATTEMPTS = [
    "CALL gds.graph.project('gm_probe', '*', '*') YIELD graphName RETURN graphName",
    "CALL `gds`.graph.project('gm_probe', '*', '*') YIELD graphName RETURN graphName",
    "CALL /* hidden */ gds . graph . project('gm_probe', '*', '*') YIELD graphName RETURN graphName",
    "MATCH (s) WITH s LIMIT 1 RETURN gds.graph.project('gm_probe', s, null) AS g",
    "CALL () { CALL gds.graph.list() YIELD graphName RETURN graphName } RETURN graphName",
]


@pytest.mark.parametrize("cypher", GDS_ATTEMPTS)
def test_query_cannot_call_gds(mem: GraphMemory, cypher: str) -> None:
    with pytest.raises(ValidationError, match="GDS"):
        mem.query(cypher)
    assert mem.query("RETURN 1 AS one") == [{"one": 1}]


def test_config_carries_the_policy(tmp_path: Path) -> None:
    server = LocalServer(tmp_path / "home", bolt_port=7698, http_port=7485)
    server._write_config()
    conf = (server.neo4j_home / "conf" / "neo4j.conf").read_text(encoding="utf-8")
    assert f"dbms.security.procedures.allowlist={policy.PROCEDURE_ALLOWLIST}\n" in conf
    assert "apoc.*" not in conf and "gds.*" not in conf
    assert f"db.transaction.timeout={policy.TRANSACTION_TIMEOUT}\n" in conf
    assert f"db.lock.acquisition.timeout={policy.LOCK_TIMEOUT}\n" in conf


@pytest.mark.reliability
def test_spare_server_is_locked_down(spare: LocalServer) -> None:
    with GraphDatabase.driver(spare.status().bolt_uri, auth=spare.credentials()) as driver:
        loaded, _, _ = driver.execute_query(
            "SHOW PROCEDURES YIELD name, mode WHERE name STARTS WITH 'apoc.' OR name STARTS WITH 'gds.' "
            "RETURN name, mode"
        )
        modes = {r["name"]: r["mode"] for r in loaded}
        assert set(policy.GDS_USED) - {"gds.util.asNode"} <= set(modes)
        assert all(mode in ("READ", "DEFAULT", "DBMS") for mode in modes.values()), modes
        for refused in (
            "CALL apoc.create.node(['X'], {}) YIELD node RETURN node",
            "CALL apoc.periodic.iterate('RETURN 1', 'RETURN 1', {}) YIELD batches RETURN batches",
            "CALL apoc.load.json('file:///etc/passwd') YIELD value RETURN value",
            "CALL apoc.convert.setJsonProperty(null, 'k', 1)",
            "CALL gds.pageRank.stream('g') YIELD nodeId RETURN nodeId",
        ):
            with pytest.raises(ClientError, match=r"ProcedureNotFound|no procedure"):
                driver.execute_query(refused)
        records, _, _ = driver.execute_query(
            "SHOW SETTINGS YIELD name, value WHERE name IN ['db.transaction.timeout', "
            "'db.lock.acquisition.timeout'] RETURN name, value"
        )
        settings = {r["name"]: r["value"] for r in records}
        assert settings["db.transaction.timeout"] == policy.TRANSACTION_TIMEOUT
        assert settings["db.lock.acquisition.timeout"] in (policy.LOCK_TIMEOUT, "1m")
        assert driver.execute_query("RETURN apoc.text.join(['a', 'b'], '-') AS j").records[0]["j"] == "a-b"
