"""What a user finds a year later: one who stays away, and one who keeps talking about other things.

    .venv/bin/python benchmarks/absence.py --out benchmarks/results/absence.json
    .venv/bin/python benchmarks/absence.py --params '{"forget_min_newer": 0}'   # forgetting by time alone

An assistant's user tells it 11 things over three sessions in their first two weeks (22 turns with the
assistant's replies, written in this file). Then the **away** user neither writes nor asks anything, and the
**busy** user writes ``--weekly`` (30) turns a week about other things (generated from small word lists: "I
baked sourdough bread with Lena on Sunday.", each followed by a short reply). Each user twice: with the turns
stored as sessions (conversation history, which consolidate summarises), and **remembered**: the user's
statements alone, without a session, as an agent calling ``remember()`` stores them. Turns are formed through
graphmem's formation on a virtual clock (``graphmem.formation.writer.form``, as ``dynamics_sim.py`` does),
every job the default schedules enable runs once a simulated week, in their nightly order, and on the days
listed in ``CHECKPOINTS`` the run counts the user's memories by status and asks ten questions about the first
two weeks (recall at the virtual time, k = 3, reinforcement off): a question is answered when a hit, or a
source a summary hit shows as its details, holds the answer's words. Quality only (no latency): the load does
not change it. The users are deleted at the end; the run uses its own automation config (``--params``: JSON
overrides of the balanced preset's dynamics parameters), deleted at the end too (benchmarks/own_config.py).
"""

from __future__ import annotations

import argparse
import json
import random
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from machine import neo4j_version, stamp
from own_config import drop_config

from graphmem import GraphMemory, Settings
from graphmem.formation.writer import MemoryDraft, form
from graphmem.model.dynamics import DynamicsParams
from graphmem.retrieval.recall import RecallRequest, recall

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
CHECKPOINTS = (14, 63, 119, 203, 301, 399)
JOBS = ("decay", "topics", "forget", "consolidate", "promote", "adapt", "associate", "review")
"""Every job, in the order a night runs them by their default schedules (graphmem.automation.config)."""


VERBS = ["cooked", "painted", "fixed", "cleaned", "planted", "watched", "organised", "sketched", "baked"]
THINGS = [
    "a lasagne", "the fence", "the kitchen shelves", "tomatoes", "a documentary about whales", "the garage",
    "a birthday card", "the bike's brakes", "sourdough bread", "a jigsaw puzzle", "the balcony", "a curry",
    "the attic", "a quilt", "a chess opening", "the printer", "a podcast episode", "the lawn", "a pie",
]  # fmt: skip
PEOPLE = ["Tom", "my neighbour", "Lena", "my cousin Raj", "an old friend", "my colleague Mei"]
WHEN = ["on Tuesday", "this evening", "after work", "on Sunday", "during lunch", "late last night"]


def _other_things(rng: random.Random, n: int) -> list[str]:
    """``n`` turns about other things: a statement, then a short reply, in turn."""
    return [
        f"I {rng.choice(VERBS)} {rng.choice(THINGS)} with {rng.choice(PEOPLE)} {rng.choice(WHEN)}."
        if i % 2 == 0
        else "Sounds lovely!"
        for i in range(n)
    ]


def _form(mem: GraphMemory, user_id: str, texts: list[str], session: str | None, at: datetime) -> None:
    """The turns as a session's, or (``session`` None) the user's statements alone, each remembered on its
    own as an agent calling ``remember()`` stores them."""
    drafts = [
        MemoryDraft(
            content=text,
            user_id=user_id,
            session_id=session,
            occurred_at=at + timedelta(minutes=i),
            role=("user", "assistant")[i % 2],
        )
        for i, text in enumerate(texts)
        if session is not None or i % 2 == 0
    ]
    form(mem.runtime, drafts, now=at)


def _answered(mem: GraphMemory, user_id: str, now: datetime) -> int:
    found = 0
    for question, answer in QUESTIONS:
        texts = []
        for hit in recall(mem.runtime, RecallRequest(question, user_id, 3, None, 3, None, False), now=now):
            texts += [hit.memory.content, *(d.content or "" for d in hit.details or [])]
        found += any(answer.lower() in t.lower() for t in texts)
    return found


def _statuses(mem: GraphMemory, user_id: str) -> dict[str, int]:
    rows = mem.query("MATCH (m:Memory) WHERE m.user_id = $u RETURN m.status AS s", {"u": user_id})
    return dict(Counter(r["s"] for r in rows))


def run(mem: GraphMemory, days: int, weekly: int, sessions: bool = True) -> list[dict[str, Any]]:
    """One user's year: their checkpoints. ``sessions``: the turns are stored as sessions (conversation
    history, which consolidate summarises); else the user's statements alone, without a session."""
    user_id, rng = f"bench-absence-{uuid.uuid4()}", random.Random(7)
    start = datetime(2027, 1, 4, 9, tzinfo=UTC)
    try:
        for i, turns in enumerate(SESSIONS):
            _form(mem, user_id, turns, f"s{i}" if sessions else None, start + timedelta(days=5 * i))
        rows = []
        for day in range(14, days + 1, 7):
            now = start + timedelta(days=day)
            if weekly and day > 14:
                session = f"w{day}" if sessions else None
                _form(mem, user_id, _other_things(rng, weekly), session, now - timedelta(days=3))
            for job in JOBS:
                mem.jobs.run(job, user_id=user_id, now=now)
            if day in CHECKPOINTS or day + 7 > days:
                answered = _answered(mem, user_id, now + timedelta(hours=1))
                rows.append({"day": day, "statuses": _statuses(mem, user_id), "answered": answered})
                print(
                    ("away", "busy")[bool(weekly)], ("remembered", "sessions")[sessions], rows[-1], flush=True
                )
        return rows
    finally:
        mem.users.delete(user_id)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--days", type=int, default=400)
    parser.add_argument("--weekly", type=int, default=30, help="the busy user's turns a week")
    parser.add_argument("--params", default="{}", help="JSON overrides of the balanced dynamics parameters")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    params = DynamicsParams(**json.loads(args.params))
    config_id = f"bench-absence-{uuid.uuid4()}"
    with GraphMemory.connect(settings=Settings(automation_config_id=config_id)) as mem:
        mem.init()
        try:
            cfg = mem.automation.get_config()
            mem.automation.set_config(cfg.model_copy(update={"dynamics": params}))
            head = stamp(neo4j_version(mem.query), params=json.loads(args.params), questions=len(QUESTIONS))
            users = {
                f"{name}, {kind}": run(mem, args.days, weekly, kind == "sessions")
                for kind in ("sessions", "remembered")
                for name, weekly in (("away", 0), ("busy", args.weekly))
            }
        finally:  # the users are deleted by run(); the configuration belongs to none of them
            drop_config(mem, config_id)
    result = {**head, "weekly": args.weekly, "users": users}
    if args.out:
        args.out.write_text(json.dumps(result, indent=2, default=str) + "\n")
    for name, rows in users.items():
        print(f"{name}: answered on day {rows[-1]['day']}: {rows[-1]['answered']} of {len(QUESTIONS)}")


if __name__ == "__main__":
    main()
