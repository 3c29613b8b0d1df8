"""A simulated month on a virtual clock: do the dynamics keep what matters and bound the store?

The workload is real conversation: each user is one LoCoMo development conversation (read at run time from
``--data``; nothing of it is stored in the repository), whose turns arrive at a steady rate spread over the
whole run (about 4-8 turns per user and day), in LoCoMo's own sessions, through the library's formation
(embedding, FOLLOWS / RELATED_TO / ENTITY / CAUSES edges, facts, write-time deduplication). Near-duplicates
occur at the rate the conversations have them. Each turn's priority follows a visible rule:

- P0: a turn LoCoMo's annotators drew a fact from (``observation``) about family, health, home, work or pets;
- P1: any other turn a fact was drawn from;
- P3: small talk: no fact drawn, and at most 12 words or a question back;
- P2: everything else.

Recalls are LoCoMo's own questions (categories 1-4), each asked once on a random day after its evidence was
said, through the library's recall (k = 5) at the virtual time: what it returns is reinforced, what competed
and lost is weakened, and RecallEvents feed promotion. Every night the six jobs run for each user.

The first ``--warmup`` days fill the store; the measured month is the last ``--days`` days (default 30).

Measures (of committed code, on the shared server; other work shared the CPU):

- retention of P0/P1 at 30 days: the share of P0/P1 memories live (active, weak or dormant) on their 30th day;
  also, at the end, among P0/P1 memories at least 30 days old (30 to 89 days), the share live, and
  separately the share live or merged into a live survivor;
- P3 forgotten: the share of P3 memories soft-forgotten or deleted by their 30th day (and at the end, among
  those at least 30 days old);
- growth over the measured month: live memories, all memories, and all graph nodes of the users (memories,
  entities, facts, sessions, recall events), each as (end - start) / start;
- the asked questions' evidence recall@5 in the measured month; the share of all evidence turns still live;
- usefulness-based retention: of the memories each question needs (its LoCoMo evidence), the share still
  recallable when it is asked (live, or replaced by a live merge survivor or summary); with
  ``--compare-off`` the same run without any job gives the baseline (dynamics off);
- a plot of strength over time for a few memories (benchmarks/results/dynamics_sim.png).

    .venv/bin/python benchmarks/dynamics_sim.py --data ../shared/data/locomo/locomo-dev.json --compare-off
    .venv/bin/python benchmarks/dynamics_sim.py --quick     # harness check only
"""

from __future__ import annotations

import argparse
import json
import random
import re
import signal
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from baselines import CachingEmbedder
from locomo_ingest import sessions
from machine import neo4j_version, stamp
from own_config import drop_config
from rich.progress import Progress

from graphmem import GraphMemory, Settings
from graphmem.formation.writer import MemoryDraft, form
from graphmem.memory import default_embedder
from graphmem.model.dynamics import LIVE_STATUSES, PRESETS, DynamicsParams
from graphmem.model.keys import context_text, turn_line
from graphmem.models import Priority
from graphmem.retrieval.recall import RecallRequest, recall
from graphmem.server import LocalServer

RESULTS = Path(__file__).parent / "results"
JOBS_NIGHTLY = ["associate", "decay", "consolidate", "forget", "promote", "review"]
LASTING = re.compile(
    r"\b(kids?|children|son|daughter|husband|wife|married|partner|mother|mom|father|dad|sister|brother|"
    r"family|allerg\w*|birthday|job|career|moved|adopt\w*|diagnos\w*|pets?|dogs?|cats?)\b",
    re.IGNORECASE,
)
DIA = re.compile(r"D\d+:\d+")
NODE_LABELS = ["Memory", "Entity", "Fact", "Session", "RecallEvent", "Topic"]


@dataclass(frozen=True)
class Turn:
    dia_id: str
    session: int
    speaker: str
    text: str
    priority: str


@dataclass(frozen=True)
class Question:
    text: str
    evidence: tuple[str, ...]


