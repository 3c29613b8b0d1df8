"""A personal assistant's memory: a user chats with their assistant over weeks (family and friends, people at
work, appointments, plans, errands, preferences, health, things that change), then asks about it.

    .venv/bin/python benchmarks/assistant.py \
        --data tests/data/assistant_dev.json tests/data/assistant_heldout.json \
        --out benchmarks/results/assistant.json --show

The sets (``tests/data/assistant_dev.json``, ``tests/data/assistant_heldout.json``,
``tests/data/assistant_heldout2.json`` to ``assistant_heldout7.json``, 12 users each) were written by hand
by helpers blind to the
engine's rules (neither graphmem/model, graphmem/retrieval, docs/temporal.md, docs/formation.md,
docs/recall.md nor the other sets were read): each user's 16-22 turns on days 1-60 as people type (lower
case, typos, several things in one message, small talk between), each set with other users and other
wording habits. Round 62 read the misses of dev and heldout while building its rules (neither is blind
since); heldout2 was written after those rules and scored once, before and after, unread (round 63 scored
it again, still unread). Round 63's heldout3 (12 users, 88 questions) and heldout4 (92 questions, a third
of them past events, a third current values) were written during that round, each scored once on the base
and the round's code so far before its misses were read; both are read since. One ``hour`` of heldout4 that
was no hour ("mgr1") was dropped before its first run. Round 64's heldout5 (95 questions, half of them
current values said as people say changes, mostly without a change word) was scored once whole on the base
and the round's first code; its first six users were read after that, its last six (h5-07 to h5-12) only
scored, once more, on the round's final code. Round 64's first log printed heldout2's misses: it is read
since. Round 65's heldout6 (95 questions: 36 past events, 29 schedules, 18 current values, as people type
them) was scored once whole on the base and the round's first commit; its first six users were read after
that, its last six (h6-07 to h6-12) only scored, twice more, on the round's later code. Round 66's heldout7
(102 questions, 56 of them current values said as people say changes: implicit, corrected, reversed, old
values told again) was scored whole on the base and on each version of the round's code; the misses of its
first six users were read after its second scoring (the round's first rules), its last six (h7-07 to
h7-12) never (one question of h7-10 was quoted in its author's report). Round 66 printed, by a slip, the
current-value misses of heldout5's users h5-10 to h5-12 early in the round: read since. Day N is N days
after Monday 2026-09-07; a turn is written at 09:00 UTC of its day (or its ``hour``); relative dates in the
turns ("on Thursday", "the 14th") point where the set's author meant on that calendar. Each user has an
``ask_day`` (its weekday in ``note``) and 5-8 questions with the turns that answer them (``evidence``,
indices) and strings any of which names the answer, of a ``kind``: person, person_fact, schedule, current
(the latest value wins), preference, past_event, other.

Each user becomes a fresh tenant (``--user-prefix`` + uuid): the turns are written one ``add_messages`` call
each (session ``d<day>``) at their time, then each question is asked at the ask day, 12:00 UTC (or the
user's ``ask_hour``), with ``as_of`` set to that time (valid time: what had happened by then, so a
question's "tomorrow" or "Thursday" reads against the ask day rather than the day the benchmark runs):

- **hit@1** / **hit@5**: the first hit / one of the first five hits of ``recall(q, k=5, reinforce=False,
  as_of=...)`` is an evidence turn (by content);
- **ctx**: the text of ``context(q, token_budget=250, reinforce=False, as_of=...)`` holds one of the answer
  strings (case-insensitive); the context lists its low-confidence ("possibly related") memories too, and
  an answer there counts.

The misses of the first run were checked against the turns (evidence and calendar): the engine's answers
changed no turn, question or answer string; one evidence list was completed (ho02's bridge partner: the
first turn names Reginald, who is the partner again on the ask day).

The facts the engine formed (``facts.list(user)`` after the turns) are counted per user and printed with
``--show``, not scored (their keys are the engine's business). Totals overall and per kind, per file; JSON
with the machine's load at start and end; tenants are deleted at the end. Run it alone.
"""

from __future__ import annotations

import argparse
import json
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from machine import neo4j_version, stamp

from graphmem import GraphMemory, Settings

START = datetime(2026, 9, 7, 9, tzinfo=UTC)
KINDS = ("person", "person_fact", "schedule", "current", "preference", "past_event", "other")


def at(day: int, hour: int | None) -> datetime:
    when = START + timedelta(days=day)
    return when if hour is None else when.replace(hour=hour)


def norm(text: str) -> str:
    return " ".join(text.split()).lower()


