"""Formation cost per message by tenant size (issue 14: flat within 1.5x from 1k to 100k memories).

    .venv/bin/python benchmarks/formation_scaling.py                      # tenants of 1k, 3k, 10k, 30k, 100k
    .venv/bin/python benchmarks/formation_scaling.py --quick              # 500, 1.5k, 3k (harness check)

One store holds one tenant of each size, filled first (filler memories written by a bare ``UNWIND ...
CREATE`` with the tenant's vector and full-text keys), so every size is timed on the same store: the
question is whether formation's cost grows with the *tenant*, and a store that grows between sizes mixes in
the server's own cost of a larger index (round 9: the bare write itself rose 3x from 30,000 to 100,000
memories in a growing store, and the background merges that follow a fill landed in whichever size came
next). Vectors are synthesised as in ``scale.py`` (real bge-small embeddings of 3,000 template sentences
plus seeded noise, ``benchmarks/cache/base-3000-*.npy``): random Gaussian vectors have no neighbourhood
structure and are the HNSW index's worst case, which real text is not. After the fill the script waits for
the indexes and for the machine to settle, warms the server up with one untimed step into a throwaway
tenant, then times ``--rounds`` rounds: in each, every tenant (in an order rotated per round, after two
untimed calls into each) gets ``--messages / --rounds`` messages through ``add_messages`` (``--batch`` turns
per call, a new session each, embeddings precomputed, so the number is formation itself: context reads,
neighbours, extraction, linking, one write transaction), and the same rows are written by a bare ``UNWIND
... CREATE`` into a twin tenant right after, as the floor (ratio = bare / formation; aim >= 0.5). The
machine's load is recorded per round. Writes JSON (``--out``) and a PNG plot beside it. Runs on its own
local server (``--home``, default ``benchmarks/cache/formation-scaling``, ports 7689/7476, started and
stopped here): its vectors are synthetic, and a store whose vectors come from a real model refuses another
embedder (``--uri`` targets a server you run, which must hold no other model's vectors); the tenants are
deleted afterwards unless ``--keep``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console

sys.path.insert(0, str(Path(__file__).parent))
import scale_recall
from machine import neo4j_version, stamp
from scale import SynthEmbedder

from graphmem import GraphMemory, OnnxEmbedder
from graphmem.formation.writer import user_key

console = Console()
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


def sentence(rng: np.random.Generator, i: int) -> str:
    words = rng.choice(WORDS, size=6)
    return f"Note {i}: I talked about the {words[0]} and the {words[1]} near {words[2]} with {words[3]}."


def fill(
    mem: GraphMemory, emb: SynthEmbedder, user: str, size: int, rng: np.random.Generator, chunk: int
) -> None:
    t0 = datetime(2020, 1, 1, tzinfo=UTC)
    for a in range(0, size, chunk):
        texts = [sentence(rng, i) for i in range(a, min(size, a + chunk))]
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


def timed_step(
    mem: GraphMemory, emb: SynthEmbedder, user: str, parts: list[list[dict[str, Any]]], tag: str
) -> tuple[float, float]:
    """Seconds for ``parts`` through ``add_messages`` into ``user``, and for the same rows by a bare
    ``UNWIND ... CREATE`` into its twin tenant (``<user>-bare``), one statement per call's worth."""
    emb.precompute([m["content"] for part in parts for m in part])
    started = time.perf_counter()
    for n, part in enumerate(parts):
        mem.add_messages(part, user_id=user, session_id=f"{tag}-{n}")
    formation_s = time.perf_counter() - started
    bare_user = f"{user}-bare"
    rows = [
        [{"id": str(uuid.uuid4()), "content": m["content"], "embedding": emb.embed([m["content"]])[0],
          "session_id": "b", "at": m["timestamp"]} for m in part]
        for part in parts
    ]  # fmt: skip
    started = time.perf_counter()
    for part_rows in rows:
        mem.runtime.store.run_statement(
            FILL, {"rows": part_rows, "user_id": bare_user, "user_key": user_key(bare_user)}
        )
    return formation_s, time.perf_counter() - started