def priority_of(text: str, facts: list[str]) -> str:
    if facts:
        return "P0" if any(LASTING.search(f) for f in facts) else "P1"
    if len(text.split()) <= 12 or text.rstrip().endswith("?"):
        return "P3"
    return "P2"


def load(path: Path, max_turns: int = 0) -> list[tuple[list[Turn], list[Question]]]:
    """Per conversation: its turns in order with their priorities, and its questions (categories 1-4);
    ``max_turns``: only each conversation's first turns (and the questions they answer)."""
    out = []
    for sample in json.loads(path.read_text()):
        facts: dict[str, list[str]] = {}
        for per_session in sample["observation"].values():
            for items in per_session.values():
                for fact, dia in items:
                    for d in dia if isinstance(dia, list) else [dia]:
                        facts.setdefault(d, []).append(fact)
        turns = [
            Turn(
                t["dia_id"],
                n,
                t["speaker"],
                t["text"] or "(shared an image)",
                priority_of(t["text"], facts.get(t["dia_id"], [])),
            )
            for n, _, ts in sessions(sample["conversation"])
            for t in ts
        ]
        turns = turns[:max_turns] if max_turns else turns
        known = {t.dia_id for t in turns}
        questions = []
        for qa in sample["qa"]:
            evidence = tuple(e for e in DIA.findall(" ".join(qa.get("evidence", []))) if e in known)
            if qa["category"] in (1, 2, 3, 4) and evidence:
                questions.append(Question(qa["question"], evidence))
        out.append((turns, questions))
    return out


NODE_COUNTS = " UNION ALL ".join(  # one round trip; each label has a user_id index
    f"MATCH (n:{label}) WHERE n.user_id IN $us RETURN '{label}' AS label, count(n) AS n"
    for label in NODE_LABELS
)


def node_counts(mem: GraphMemory, users: list[str]) -> dict[str, int]:
    return {r["label"]: int(r["n"]) for r in mem.query(NODE_COUNTS, {"us": users})}


def pre_embed(embedder: CachingEmbedder, path: Path, users: int, max_turns: int) -> None:
    """Embed every turn (as a passage) and every question (as a query) once, in large batches: the arms with
    dynamics on and off then form and recall from the same vectors (formation and recall embed exactly these
    texts; entity names are cached as they first occur)."""
    conversations = load(path, max_turns)[:users]
    texts: list[str] = []
    for turns, _ in conversations:
        previous: tuple[str, str | None] | None = None
        for i, t in enumerate(turns):
            if i and turns[i - 1].session != t.session:
                previous = None
            texts += [turn_line(t.text, t.speaker), context_text(previous, t.text, t.speaker)]
            previous = (t.text, t.speaker)
    texts = list(dict.fromkeys(texts))
    queries = list(dict.fromkeys(q.text for _, qs in conversations for q in qs))
    with Progress() as progress:
        task = progress.add_task("embedding turns and questions", total=len(texts) + len(queries))
        for i in range(0, len(texts), 256):
            embedder.embed(texts[i : i + 256])
            progress.advance(task, len(texts[i : i + 256]))
        for i in range(0, len(queries), 256):
            embedder.embed_queries(queries[i : i + 256])
            progress.advance(task, len(queries[i : i + 256]))


RECALLABLE = """
UNWIND $ids AS id
OPTIONAL MATCH (m:Memory {id: id})
OPTIONAL MATCH (s:Memory {id: coalesce(m.merged_into, m.summarized_by, '')})
RETURN id, m.status IN $live OR coalesce(s.status IN $live, false) AS ok
"""


STANDS_FOR = """
UNWIND $ids AS id
MATCH (m:Memory {id: id})
RETURN id, coalesce(m.merged_into, m.summarized_by) AS by
"""


def stand_ins(mem: GraphMemory, ids: set[str]) -> dict[str, str]:
    """Evidence memory id -> the merge survivor or summary that replaced it (only those replaced)."""
    rows = mem.query(STANDS_FOR, {"ids": sorted(ids)}) if ids else []
    return {r["id"]: r["by"] for r in rows if r["by"]}


