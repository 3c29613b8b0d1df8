"""A user who talks for two weeks and stays away: what is left a year later, and what recall still answers.

    .venv/bin/python benchmarks/absence.py --out benchmarks/results/absence.json
    .venv/bin/python benchmarks/absence.py --params '{"forget_min_newer": 0}'   # forgetting by time alone

An assistant's user tells it 11 things over three sessions (22 turns with the assistant's replies, written
in this file, through ``add_messages``), then neither writes nor asks anything. The scheduled jobs that age
memory (decay, forget, consolidate) run once a simulated week on a virtual clock for ``--days`` days; on the
days listed in ``CHECKPOINTS`` the run counts the user's memories by status and asks ten questions about what
they said (recall, k = 3, reinforcement off): a question is answered when a hit, or a source a summary hit
shows as its details, holds the answer's words. Quality only (no latency): the load does not change it.
The user is deleted at the end; the run uses its own automation config (``--params``: JSON overrides of the
balanced preset's dynamics parameters).
"""

from __future__ import annotations

import argparse
import json
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from machine import neo4j_version, stamp

from graphmem import GraphMemory, Settings
from graphmem.model.dynamics import DynamicsParams

SESSIONS = [
    [
        "Hi! I'm Sam. I work at Acme as a backend engineer and I live in Leeds.",
        "Nice to meet you, Sam! How can I help today?",
        "I'm allergic to peanuts, so please keep that in mind for restaurant tips.",
        "Noted: no peanuts. I'll flag dishes that usually contain them.",
        "My dog Rex is a border collie, he turns three in May.",
        "Border collies are brilliant. Rex sounds like fun.",
        "We're planning a trip to Japan in October, mostly Kyoto and Osaka.",
        "October is a lovely time for Kyoto: autumn leaves start late in the month.",
    ],
    [
        "My sister Ana is getting married in Lisbon next summer.",
        "Congratulations to Ana! Lisbon is beautiful in summer.",
        "I've been reading The Left Hand of Darkness, it's slow but great.",
        "Le Guin rewards patience; the ice journey is unforgettable.",
        "Our team is migrating the billing service from Java to Go this quarter.",
        "Go suits a service like billing; watch the decimal handling.",
        "I usually run 5k on Saturday mornings along the canal.",
        "A canal run is a nice way to start the weekend.",
    ],
    [
        "I bought a Fujifilm X100V for the Japan trip.",
        "Great travel camera; the film simulations are fun.",
        "My favourite band is Radiohead, I saw them in 2017 in Manchester.",
        "Seeing Radiohead live must have been special.",
        "I'm trying to cut down on coffee, two cups a day max.",
        "Two cups is a sensible limit; try decaf in the afternoon.",
    ],
]
QUESTIONS = [
    ("What camera did I buy?", "Fujifilm"),
    ("Where is my sister's wedding?", "Lisbon"),
    ("What breed is my dog?", "border collie"),
    ("What book am I reading?", "Left Hand"),
    ("Which band do I like?", "Radiohead"),
    ("What is my team migrating?", "billing"),
    ("When do I go running?", "Saturday"),
    ("How much coffee do I drink?", "two cups"),
    ("Where am I travelling in October?", "Japan"),
    ("What am I allergic to?", "peanuts"),
]
CHECKPOINTS = (0, 28, 63, 119, 203, 301, 399)
JOBS = ("decay", "forget", "consolidate")


def _answered(mem: GraphMemory, user_id: str) -> int:
    found = 0
    for question, answer in QUESTIONS:
        texts = []
        for hit in mem.recall(question, user_id=user_id, k=3, reinforce=False):
            texts += [hit.memory.content, *(d.content or "" for d in hit.details or [])]
        found += any(answer.lower() in t.lower() for t in texts)
    return found


def _statuses(mem: GraphMemory, user_id: str) -> dict[str, int]:
    rows = mem.query("MATCH (m:Memory) WHERE m.user_id = $u RETURN m.status AS s", {"u": user_id})
    return dict(Counter(r["s"] for r in rows))


def run(mem: GraphMemory, days: int) -> list[dict[str, Any]]:
    user_id = f"bench-absence-{uuid.uuid4()}"
    start = datetime.now(UTC)
    try:
        for i, turns in enumerate(SESSIONS):
            when = start - timedelta(days=14 - 5 * i)
            messages = [
                {
                    "role": ("user", "assistant")[j % 2],
                    "content": text,
                    "timestamp": when + timedelta(minutes=j),
                }
                for j, text in enumerate(turns)
            ]
            mem.add_messages(messages, user_id=user_id, session_id=f"s{i}")
        rows = [{"day": 0, "statuses": _statuses(mem, user_id), "answered": _answered(mem, user_id)}]
        for day in range(7, days + 1, 7):
            for job in JOBS:
                mem.jobs.run(job, user_id=user_id, now=start + timedelta(days=day))
            if day in CHECKPOINTS or day + 7 > days:
                rows.append(
                    {"day": day, "statuses": _statuses(mem, user_id), "answered": _answered(mem, user_id)}
                )
                print(rows[-1], flush=True)
        return rows
    finally:
        mem.users.delete(user_id)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--days", type=int, default=400)
    parser.add_argument("--params", default="{}", help="JSON overrides of the balanced dynamics parameters")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    params = DynamicsParams(**json.loads(args.params))
    settings = Settings(automation_config_id=f"bench-absence-{uuid.uuid4()}")
    with GraphMemory.connect(settings=settings) as mem:
        mem.init()
        cfg = mem.automation.get_config()
        mem.automation.set_config(cfg.model_copy(update={"dynamics": params}))
        head = stamp(neo4j_version(mem.query), params=json.loads(args.params), questions=len(QUESTIONS))
        rows = run(mem, args.days)
    result = {**head, "checkpoints": rows, "answered_at_end": rows[-1]["answered"]}
    if args.out:
        args.out.write_text(json.dumps(result, indent=2, default=str) + "\n")
    print(f"answered on day {rows[-1]['day']}: {rows[-1]['answered']} of {len(QUESTIONS)}")


if __name__ == "__main__":
    main()
