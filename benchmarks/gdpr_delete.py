"""How long ``export_user`` and ``delete_user`` take for one user with many memories, on the local server.

    nice -n 10 .venv/bin/python benchmarks/gdpr_delete.py --memories 20000

The user's graph is written with the queries formation uses (``formation_write``: session tails, memories
(both vectors) and FOLLOWS; ``fact_write``) in batches of 1,000: sessions of 50 memories chained by FOLLOWS
(since round 47 the statement also links each batch's first session to the user's last memory stored before
it, as formation does: 40,980 relationships for 20,000 memories against 40,600 in the round-26 file), one
fact version per 20 memories, synthetic unit vectors (no embedder: the deletion never embeds;
``tests/test_gdpr_bench.py`` builds a small user the same way). The other users of the server (other tests,
other work) stay: the point is that the lookups are indexed, so the time depends on this user's size, not on
the database's. ``--baseline`` also builds a second, identical user
and deletes it with the statements delete_user used before (label-less ``MATCH (n) WHERE n.user_id = ...``
scans, as of commit d346f33) for comparison. Result: benchmarks/results/gdpr_delete.json.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from machine import neo4j_version, stamp

from graphmem import GraphMemory, Settings
from graphmem.embedding import BGE_SMALL
from graphmem.formation.writer import formation_params, session_uid, user_key
from graphmem.temporal.facts import fact_params

BATCH = 1000
SESSION = 50
DIMENSION = 384
OUT = Path(__file__).parent / "results" / "gdpr_delete.json"
# What delete_user ran before its lookups were indexed (commit d346f33): two reads and the batched deletion.
BASELINE = [
    "MATCH (n) WHERE n.user_id = $user_id AND NOT n:AuditEvent "
    "RETURN coalesce(n.id, n.uid, elementId(n)) AS key, labels(n) AS labels, "
    "n {.*, embedding: null} AS props",
    "MATCH (a)-[r]->(b) WHERE (a.user_id = $user_id OR b.user_id = $user_id) AND NOT a:AuditEvent "
    "AND NOT b:AuditEvent RETURN type(r) AS type",
    "MATCH (n) WHERE n.user_id = $user_id AND NOT n:AuditEvent CALL (n) { DETACH DELETE n } "
    "IN TRANSACTIONS OF 500 ROWS RETURN count(*) AS deleted",
]


class NoEmbedder:
    """The deletion path never embeds; connect() wants an embedder."""

    dimension = DIMENSION
    name = BGE_SMALL  # the default embedder's space: init() accepts a store that holds its vectors

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        raise AssertionError("not used")


def vector(rng: random.Random) -> list[float]:
    v = [rng.gauss(0.0, 1.0) for _ in range(DIMENSION)]
    norm = sum(x * x for x in v) ** 0.5
    return [x / norm for x in v]


def build(mem: GraphMemory, user_id: str, n: int, rng: random.Random) -> None:
    store = mem.runtime.store
    start = datetime.now(UTC) - timedelta(days=365)
    for first in range(0, n, BATCH):
        now = datetime.now(UTC)
        rows, sessions, follows, facts = [], {}, [], []
        for i in range(first, min(n, first + BATCH)):
            sid = f"s{i // SESSION}"
            at = start + timedelta(minutes=i)
            row = {
                "id": str(uuid.uuid4()),
                "user_id": user_id,
                "content": f"Synthetic memory {i} of session {sid}: I walked the dog and had tea.",
                "embedding": vector(rng),
                "context_embedding": vector(rng),  # formation_write sets both vector properties
                "session_uid": session_uid(user_id, sid),
                "props": {
                    "user_key": user_key(user_id),
                    "session_id": sid,
                    "memory_type": "episodic",
                    "priority": "P2",
                    "status": "active",
                    "importance": 0.5,
                    "strength": 1.0,
                    "access_count": 0,
                    "occurred_at": at,
                    "created_at": at,
                },
            }
            if rows and rows[-1]["props"]["session_id"] == sid:
                follows.append(
                    {
                        "src": rows[-1]["id"],
                        "dst": row["id"],
                        "weight": 1.0,
                        "kind": "session",
                        "valid_from": at,
                    }
                )
            rows.append(row)
            sessions.setdefault(
                sid,
                {
                    "uid": session_uid(user_id, sid),
                    "user_id": user_id,
                    "session_id": sid,
                    "agent_id": None,
                    "first_id": row["id"],
                },
            )["last_id"] = row["id"]
            if i % 20 == 0:
                facts.append(
                    {
                        "id": str(uuid.uuid4()),
                        "user_id": user_id,
                        "agent_id": None,
                        "key": f"k{i}",
                        "value": "v",
                        "fact_type": "custom",
                        "valid_from": at,
                        "valid_to": None,
                        "status": "current",
                        "source": "user",
                        "confidence": 1.0,
                        "memory_id": row["id"],
                        "version": 1,
                        "expire": False,
                    }
                )

        def work(tx: Any) -> None:
            sessions_ = list(sessions.values())  # noqa: B023
            params = formation_params(user_id, now, sessions=sessions_, rows=rows, follows=follows)  # noqa: B023
            tx.run("formation_write", **params)
            tx.run("fact_write", **fact_params(user_id, now, create=facts))  # noqa: B023

        store.unit_of_work(work)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--baseline", action="store_true", help="also time the pre-index statements")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    user_id = f"bench-gdpr-{uuid.uuid4()}"
    with GraphMemory.connect(settings=Settings(), embedder=NoEmbedder()) as mem:
        mem.init()
        total = mem.query("MATCH (n) RETURN count(n) AS n")[0]["n"]
        started = time.perf_counter()
        build(mem, user_id, args.memories, rng)
        built = time.perf_counter() - started
        started = time.perf_counter()
        exported = mem.users.export(user_id)
        export_s = time.perf_counter() - started
        started = time.perf_counter()
        report = mem.users.delete(user_id)
        delete_s = time.perf_counter() - started
        remnants = mem.query(
            "MATCH (n) WHERE n.user_id = $u AND NOT n:AuditEvent RETURN count(n) AS n", {"u": user_id}
        )
        started = time.perf_counter()
        again = mem.users.delete(user_id)
        again_s = time.perf_counter() - started
        baseline: dict[str, Any] = {}
        if args.baseline:
            old_user = f"bench-gdpr-{uuid.uuid4()}"
            build(mem, old_user, args.memories, rng)
            started = time.perf_counter()
            with mem.runtime.store.driver.session(database=mem.runtime.store.database) as session:  # type: ignore[attr-defined]
                for statement in BASELINE:
                    session.run(statement, user_id=old_user).consume()
            baseline = {"baseline_delete_seconds": round(time.perf_counter() - started, 2)}
            mem.users.delete(old_user)  # the tombstone, and anything the old statements missed
        result = {
            **stamp(neo4j_version(mem.query)),
            "nodes_in_database_before": total,
            "memories": args.memories,
            "build_seconds": round(built, 2),
            "export_seconds": round(export_s, 2),
            "exported_memories": len(exported["memories"]),
            "exported_relationships": len(exported["relationships"]),
            "delete_seconds": round(delete_s, 2),
            "deleted_nodes": report.nodes,
            "deleted_relationships": report.relationships,
            "remnants": remnants[0]["n"],
            "second_delete_seconds": round(again_s, 3),
            "second_delete_nodes": again.deleted,
            **baseline,
        }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