MISSED_STATE = """
UNWIND $ids AS id
MATCH (m:Memory {id: id})
RETURN m.status AS status, coalesce(m.open_conflicts, 0) > 0 AS conflicted,
       coalesce(m.inhibition, 0.0) > 0 AS inhibited, m.outdated_at IS NOT NULL AS outdated,
       m.merged_into IS NOT NULL AS merged, m.summarized_by IS NOT NULL AS summarized
"""


def missed_state(mem: GraphMemory, ids: set[str]) -> Counter[str]:
    """What the evidence memories a recall missed have in common: their status and the marks the dynamics
    left on them (open conflicts, inhibition, outdated, merged, summarised)."""
    out: Counter[str] = Counter()
    for row in mem.query(MISSED_STATE, {"ids": sorted(ids)}) if ids else []:
        out[f"status:{row['status']}"] += 1
        out.update(k for k in ("conflicted", "inhibited", "outdated", "merged", "summarized") if row[k])
    return out


def recallable(mem: GraphMemory, ids: set[str]) -> float:
    """Share of ``ids`` still recallable: live, or replaced by a live merge survivor or summary."""
    if not ids:
        return 1.0
    rows = mem.query(RECALLABLE, {"ids": sorted(ids), "live": list(LIVE_STATUSES)})
    return sum(1 for r in rows if r["ok"]) / len(ids)


def nightly(mem: GraphMemory, tenants: list[str], night: datetime, topics: bool, alone: bool) -> None:
    """The six jobs at ``night`` (topics rebuilt first with ``topics``), for all users at once when the
    simulated users are alone on the server, else for each of them."""
    if topics:  # self-organisation first: consolidation then summarises per topic
        for tenant in tenants:
            mem.topics.rebuild(tenant, now=night)
    for job in JOBS_NIGHTLY:
        for scope in [None] if alone else tenants:
            run = mem.jobs.run(job, user_id=scope, now=night)
            if run.status != "success":
                raise RuntimeError(f"{job} failed: {run.error}")


