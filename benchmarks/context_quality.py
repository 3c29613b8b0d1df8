"""What ``context()`` gives an agent on LoCoMo: the evidence it shows, and what it says when it knows nothing.

    .venv/bin/python benchmarks/context_quality.py --data ../shared/data/locomo/locomo-dev.json \
        --user-prefix r30- --out benchmarks/results/context_quality.json

Reads a store that ``benchmarks/locomo.py`` formed (its ``--user-prefix``; the conversations are not ingested
here). Every category 1-4 question with evidence is put to ``context()`` (default budget 2,000 tokens, k 10,
reinforce off) for its own conversation's user, and again for the next conversation's user (another pair of
people: a question that user's memories cannot answer). Reported:

- **evidence shown**: of the evidence turns of the own questions, the share whose memory the context lists
  (among its recalled memories or its recent history), and the same among the memories it calls relevant;
- **questions whose context hides evidence recall found**: the share of own questions with an evidence turn
  among recall's best 10 that the context does not list;
- **unanswerable questions**: the share whose context says that no memory clearly answers (the notice), and
  the share that lists a memory as relevant;
- the same under the rule before round 31 (recalled memories listed only when one reached confidence 0.5,
  otherwise none), derived from the same contexts: the rule's inputs are the hits' confidences, which the
  item kinds record;
- the context's tokens (mean, p95);
- with ``--facts N``: the same after each user was given N facts no question is about (``bench-filler/<i>``,
  a reminder each, set through ``facts.set``; deleted again at the end), as an assistant's user gathers
  them: whether they crowd the memories out of the budget;
- its latency (p50, p95, query embedding included) and round trips to Neo4j (counted by a wrapper around the
  store, as ``tests/test_recall_pipeline.py`` counts them; with the recall record and reinforcement off, as
  here, a context writes nothing, so the effects' transaction is not among them).

Writes JSON with the machine's load at start and end. Run it alone.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from locomo import MAIN, evidence_ids, reuse_ingestion
from machine import neo4j_version, stamp
from roundtrips import CountingStore

from graphmem import GraphMemory, Settings

LISTED = ("memory", "possible", "history")


def _ask(mem: GraphMemory, store: CountingStore, question: str, user: str) -> dict[str, Any]:
    store.calls.clear()
    started = time.perf_counter()
    ctx = mem.context(question, user_id=user, k=10, reinforce=False)
    return {
        "ms": (time.perf_counter() - started) * 1000,
        "round_trips": len(store.calls),
        "relevant": [i.memory_id for i in ctx.kept if i.kind == "memory"],
        "listed": [i.memory_id for i in ctx.kept if i.kind in LISTED],
        "recalled": [i.memory_id for i in ctx.items if i.kind in ("memory", "possible")],
        "notice": any(i.kind == "notice" for i in ctx.kept),
        "tokens": ctx.tokens,
    }


def _before(asked: dict[str, Any]) -> set[str]:
    """What the rule before round 31 listed: every recalled memory when one was relevant, else none (and the
    recent history either way)."""
    history = set(asked["listed"]) - set(asked["recalled"])
    return set(asked["listed"]) if asked["relevant"] else history


def _questions(
    mem: GraphMemory, store: CountingStore, data: list[dict[str, Any]], ingested: dict[str, Any]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Each answerable question put to its own conversation's user, and to the next conversation's."""
    own: list[dict[str, Any]] = []
    foreign: list[dict[str, Any]] = []
    for i, sample in enumerate(data):
        info = ingested["conversations"][sample["sample_id"]]
        other = ingested["conversations"][data[(i + 1) % len(data)]["sample_id"]]
        for qa in sample["qa"]:
            if int(qa["category"]) not in MAIN:
                continue
            gold = {info["dia_to_memory"][e] for e in evidence_ids(qa, set(info["dia_to_memory"]))}
            if not gold:
                continue
            asked = _ask(mem, store, qa["question"], info["user_id"])
            own.append({**asked, "gold": sorted(gold)})
            if other["user_id"] != info["user_id"]:
                foreign.append(_ask(mem, store, qa["question"], other["user_id"]))
    return own, foreign


FILLER = "bench-filler"