def run_user(mem: GraphMemory, case: dict[str, Any], prefix: str) -> dict[str, Any]:
    """One user's turns formed into a fresh tenant, then each question asked as of the ask day."""
    user = f"{prefix}{uuid.uuid4()}"
    try:
        for turn in case["turns"]:
            when = at(turn["day"], turn.get("hour"))
            message = {"role": "user", "content": turn["text"], "timestamp": when}
            mem.add_messages([message], user_id=user, session_id=f"d{turn['day']}")
        facts = [{"key": f.key, "value": f.value} for f in mem.facts.list(user)]
        asked = at(case["ask_day"], case.get("ask_hour", 12))
        rows = []
        for q in case["questions"]:
            evidence = {norm(case["turns"][i]["text"]) for i in q["evidence"]}
            hits = mem.recall(q["q"], user_id=user, k=5, reinforce=False, as_of=asked)
            tops = [h.memory.content for h in hits]
            ctx = mem.context(q["q"], user_id=user, token_budget=250, reinforce=False, as_of=asked).text
            rows.append(
                {
                    "user": case["id"],
                    "q": q["q"],
                    "kind": q["kind"],
                    "hit_at_1": bool(tops) and norm(tops[0]) in evidence,
                    "hit_at_5": any(norm(t) in evidence for t in tops),
                    "ctx": any(a.lower() in ctx.lower() for a in q["answer"]),
                    "first_hit": tops[0] if tops else None,
                    "hits": tops,
                    "context": ctx,
                }
            )
        return {"user": case["id"], "facts": facts, "rows": rows}
    finally:
        mem.users.delete(user)


def totals(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Questions, hit@1, hit@5 and ctx (as fractions) in all and per kind."""

    def score(part: list[dict[str, Any]]) -> dict[str, Any]:
        n = len(part)
        return {"n": n} | {m: round(sum(r[m] for r in part) / n, 3) if n else None for m in METRICS}

    out = {"all": score(rows)}
    for kind in KINDS:
        out[kind] = score([r for r in rows if r["kind"] == kind])
    return out


METRICS = ("hit_at_1", "hit_at_5", "ctx")


def show(case: dict[str, Any], result: dict[str, Any]) -> None:
    print(f"=== {case['id']} ({case.get('note', '')}): {len(result['facts'])} facts")
    for f in result["facts"]:
        print(f"    fact {f['key']} = {f['value']!r}")
    for q, r in zip(case["questions"], result["rows"], strict=True):
        if r["hit_at_1"] and r["ctx"]:
            continue
        marks = " ".join(f"{m}={'Y' if r[m] else 'n'}" for m in METRICS)
        print(f"  - [{r['kind']}] {r['q']}  ({marks}; expect {q['answer']})")
        for i in q["evidence"]:
            t = case["turns"][i]
            print(f"      evidence #{i} d{t['day']}: {t['text']}")
        for j, h in enumerate(r["hits"]):
            print(f"      hit {j + 1}: {h}")
        if not r["ctx"]:
            print("      context: " + r["context"].replace("\n", " | ")[:600])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, nargs="+", required=True)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--show", action="store_true", help="print every miss and every user's facts")
    parser.add_argument("--only", nargs="*", help="user ids")
    parser.add_argument("--user-prefix", default="lab-assistant-", help="tenant ids: prefix + uuid")
    args = parser.parse_args()
    clock = time.perf_counter()
    files: dict[str, Any] = {}
    with GraphMemory.connect(settings=Settings(record_recalls=False)) as mem:
        version = neo4j_version(mem.query)
        for path in args.data:
            cases = json.loads(path.read_text())
            if args.only:
                cases = [c for c in cases if c["id"] in args.only]
            results = []
            for case in cases:
                result = run_user(mem, case, args.user_prefix)
                results.append(result)
                if args.show:
                    show(case, result)
            rows = [r for res in results for r in res["rows"]]
            facts = [len(res["facts"]) for res in results]
            files[str(path)] = {
                "users": len(results),
                "facts_per_user": round(sum(facts) / len(facts), 1) if facts else None,
                "totals": totals(rows),
                "users_detail": results,
            }
            print(path, json.dumps({"facts_per_user": files[str(path)]["facts_per_user"]}))
            for kind, t in files[str(path)]["totals"].items():
                print(f"  {kind:<12} n={t['n']:>3} " + " ".join(f"{m}={t[m]}" for m in METRICS))
    result = {
        **stamp(version, data=[str(p) for p in args.data]),
        "seconds": round(time.perf_counter() - clock, 1),
        "files": files,
    }
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
