"""REST throughput under concurrent clients (issue 14 item 6): a bounded, loopback-only load on the API.

It starts `graphmem api` itself on a free loopback port with a throw-away API key (or targets ``--url`` with
``--key``), waits until `/health` answers, seeds each tenant with a few memories, then sends a fixed number of
requests (a mix of remember and recall) from ``--clients`` concurrent clients, each request with a timeout.
It reports requests/s, recall and remember p50/p95/p99, status codes and timeouts, then stops the server.

    nice -n 10 .venv/bin/python benchmarks/rest_load.py --requests 1000 --clients 20 \\
        --out benchmarks/results/rest_load.json
    .venv/bin/python benchmarks/rest_load.py --quick          # 100 requests, 5 clients: a smoke run
    .venv/bin/python benchmarks/rest_load.py --rate 30        # open loop: 30 requests/s arriving
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
from machine import stamp

SUBJECTS = ["dog", "cello", "Lisbon", "marathon", "tomatoes", "Volvo", "stamps", "peanuts", "chess", "sushi"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


OPEN_LOOP_CONNECTIONS = 256
"""Client connections in open-loop mode: enough that requests wait in the API, not in the client's pool."""

API_LOG = Path("benchmarks/cache/logs/rest_api.log")
"""The API's stderr during a run (a file: a pipe nobody reads fills up and stalls the server's logging)."""


def start_api(
    port: int, key: str, startup_timeout: float, api_slots: int | None = None
) -> tuple[subprocess.Popen[bytes], float]:
    """`graphmem api` on loopback; returns the process and the seconds until /health answered."""
    env = dict(os.environ, GRAPHMEM_API_KEY=key)
    if api_slots is not None:  # admission by priority: 0 turns it off (docs/rest.md)
        env["GRAPHMEM_API_SLOTS"] = str(api_slots)
    exe = Path(sys.executable).with_name("graphmem")
    command = [str(exe), "api", "--host", "127.0.0.1", "--port", str(port)]
    API_LOG.parent.mkdir(parents=True, exist_ok=True)
    with API_LOG.open("wb") as log:
        proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=log)
    started = time.perf_counter()
    while time.perf_counter() - started < startup_timeout:
        if proc.poll() is not None:
            err = API_LOG.read_text(errors="replace")
            raise SystemExit(f"graphmem api exited with {proc.returncode}: {err[-2000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                return proc, time.perf_counter() - started
        except httpx.HTTPError:
            pass
        time.sleep(0.25)
    proc.terminate()
    raise SystemExit(f"graphmem api did not answer within {startup_timeout} s")


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)


async def one(
    client: httpx.AsyncClient, i: int, users: list[str], recall_share: float, out: dict[str, Any]
) -> None:
    user = users[i % len(users)]
    subject = SUBJECTS[i % len(SUBJECTS)]
    is_recall = (i * 7919 % 100) < recall_share * 100  # a fixed interleaving, the same on every run
    if is_recall:
        path, body = f"/users/{user}/recall", {"query": f"what do I think about {subject}?", "k": 5}
    else:
        path, body = f"/users/{user}/memories", {"content": f"Note {i}: I thought about {subject} today"}
    kind = "recall" if is_recall else "remember"
    started = time.perf_counter()
    try:
        response = await client.post(path, json=body)
    except httpx.TimeoutException:
        out["timeouts"] += 1
        return
    except httpx.HTTPError as exc:
        out["transport_errors"].append(type(exc).__name__)
        return
    elapsed = time.perf_counter() - started
    out["status"][str(response.status_code)] = out["status"].get(str(response.status_code), 0) + 1
    if response.status_code < 400:
        out[kind].append(elapsed)


