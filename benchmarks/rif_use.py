"""What an agent's use costs recall: LoCoMo questions asked as an agent asks them (recalls that reinforce what
they return and inhibit its competitors), then the questions it did not ask, with retrieval-induced
forgetting on and off.

    .venv/bin/python benchmarks/rif_use.py --conversations 3 --out benchmarks/results/rif_use.json

Per arm (RIF on: the default settings; off: ``retrieval_induced_forgetting=False``), the first
``--conversations`` development conversations are formed into fresh tenants. Their questions with evidence
are split in two (every other one): evidence recall@10 (categories 1-4, ``reinforce=False``) of both halves
is measured, then the odd half is recalled ``--passes`` times with ``reinforce=True`` (the agent's use), then
both halves are measured again. The change of the even (unpractised) half is what using the memory costs the
questions it was not used for; ``benchmarks/rif_experiment.py`` measures the effect RIF exists for. The
tenants are deleted at the end. Quality does not depend on the machine's load; run it alone anyway.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path
from typing import Any

from locomo import questions_of
from locomo_ingest import ingest_locomo
from machine import neo4j_version, stamp

from graphmem import GraphMemory, Settings

DATA = Path("../shared/data/locomo/locomo-dev.json")
ARMS = {"rif_on": True, "rif_off": False}
INHIBITED = "MATCH (m:Memory) WHERE m.user_id IN $us AND m.inhibition > 0 RETURN count(m) AS n"


def recall_at_10(mem: GraphMemory, queries: list[Any], gold: dict[str, Any], *, reinforce: bool) -> float:
    """Mean evidence recall@10 of ``queries`` (categories 1-4), each recalled once."""
    values = []
    for q in queries:
        category, evidence = gold[q.qid]
        hits = mem.recall(q.text, user_id=q.user_id, k=10, reinforce=reinforce)
        if category in (1, 2, 3, 4):
            values.append(len(evidence & {h.memory.id for h in hits}) / len(evidence))
    return round(statistics.fmean(values), 4)


def arm(data_path: Path, data: list[dict[str, Any]], rif: bool, passes: int) -> dict[str, Any]:
    settings = Settings(record_recalls=False, retrieval_induced_forgetting=rif, recall_effects="inline")
    with GraphMemory.connect(settings=settings) as mem:
        ingested = ingest_locomo(mem, data_path, user_prefix=f"rif-use-{'on' if rif else 'off'}-")
        users = [c["user_id"] for c in ingested["conversations"].values()]
        try:
            queries, gold = questions_of(data, ingested)
            asked, other = queries[1::2], queries[0::2]
            before = {
                h: recall_at_10(mem, q, gold, reinforce=False)
                for h, q in (("asked", asked), ("other", other))
            }
            for _ in range(passes):
                recall_at_10(mem, asked, gold, reinforce=True)
            after = {
                h: recall_at_10(mem, q, gold, reinforce=False)
                for h, q in (("asked", asked), ("other", other))
            }
            inhibited = mem.query(
                "MATCH (m:Memory) WHERE m.user_id IN $us AND m.inhibition > 0 RETURN count(m) AS n",
                {"us": users},
            )[0]["n"]
            return {
                "questions": {"asked": len(asked), "other": len(other)},
                "before": before,
                "after": after,
                "change": {h: round(after[h] - before[h], 4) for h in before},
                "memories": ingested["memories"],
                "memories_inhibited": int(inhibited),
                "version": neo4j_version(mem.query),
            }
        finally:
            for user in users:
                mem.users.delete(user)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--conversations", type=int, default=3)
    parser.add_argument("--passes", type=int, default=1, help="times the agent asks its half")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    data = json.loads(args.data.read_text())[: args.conversations]
    with tempfile.TemporaryDirectory() as tmp:
        subset = Path(tmp) / "conversations.json"
        subset.write_text(json.dumps(data))
        arms = {
            name: arm(subset, data, rif, args.passes) for name, rif in (("rif_on", True), ("rif_off", False))
        }
    version = arms["rif_on"].pop("version")
    arms["rif_off"].pop("version")
    result = {**stamp(version, conversations=args.conversations, passes=args.passes), **arms}
    for name, r in arms.items():
        print(
            f"{name}: questions not asked R@10 {r['before']['other']:.3f} -> {r['after']['other']:.3f} "
            f"({r['change']['other']:+.3f}); asked {r['before']['asked']:.3f} -> {r['after']['asked']:.3f} "
            f"({r['change']['asked']:+.3f}); {r['memories_inhibited']} of {r['memories']} memories inhibited"
        )
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
