"""Fail fast: an absent or silent server raises ConnectionFailed within Settings.connect_timeout, and a long
query is cut by its server-side transaction timeout (issue 14 item 5)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest

from graphmem import ConnectionFailed, GraphMemory, QueryTimeout, SentenceTransformerEmbedder, Settings
from graphmem.server import LocalServer

SLOW_QUERY = "UNWIND range(1, 20000) AS a UNWIND range(1, 20000) AS b RETURN count(*) AS n"


@pytest.fixture()
def silent_port() -> Iterator[int]:
    """A port that accepts TCP connections and never answers: a hung server, not a refused one."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    listener.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize("budget", [2.0, 5.0])
def test_silent_server_fails_within_the_connect_budget(
    silent_port: int, budget: float, embedder: SentenceTransformerEmbedder
) -> None:
    started = time.monotonic()
    with pytest.raises(ConnectionFailed):
        GraphMemory.connect(
            f"bolt://127.0.0.1:{silent_port}",
            ("neo4j", "x"),
            settings=Settings(connect_timeout=budget),
            embedder=embedder,
        )
    assert time.monotonic() - started < budget + 1.0


def test_absent_server_fails_fast(embedder: SentenceTransformerEmbedder) -> None:
    started = time.monotonic()
    with pytest.raises(ConnectionFailed):
        GraphMemory.connect(f"neo4j://127.0.0.1:{_free_port()}", ("neo4j", "x"), embedder=embedder)
    assert time.monotonic() - started < 5.0


def test_long_query_is_cut_by_the_timeout(server: LocalServer, embedder: SentenceTransformerEmbedder) -> None:
    with GraphMemory.connect(settings=Settings(query_timeout=1.0), embedder=embedder) as mem:
        started = time.monotonic()
        with pytest.raises(QueryTimeout, match="time limit"):
            mem.query(SLOW_QUERY)
        assert time.monotonic() - started < 10.0


def test_graphmem_queries_carry_the_transaction_timeout(
    server: LocalServer, embedder: SentenceTransformerEmbedder
) -> None:
    with (
        GraphMemory.connect(settings=Settings(transaction_timeout=1.0), embedder=embedder) as mem,
        pytest.raises(QueryTimeout),
    ):
        mem.runtime.store.run_statement(SLOW_QUERY)