def settle(limit_s: float = 300.0, below: float = 1.0) -> float:
    """Wait (up to ``limit_s``) for the 1-minute load to fall under ``below``: the server merges index
    segments in the background after a bulk fill. Returns the load it stopped at."""
    deadline = time.monotonic() + limit_s
    while os.getloadavg()[0] >= below and time.monotonic() < deadline:
        time.sleep(5)
    return round(os.getloadavg()[0], 2)


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
    ax.set_xlabel("memories in the tenant (one store holding every tenant)")
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
    parser.add_argument("--messages", type=int, default=500, help="messages timed per tenant, all rounds")
    parser.add_argument("--rounds", type=int, default=5, help="rounds over the tenants, order rotated")
    parser.add_argument("--batch", type=int, default=10, help="messages per add_messages call")
    parser.add_argument("--quick", action="store_true", help="sizes 500 1500 3000, 60 messages, 3 rounds")
    parser.add_argument("--uri", default=None, help="a server you run (default: an own one under --home)")
    parser.add_argument("--home", type=Path, default=Path("benchmarks/cache/formation-scaling"))
    parser.add_argument("--bolt-port", type=int, default=7689)
    parser.add_argument("--http-port", type=int, default=7476)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/formation_scaling.json"))
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.messages, args.rounds = [500, 1_500, 3_000], 60, 3
    texts = scale_recall.sentences(3000)
    emb = SynthEmbedder(scale_recall.base_vectors(OnnxEmbedder(), texts))
    connect: dict[str, Any] = {"embedder": emb}
    server = None
    if args.uri:
        connect["uri"] = args.uri
    else:
        from graphmem.server import LocalServer

        server = LocalServer(args.home.resolve(), bolt_port=args.bolt_port, http_port=args.http_port)
        connect |= {"uri": server.start(progress=console.print).bolt_uri, "auth": server.credentials()}
    try:
        report = run_sizes(args, connect, emb)
    finally:
        if server is not None:
            server.stop()
    write(args, report)


def run_sizes(args: argparse.Namespace, connect: dict[str, Any], emb: SynthEmbedder) -> dict[str, Any]:
    rng = np.random.default_rng(7)
    run = uuid.uuid4().hex[:8]
    users = {size: f"bench-scaling-{run}-{size}" for size in sorted(args.sizes)}
    per_round = max(args.batch, args.messages // args.rounds)
    times: dict[int, list[tuple[float, float]]] = {size: [] for size in users}
    loads: list[float] = []
    with GraphMemory.connect(**connect) as mem:
        mem.init()
        throwaway = f"bench-scaling-{run}-warmup"
        try:
            for size, user in users.items():
                with console.status(f"filling a tenant of {size:,} memories"):
                    fill(mem, emb, user, size, rng, 2_000)
            with console.status("waiting for the indexes and the machine to settle"):
                scale_recall.await_indexes(mem)
                settled = settle()
            timed_step(mem, emb, throwaway, messages(rng, per_round, args.batch, "w"), "w")  # untimed
            for size, user in users.items():  # untimed: each tenant's plans and pages (cold after the fill)
                timed_step(mem, emb, user, messages(rng, 2 * args.batch, args.batch, f"w{size}"), f"w{size}")
            order = list(users)
            for r in range(args.rounds):
                loads.append(round(os.getloadavg()[0], 2))
                for size in order[r % len(order) :] + order[: r % len(order)]:
                    parts = messages(rng, per_round, args.batch, f"r{r}s{size}")
                    times[size].append(timed_step(mem, emb, users[size], parts, f"r{r}s{size}"))
                console.print(f"round {r + 1}/{args.rounds} done (load {loads[-1]})")
            version = neo4j_version(mem.query)
        finally:
            if not args.keep:
                wipe(mem, [u for user in [*users.values(), throwaway] for u in (user, f"{user}-bare")])
    steps = []
    for size, pairs in times.items():
        formation, bare = sum(p[0] for p in pairs), sum(p[1] for p in pairs)
        n = per_round * len(pairs)
        per_msg = sorted(1000 * p[0] / per_round for p in pairs)
        steps.append({
            "tenant_memories": size,
            "ms_per_message": round(1000 * formation / n, 2),
            "ms_per_message_rounds": [round(1000 * p[0] / per_round, 2) for p in pairs],
            "ms_per_message_median_round": round(per_msg[len(per_msg) // 2], 2),
            "bare_ms_per_message": round(1000 * bare / n, 2),
            "ratio_bare_to_formation": round(bare / formation, 3),
        })  # fmt: skip
    costs = [s["ms_per_message"] for s in steps]
    return {
        **stamp(version),
        "store_memories": sum(users) + args.rounds * per_round * 2 * len(users),
        "messages_per_tenant": per_round * args.rounds,
        "rounds": args.rounds,
        "batch": args.batch,
        "load_after_fill": settled,
        "load_per_round": loads,
        "steps": steps,
        "growth_largest_to_smallest": round(costs[-1] / costs[0], 3) if costs else None,
        "growth_max_to_min": round(max(costs) / min(costs), 3) if costs else None,
        "aim": "growth <= 1.5 and ratio_bare_to_formation >= 0.5",
    }


def write(args: argparse.Namespace, report: dict[str, Any]) -> None:
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2))
    plot(report["steps"], args.out.with_suffix(".png"))
    console.print_json(json.dumps(report))


if __name__ == "__main__":
    main()
