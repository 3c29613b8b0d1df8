"""LongMemEval-format retrieval harness: session- and turn-level recall, graphmem beside baselines and a peer.

    .venv/bin/python benchmarks/longmemeval.py --data FILE [--limit N] [--k 5 10] \
        --out benchmarks/results/longmemeval_sample.json

FILE is in the official LongMemEval shape (longmemeval_s / _m / _oracle): a list of questions with
``question_id``, ``question_type``, ``question``, ``answer``, ``question_date``, ``haystack_session_ids``,
``haystack_dates`` (e.g. ``"2023/05/20 (Sat) 02:21"``), ``haystack_sessions`` (per session a list of turns
``{role, content, has_answer?}``) and ``answer_session_ids``. Abstention questions (id ending ``_abs``) are
skipped: they have no evidence to retrieve.

Each question gets its own fresh tenant; with ``--pooled`` all questions share ONE tenant holding every
haystack session once (many sessions of one user: the harder, realistic case, where one session's
neighbours can crowd out the others). Its haystack sessions are ingested in date order, each turn a memory
(role kept, turn timestamps = the session's date plus the turn's position in seconds). With the default
``--clock session`` the engine receives each session at its date (transaction time = the session date,
through ``formation.form(now=...)``, as ``add_messages`` has no clock argument) and every question is
recalled ``as_of`` its ``question_date``, so a session dated after the question is invisible to it.
``--clock wall`` ingests through the public ``add_messages`` instead (transaction time = now) and recalls
without ``as_of``, leaving out at ingestion the sessions dated after the question.

Every method returns its top memories (turns); the session ranking is the order in which those turns' sessions
first appear (LongMemEval's turn → session conversion). Scores per question type and overall:
session-level recall_any@k (any evidence session in the top k sessions), recall_all@k (all of them), NDCG@k
(binary relevance, LongMemEval's DCG), and turn-level recall@k (share of ``has_answer`` turns in the top k
turns). Tenants are deleted afterwards unless ``--keep``.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from graphmem import GraphMemory, Settings
from graphmem.config import MAX_BATCH, PRESETS, RetrievalPreset
from graphmem.embedding import BGE_SMALL, make_embedder
from graphmem.formation import writer as formation
from graphmem.model import messages as inbound

sys.path.insert(0, str(Path(__file__).parent))
from baselines import (
    CachingEmbedder,
    Methods,
    Query,
    Rankings,
    add_peer,
    bar_plot,
    markdown_table,
    peer_input,
    rank_all,
    run_peer,
)
from locomo_lme import locomo_pool
from machine import neo4j_version, stamp

ABSTENTION = "_abs"
DEFAULT_KS = (5, 10)
PEERS = {"mem0": "mem0 (peer, infer=False)"}
console = Console()


def parse_date(text: str) -> datetime:
    """LongMemEval's ``"2023/05/20 (Sat) 02:21"`` as an aware datetime (UTC); the weekday is not checked."""
    day, _, clock = text.strip().partition(" (")
    clock = clock.partition(") ")[2]
    return datetime.strptime(f"{day} {clock}", "%Y/%m/%d %H:%M").replace(tzinfo=UTC)


# --- metrics: pure functions over rankings --------------------------------------------------------------
def session_ranking(memory_ranking: Sequence[str], session_of: dict[str, str]) -> list[str]:
    """Sessions in the order their first turn appears in a ranking of memories (unknown ids are skipped)."""
    return list(dict.fromkeys(session_of[m] for m in memory_ranking if m in session_of))


def recall_any(ranking: Sequence[str], gold: set[str], k: int) -> float:
    """1.0 when any gold item is in the top k, else 0.0."""
    return float(bool(gold & set(ranking[:k])))


def recall_all(ranking: Sequence[str], gold: set[str], k: int) -> float:
    """1.0 when every gold item is in the top k, else 0.0 (0.0 for an empty gold set)."""
    return float(bool(gold) and gold <= set(ranking[:k]))


def dcg(relevances: Sequence[float]) -> float:
    """LongMemEval's DCG: rel₁ + Σ_{i≥2} relᵢ / log₂(i) (positions 1-based)."""
    return sum(rel if i == 1 else rel / math.log2(i) for i, rel in enumerate(relevances, start=1))