def fill(mem: GraphMemory, users: list[str], n: int) -> None:
    """Give each user ``n`` facts no question is about (``bench-filler/<i>``: a reminder each), as a user of
    an assistant gathers them (project states, preferences, reminders); 0 deletes them again, with their
    versions and classification records (the store is kept for other runs; their audit events stay)."""
    for user in users:
        for label in ("Fact", "Conflict"):  # the versions, and the record of each classification
            mem.runtime.store.run_statement(
                f"MATCH (n:{label}) WHERE n.user_id = $u AND n.key STARTS WITH $p DETACH DELETE n",
                {"u": user, "p": FILLER},
            )
        for i in range(n):
            mem.facts.set(user, f"{FILLER}/{i}", f"renew the parking permit of bay {i} by the {i % 28 + 1}th")


def run(args: argparse.Namespace) -> dict[str, Any]:
    data = json.loads(Path(args.data).read_text())[: args.limit]
    started = time.perf_counter()
    with GraphMemory.connect(settings=Settings(record_recalls=False)) as client:
        store = CountingStore(client.runtime.store)  # type: ignore[arg-type]
        mem = GraphMemory(store, client.embedder, client.runtime.settings)  # type: ignore[arg-type]
        ingested = reuse_ingestion(mem, data, args.user_prefix)
        if ingested is None:
            raise SystemExit(
                f"no store under the prefix {args.user_prefix!r}: form one with benchmarks/locomo.py"
            )
        fill(mem, [c["user_id"] for c in ingested["conversations"].values()], args.facts)
        try:
            own, foreign = _questions(mem, store, data, ingested)
        finally:
            fill(mem, [c["user_id"] for c in ingested["conversations"].values()], 0)
        header = stamp(neo4j_version(mem.query), user_prefix=args.user_prefix, facts=args.facts)
    evidence = sum(len(q["gold"]) for q in own)

    def shown(key: str | None) -> float:
        def listed(q: dict[str, Any]) -> set[str]:
            return _before(q) if key is None else set(q[key])

        return sum(len(set(q["gold"]) & listed(q)) for q in own) / evidence

    def hidden(key: str | None) -> float:
        found = [q for q in own if set(q["gold"]) & set(q["recalled"])]
        lost = [
            q
            for q in found
            if set(q["gold"]) & set(q["recalled"]) - (_before(q) if key is None else set(q[key]))
        ]
        return len(lost) / len(found)

    tokens = sorted(q["tokens"] for q in own + foreign)
    latency = sorted(q["ms"] for q in own + foreign)
    trips = [q["round_trips"] for q in own + foreign]
    return {
        "stamp": header,
        "seconds": round(time.perf_counter() - started, 1),
        "questions": len(own),
        "evidence_turns": evidence,
        "evidence_shown": round(shown("listed"), 4),
        "evidence_shown_as_relevant": round(shown("relevant"), 4),
        "evidence_shown_before": round(shown(None), 4),
        "questions_hiding_recalled_evidence": round(hidden("listed"), 4),
        "questions_hiding_recalled_evidence_before": round(hidden(None), 4),
        "unanswerable": len(foreign),
        "unanswerable_with_notice": round(statistics.fmean(q["notice"] for q in foreign), 4),
        "unanswerable_listing_a_relevant_memory": round(
            statistics.fmean(bool(q["relevant"]) for q in foreign), 4
        ),
        "answerable_with_notice": round(statistics.fmean(q["notice"] for q in own), 4),
        "tokens_mean": round(statistics.fmean(tokens), 1),
        "tokens_p95": tokens[int(0.95 * (len(tokens) - 1))],
        "context_ms_p50": round(latency[len(latency) // 2], 1),
        "context_ms_p95": round(latency[int(0.95 * (len(latency) - 1))], 1),
        "round_trips_mean": round(statistics.fmean(trips), 3),
        "round_trips_max": max(trips),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--user-prefix", required=True, help="the store benchmarks/locomo.py formed")
    parser.add_argument("--limit", type=int, default=None, help="first N conversations")
    parser.add_argument(
        "--facts", type=int, default=0, help="give each user N facts no question is about first (then delete)"
    )
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    report = run(args)
    print(json.dumps({k: v for k, v in report.items() if k != "stamp"}, indent=1))
    if args.out:
        args.out.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
