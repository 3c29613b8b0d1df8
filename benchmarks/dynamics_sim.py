"""A simulated workload on a virtual clock: do the dynamics keep what matters and bound the store?

Users hold one session a day; each session adds memories of every priority (P0 5 %, P1 25 %, P2 40 %,
P3 30 %); every day some memories are recalled (important ones more often), which reinforces them (the
library's reinforcement query and formula) and records RecallEvents; the jobs run daily at the virtual time.

Reports: the 30-day retention of P0/P1 memories (share still live among those at least 30 days old), the
share of P3 memories of that age forgotten, store growth over the last 30 simulated days, and a plot of
strength over time for a few memories. Runs under `sim-` tenants, deleted afterwards.

    .venv/bin/python benchmarks/dynamics_sim.py --days 60 --users 4 --per-day 12
"""

from __future__ import annotations

import argparse
import json
import random
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from rich.progress import Progress

from graphmem import GraphMemory
from graphmem.scoring import reinforced_strength

RESULTS = Path(__file__).parent / "results"
PRIORITIES = [("P0", 0.05), ("P1", 0.25), ("P2", 0.40), ("P3", 0.30)]
TYPES = {"P0": "preference", "P1": "semantic", "P2": "episodic", "P3": "episodic"}
TOPICS = [
    "tennis",
    "taxes",
    "the garden",
    "a trip to Lisbon",
    "the new laptop",
    "my sister",
    "cooking",
    "work",
]
RECALL_P = {"P0": 0.12, "P1": 0.06, "P2": 0.02, "P3": 0.005}
JOBS_DAILY = ["associate", "decay", "consolidate", "forget", "promote", "review"]

INSERT = """
UNWIND $rows AS row
CREATE (m:Memory {id: row.id})
SET m += row.props, m.user_id = row.user_id, m.content = row.content,
    m.created_at = $now, m.occurred_at = $now,
    m.recorded_at = $now, m.strength = 1.0, m.retention = 1.0, m.access_count = 0, m.status = 'active',
    m.layer = 'working', m.version = 1, m.importance = 0.5
WITH m, row
CALL db.create.setNodeVectorProperty(m, 'embedding', row.embedding)
RETURN count(*) AS n
"""


def text_for(rng: random.Random, prio: str, day: int, i: int) -> str:
    topic = rng.choice(TOPICS)
    if prio == "P0":
        return f"Important: never forget that {topic} matters a lot to me (note {day}-{i})"
    if prio == "P1":
        return f"A fact about {topic}: it is scheduled on day {day % 7} of the week"
    if prio == "P2":
        return f"On day {day} we talked about {topic} for a while"
    return f"Small talk about {topic} and the weather, message {i} of day {day}"


