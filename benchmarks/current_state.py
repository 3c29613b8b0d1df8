"""Current state: after a user said where they live and work (and moved, or changed jobs, or only planned
to), does graphmem answer "Where do I live now?" with the statement of the current value?

    .venv/bin/python benchmarks/current_state.py --data tests/data/current_state_dev.json \
        --out benchmarks/results/current_state.json

Each conversation of the set (``tests/data/current_state_*.json``: user turns on days 1-55, the day the
question is asked, and the current ``location`` and/or ``employer`` on that day with the strings that name
it) becomes a fresh tenant: its turns are written through ``add_messages`` at their days (the question's
day is today), followed by ``--filler`` neutral turns that name no place and no organisation, so that the
question is not answered by the conversation's last words. Then, per expected key:

- **recall@1**: the first-ranked hit of ``recall("Where do I live now?" | "Where do I work now?", k=5,
  reinforce=False)`` states the current value (holds one of its strings);
  ``--presets balanced precise`` asks with each preset on the same tenants (first hits per preset);
- **fact**: ``facts.get(user, key)`` gives the current value (one of its strings equals or holds the value,
  or the value holds the canonical one).

The sets were written by people who had not read the rules (docs/temporal.md, "A benchmark of people's
own wordings": which set was read and which only scored). ``--show`` prints every miss with the turns, the
first hit and the fact. Writes JSON with the machine's load at start and end; tenants are deleted at the
end. Run it alone.
"""

from __future__ import annotations

import argparse
import json
import time
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from machine import neo4j_version, stamp

from graphmem import GraphMemory, Settings

QUESTIONS = {"location": "Where do I live now?", "employer": "Where do I work now?"}

# Turns that name no place, organisation, home or job: what a user also says between the telling turns.
FILLER = (
    "Can you give me a quick recipe for banana bread?",
    "What's a good stretch for a stiff lower back?",
    "Remind me how to convert Celsius to Fahrenheit.",
    "I finished the novel last night, the ending was a bit rushed.",
    "Any tips for getting a toddler to sleep earlier?",
    "How long should I boil an egg for a runny yolk?",
    "I want to start running again, how should I build up?",
    "What's the difference between a latte and a flat white?",
    "Suggest a few board games for four adults.",
    "My tomato plants have yellow leaves, what's wrong?",
    "How do I politely decline a wedding invitation?",
    "Give me three ideas for a rainy Sunday afternoon.",
)


def names(text: str, accept: list[str]) -> bool:
    low = text.lower()
    return any(a.lower() in low for a in accept)


def fact_right(value: str | None, expect: dict[str, Any]) -> bool:
    if not value:
        return False
    low = value.lower().strip()
    return (
        any(a.lower() == low or a.lower() in low for a in expect["accept"]) or expect["value"].lower() in low
    )


def run_case(
    mem: GraphMemory,
    case: dict[str, Any],
    today: datetime,
    filler: int,
    presets: Sequence[str] = ("balanced",),
) -> list[dict[str, Any]]:
    """One conversation formed into a fresh tenant, then each expected key asked with each of ``presets``
    (the first one's answer is the row's ``recall_at_1`` and ``first_hit``; every one's under ``presets``)."""
    user = f"cs-{case['id']}-{uuid.uuid4().hex[:8]}"
    start = today - timedelta(days=case["ask_day"])
    try:
        for turn in case["turns"]:
            when = start + timedelta(days=turn["day"])
            message = {"role": "user", "content": turn["text"], "timestamp": when}
            mem.add_messages([message], user_id=user, session_id=f"day-{turn['day']}")
        last = case["turns"][-1]["day"]
        for i, text in enumerate(FILLER[:filler]):
            when = start + timedelta(days=last, hours=1 + i)
            mem.add_messages(
                [{"role": "user", "content": text, "timestamp": when}], user_id=user, session_id="filler"
            )
        rows = []
        for key, expect in case["expect"].items():
            answers = {}
            for preset in presets:
                hits = mem.recall(QUESTIONS[key], user_id=user, k=5, reinforce=False, preset=preset)
                top = hits[0].memory.content if hits else ""
                answers[preset] = {"recall_at_1": names(top, expect["accept"]), "first_hit": top}
            got = mem.facts.get(user, key)
            rows.append(
                {
                    "id": case["id"],
                    "key": key,
                    "expect": expect["value"],
                    **answers[presets[0]],
                    "presets": answers,
                    "fact": got.value if got else None,
                    "fact_right": fact_right(got.value if got else None, expect),
                }
            )
        return rows
    finally:
        mem.users.delete(user)


def totals(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Cases, first hits and facts per key and in all; with more than one preset, first hits per preset."""
    out: dict[str, Any] = {}
    presets = list(rows[0].get("presets", {})) if rows else []
    for key in (*QUESTIONS, "all"):
        part = [r for r in rows if key in ("all", r["key"])]
        out[key] = {
            "cases": len(part),
            "recall_at_1": sum(r["recall_at_1"] for r in part),
            "fact": sum(r["fact_right"] for r in part),
        }
        if len(presets) > 1:
            out[key]["recall_at_1_by_preset"] = {
                p: sum(r["presets"][p]["recall_at_1"] for r in part) for p in presets
            }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, nargs="+", required=True)
    parser.add_argument(
        "--filler", type=int, default=len(FILLER), help="neutral turns after the conversation"
    )
    parser.add_argument("--only", nargs="*", help="case ids")
    parser.add_argument(
        "--presets", nargs="+", default=["balanced"], help="recall presets asked, each on the same tenants"
    )
    parser.add_argument("--show", action="store_true", help="print every miss")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    cases = [c for path in args.data for c in json.loads(path.read_text())]
    if args.only:
        cases = [c for c in cases if c["id"] in args.only]
    clock = time.perf_counter()
    today = datetime.now(UTC).replace(hour=12, minute=0, second=0, microsecond=0)
    rows: list[dict[str, Any]] = []
    with GraphMemory.connect(settings=Settings(record_recalls=False)) as mem:
        version = neo4j_version(mem.query)
        for case in cases:
            rows.extend(run_case(mem, case, today, args.filler, args.presets))
    result = {
        **stamp(version, data=[str(p) for p in args.data], filler=args.filler, presets=args.presets),
        "seconds": round(time.perf_counter() - clock, 1),
        "totals": totals(rows),
        "cases": rows,
    }
    if args.show:
        by_id = {c["id"]: c for c in cases}
        for r in rows:
            if not (r["recall_at_1"] and r["fact_right"]):
                print(f"--- {r['id']} {r['key']}: expect {r['expect']!r}, fact {r['fact']!r}")
                for t in by_id[r["id"]]["turns"]:
                    print(f"    d{t['day']}: {t['text']}")
                print(f"    first hit ({'hit' if r['recall_at_1'] else 'miss'}): {r['first_hit']}")
    print(json.dumps(result["totals"]))
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
