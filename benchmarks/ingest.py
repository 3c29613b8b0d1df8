"""Batched ingestion speed: graphmem's formation path against a bare ``UNWIND ... CREATE`` of the same rows.

    .venv/bin/python benchmarks/ingest.py --memories 2000 --batch 500 --e2e 2000 --e2e-batch 1000

1. precomputed: ``add_messages`` with every embedding computed beforehand (turn texts and entity names),
   so the number measures formation itself: context reads, extraction, linking, facts, one transaction
   per batch;
2. bare: the same rows (same properties and vectors) written by one ``UNWIND ... CREATE`` per batch,
   in the same run, as the floor to compare with; the two arms alternate over ``--rounds`` (3) runs, each
   into a fresh tenant, and the medians are compared (one pair of runs put the ratio anywhere from 0.33 to
   0.51 on one afternoon, mostly through the bare arm);
3. end to end: ``add_messages`` with the default embedder (bge-small INT8 on onnxruntime, all cores) and
   extraction on, in batches of ``--e2e-batch`` messages (messages/s, embedding included).

Turn texts come from the LoCoMo file when present (else synthetic). Results go to stdout and --out (JSON).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress

from graphmem import GraphMemory, Settings
from graphmem.embedding import Embedder, embedder_name
from graphmem.formation.writer import MemoryDraft, embedding_text, user_key
from graphmem.memory import default_embedder
from graphmem.model import fact_patterns
from graphmem.model.extraction import PatternExtractor
from graphmem.model.keys import context_text

console = Console()
BARE = """
UNWIND $rows AS row
CREATE (m:Memory {id: row.id})
SET m += row.props, m.user_id = row.user_id, m.content = row.content
WITH m, row
CALL db.create.setNodeVectorProperty(m, 'embedding', row.embedding)
CALL db.create.setNodeVectorProperty(m, 'context_embedding', row.context_embedding)
RETURN count(m) AS n
"""


class PrecomputedEmbedder:
    """Serves vectors computed before the clock starts; counts texts it had to embed anyway."""

    def __init__(self, inner: Embedder, texts: Sequence[str]) -> None:
        self.inner = inner
        self.name = getattr(
            inner, "name", type(inner).__name__
        )  # the store's vector space is the inner one's
        unique = sorted(set(texts))
        self.cache = dict(zip(unique, inner.embed(unique), strict=True))
        self.misses = 0

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        missing = [t for t in texts if t not in self.cache]
        if missing:
            self.misses += len(missing)
            self.cache.update(zip(missing, self.inner.embed(missing), strict=True))
        return [self.cache[t] for t in texts]


def texts_from(data: Path, n: int) -> list[str]:
    if data.exists():
        turns = [
            t["text"]
            for sample in json.loads(data.read_text())
            for key, session in sample["conversation"].items()
            if key.startswith("session_") and not key.endswith("date_time")
            for t in session
            if t.get("text")
        ]
    else:
        turns = [
            f"Note {i}: I went to the market in Town{i % 50} and bought {i % 7} apples." for i in range(n)
        ]
    return [turns[i % len(turns)] + ("" if i < len(turns) else f" (again, {i})") for i in range(n)]


def contexts_of(texts: list[str], size: int) -> list[str]:
    """The context keys formation embeds (previous turn + this turn; each batch is a new session)."""
    return [
        context_text(None if i % size == 0 else (texts[i - 1], "Sam"), t, "Sam") for i, t in enumerate(texts)
    ]


def batches(texts: list[str], size: int) -> list[list[dict[str, Any]]]:
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    msgs = [
        {"role": "user", "name": "Sam", "content": t, "timestamp": t0 + timedelta(minutes=i)}
        for i, t in enumerate(texts)
    ]
    return [msgs[i : i + size] for i in range(0, len(msgs), size)]


def run_formation(mem: GraphMemory, parts: list[list[dict[str, Any]]], user: str, label: str) -> float:
    started = time.perf_counter()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(label, total=sum(len(p) for p in parts))
        for n, part in enumerate(parts):
            mem.add_messages(part, user_id=user, session_id=f"s{n}")
            progress.advance(task, len(part))
    return time.perf_counter() - started


def run_bare(
    mem: GraphMemory, parts: list[list[dict[str, Any]]], embedder: PrecomputedEmbedder, user: str
) -> float:
    now = datetime.now(UTC)
    size = len(parts[0]) if parts else 1
    flat = [m["content"] for part in parts for m in part]
    context_vectors = embedder.embed(contexts_of(flat, size))  # before the clock; computes any missing
    prepared = [
        [
            {
                "id": str(uuid.uuid4()),
                "user_id": user,
                "content": m["content"],
                "context_embedding": context_vectors[n * size + j],
                "embedding": embedder.cache[
                    embedding_text(
                        MemoryDraft(content=m["content"], user_id=user, role="user", speaker="Sam"),
                        fact_patterns.extract(m["content"]),
                    )
                ],
                "props": {
                    "memory_type": "episodic",
                    "priority": "P2",
                    "importance": 0.5,
                    "strength": 1.0,
                    "retention": 1.0,
                    "access_count": 0,
                    "status": "active",
                    "layer": "working",
                    "source": "user",
                    "confidence": 1.0,
                    "tags": [],
                    "metadata": "{}",
                    "session_id": f"s{n}",
                    "role": "user",
                    "speaker": "Sam",
                    "user_key": user_key(user),
                    "occurred_at": m["timestamp"],
                    "created_at": now,
                    "recorded_at": now,
                    "version": 1,
                },
            }
            for j, m in enumerate(part)
        ]
        for n, part in enumerate(parts)
    ]
    started = time.perf_counter()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("bare UNWIND ... CREATE", total=sum(len(p) for p in prepared))
        for rows in prepared:
            mem.runtime.store.run_statement(BARE, {"rows": rows})
            progress.advance(task, len(rows))
    return time.perf_counter() - started


def wipe(mem: GraphMemory, users: list[str]) -> None:
    for u in users:
        with mem.runtime.store.driver.session(database=mem.runtime.store.database) as session:
            session.run(  # CALL ... IN TRANSACTIONS needs an auto-commit transaction
                "MATCH (n) WHERE n.user_id = $u OR (n:User AND n.id = $u) "
                "CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS",
                {"u": u},
            ).consume()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--memories", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--e2e", type=int, default=2000, help="messages for the end-to-end run")
    parser.add_argument(
        "--e2e-batch", type=int, default=1000, help="messages per add_messages call (end to end)"
    )
    parser.add_argument("--data", type=Path, default=Path("../shared/data/locomo/locomo-dev.json"))
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/ingest.json"))
    parser.add_argument("--keep", action="store_true", help="keep the benchmark's users afterwards")
    parser.add_argument(
        "--rounds", type=int, default=3, help="bare and formation runs, alternated (medians reported)"
    )
    args = parser.parse_args(argv)
    run = uuid.uuid4().hex[:8]
    load_at_start = [round(x, 2) for x in os.getloadavg()]
    texts = texts_from(args.data, args.memories)
    inner = default_embedder(Settings())
    names = [m.name for ex in PatternExtractor().extract(texts) for m in ex.entities]
    embedded = [
        embedding_text(
            MemoryDraft(content=t, user_id="u", role="user", speaker="Sam"), fact_patterns.extract(t)
        )
        for t in texts
    ]
    contexts = contexts_of(texts, args.batch)
    with console.status("precomputing embeddings"):
        pre = PrecomputedEmbedder(inner, embedded + names + contexts)
    users = {"e2e": f"bench-e2e-{run}"}
    parts = batches(texts, args.batch)
    rounds: list[dict[str, float]] = []
    with GraphMemory.connect(embedder=pre) as mem:
        mem.init()
        for n in range(args.rounds):  # the two arms alternate, each into a fresh tenant: the machine's drift
            timed: dict[
                str, float
            ] = {}  # during a run falls on both (the bare arm alone moved 0.5-0.85 ms a row)
            for arm in ("bare", "formation") if n % 2 == 0 else ("formation", "bare"):
                user = users[f"{arm}-{n}"] = f"bench-{arm}-{n}-{run}"
                if arm == "bare":
                    timed[arm] = run_bare(mem, parts, pre, user)
                else:
                    timed[arm] = run_formation(
                        mem, parts, user, f"formation (precomputed embeddings), round {n + 1}"
                    )
            rounds.append(timed)
        counts = mem.query(
            "MATCH (m:Memory {user_id: $u}) OPTIONAL MATCH (m)-[r]->() RETURN count(DISTINCT m) AS memories,"
            " count(r) AS edges",
            {"u": users["formation-0"]},
        )[0]
    bare_s = statistics.median(r["bare"] for r in rounds)
    formation_s = statistics.median(r["formation"] for r in rounds)
    every = texts_from(args.data, args.memories + args.e2e)
    e2e_texts = [f"{t} [{run}]" for t in every[len(every) - args.e2e :]]  # --e2e 0: none
    with GraphMemory.connect(embedder=inner) as mem:
        e2e_s = run_formation(mem, batches(e2e_texts, args.e2e_batch), users["e2e"], "end to end")
        if not args.keep:
            wipe(mem, list(users.values()))
    report = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "load_at_start": load_at_start,
            "load_at_end": [round(x, 2) for x in os.getloadavg()],
        },
        "embedder": embedder_name(inner),
        "memories": args.memories,
        "batch": args.batch,
        "formation_precomputed": {
            "seconds": round(formation_s, 2),
            "memories_per_s": round(args.memories / formation_s, 1),
            "stored": counts["memories"],
            "edges": counts["edges"],
            "embedder_misses": pre.misses,
        },
        "bare_unwind_create": {
            "seconds": round(bare_s, 2),
            "memories_per_s": round(args.memories / bare_s, 1),
        },
        "ratio_formation_to_bare": round(bare_s / formation_s, 3),
        "rounds": [
            {
                "bare_s": round(r["bare"], 2),
                "formation_s": round(r["formation"], 2),
                "ratio": round(r["bare"] / r["formation"], 3),
            }
            for r in rounds
        ],
        "end_to_end": {
            "messages": args.e2e,
            "batch": args.e2e_batch,
            "seconds": round(e2e_s, 2),
            "messages_per_s": round(args.e2e / e2e_s, 1) if args.e2e else None,
        },
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2))
    console.print_json(json.dumps(report))


if __name__ == "__main__":
    main()