def simulate(
    mem: GraphMemory,
    data: Path,
    users: int,
    warmup: int,
    days: int,
    seed: int,
    dynamics: bool = True,
    max_turns: int = 0,
    topics: bool = False,
) -> dict[str, Any]:
    rng = random.Random(seed)
    total = warmup + days
    start = datetime(2025, 1, 1, 9, tzinfo=UTC)
    conversations = load(data, max_turns)[:users]
    tenants = [f"sim-{uuid.uuid4()}" for _ in conversations]
    rt = mem.runtime
    born: dict[str, tuple[str, int]] = {}  # memory id -> (priority, day formed)
    dia_memory: dict[tuple[int, str], str] = {}  # (user index, dia_id) -> memory id
    schedule: dict[tuple[int, int], list[Question]] = {}  # (user index, day) -> questions asked that day
    for u, (turns, questions) in enumerate(conversations):
        day_of = {t.dia_id: i * total // len(turns) for i, t in enumerate(turns)}
        for q in questions:
            ready = max(day_of[e] for e in q.evidence) + 1
            if ready < total:
                schedule.setdefault((u, rng.randrange(ready, total)), []).append(q)
    # alone on a private server: each job runs once a night over all (= the simulated) users, as the scheduler
    # does; on the shared server, once per simulated user
    alone = not mem.query("MATCH (m:Memory) RETURN m.id LIMIT 1")
    tracked: dict[str, str] = {}
    curves: dict[str, list[tuple[int, float]]] = {}
    daily: list[dict[str, Any]] = []
    asked: list[dict[str, Any]] = []
    at_30: dict[str, str] = {}  # memory id -> status 30 days after it was formed
    missed: Counter[str] = Counter()  # the state of the evidence the month's recalls missed
    try:
        with Progress() as progress:
            task = progress.add_task("simulating", total=total)
            for day in range(total):
                morning = start + timedelta(days=day)
                for u, (turns, _) in enumerate(conversations):
                    todays = [t for i, t in enumerate(turns) if i * total // len(turns) == day]
                    by_session: dict[int, list[Turn]] = {}
                    for t in todays:
                        by_session.setdefault(t.session, []).append(t)
                    for minute, (n, part) in enumerate(sorted(by_session.items())):
                        drafts = [
                            MemoryDraft(
                                content=t.text,
                                user_id=tenants[u],
                                session_id=f"session_{n}",
                                occurred_at=morning + timedelta(minutes=minute, seconds=i),
                                priority=Priority(t.priority),
                                metadata={"dia_id": t.dia_id},
                                role="user",
                                speaker=t.speaker,
                                subject=t.speaker,
                            )
                            for i, t in enumerate(part)
                        ]
                        made = form(rt, drafts, now=morning + timedelta(minutes=minute))
                        for t, m in zip(part, made, strict=True):
                            dia_memory[(u, t.dia_id)] = m.id
                            if m.id not in born:
                                born[m.id] = (t.priority, day)
                                if u == 0 and t.priority not in tracked.values() and day >= 1:
                                    tracked[m.id] = t.priority
                    for q in schedule.get((u, day), []):
                        hits = recall(
                            rt,
                            RecallRequest(q.text, tenants[u], 5, None, 3, None, True),
                            now=morning + timedelta(hours=6),
                        )
                        want = {dia_memory[(u, e)] for e in q.evidence if (u, e) in dia_memory}
                        returned = {h.memory.id for h in hits}
                        found = returned & want
                        by = stand_ins(mem, want - found)
                        carried = found | {e for e, s in by.items() if s in returned}
                        # what the user sees: a hit, or a source a summary hit shows as its detail
                        shown = found | ({d.id for h in hits for d in h.details} & want)
                        if day >= total - days:
                            missed.update(missed_state(mem, want - carried))
                        asked.append(
                            {
                                "day": day,
                                "recall@5": len(found) / max(1, len(want)),
                                "recall@5_carried": len(carried) / max(1, len(want)),
                                "recall@5_shown": len(shown) / max(1, len(want)),
                                "recallable": recallable(mem, want),
                            }
                        )
                night = morning + timedelta(hours=15)
                if dynamics:
                    nightly(mem, tenants, night, topics, alone)
                snap = mem.query(
                    "MATCH (m:Memory) WHERE m.user_id IN $us "
                    "RETURN m.id AS id, m.status AS status, m.strength AS s, m.priority AS p",
                    {"us": tenants},
                )
                by_id = {r["id"]: r for r in snap}
                for mid, (_, formed) in born.items():
                    if day - formed == 30:  # its status on its 30th day
                        at_30[mid] = by_id[mid]["status"] if mid in by_id else "deleted"
                for mid, label in tracked.items():
                    row = by_id.get(mid)
                    curves.setdefault(f"{label} ({mid[:6]})", []).append(
                        (day, float(row["s"] or 0.0) if row and row["status"] in LIVE_STATUSES else 0.0)
                    )
                daily.append(
                    {
                        "day": day,
                        "memories": len(snap),
                        "live": sum(1 for r in snap if r["status"] in LIVE_STATUSES),
                        "by_status": dict(Counter(r["status"] for r in snap)),
                        "common": sum(1 for r in snap if r["p"] == "common"),
                        "nodes": node_counts(mem, tenants),
                    }
                )
                progress.advance(task)
        final = mem.query(
            "MATCH (m:Memory) WHERE m.user_id IN $us RETURN m.id AS id, m.status AS status, "
            "m.merged_into AS merged_into",
            {"us": tenants},
        )
        result = report(final, born, at_30, dia_memory, conversations, daily, asked, curves, total, days)
        return result | {"month_missed_evidence_state": dict(missed)}
    finally:
        for tenant in tenants:
            with rt.store.driver.session(database=rt.store.database) as session:
                session.run(
                    "MATCH (n) WHERE n.user_id = $u OR (n:User AND n.id = $u) "
                    "CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS",
                    {"u": tenant},
                ).consume()


def report(
    final: list[dict[str, Any]],
    born: dict[str, tuple[str, int]],
    at_30: dict[str, str],
    dia_memory: dict[tuple[int, str], str],
    conversations: list[tuple[list[Turn], list[Question]]],
    daily: list[dict[str, Any]],
    asked: list[dict[str, Any]],
    curves: dict[str, list[tuple[int, float]]],
    total: int,
    days: int,
) -> dict[str, Any]:
    status = {r["id"]: r["status"] for r in final}
    merged_into = {r["id"]: r["merged_into"] for r in final if r["merged_into"]}

    def survivor_live(mid: str) -> bool:
        seen = set()
        while mid in merged_into and mid not in seen:
            seen.add(mid)
            mid = merged_into[mid]
        return status.get(mid) in LIVE_STATUSES

    old = {mid: p for mid, (p, day) in born.items() if total - 1 - day >= 30}

    def share(prios: set[str], predicate: Any) -> float:
        ids = [mid for mid, p in old.items() if p in prios]
        return round(sum(1 for mid in ids if predicate(mid)) / max(1, len(ids)), 4)

    live = {mid for mid, s in status.items() if s in LIVE_STATUSES}
    first, last = daily[-days - 1] if len(daily) > days else daily[0], daily[-1]

    def growth(a: float, b: float) -> float:
        return round((b - a) / max(1.0, a), 4)

    evidence = {
        dia_memory[(u, e)]
        for u, (_, qs) in enumerate(conversations)
        for q in qs
        for e in q.evidence
        if (u, e) in dia_memory
    }
    month = [a["recall@5"] for a in asked if a["day"] >= total - days]
    carried = [a.get("recall@5_carried", a["recall@5"]) for a in asked if a["day"] >= total - days]
    shown = [a.get("recall@5_shown", a["recall@5"]) for a in asked if a["day"] >= total - days]
    useful = [a["recallable"] for a in asked]
    return {
        "users": len(conversations),
        "turns": sum(len(t) for t, _ in conversations),
        "memories_formed": len(born),
        "priorities_formed": dict(Counter(p for p, _ in born.values())),
        "days": days,
        "warmup_days": total - days,
        "p0_p1_live_at_age_30d": round(
            sum(1 for m, st in at_30.items() if born[m][0] in ("P0", "P1") and st in LIVE_STATUSES)
            / max(1, sum(1 for m in at_30 if born[m][0] in ("P0", "P1"))),
            4,
        ),
        "live_at_age_30d_by_priority": {
            p: round(
                sum(1 for m, st in at_30.items() if born[m][0] == p and st in LIVE_STATUSES)
                / max(1, sum(1 for m in at_30 if born[m][0] == p)),
                4,
            )
            for p in ("P0", "P1", "P2", "P3")
        },
        "p3_forgotten_at_age_30d": round(
            sum(1 for m, st in at_30.items() if born[m][0] == "P3" and st in ("forgotten", "deleted"))
            / max(1, sum(1 for m in at_30 if born[m][0] == "P3")),
            4,
        ),
        "p0_p1_live_30d": share({"P0", "P1"}, lambda m: m in live),
        "p0_p1_live_or_merged_30d": share({"P0", "P1"}, survivor_live),
        "live_30d_by_priority": {p: share({p}, lambda m: m in live) for p in ("P0", "P1", "P2", "P3")},
        "status_30d_by_priority": {
            p: dict(Counter(status.get(m, "deleted") for m, q in old.items() if q == p))
            for p in ("P0", "P1", "P2", "P3")
        },
        "p3_forgotten_30d": share({"P3"}, lambda m: status.get(m) in (None, "forgotten")),
        "month_growth_live_memories": growth(first["live"], last["live"]),
        "month_growth_all_memories": growth(first["memories"], last["memories"]),
        "month_growth_all_nodes": growth(sum(first["nodes"].values()), sum(last["nodes"].values())),
        "month_start": {k: first[k] for k in ("day", "memories", "live", "nodes")},
        "month_end": {k: last[k] for k in ("day", "memories", "live", "nodes", "by_status")},
        "questions_asked_in_month": len(month),
        "month_evidence_recall_at_5": round(sum(month) / max(1, len(month)), 4),
        # the same, a merge survivor or summary returned in place of an evidence memory counting for it
        "month_evidence_recall_at_5_carried": round(sum(carried) / max(1, len(carried)), 4),
        # the evidence shown to the user: a returned memory, or a source a summary hit shows as its detail
        "month_evidence_recall_at_5_shown": round(sum(shown) / max(1, len(shown)), 4),
        "needed_memories_recallable_when_asked": round(sum(useful) / max(1, len(useful)), 4),
        "evidence_memories_live_at_end": round(len(evidence & live) / max(1, len(evidence)), 4),
        "common_knowledge": last["common"],
        "daily": daily,
        "curves": curves,
    }


def plot(report: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4.5))
    for label, points in report["curves"].items():
        a.plot([d for d, _ in points], [s for _, s in points], label=label)
    a.set_xlabel("simulated day")
    a.set_ylabel("strength (0-4; 0 once forgotten)")
    a.set_title("strength over time (one memory per priority, user 1)")
    a.legend()
    days = [c["day"] for c in report["daily"]]
    b.plot(days, [c["memories"] for c in report["daily"]], label="memories (all)")
    b.plot(days, [c["live"] for c in report["daily"]], label="live memories")
    b.plot(days, [sum(c["nodes"].values()) for c in report["daily"]], label="graph nodes")
    b.axvline(report["warmup_days"], color="grey", linestyle=":", label="measured month starts")
    b.set_xlabel("simulated day")
    b.set_ylabel("count")
    b.set_title("store size (steady input)")
    b.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def growth_table(report: dict[str, Any]) -> list[str]:
    """What grows in the measured month: nodes by label, memories by status (start, end, growth)."""
    first, last = report["month_start"], report["month_end"]
    start_status = next((d["by_status"] for d in report.get("daily", []) if d["day"] == first["day"]), {})
    rows = [(label, first["nodes"].get(label, 0), n) for label, n in last["nodes"].items()]
    statuses = sorted(set(start_status) | set(last.get("by_status", {})))
    rows += [(f"Memory: {s}", start_status.get(s, 0), last["by_status"].get(s, 0)) for s in statuses]
    return [
        f"What grows from day {first['day']} to day {last['day']} (dynamics on):",
        "",
        "| nodes | start | end | growth |",
        "|---|---|---|---|",
        *[f"| {k} | {a} | {b} | {_pct((b - a) / max(1, a))} |" for k, a, b in rows],
        "",
    ]


def missed_table(report: dict[str, Any]) -> list[str]:
    """The evidence memories the month's recalls missed (dynamics on), by status and by the marks on them."""
    missed = report.get("month_missed_evidence_state") or {}
    if not missed:
        return []
    cells = ", ".join(f"{k} {v}" for k, v in sorted(missed.items(), key=lambda kv: -kv[1]))
    return [f"Evidence the month's recalls missed (dynamics on), by state: {cells}.", ""]


def markdown(report: dict[str, Any], path: Path) -> str:
    """The result's section for the benchmark summary: the issue's measures with their aims beside them."""
    st = report["stamp"]
    rows = [
        ("P0/P1 live on their 30th day", _pct(report["p0_p1_live_at_age_30d"]), "> 70 %"),
        ("P3 forgotten by their 30th day", _pct(report["p3_forgotten_at_age_30d"]), "(fades)"),
        ("P0/P1 live at the end (memories 30+ days old)", _pct(report["p0_p1_live_30d"]), ""),
        ("P3 forgotten at the end (30+ days old)", _pct(report["p3_forgotten_30d"]), ""),
        ("growth in the measured month: live memories", _pct(report["month_growth_live_memories"]), "< 20 %"),
        ("growth in the measured month: all memories", _pct(report["month_growth_all_memories"]), ""),
        ("growth in the measured month: all nodes", _pct(report["month_growth_all_nodes"]), ""),
        (
            "evidence recall@5 of the month's questions",
            f"{report['month_evidence_recall_at_5']:.3f}",
            ">= 0.540",
        ),
        (
            "the same, a merge survivor or summary returned for its source counting",
            f"{report.get('month_evidence_recall_at_5_carried', float('nan')):.3f}",
            "",
        ),
        (
            "the same, counting the sources a summary hit shows as its details (what the user reads)",
            f"{report.get('month_evidence_recall_at_5_shown', float('nan')):.3f}",
            "",
        ),
        (
            "needed memories still recallable when asked (usefulness)",
            _pct(report["needed_memories_recallable_when_asked"]),
            "",
        ),
    ]
    off = report.get("dynamics_off")
    if off:
        rows += [
            ("same run, dynamics off: evidence recall@5", f"{off['month_evidence_recall_at_5']:.3f}", ""),
            (
                "dynamics off: needed memories recallable",
                _pct(off["needed_memories_recallable_when_asked"]),
                "",
            ),
            ("dynamics off: growth of all nodes", _pct(off["month_growth_all_nodes"]), ""),
        ]
    lines = [
        "## Memory dynamics simulation (`benchmarks/dynamics_sim.py`)"
        + ("" if path.stem == "dynamics_sim" else f", `{path.stem}`"),
        "",
        f"{report['users']} LoCoMo dev conversations ({report['turns']} turns) replayed as steady input on a "
        f"virtual clock: {report['warmup_days']} warm-up days, then a measured "
        f"month of {report['days']} days; "
        f"jobs daily, recalls reinforce; preset `{st.get('preset')}`. Command: `{st['command']}`.",
        "",
        "<!-- headline -->",
        "| measure | value | aim |",
        "|---|---|---|",
        *[f"| {a} | {b} | {c} |" for a, b, c in rows],
        "",
        *growth_table(report),
        *missed_table(report),
        f"![strength over time and store size]({path.with_suffix('.png').name})",
    ]
    return "\n".join(lines) + "\n"


def run_arms(
    mem: GraphMemory, args: argparse.Namespace, preset: str
) -> tuple[float, dict[str, Any], dict[str, Any]]:
    """The simulation with the dynamics on, then (``--compare-off``) the same one with no job."""
    mem.init()
    header = stamp(
        neo4j_version(mem.query),
        preset=preset,
        topics=args.topics,
        rif=not args.no_rif,
        server="private" if args.server_home else "shared",
        params=mem.automation.get_config().dynamics.model_dump(),
    )
    started = time.perf_counter()
    result = simulate(
        mem,
        args.data,
        args.users,
        args.warmup,
        args.days,
        args.seed,
        max_turns=args.max_turns,
        topics=args.topics,
    )
    result["seconds_dynamics_on"] = round(time.perf_counter() - started, 1)
    if args.compare_off:
        off = simulate(mem, args.data, args.users, args.warmup, args.days, args.seed, False, args.max_turns)
        result["dynamics_off"] = {k: v for k, v in off.items() if k not in ("daily", "curves")}
    return started, header, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data/locomo/locomo-dev.json"))
    parser.add_argument("--days", type=int, default=30, help="the measured month")
    parser.add_argument("--warmup", type=int, default=60, help="days of steady input before it")
    parser.add_argument("--users", type=int, default=5, help="conversations used (one user each)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--max-turns", type=int, default=0, help="first turns per conversation (0: all)")
    parser.add_argument("--preset", default="balanced", help="a name in graphmem.model.dynamics.PRESETS")
    parser.add_argument("--params", default="{}", help="JSON overrides of the preset's parameters")
    parser.add_argument("--out", type=Path, default=RESULTS / "dynamics_sim.json")
    parser.add_argument("--report-only", action="store_true", help="rewrite the .md and .png from --out")
    parser.add_argument(
        "--compare-off", action="store_true", help="also run the same simulation with no jobs (dynamics off)"
    )
    parser.add_argument(
        "--embedding-cache",
        type=Path,
        help="JSON file of the turns' and questions' embeddings, kept across runs (same model only)",
    )
    parser.add_argument(
        "--server-home",
        type=Path,
        help="run on a private server under this home (ports --bolt-port/--http-port), stopped at the end: "
        "the shared server's vector index holds every other tenant, which slows the per-tenant searches",
    )
    parser.add_argument("--bolt-port", type=int, default=7697)
    parser.add_argument("--http-port", type=int, default=7484)
    parser.add_argument(
        "--topics", action="store_true", help="rebuild topics nightly (consolidation summarises per topic)"
    )
    parser.add_argument(
        "--no-rif",
        action="store_true",
        help="recalls do not inhibit their competitors (retrieval-induced forgetting off, in both arms)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a smoke run: 1 user, its first 80 turns, 3 + 3 days (checks the harness, measures nothing)",
    )
    args = parser.parse_args()
    if args.quick:
        args.users, args.warmup, args.days, args.max_turns = 1, 3, 3, 80
        if args.out == RESULTS / "dynamics_sim.json":
            args.out = RESULTS / "dynamics_sim_quick.json"
    if args.report_only:
        saved = json.loads(args.out.read_text())
        args.out.with_suffix(".md").write_text(markdown(saved, args.out))
        plot(saved, args.out.with_suffix(".png"))
        return
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # a terminated run still deletes its users
    if not args.data.exists():
        sys.exit(f"no data at {args.data}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    # its own automation config: the named preset, whatever the shared config holds (every job run stores its
    # due-date basis there: deleted at the end)
    overrides = json.loads(args.params)
    preset = args.preset
    if overrides:  # a preset of this process only
        base = PRESETS[args.preset].model_dump()
        preset = f"{args.preset}+overrides"
        PRESETS[preset] = DynamicsParams.model_validate({**base, **overrides, "preset": preset})
    settings = Settings(
        automation_config_id=f"sim-{uuid.uuid4()}",
        dynamics_preset=preset,
        retrieval_induced_forgetting=not args.no_rif,
    )
    # one embedder for both arms: every turn and question is embedded once, up front, in large batches
    embedder = CachingEmbedder(default_embedder(settings))
    if args.embedding_cache and args.embedding_cache.exists():
        saved = json.loads(args.embedding_cache.read_text())
        if saved.get("embedder") == embedder.name:  # never vectors of another model
            embedder.load(saved["vectors"])
    pre_embed(embedder, args.data, args.users, args.max_turns)
    if args.embedding_cache:
        args.embedding_cache.parent.mkdir(parents=True, exist_ok=True)
        args.embedding_cache.write_text(json.dumps({"embedder": embedder.name, "vectors": embedder.cache}))
    server = (
        LocalServer(
            args.server_home, bolt_port=args.bolt_port, http_port=args.http_port, heap="2g", pagecache="1g"
        )
        if args.server_home
        else None
    )
    connect: dict[str, Any] = {}
    if server is not None:
        status = server.start(progress=print)
        connect = {"uri": status.bolt_uri, "auth": server.credentials()}
    try:
        with GraphMemory.connect(settings=settings, embedder=embedder, **connect) as mem:
            try:
                started, header, result = run_arms(mem, args, preset)
            finally:  # the users are deleted by simulate(); the configuration belongs to none of them
                drop_config(mem, settings.automation_config_id)
    finally:
        if server is not None:
            server.stop()
    result = {"stamp": header, "seconds": round(time.perf_counter() - started, 1), **result}
    args.out.write_text(json.dumps(result, indent=2, default=str))
    plot(result, args.out.with_suffix(".png"))
    args.out.with_suffix(".md").write_text(markdown(result, args.out))
    summary = {k: v for k, v in result.items() if k not in ("daily", "curves", "stamp")}
    print(json.dumps(summary, indent=2, default=str))


if __name__ == "__main__":
    main()
