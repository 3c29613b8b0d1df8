"""The routing URI scheme (neo4j://, what a cluster or Aura needs) works against the local server, and
graphmem's reads go through read routing (so a cluster spreads them over its secondaries)."""

from __future__ import annotations

import neo4j

from graphmem import GraphMemory, SentenceTransformerEmbedder
from graphmem.server import LocalServer
from graphmem.store.driver import Store


def test_neo4j_scheme_against_the_local_server(
    server: LocalServer, embedder: SentenceTransformerEmbedder, user_id: str
) -> None:
    uri = server.status().bolt_uri.replace("bolt://", "neo4j://")
    with GraphMemory.connect(uri, server.credentials(), embedder=embedder) as mem:
        store = mem.runtime.store
        assert isinstance(store, Store)
        table = store.driver.execute_query(
            "CALL dbms.routing.getRoutingTable({}) YIELD servers RETURN servers"
        )
        roles = {s["role"] for s in table.records[0]["servers"]}
        assert roles == {"ROUTE", "READ", "WRITE"}
        m = mem.remember("The routing test memory mentions a lighthouse", user_id=user_id)
        assert [h.memory.id for h in mem.recall("lighthouse", user_id=user_id, k=3)][:1] == [m.id]
        assert mem.query("RETURN 1 AS one") == [{"one": 1}]


def test_reads_ask_for_read_routing(mem: GraphMemory) -> None:
    """Store.read passes RoutingControl.READ to the driver (observed on the real driver call)."""
    store = mem.runtime.store
    assert isinstance(store, Store)
    seen: list[neo4j.RoutingControl] = []
    real = store.driver.execute_query

    def spy(*args: object, **kwargs: object) -> object:
        seen.append(kwargs["routing_"])  # type: ignore[arg-type]
        return real(*args, **kwargs)  # type: ignore[arg-type]

    store._driver = type("Spy", (), {"execute_query": staticmethod(spy)})()  # type: ignore[assignment]
    try:
        store.read("procedures_present", names=["gds.version"])
        store.write("procedures_present", names=["gds.version"])
    finally:
        store._driver = real.__self__  # type: ignore[attr-defined]
    assert seen == [neo4j.RoutingControl.READ, neo4j.RoutingControl.WRITE]