def ndcg(ranking: Sequence[str], gold: set[str], k: int) -> float:
    """Binary-relevance NDCG@k: DCG of the top k over the DCG of min(|gold|, k) hits first."""
    ideal = dcg([1.0] * min(len(gold), k))
    if ideal == 0:
        return 0.0
    return dcg([1.0 if item in gold else 0.0 for item in ranking[:k]]) / ideal


def turn_recall(ranking: Sequence[str], gold: set[str], k: int) -> float:
    """Share of the gold turns found in the top k (0.0 for an empty gold set)."""
    return len(gold & set(ranking[:k])) / len(gold) if gold else 0.0


def score_question(
    memory_ranking: Sequence[str],
    session_of: dict[str, str],
    gold_sessions: set[str],
    gold_turns: set[str],
    ks: Sequence[int],
) -> dict[str, float]:
    """All metrics of one question at every k; turn recall only when the question marks evidence turns."""
    sessions = session_ranking(memory_ranking, session_of)
    out: dict[str, float] = {}
    for k in ks:
        out[f"recall_any@{k}"] = recall_any(sessions, gold_sessions, k)
        out[f"recall_all@{k}"] = recall_all(sessions, gold_sessions, k)
        out[f"ndcg@{k}"] = ndcg(sessions, gold_sessions, k)
        if gold_turns:
            out[f"turn_recall@{k}"] = turn_recall(memory_ranking, gold_turns, k)
    return out


