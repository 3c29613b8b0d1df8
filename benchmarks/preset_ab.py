"""Two or more values of one retrieval-preset field, recalled on ONE pooled tenant, alternated per question.

The LongMemEval-format harness (``longmemeval.py --set``) forms a fresh tenant for each run, and two
formations of the same turns differ by about ±0.004 recall_all@5; this script forms the pooled haystack once
and asks every question under each value in turn, so that quality and time compare on the same memories.
Reports session recall_all@5 per question type and the recall time (p50/p95, query embedding included)
for each value. Example (round 20, the entity hub cut-off)::

    python benchmarks/preset_ab.py --data ../shared/data/locomo/locomo-dev.json --from-locomo 5 \\
        --field max_fan --values 50 20 10 --out benchmarks/results/max_fan_pooled.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import uuid
from collections import defaultdict
from pathlib import Path
from typing import Any

from baselines import CachingEmbedder
from longmemeval import ingest_pooled, load, score_question
from machine import neo4j_version, stamp

from graphmem import GraphMemory, Settings
from graphmem.config import RetrievalPreset
from graphmem.embedding import BGE_SMALL, make_embedder
from graphmem.retrieval.recall import RecallRequest, run_search


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--from-locomo", type=int, default=5, help="pool the first N LoCoMo conversations")
    parser.add_argument("--field", required=True, help="a RetrievalPreset field")
    parser.add_argument("--values", nargs="+", required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    # validated as locomo.py / longmemeval.py validate --set: an unknown field or a bad value is refused
    presets = {value: RetrievalPreset.model_validate({args.field: value}) for value in args.values}
    items, _ = load(args.data, None, args.from_locomo)
    user = f"ab-{uuid.uuid4().hex[:8]}-pooled"
    recall_all: dict[str, dict[str, list[float]]] = {v: defaultdict(list) for v in presets}
    times: dict[str, list[float]] = {v: [] for v in presets}
    embedder = CachingEmbedder(make_embedder(BGE_SMALL))
    with GraphMemory.connect(embedder=embedder, settings=Settings(record_recalls=False)) as mem:
        mem.init()
        try:
            hays = ingest_pooled(mem, items, user)
            for hay in hays:
                if not hay.gold_sessions:
                    continue
                q = hay.query
                for value, preset in presets.items():
                    started = time.perf_counter()
                    ranked, _ = run_search(
                        mem.runtime,
                        RecallRequest(q.text, q.user_id, 50, q.as_of, 1, None, False, preset=preset),
                    )
                    times[value].append((time.perf_counter() - started) * 1000)
                    ids = [h.id for h in ranked.hits]
                    score = score_question(ids, hay.session_of, hay.gold_sessions, hay.gold_turns, (5,))
                    for kind_ in (hay.question_type, "overall"):
                        recall_all[value][kind_].append(score["recall_all@5"])
            version = neo4j_version(mem.query)
        finally:
            mem.users.delete(user)
    results: dict[str, dict[str, Any]] = {
        value: {
            "recall_all@5": {t: round(statistics.fmean(s), 3) for t, s in sorted(recall_all[value].items())},
            "ms_p50": round(statistics.median(times[value]), 1),
            "ms_p95": round(sorted(times[value])[int(0.95 * len(times[value]))], 1),
            "questions": len(times[value]),
        }
        for value in presets
    }
    out = {
        **stamp(version),
        "field": args.field,
        "tenant_memories": len(hays[0].session_of),
        "results": results,
    }
    args.out.write_text(json.dumps(out, indent=2) + "\n")
    for value, r in results.items():
        print(
            f"{args.field}={value}: recall_all@5 {r['recall_all@5']['overall']}, "
            f"multi-session {r['recall_all@5'].get('multi-session')}, p50 {r['ms_p50']} ms"
        )


if __name__ == "__main__":
    main()