async def run_load(base: str, key: str, args: argparse.Namespace) -> dict[str, Any]:
    users = [f"bench-rest-{uuid.uuid4()}" for _ in range(args.users)]
    headers = {"X-API-Key": key}
    connections = args.clients if args.rate is None else OPEN_LOOP_CONNECTIONS
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    async with httpx.AsyncClient(
        base_url=base, headers=headers, timeout=args.timeout, limits=limits
    ) as client:
        for user in users:  # a little to recall from
            for j, subject in enumerate(SUBJECTS):
                r = await client.post(f"/users/{user}/memories", json={"content": f"I like {subject} ({j})"})
                r.raise_for_status()
        out: dict[str, Any] = {
            "recall": [],
            "remember": [],
            "status": {},
            "timeouts": 0,
            "transport_errors": [],
        }
        queue: asyncio.Queue[int] = asyncio.Queue()
        for i in range(args.requests):
            queue.put_nowait(i)

        async def worker() -> None:
            while not queue.empty():
                await one(client, queue.get_nowait(), users, args.recall_share, out)

        started = time.perf_counter()
        if args.rate is None:  # closed loop: each client sends its next request when the last is answered
            await asyncio.gather(*(worker() for _ in range(args.clients)))
        else:  # open loop: requests arrive at Poisson times whatever the answers take
            arrivals, due, sent = random.Random(7), 0.0, []
            for i in range(args.requests):
                due += arrivals.expovariate(args.rate)
                await asyncio.sleep(max(0.0, started + due - time.perf_counter()))
                sent.append(asyncio.create_task(one(client, i, users, args.recall_share, out)))
            await asyncio.gather(*sent)
        wall = time.perf_counter() - started
        for user in users:  # leave nothing behind
            await client.delete(f"/users/{user}")
    done = len(out["recall"]) + len(out["remember"])
    return {
        "requests": args.requests,
        "clients": args.clients if args.rate is None else None,
        "arrival_rate_per_s": args.rate,
        "completed_ok": done,
        "wall_s": round(wall, 2),
        "requests_per_s": round(args.requests / wall, 1),
        "recall_ms": {
            "n": len(out["recall"]),
            "p50": pct(out["recall"], 0.5),
            "p95": pct(out["recall"], 0.95),
        }
        | {"p99": pct(out["recall"], 0.99), "mean": _mean(out["recall"])},
        "remember_ms": {"n": len(out["remember"]), "p50": pct(out["remember"], 0.5)}
        | {"p95": pct(out["remember"], 0.95), "p99": pct(out["remember"], 0.99)},
        "status": out["status"],
        "server_errors_5xx": sum(n for code, n in out["status"].items() if code.startswith("5")),
        "timeouts": out["timeouts"],
        "transport_errors": out["transport_errors"][:20],
    }


def _mean(values: list[float]) -> float | None:
    return round(statistics.fmean(values) * 1000, 1) if values else None


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--users", type=int, default=4, help="tenants the load is spread over")
    parser.add_argument("--recall-share", type=float, default=0.5)
    parser.add_argument(
        "--rate",
        type=float,
        help="open loop: requests arrive at this mean rate (Poisson, seeded) instead of --clients "
        "clients each waiting for its answer",
    )
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per request")
    parser.add_argument("--url", help="an API already running on loopback (default: start one)")
    parser.add_argument("--key", help="its API key (with --url)")
    parser.add_argument("--quick", action="store_true", help="100 requests from 5 clients")
    parser.add_argument(
        "--startup-timeout",
        type=float,
        default=600.0,
        help="seconds to wait for the API (model load included)",
    )
    parser.add_argument(
        "--api-slots",
        type=int,
        help="GRAPHMEM_API_SLOTS for the API it starts: requests admitted at once, recalls first "
        "(0: admission off; default: the API's own default)",
    )
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.quick:
        args.requests, args.clients = 100, 5
    proc = None
    startup = None
    if args.url:
        if httpx.URL(args.url).host not in ("127.0.0.1", "localhost", "::1"):
            raise SystemExit("loopback only: --url must point at 127.0.0.1 or localhost")
        base, key = args.url, args.key or os.environ.get("GRAPHMEM_API_KEY", "")
    else:
        port, key = free_port(), secrets.token_urlsafe(24)
        proc, startup = start_api(port, key, startup_timeout=args.startup_timeout, api_slots=args.api_slots)
        base = f"http://127.0.0.1:{port}"
    try:
        result = asyncio.run(run_load(base, key, args))
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
    if proc is not None:  # what the server logged as failing, for a 5xx or a time-out to be explained
        lines = API_LOG.read_text(errors="replace").splitlines()
        result["api_log"] = {
            "path": str(API_LOG),
            "errors": [x for x in lines if "ERROR" in x][-20:],
            "transient_retries": sum("will be retried" in x for x in lines),  # deadlocks, mostly
            "deadlocks": sum("DeadlockDetected" in x for x in lines),
        }
    if proc is not None:
        slots = args.api_slots if args.api_slots is not None else os.environ.get("GRAPHMEM_API_SLOTS")
        result["api_slots"] = "default" if slots is None else int(slots)
    report = stamp(api_startup_s=None if startup is None else round(startup, 1), rest_load=result)
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
