"""Confidence on small tenants: does the top hit's confidence tell a new user's answerable questions from
questions their memories cannot answer?

Each LoCoMo development conversation's first N turns (``--sizes``) become one tenant (one session, through
``add_messages``). Answerable: that conversation's questions (categories 1-4) whose evidence turns are all
among those N. Not answerable: ``--others`` questions drawn from the other conversations. Every question is
recalled twice (k = 3, ``reinforce=False``), question by question: as built, where a vector pool shorter than
``pool_k`` is filled from the reference sentences (graphmem.retrieval.reference), and with that filling off
(``reference.for_pool`` replaced by one that returns nothing: the code before round 30). Reports per size the
AUROC of the top hit's confidence (answerable vs not) and the share of each side at or above 0.5, the
threshold at which ``context()`` lists memories.

    .venv/bin/python benchmarks/confidence_small.py --data ../shared/data/locomo/locomo-dev.json
"""

from __future__ import annotations

import argparse
import json
import random
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from machine import neo4j_version, stamp

from graphmem import GraphMemory, Settings
from graphmem.retrieval import reference

RESULTS = Path(__file__).parent / "results"


def turns_of(conversation: dict[str, Any]) -> list[dict[str, Any]]:
    sessions = sorted(
        (k for k in conversation if k.startswith("session_") and not k.endswith("date_time")),
        key=lambda k: int(k.split("_")[1]),
    )
    return [t for k in sessions for t in conversation[k]]


def auroc(pos: Sequence[float], neg: Sequence[float]) -> float | None:
    if not pos or not neg:
        return None
    wins = sum((p > q) + 0.5 * (p == q) for p in pos for q in neg)
    return round(wins / (len(pos) * len(neg)), 3)


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    pos = [r for r in rows if r["answerable"]]
    neg = [r for r in rows if not r["answerable"]]

    def share(side: list[dict[str, Any]], arm: str) -> float | None:
        return round(sum(r[arm] >= 0.5 for r in side) / len(side), 3) if side else None

    return {
        "answerable": len(pos),
        "not_answerable": len(neg),
        **{
            f"{arm}_{k}": v
            for arm in ("before", "after")
            for k, v in (
                ("auroc", auroc([r[arm] for r in pos], [r[arm] for r in neg])),
                ("answerable_at_05", share(pos, arm)),
                ("not_answerable_at_05", share(neg, arm)),
            )
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data/locomo/locomo-dev.json"))
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 15, 40, 80])
    parser.add_argument("--others", type=int, default=25, help="other conversations' questions per tenant")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--out", type=Path, default=RESULTS / "confidence_small.json")
    args = parser.parse_args()
    data = json.loads(args.data.read_text())
    rng = random.Random(args.seed)
    run = uuid.uuid4().hex[:8]
    filling = reference.for_pool
    rows: list[dict[str, Any]] = []
    users: list[str] = []
    with GraphMemory.connect(settings=Settings(record_recalls=False)) as mem:
        header = stamp(neo4j_version(mem.query), sizes=args.sizes, others=args.others, seed=args.seed)
        start = datetime(2023, 5, 7, tzinfo=UTC)
        try:
            for ci, sample in enumerate(data):
                turns = turns_of(sample["conversation"])
                others = [
                    q
                    for cj, other in enumerate(data)
                    if cj != ci
                    for q in other["qa"]
                    if q.get("category") in (1, 2, 3, 4)
                ]
                for n in args.sizes:
                    user = f"bench-confsmall-{run}-{ci}-{n}"
                    users.append(user)
                    mem.add_messages(
                        [
                            {
                                "role": "user",
                                "name": t["speaker"],
                                "content": t["text"],
                                "timestamp": start + timedelta(minutes=i),
                            }
                            for i, t in enumerate(turns[:n])
                        ],
                        user_id=user,
                        session_id="s1",
                    )
                    ids = {t["dia_id"] for t in turns[:n]}
                    own = [
                        q
                        for q in sample["qa"]
                        if q.get("category") in (1, 2, 3, 4)
                        and q.get("evidence")
                        and set(q["evidence"]) <= ids
                    ]
                    asked = [(q, True) for q in own] + [(q, False) for q in rng.sample(others, args.others)]
                    for q, answerable in asked:
                        reference.for_pool = lambda *a, **k: []  # type: ignore[assignment]
                        try:
                            before = mem.recall(q["question"], user_id=user, k=3, reinforce=False)
                        finally:
                            reference.for_pool = filling  # type: ignore[assignment]
                        after = mem.recall(q["question"], user_id=user, k=3, reinforce=False)
                        if before and after:
                            rows.append(
                                {
                                    "conversation": sample.get("sample_id", ci),
                                    "turns": n,
                                    "answerable": answerable,
                                    "before": before[0].confidence,
                                    "after": after[0].confidence,
                                }
                            )
        finally:
            for user in users:
                mem.users.delete(user)
    result = {
        **header,
        "by_size": {str(n): summary([r for r in rows if r["turns"] == n]) for n in args.sizes},
        "all": summary(rows),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1))
    print(
        "| tenant (turns) | answerable / not | AUROC before / after | answerable >= 0.5 "
        "| not answerable >= 0.5 |"
    )
    print("|---|---|---|---|---|")
    for label, s in [*result["by_size"].items(), ("all", result["all"])]:
        print(
            f"| {label} | {s['answerable']} / {s['not_answerable']} "
            f"| {s['before_auroc']} / {s['after_auroc']} "
            f"| {s['before_answerable_at_05']} / {s['after_answerable_at_05']} "
            f"| {s['before_not_answerable_at_05']} / {s['after_not_answerable_at_05']} |"
        )
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