def aggregate(scored: Sequence[tuple[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    """Mean of each metric per question type and ``overall``, with the question count ``n``."""
    groups: dict[str, list[dict[str, float]]] = defaultdict(list)
    for qtype, metrics in scored:
        groups[qtype].append(metrics)
        groups["overall"].append(metrics)
    out: dict[str, dict[str, float]] = {}
    for qtype in sorted(groups, key=lambda t: (t == "overall", t)):
        rows = groups[qtype]
        names = list(dict.fromkeys(name for row in rows for name in row))
        out[qtype] = {name: statistics.fmean(r[name] for r in rows if name in r) for name in names}
        out[qtype]["n"] = len(rows)
    return out


# --- ingestion -----------------------------------------------------------------------------------------
@dataclass
class Haystack:
    """One question's tenant after ingestion: which session each memory came from, and the evidence."""

    question_id: str
    question_type: str
    user_id: str
    query: Query
    session_of: dict[str, str] = field(default_factory=dict)
    gold_sessions: set[str] = field(default_factory=set)
    gold_turns: set[str] = field(default_factory=set)
    turns: int = 0
    sessions_after_question: int = 0


def load(path: Path, limit: int | None = None, locomo: int | None = None) -> tuple[list[dict[str, Any]], int]:
    """The non-abstention questions of a LongMemEval file (the first ``limit``) and how many were skipped.
    With ``locomo`` (a number of conversations), ``path`` is a LoCoMo file turned into one pooled
    LongMemEval-format haystack of its first ``locomo`` conversations (benchmarks/locomo_lme.py)."""
    raw = json.loads(path.read_text())
    items = locomo_pool(raw[:locomo]) if locomo else raw
    kept = [q for q in items if not str(q["question_id"]).endswith(ABSTENTION)]
    return kept[:limit], len(items) - len(kept)


def _messages(turns: list[dict[str, Any]], sid: str, when: datetime, max_chars: int) -> list[dict[str, Any]]:
    return [
        {
            "role": turn["role"],
            "content": (turn["content"] or "(empty)")[:max_chars],
            "timestamp": when + timedelta(seconds=i),
            "metadata": {"session": sid, "turn": i, "has_answer": bool(turn.get("has_answer"))},
        }
        for i, turn in enumerate(turns)
    ]


def _store_session(
    mem: GraphMemory, messages: list[dict[str, Any]], user_id: str, sid: str, now: datetime | None
) -> list[str]:
    """One session's turns as memories; with ``now``, the engine receives them at that time."""
    ids: list[str] = []
    for start in range(0, len(messages), MAX_BATCH):
        batch = messages[start : start + MAX_BATCH]
        if now is None:
            ids += [m.id for m in mem.add_messages(batch, user_id=user_id, session_id=sid)]
            continue
        rt = mem.runtime
        turns = inbound.normalize_all(batch, max_batch=MAX_BATCH, max_chars=rt.settings.max_content_chars)
        drafts = [  # what add_messages builds (formation.add_turns), here with the transaction clock set
            formation.MemoryDraft(
                content=t.content,
                user_id=user_id,
                session_id=sid,
                occurred_at=t.timestamp,
                metadata=t.metadata,
                source=t.source,
                role=t.role,
                speaker=t.speaker,
                subject=t.name,
            )
            for t in turns
        ]
        ids += [m.id for m in formation.form(rt, drafts, now=now)]
    return ids


def ingest(mem: GraphMemory, item: dict[str, Any], user_id: str, clock: str = "session") -> Haystack:
    """Ingest one question's haystack into a fresh tenant ``user_id`` (an earlier one is deleted first)."""
    mem.users.delete(user_id)
    asked = parse_date(item["question_date"])
    as_of = asked if clock == "session" else None
    query = Query(item["question_id"], user_id, item["question"], as_of)
    hay = Haystack(item["question_id"], item["question_type"], user_id, query)
    answers = set(item.get("answer_session_ids") or [])
    sessions = sorted(
        zip(item["haystack_session_ids"], item["haystack_dates"], item["haystack_sessions"], strict=True),
        key=lambda s: parse_date(s[1]),
    )
    max_chars = mem.runtime.settings.max_content_chars
    for sid, date, turns in sessions:
        when = parse_date(date)
        if when > asked:
            hay.sessions_after_question += 1
            if clock != "session":  # no transaction clock: leave the future out here
                continue
        if not turns:
            continue
        messages = _messages(turns, sid, when, max_chars)
        ids = _store_session(mem, messages, user_id, sid, when if clock == "session" else None)
        for message, mid in zip(messages, ids, strict=True):
            hay.session_of.setdefault(mid, sid)
            if message["metadata"]["has_answer"]:
                hay.gold_turns.add(mid)
        hay.turns += len(messages)
        if sid in answers and when <= asked:
            hay.gold_sessions.add(sid)
    return hay


def ingest_pooled(
    mem: GraphMemory, items: list[dict[str, Any]], user_id: str, clock: str = "session"
) -> list[Haystack]:
    """Pooled mode: every question's haystack sessions (each distinct session once, in date order) go into
    ONE tenant, as many sessions of one user; each question is recalled against the whole pool (with the
    session clock, ``as_of`` its date, so later sessions stay invisible). Gold turns are the turns marked
    ``has_answer`` in that question's copy of its answer sessions."""
    mem.users.delete(user_id)
    sessions: dict[str, tuple[datetime, list[dict[str, Any]]]] = {}
    for item in items:
        for sid, date, turns in zip(
            item["haystack_session_ids"], item["haystack_dates"], item["haystack_sessions"], strict=True
        ):
            sessions.setdefault(sid, (parse_date(date), turns))
    max_chars = mem.runtime.settings.max_content_chars
    session_of: dict[str, str] = {}
    turn_ids: dict[tuple[str, int], str] = {}
    for sid, (when, turns) in sorted(sessions.items(), key=lambda s: s[1][0]):
        if not turns:
            continue
        messages = _messages(turns, sid, when, max_chars)
        ids = _store_session(mem, messages, user_id, sid, when if clock == "session" else None)
        for i, mid in enumerate(ids):
            session_of[mid] = sid
            turn_ids[(sid, i)] = mid
    hays = []
    for item in items:
        asked = parse_date(item["question_date"])
        query = Query(item["question_id"], user_id, item["question"], asked if clock == "session" else None)
        hay = Haystack(item["question_id"], item["question_type"], user_id, query)
        hay.session_of = session_of
        answers = set(item.get("answer_session_ids") or [])
        for sid, date, turns in zip(
            item["haystack_session_ids"], item["haystack_dates"], item["haystack_sessions"], strict=True
        ):
            if parse_date(date) > asked:
                hay.sessions_after_question += 1
                continue
            if sid in answers and turns:
                hay.gold_sessions.add(sid)
                hay.gold_turns |= {turn_ids[(sid, i)] for i, t in enumerate(turns) if t.get("has_answer")}
        hay.turns = len(session_of)
        hays.append(hay)
    return hays


# --- the run -------------------------------------------------------------------------------------------
def evaluate(hays: list[Haystack], rankings: Rankings, ks: Sequence[int]) -> dict[str, Any]:
    """Per method: metrics per question type and overall (questions without a reachable evidence session
    are left out and counted)."""
    scorable = [h for h in hays if h.gold_sessions]
    results: dict[str, Any] = {}
    for name, ranked in rankings.by_method.items():
        scored = [
            (
                h.question_type,
                score_question(ranked.get(h.query.qid, []), h.session_of, h.gold_sessions, h.gold_turns, ks),
            )
            for h in scorable
        ]
        results[name] = aggregate(scored)
    return results


def run(
    mem: GraphMemory,
    cached: CachingEmbedder,
    items: list[dict[str, Any]],
    *,
    ks: Sequence[int],
    prefix: str,
    clock: str = "session",
    peers: Sequence[str] = (),
    keep: bool = False,
    pooled: bool = False,
    rerank: bool = False,
) -> dict[str, Any]:
    """Ingest, rank with every method (and peer; ``rerank``: graphmem with the cross-encoder too), score;
    the report without the machine stamp."""
    hays: list[Haystack] = []
    started = time.perf_counter()
    if pooled:
        with console.status("ingesting the pooled haystack"):
            hays = ingest_pooled(mem, items, f"{prefix}pooled", clock)
    else:
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task("ingesting haystacks", total=len(items))
            for item in items:
                hays.append(ingest(mem, item, f"{prefix}{item['question_id']}", clock))
                progress.advance(task)
    ingest_s = time.perf_counter() - started
    depth = max(50, 5 * max(ks))  # turns per method: enough for max(ks) distinct sessions
    methods = Methods(mem, cached, {"rerank": rerank})
    queries = [h.query for h in hays if h.gold_sessions]
    methods.prepare(queries)
    rankings = rank_all(methods.rankers(), queries, depth)
    with tempfile.TemporaryDirectory() as tmp:
        for peer in peers:
            console.print(f"running peer {peer} in its own virtualenv ...")
            outcome = run_peer(peer, peer_input(methods, queries, depth), Path(tmp))
            add_peer(rankings, outcome, PEERS.get(peer, peer))
            console.print(f"{peer}: {outcome.status[:300]}")
    results = evaluate(hays, rankings, ks)
    if not keep:
        for user in dict.fromkeys(h.user_id for h in hays):
            mem.users.delete(user)
    return {
        "pooled": pooled,
        "questions": len(items),
        "scored": len(queries),
        "unscorable_no_evidence_session": len(hays) - len(queries),
        "turns": hays[0].turns if pooled and hays else sum(h.turns for h in hays),
        "sessions_after_question": sum(h.sessions_after_question for h in hays),
        "ingest_seconds": round(ingest_s, 2),
        "clock": clock,
        "ks": list(ks),
        "depth": depth,
        "results": results,
        "ms_per_query": rankings.ms_per_query,
        "notes": rankings.notes,
    }


def markdown(report: dict[str, Any]) -> str:
    ks = report["ks"]
    k = ks[-1]
    results = report["results"]
    types = [t for t in next(iter(results.values()))] if results else []
    header = ["method", *[f"{t} R_any@{k}" for t in types if t != "overall"]]
    header += [f"overall R_any@{ks[0]} / @{k}", f"R_all@{k}", f"NDCG@{k}", f"turn R@{k}", "ms / query"]
    rows = []
    for name, table in results.items():
        overall = table["overall"]
        rows.append(
            [
                name,
                *[f"{table[t][f'recall_any@{k}']:.3f}" for t in types if t != "overall"],
                f"{overall[f'recall_any@{ks[0]}']:.3f} / {overall[f'recall_any@{k}']:.3f}",
                f"{overall[f'recall_all@{k}']:.3f}",
                f"{overall[f'ndcg@{k}']:.3f}",
                f"{overall.get(f'turn_recall@{k}', float('nan')):.3f}",
                f"{report['ms_per_query'].get(name, 0):.1f}",
            ]
        )
    tenancy = "all in ONE tenant (pooled)" if report.get("pooled") else "one fresh tenant per question"
    lines = [
        f"## Retrieval quality: LongMemEval-format harness ({Path(report['data']).name}, "
        f"{report['scored']} questions scored, {report['skipped_abstention']} abstention skipped)",
        "",
        markdown_table(header, rows),
        "",
        f"Session-level recall_any / recall_all / NDCG and turn-level recall at k={k}, per question type "
        f"(n per type in the JSON); {report['turns']} turns ingested, {tenancy}, "
        f"recalled as of the question date (clock={report['clock']}). No target is set for this "
        "harness; the sample file is ours and small: it checks the harness more than it ranks methods. "
        "Machine: "
        f"{report['machine']['cpus']} CPUs, load {report['machine']['load_1m_at_start']} at start "
        "(other work shared the CPU).",
    ]
    for name, note in report["notes"].items():
        lines.append(f"- {name}: {note}")
    lines.append(f"\n![session recall_any per method and question type]({report['plot']})")
    lines.append(f"\n`{report['command']}`")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/longmemeval.json"))
    parser.add_argument("--limit", type=int, help="only the first N (non-abstention) questions")
    parser.add_argument("--k", type=int, nargs="+", default=list(DEFAULT_KS))
    parser.add_argument("--clock", choices=["session", "wall"], default="session")
    parser.add_argument(
        "--user-prefix", help="tenant id prefix (default: lme-<random>-, so concurrent runs never collide)"
    )
    parser.add_argument("--peers", default="mem0", help="comma-separated peers to run ('' for none)")
    parser.add_argument("--keep", action="store_true", help="keep the tenants after the run")
    parser.add_argument(
        "--pooled", action="store_true", help="all haystacks in one tenant (many sessions of one user)"
    )
    parser.add_argument(
        "--from-locomo",
        type=int,
        metavar="N",
        help="--data is a LoCoMo file: pool its first N conversations into one LongMemEval-format haystack "
        "(implies --pooled)",
    )
    parser.add_argument("--rerank", action="store_true", help="also run graphmem with the cross-encoder")
    parser.add_argument("--embedder", default=BGE_SMALL, help="embedding model (default: graphmem's)")
    parser.add_argument(
        "--set", action="append", default=[], metavar="FIELD=VALUE", help="override a retrieval preset field"
    )
    args = parser.parse_args(argv)
    items, skipped = load(args.data, args.limit, args.from_locomo)
    args.pooled = args.pooled or bool(args.from_locomo)
    cached = CachingEmbedder(make_embedder(args.embedder))
    overrides = dict(item.split("=", 1) for item in args.set)
    preset = RetrievalPreset.model_validate(
        {**PRESETS["balanced"].model_dump(), **overrides, "name": "bench"}
    )
    settings = Settings(retrieval_preset=preset, record_recalls=False)
    with GraphMemory.connect(embedder=cached, settings=settings) as mem:
        mem.init()
        body = run(
            mem,
            cached,
            items,
            ks=sorted(args.k),
            prefix=args.user_prefix or f"lme-{uuid.uuid4().hex[:8]}-",
            clock=args.clock,
            peers=[p for p in args.peers.split(",") if p],
            keep=args.keep,
            pooled=args.pooled,
            rerank=args.rerank,
        )
        server = neo4j_version(mem.query)
    plot = args.out.with_suffix(".png")
    report = stamp(server, data=str(args.data), skipped_abstention=skipped, plot=plot.name, **body)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, default=str))
    args.out.with_suffix(".md").write_text(markdown(report))
    k = max(args.k)
    types = list(next(iter(body["results"].values())))
    bar_plot(
        plot,
        f"LongMemEval-format harness: session recall_any@{k} ({args.data.name})",
        types,
        {name: [t[g][f"recall_any@{k}"] for g in types] for name, t in body["results"].items()},
        f"recall_any@{k}",
    )
    table = Table(title=f"session recall_any@{k} / NDCG@{k} / turn recall@{k}")
    table.add_column("method")
    for t in types:
        table.add_column(t)
    for name, res in body["results"].items():
        table.add_row(
            name,
            *[
                f"{res[t][f'recall_any@{k}']:.2f}/{res[t][f'ndcg@{k}']:.2f}/"
                f"{res[t].get(f'turn_recall@{k}', float('nan')):.2f}"
                for t in types
            ],
        )
    console.print(table)
    for name, note in body["notes"].items():
        console.print(f"{name}: {note}")


if __name__ == "__main__":
    main()