def simulate(mem: GraphMemory, users: int, days: int, per_day: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    start = datetime(2025, 1, 1, 9, tzinfo=UTC)
    tenants = [f"sim-{uuid.uuid4()}" for _ in range(users)]
    store = mem._rt.store
    tracked: dict[str, str] = {}  # memory id -> label
    curves: dict[str, list[tuple[int, float]]] = {}
    counts: list[dict[str, Any]] = []
    born: dict[str, tuple[str, int]] = {}  # id -> (priority, day)
    try:
        with Progress() as progress:
            task = progress.add_task("simulating", total=days)
            for day in range(days):
                now = start + timedelta(days=day)
                for u in tenants:
                    rows = []
                    for i in range(per_day):
                        prio = rng.choices([p for p, _ in PRIORITIES], [w for _, w in PRIORITIES])[0]
                        rows.append(
                            {
                                "id": str(uuid.uuid4()),
                                "user_id": u,
                                "content": text_for(rng, prio, day, i),
                                "props": {
                                    "priority": prio,
                                    "memory_type": TYPES[prio],
                                    "session_id": f"d{day}",
                                },
                            }
                        )
                    vectors = mem.embedder.embed([r["content"] for r in rows])
                    for r, v in zip(rows, vectors, strict=True):
                        r["embedding"] = v
                        born[r["id"]] = (r["props"]["priority"], day)
                    store.run_statement(INSERT, {"rows": rows, "now": now})
                    if day == 0 and u == tenants[0]:
                        for r in rows:
                            label = r["props"]["priority"]
                            if label not in tracked.values():
                                tracked[r["id"]] = label
                    # recalls: important memories come up more often; they are reinforced
                    live = store.run_readonly(
                        "MATCH (m:Memory {user_id: $u}) WHERE m.status IN ['active', 'weak', 'dormant'] "
                        "RETURN m.id AS id, m.priority AS p, m.strength AS s, m.access_count AS n",
                        {"u": u},
                    )
                    used = [r for r in live if rng.random() < RECALL_P.get(r["p"], 0.1)]
                    if used:
                        ups = [{"id": r["id"], "strength": reinforced_strength(r["s"], r["n"])} for r in used]
                        store.write("memory_reinforce", updates=ups, user_id=u, now=now + timedelta(hours=2))
                        event = {
                            "id": str(uuid.uuid4()),
                            "user_id": u,
                            "query": "sim",
                            "memory_ids": [r["id"] for r in used],
                            "session_id": f"d{day}",
                            "context": rng.choice(["chat", "planning", "support"]),
                        }
                        store.write("recall_record", event=event, now=now + timedelta(hours=2))
                night = now + timedelta(hours=15)
                for u in tenants:
                    for job in JOBS_DAILY:
                        run = mem.jobs.run(job, user_id=u, now=night)
                        if run.status != "success":
                            raise RuntimeError(f"{job} failed: {run.error}")
                snap = store.run_readonly(
                    "MATCH (m:Memory) WHERE m.user_id IN $us RETURN m.id AS id, m.status AS status, "
                    "m.strength AS s, m.priority AS p",
                    {"us": tenants},
                )
                status = {r["id"]: r["status"] for r in snap}
                for mid, label in tracked.items():
                    s = next((r["s"] for r in snap if r["id"] == mid), 0.0)
                    curves.setdefault(f"{label} ({mid[:6]})", []).append((day, float(s or 0.0)))
                counts.append(
                    {
                        "day": day,
                        "stored": len(snap),
                        "live": sum(1 for r in snap if r["status"] in ("active", "weak", "dormant")),
                        "common": sum(1 for r in snap if r["p"] == "common"),
                    }
                )
                progress.advance(task)
        final = status
        old = {mid: meta for mid, meta in born.items() if days - 1 - meta[1] >= 30}

        def share(prios: set[str], predicate: Any) -> float:
            ids = [mid for mid, (p, _) in old.items() if p in prios]
            return sum(1 for mid in ids if predicate(final.get(mid))) / max(1, len(ids))

        live_states = ("active", "weak", "dormant")
        merged_or_live = ("active", "weak", "dormant", "superseded")
        p01 = share({"P0", "P1"}, lambda s: s in live_states)
        p01_kept = share({"P0", "P1"}, lambda s: s in merged_or_live)
        p3_forgotten = share({"P3"}, lambda s: s in (None, "forgotten"))
        month = counts[-31] if len(counts) > 30 else counts[0]
        last = counts[-1]
        report = {
            "users": users,
            "days": days,
            "memories_per_user_per_day": per_day,
            "p0_p1_retained_30d": round(p01, 4),
            "p0_p1_retained_or_merged_30d": round(p01_kept, 4),
            "p3_forgotten_30d": round(p3_forgotten, 4),
            "store_growth_last_30_days_stored": round(
                (last["stored"] - month["stored"]) / max(1, month["stored"]), 4
            ),
            "store_growth_last_30_days_live": round(
                (last["live"] - month["live"]) / max(1, month["live"]), 4
            ),
            "common_knowledge": last["common"],
            "daily": counts,
            "curves": curves,
        }
        return report
    finally:
        for u in tenants:
            store.run_statement("MATCH (m:Memory {user_id: $u}) DETACH DELETE m", {"u": u})
            store.run_statement("MATCH (e:RecallEvent {user_id: $u}) DELETE e", {"u": u})
            store.run_statement("MATCH (r:JobRun {user_id: $u}) DELETE r", {"u": u})


def plot(report: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4.5))
    for label, points in report["curves"].items():
        a.plot([d for d, _ in points], [s for _, s in points], label=label)
    a.set_xlabel("simulated day")
    a.set_ylabel("strength (0-4)")
    a.set_title("strength over time (memories of day 0)")
    a.legend()
    days = [c["day"] for c in report["daily"]]
    b.plot(days, [c["stored"] for c in report["daily"]], label="stored")
    b.plot(days, [c["live"] for c in report["daily"]], label="live (not forgotten)")
    b.set_xlabel("simulated day")
    b.set_ylabel("memories")
    b.set_title("store size")
    b.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=60)
    parser.add_argument("--users", type=int, default=4)
    parser.add_argument("--per-day", type=int, default=12)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    RESULTS.mkdir(exist_ok=True)
    with GraphMemory.connect() as mem:
        mem.init()
        report = simulate(mem, args.users, args.days, args.per_day, args.seed)
    (RESULTS / "dynamics_sim.json").write_text(json.dumps(report, indent=2, default=str))
    plot(report, RESULTS / "dynamics_sim.png")
    summary = {k: v for k, v in report.items() if k not in ("daily", "curves")}
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
