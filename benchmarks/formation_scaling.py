"""Formation cost per message as one tenant grows (issue 14: flat within 1.5x from 1k to 100k memories).

    .venv/bin/python benchmarks/formation_scaling.py                      # 1k, 3k, 10k, 30k, 100k
    .venv/bin/python benchmarks/formation_scaling.py --quick              # 500, 1.5k, 3k (harness check)

One tenant is grown step by step: filler memories (random unit vectors of the embedder's dimension, written
by a bare ``UNWIND ... CREATE``, with the tenant's vector and full-text keys) bring it to each size, then
``--messages`` real ``add_messages`` calls (``--batch`` turns each, a new session each) are timed with
embeddings precomputed (a table lookup), so the number is formation itself: context reads, neighbours,
extraction, linking, one write transaction. The same rows written by a bare ``UNWIND ... CREATE`` are timed
at each size too, as the floor (ratio = bare / formation; aim >= 0.5). One untimed step into a throwaway
tenant warms the server first (query plans, caches). The machine's load is recorded before and after each
step. Writes JSON (``--out``) and a PNG plot beside it. Runs on its own local server
(``--home``, default ``benchmarks/cache/formation``, ports 7689/7476, started and stopped here): its vectors
are synthetic, and a store whose vectors come from a real model refuses another embedder (``--uri`` targets
a server you run, which must hold no other model's vectors); the tenant is deleted afterwards unless
``--keep``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import sys
import time
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console

from graphmem import GraphMemory
from graphmem.formation.writer import user_key

console = Console()
DIM = 384
FILL = """
UNWIND $rows AS row
CREATE (m:Memory {id: row.id})
SET m.user_id = $user_id, m.user_key = $user_key, m.content = row.content, m.search_text = row.content,
    m.status = 'active', m.memory_type = 'episodic', m.priority = 'P2', m.importance = 0.5, m.strength = 1.0,
    m.retention = 1.0, m.access_count = 0, m.layer = 'working', m.source = 'user', m.confidence = 1.0,
    m.tags = [], m.metadata = '{}', m.session_id = row.session_id, m.occurred_at = row.at,
    m.created_at = row.at, m.recorded_at = row.at, m.version = 1
