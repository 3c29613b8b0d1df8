"""A bounded loopback load test of the REST API with per-user keys, against a real uvicorn server.

Each client thread holds its own user key (``graphmem.adapters.auth``, as ``graphmem keys create`` makes),
mixes remember and recall on its own user, and now and then tries another client's routes. Asserted: no 5xx,
no lost write (every acknowledged remember is stored and exported afterwards), no cross-user read (every
recall answers only the caller's memories; every attempt on another user's route is 403). The small run is in
``make test``; the larger one is marked ``reliability``. Latencies (p50/p95 per operation) are written to
``benchmarks/cache/reliability/rest-load-<size>.json``.
"""

from __future__ import annotations

import json
import socket
import statistics
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from conftest import disposable

from graphmem import GraphMemory, OnnxEmbedder
from graphmem.adapters import auth
from graphmem.adapters.batching import BatchingEmbedder
from graphmem.adapters.rest import create_app

FIGURES = Path(__file__).parents[2] / "benchmarks/cache/reliability"
ADMIN = "rest-load-admin-key"
_TOPICS = ["violin", "garden", "sailing", "pottery", "chess", "cycling", "baking", "astronomy", "hiking"]


@dataclass
class Client:
    user_id: str
    key: str
    key_id: str
    acked: set[str] = field(default_factory=set)
    statuses: list[int] = field(default_factory=list)
    latency: dict[str, list[float]] = field(default_factory=lambda: {"remember": [], "recall": []})
    cross_reads: list[str] = field(default_factory=list)
    forbidden: int = 0
    errors: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def base_url(mem: GraphMemory, embedder: OnnxEmbedder) -> Iterator[str]:
    """The REST app under uvicorn on a free loopback port, serving the shared test server, as `graphmem api`
    builds it (one GraphMemory, a batching embedder)."""
    view = GraphMemory(
        mem.runtime.store, BatchingEmbedder(embedder), mem.runtime.settings
    )  # shares the store
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(view, ADMIN), log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(30)
    sock.close()


def _drive(client: Client, others: list[Client], base: str, ops: int, seed: int) -> None:
    with httpx.Client(base_url=base, headers={"X-API-Key": client.key}, timeout=60.0) as http:
        for n in range(ops):
            topic = _TOPICS[(seed + n) % len(_TOPICS)]
            began = time.perf_counter()
            try:
                if n % 3 != 2:
                    response = http.post(
                        f"/users/{client.user_id}/memories",
                        json={"content": f"{client.user_id[-6:]} took up {topic} in week {n}"},
                    )
                    client.latency["remember"].append(time.perf_counter() - began)
                    if response.status_code == 201:
                        client.acked.add(response.json()["id"])
                else:
                    response = http.post(f"/users/{client.user_id}/recall", json={"query": topic, "k": 5})
                    client.latency["recall"].append(time.perf_counter() - began)
                    if response.status_code == 200:
                        for hit in response.json():
                            memory = hit["memory"]
                            if memory["user_id"] != client.user_id or memory["id"] not in client.acked:
                                client.cross_reads.append(memory["id"])
            except httpx.HTTPError as exc:  # a hang or a dropped connection counts as a failure
                client.errors.append(f"{type(exc).__name__}: {exc}")
                continue
            client.statuses.append(response.status_code)
            if n % 4 == 3:  # another client's routes, with this client's key
                other = others[(seed + n) % len(others)].user_id
                for method, path in (("POST", f"/users/{other}/recall"), ("GET", f"/users/{other}/export")):
                    probe = http.request(method, path, json={"query": topic})
                    client.statuses.append(probe.status_code)
                    if probe.status_code == 403:
                        client.forbidden += 1
                    else:
                        client.cross_reads.append(f"{method} {path} -> {probe.status_code}")


def _percentile(values: list[float], q: float) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def run_load(mem: GraphMemory, base: str, clients_n: int, ops: int, size: str) -> dict[str, Any]:
    run = disposable(f"test-load-{uuid.uuid4().hex[:8]}").removeprefix("test-load-")  # swept at the end
    clients = []
    for i in range(clients_n):
        user = f"test-load-{run}-{i:02d}"
        key, record = auth.create_key(mem.runtime.store, "user", user, label="rest load test")
        clients.append(Client(user, key, record["id"]))
    threads = [
        threading.Thread(target=_drive, args=(c, [o for o in clients if o is not c], base, ops, i))
        for i, c in enumerate(clients)
    ]
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(600)
    wall = time.perf_counter() - began
    lost = 0
    with httpx.Client(base_url=base, timeout=60.0) as http:
        for c in clients:
            exported = http.get(f"/users/{c.user_id}/export", headers={"X-API-Key": c.key})
            assert exported.status_code == 200, exported.text
            stored = {m["id"] for m in exported.json()["memories"]}
            lost += len(c.acked - stored)
    statuses = [s for c in clients for s in c.statuses]
    figures = {
        "clients": clients_n,
        "ops_per_client": ops,
        "requests": len(statuses),
        "acknowledged_writes": sum(len(c.acked) for c in clients),
        "lost_writes": lost,
        "status_5xx": sum(1 for s in statuses if s >= 500),
        "transport_errors": [e for c in clients for e in c.errors],
        "cross_user_reads": [x for c in clients for x in c.cross_reads],
        "forbidden_probes": sum(c.forbidden for c in clients),
        "wall_seconds": round(wall, 1),
    }
    for op in ("remember", "recall"):
        values = [v for c in clients for v in c.latency[op]]
        figures[f"{op}_p50_ms"] = round(1000 * _percentile(values, 50))
        figures[f"{op}_p95_ms"] = round(1000 * _percentile(values, 95))
        figures[f"{op}_max_ms"] = round(1000 * max(values, default=0.0))
    FIGURES.mkdir(parents=True, exist_ok=True)
    (FIGURES / f"rest-load-{size}.json").write_text(json.dumps(figures, indent=2) + "\n")
    for c in clients:
        auth.revoke_key(mem.runtime.store, c.key_id)
        mem.users.delete(c.user_id)
    # the deletion keeps a key only under the user's hash, which the session's sweep does not know: gone here
    ids = [c.key_id for c in clients]
    mem.runtime.store.run_statement("MATCH (k:ApiKey) WHERE k.id IN $ids DELETE k", {"ids": ids})
    return figures


def check(figures: dict[str, Any]) -> None:
    assert figures["status_5xx"] == 0, figures
    assert figures["transport_errors"] == [], figures
    assert figures["lost_writes"] == 0, figures
    assert figures["cross_user_reads"] == [], figures
    assert figures["acknowledged_writes"] > 0 and figures["forbidden_probes"] > 0, figures


def test_rest_load_small(mem: GraphMemory, base_url: str) -> None:
    """6 clients × 4 requests (+ 2 cross-user probes each): seconds, part of `make test`."""
    check(run_load(mem, base_url, clients_n=6, ops=4, size="small"))


@pytest.mark.reliability
def test_rest_load_20_clients(mem: GraphMemory, base_url: str) -> None:
    """20 clients × 30 requests (+ 14 cross-user probes each)."""
    check(run_load(mem, base_url, clients_n=20, ops=30, size="large"))