WITH m, row
CALL db.create.setNodeVectorProperty(m, 'embedding', row.embedding)
CALL db.create.setNodeVectorProperty(m, 'context_embedding', row.embedding)
RETURN count(m) AS n
"""
WORDS = [
    "market", "garden", "violin", "hike", "bread", "dog", "sister", "trip",
    "Lisbon", "Tokyo", "storm", "school", "paint", "race", "group",
]  # fmt: skip


class HashEmbedder:
    """Deterministic pseudo-random unit vectors per text: the 'precomputed' embedder (no model time)."""

    dimension = DIM

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out = []
        for t in texts:
            seed = int.from_bytes(hashlib.blake2b(t.encode(), digest_size=8).digest(), "big")
            v = np.random.default_rng(seed).standard_normal(DIM)
            out.append((v / np.linalg.norm(v)).tolist())
        return out


def sentence(rng: np.random.Generator, i: int) -> str:
    words = rng.choice(WORDS, size=6)
    return f"Note {i}: I talked about the {words[0]} and the {words[1]} near {words[2]} with {words[3]}."


def fill(mem: GraphMemory, user: str, start: int, stop: int, rng: np.random.Generator, chunk: int) -> None:
    emb = HashEmbedder()
    t0 = datetime(2020, 1, 1, tzinfo=UTC)
    for a in range(start, stop, chunk):
        texts = [sentence(rng, i) for i in range(a, min(stop, a + chunk))]
        rows = [
            {"id": str(uuid.uuid4()), "content": t, "embedding": v, "session_id": f"f{(a + j) // 20}",
             "at": t0 + timedelta(minutes=a + j)}
            for j, (t, v) in enumerate(zip(texts, emb.embed(texts), strict=True))
        ]  # fmt: skip
        mem.runtime.store.run_statement(FILL, {"rows": rows, "user_id": user, "user_key": user_key(user)})


def messages(rng: np.random.Generator, n: int, batch: int, tag: str) -> list[list[dict[str, Any]]]:
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    msgs = [
        {
            "role": "user",
            "name": "Sam",
            "content": f"{sentence(rng, i)} [{tag}]",
            "timestamp": t0 + timedelta(minutes=i),
        }
        for i in range(n)
    ]
    return [msgs[i : i + batch] for i in range(0, n, batch)]


def step(
    mem: GraphMemory, user: str, size: int, args: argparse.Namespace, rng: np.random.Generator
) -> dict[str, Any]:
    load_before = os.getloadavg()[0]
    parts = messages(rng, args.messages, args.batch, f"s{size}")
    started = time.perf_counter()
    for n, part in enumerate(parts):
        mem.add_messages(part, user_id=user, session_id=f"m{size}-{n}")
    formation_s = time.perf_counter() - started
    bare_user = f"{user}-bare"
    emb = HashEmbedder()
    rows = [
        {"id": str(uuid.uuid4()), "content": m["content"], "embedding": emb.embed([m["content"]])[0],
         "session_id": "b", "at": m["timestamp"]}
        for part in parts for m in part
    ]  # fmt: skip
    started = time.perf_counter()
    for a in range(0, len(rows), args.batch):
        mem.runtime.store.run_statement(FILL, {"rows": rows[a : a + args.batch], "user_id": bare_user,
                                           "user_key": user_key(bare_user)})  # fmt: skip
    bare_s = time.perf_counter() - started
    return {
        "tenant_memories": size,
        "ms_per_message": round(1000 * formation_s / args.messages, 2),
        "bare_ms_per_message": round(1000 * bare_s / args.messages, 2),
        "ratio_bare_to_formation": round(bare_s / formation_s, 3),
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
    }


def wipe(mem: GraphMemory, users: list[str]) -> None:
    for u in users:
        with mem.runtime.store.driver.session(database=mem.runtime.store.database) as session:
            session.run(  # CALL ... IN TRANSACTIONS needs an auto-commit transaction
                "MATCH (n) WHERE n.user_id = $u OR (n:User AND n.id = $u) "
                "CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS",
                {"u": u},
            ).consume()


def plot(results: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = [r["tenant_memories"] for r in results]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(sizes, [r["ms_per_message"] for r in results], "o-", label="formation (precomputed embeddings)")
    ax.plot(sizes, [r["bare_ms_per_message"] for r in results], "s--", label="bare UNWIND ... CREATE")
    ax.set_xscale("log")
    ax.set_xlabel("memories in the tenant")
    ax.set_ylabel("ms per message")
    ax.set_ylim(bottom=0)
    ax.set_title("Formation cost per message vs tenant size")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 3_000, 10_000, 30_000, 100_000])
    parser.add_argument("--messages", type=int, default=500, help="messages timed at each size")
    parser.add_argument("--batch", type=int, default=10, help="messages per add_messages call")
    parser.add_argument("--quick", action="store_true", help="sizes 500 1500 3000, 60 messages")
    parser.add_argument("--uri", default=None, help="a server you run (default: an own one under --home)")
    parser.add_argument("--home", type=Path, default=Path("benchmarks/cache/formation"))
    parser.add_argument("--bolt-port", type=int, default=7689)
    parser.add_argument("--http-port", type=int, default=7476)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/formation_scaling.json"))
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.messages = [500, 1_500, 3_000], 60
    rng = np.random.default_rng(7)
    user = f"bench-scaling-{uuid.uuid4().hex[:8]}"
    connect: dict[str, Any] = {"embedder": HashEmbedder()}
    server = None
    if args.uri:
        connect["uri"] = args.uri
    else:
        from graphmem.server import LocalServer

        server = LocalServer(args.home.resolve(), bolt_port=args.bolt_port, http_port=args.http_port)
        connect |= {"uri": server.start(progress=console.print).bolt_uri, "auth": server.credentials()}
    try:
        results = run_sizes(args, connect, rng, user)
    finally:
        if server is not None:
            server.stop()
    report_and_plot(args, results)


def run_sizes(
    args: argparse.Namespace, connect: dict[str, Any], rng: np.random.Generator, user: str
) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    with GraphMemory.connect(**connect) as mem:
        mem.init()
        have = 0
        try:
            with console.status("warming up (a throwaway tenant, untimed)"):
                step(mem, f"{user}-warmup", 0, args, rng)  # plans and caches: the first size is not cold
            for size in sorted(args.sizes):
                if size > have:
                    with console.status(f"filling the tenant to {size:,} memories"):
                        fill(mem, user, have, size, rng, 2_000)
                have = max(have, size) + args.messages
                results.append(step(mem, user, size, args, rng))
                console.print(results[-1])
        finally:
            if not args.keep:
                wipe(mem, [user, f"{user}-bare", f"{user}-warmup", f"{user}-warmup-bare"])
    return results


def report_and_plot(args: argparse.Namespace, results: list[dict[str, Any]]) -> None:
    costs = [r["ms_per_message"] for r in results]
    report = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "load": os.getloadavg()},
        "messages_per_size": args.messages,
        "batch": args.batch,
        "steps": results,
        "growth_largest_to_smallest": round(costs[-1] / costs[0], 3) if costs else None,
        "aim": "growth <= 1.5 and ratio_bare_to_formation >= 0.5",
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2))
    plot(results, args.out.with_suffix(".png"))
    console.print_json(json.dumps(report))


if __name__ == "__main__":
    main()
