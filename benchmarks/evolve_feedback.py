"""Self-evolution: does feedback on some of a user's questions improve recall of the user's OTHER questions?

Each LoCoMo conversation (read at run time from ``--data``) is one user, ingested through the public API
(``add_messages``, one session per LoCoMo session). Its questions (categories 1-4 with evidence) are split at
random (``--seed``) into a feedback half and a held-out half. The simulated user then works through the
feedback half in ``--rounds`` batches: each question is recalled (k = 10), the user marks its evidence turns
useful (``mem.memories.feedback(..., useful=True, query=q)``, also when recall missed them: a correction) and
the hits ranked above the first evidence hit not useful. After each batch
``mem.automation.evolution.adapt(user)`` may store a new version of the user's tuning.

Measured on the held-out half only, in one run, all recalls read-only (``reinforce=False``):

- ``before``: evidence R@10 before any feedback;
- ``feedback, own words``: after the feedback (its strength/importance changes included) with the preset's
  parameters, each memory matched by its own words only (``asked_keys=False``);
- ``feedback, fixed parameters``: the same with the asked keys the feedback taught (each question marked
  useful is a full-text key of its memories: graphmem.model.keys.asked_key), the preset's parameters (an
  explicit ``preset=`` bypasses the tuning);
- ``feedback + adaptation``: the same state with the user's tuned parameters (the default recall).

Adversarial questions (category 5: asked about the other speaker) are never judged; their R@10 before,
with the preset and with the tuning (``adversarial_r10_*``) shows what a tuned speaker boost costs them.

What the asked keys bring is the third minus the second; what the tuned weights bring, the last minus the
third; what feedback brings in all, the last minus the first. The same are reported for the judged
questions themselves, asked again after their feedback (``train_r10_*``: a user repeating a question). A plot
shows the parameters and the held-out R@10 after each batch (benchmarks/results/evolve_feedback.png).

    .venv/bin/python benchmarks/evolve_feedback.py --data ../shared/data/locomo/locomo-dev.json
    .venv/bin/python benchmarks/evolve_feedback.py --limit 1 --max-sessions 6 --rounds 2   # a quick check
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
from pathlib import Path
from typing import Any

from locomo_ingest import messages_of, sessions
from machine import neo4j_version, stamp
from rich.progress import Progress

from graphmem import GraphMemory, Settings
from graphmem.config import BALANCED, RetrievalPreset

RESULTS = Path(__file__).parent / "results"
DIA = re.compile(r"D\d+:\d+")
K = 10


def questions(
    sample: dict[str, Any], known: set[str], categories: tuple[int, ...] = (1, 2, 3, 4)
) -> list[tuple[str, list[str]]]:
    out = []
    for qa in sample["qa"]:
        evidence = [e for e in dict.fromkeys(DIA.findall(" ".join(qa.get("evidence", [])))) if e in known]
        if qa["category"] in categories and evidence:
            out.append((qa["question"], evidence))
    return out


def ingest(mem: GraphMemory, sample: dict[str, Any], user: str, max_sessions: int) -> dict[str, str]:
    dia: dict[str, str] = {}
    parts = sessions(sample["conversation"])
    for n, when, turns in parts[:max_sessions] if max_sessions else parts:
        batch = messages_of(turns, when)
        for message, memory in zip(
            batch, mem.add_messages(batch, user_id=user, session_id=f"s{n}"), strict=True
        ):
            dia[message["metadata"]["dia_id"]] = memory.id
    return dia


def reuse(mem: GraphMemory, user: str) -> dict[str, str]:
    """The dia-id -> memory-id map of a user an earlier run ingested the same way (``--reuse``)."""
    rows = mem.query(
        "MATCH (m:Memory) WHERE m.user_id = $u RETURN m.id AS id, m.metadata AS metadata", {"u": user}
    )
    return {json.loads(r["metadata"])["dia_id"]: r["id"] for r in rows if r["metadata"]}


OWN_WORDS = BALANCED.model_copy(update={"asked_keys": False})
"""The preset's parameters, memories matched by their own words only (no asked keys learnt from feedback)."""


def r_at_k(
    mem: GraphMemory, user: str, qs: list[tuple[str, set[str]]], preset: str | RetrievalPreset | None
) -> float:
    total = 0.0
    for q, gold in qs:
        hits = mem.recall(q, user_id=user, k=K, reinforce=False, preset=preset)
        total += len({h.memory.id for h in hits} & gold) / len(gold)
    return round(total / max(1, len(qs)), 4)


def give_feedback(mem: GraphMemory, user: str, q: str, gold: set[str]) -> int:
    """The simulated user: evidence useful, hits ranked above the first evidence hit not useful."""
    hits = [h.memory.id for h in mem.recall(q, user_id=user, k=K, reinforce=False)]
    first = next((i for i, mid in enumerate(hits) if mid in gold), K)
    for mid in sorted(gold):
        mem.memories.feedback(mid, user_id=user, useful=True, query=q)
    for mid in hits[:first]:
        mem.memories.feedback(mid, user_id=user, useful=False, query=q)
    return len(gold) + first


def run_user(
    mem: GraphMemory,
    sample: dict[str, Any],
    rounds: int,
    seed: int,
    max_q: int,
    max_sessions: int = 0,
    prefix: str | None = None,
) -> dict[str, Any]:
    user = f"{prefix}-{sample['sample_id']}" if prefix else f"evolve-{uuid.uuid4()}"
    try:
        started = time.perf_counter()
        dia = reuse(mem, user) if prefix else {}
        if len(dia) != sum(len(turns) for _, _, turns in sessions(sample["conversation"])):
            user = f"evolve-{uuid.uuid4()}"  # not (completely) ingested before: a fresh user
            dia = ingest(mem, sample, user, max_sessions)
        qs = [(q, {dia[e] for e in ev}) for q, ev in questions(sample, set(dia))]
        random.Random(seed).shuffle(qs)
        qs = qs[:max_q] if max_q else qs
        train, test = qs[: len(qs) // 2], qs[len(qs) // 2 :]
        # adversarial questions (LoCoMo category 5: asked about the other speaker), never judged: what a
        # tuned speaker boost costs the questions that name the wrong person
        adversarial = [(q, {dia[e] for e in ev}) for q, ev in questions(sample, set(dia), (5,))]
        adversarial_before = r_at_k(mem, user, adversarial, None)
        before = r_at_k(mem, user, test, None)
        train_before = r_at_k(mem, user, train, None)  # the judged questions asked again after: repeats
        curve = [
            {
                "feedback_questions": 0,
                "params": {},
                "tuned": before,
                "fixed": before,
                "own_words": before,
                "version": 0,
            }
        ]
        feedback = 0
        for r in range(rounds):
            part = train[r * len(train) // rounds : (r + 1) * len(train) // rounds]
            feedback += sum(give_feedback(mem, user, q, gold) for q, gold in part)
            step = mem.automation.evolution.adapt(user)
            fixed = r_at_k(mem, user, test, "balanced")
            # parameters equal to the preset's rank identically (recall with reinforce=False is read-only)
            same = all(v == getattr(BALANCED, n) for n, v in step.tuning.params.items())
            curve.append(
                {
                    "feedback_questions": (r + 1) * len(train) // rounds,
                    "feedback": feedback,
                    "params": step.tuning.params,
                    "version": step.tuning.version,
                    "changed": step.changed,
                    "reason": step.reason,
                    "utility_before": round(step.utility_before, 4),
                    "utility_after": round(step.utility_after, 4),
                    "tuned": fixed if same else r_at_k(mem, user, test, None),
                    "fixed": fixed,
                    "own_words": r_at_k(mem, user, test, OWN_WORDS),
                }
            )
        history = mem.automation.evolution.history(user)
        return {
            "sample_id": sample["sample_id"],
            "turns": len(dia),
            "feedback_questions": len(train),
            "held_out_questions": len(test),
            "feedback_events": feedback,
            "held_out_r10_before": before,
            "held_out_r10_feedback_own_words": curve[-1]["own_words"],
            "held_out_r10_feedback_fixed": curve[-1]["fixed"],
            "held_out_r10_feedback_adapted": curve[-1]["tuned"],
            "train_r10_before": train_before,
            "train_r10_own_words": r_at_k(mem, user, train, OWN_WORDS),
            "train_r10_fixed": r_at_k(mem, user, train, "balanced"),
            "train_r10_adapted": r_at_k(mem, user, train, None),
            "adversarial_questions": len(adversarial),
            "adversarial_r10_before": adversarial_before,
            "adversarial_r10_fixed": r_at_k(mem, user, adversarial, "balanced"),
            "adversarial_r10_adapted": r_at_k(mem, user, adversarial, None),
            "tuning_versions": [{"version": t.version, "params": t.params} for t in history],
            "curve": curve,
            "seconds": round(time.perf_counter() - started, 1),
        }
    finally:
        with mem.runtime.store.driver.session(database=mem.runtime.store.database) as session:
            session.run(
                "MATCH (n) WHERE n.user_id = $u OR (n:User AND n.id = $u) "
                "CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS",
                {"u": user},
            ).consume()


def plot(report: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4.5))
    for u in report["users"]:
        xs = [c["feedback_questions"] for c in u["curve"]]
        for name, style in (("graph_weight", "--"), ("speaker_boost", "-")):  # what adaptation searches
            default = getattr(BALANCED, name)
            a.plot(
                xs,
                [c["params"].get(name, default) for c in u["curve"]],
                style,
                label=f"{u['sample_id']} {name}",
            )
        b.plot(xs, [c["tuned"] for c in u["curve"]], "-", label=f"{u['sample_id']} adapted")
        b.plot(xs, [c["fixed"] for c in u["curve"]], ":", label=f"{u['sample_id']} fixed parameters")
        b.plot(
            xs,
            [c.get("own_words", c["fixed"]) for c in u["curve"]],
            "-.",
            label=f"{u['sample_id']} own words only",
        )
    a.set_xlabel("questions with feedback")
    a.set_ylabel("parameter value (graph_weight 0.2-0.8, speaker_boost 0-0.3)")
    a.set_title("per-user parameters over feedback")
    a.legend(fontsize=7)
    b.set_xlabel("questions with feedback")
    b.set_ylabel("held-out evidence R@10")
    b.set_title("held-out questions: adapted, fixed parameters, no asked keys")
    b.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data/locomo/locomo-dev.json"))
    parser.add_argument("--limit", type=int, default=0, help="first conversations only (0: all)")
    parser.add_argument("--rounds", type=int, default=4, help="feedback batches (an adaptation after each)")
    parser.add_argument("--max-questions", type=int, default=0, help="questions per user (0: all)")
    parser.add_argument("--max-sessions", type=int, default=0, help="first sessions per user (0: all)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--reuse",
        metavar="PREFIX",
        help="users PREFIX-<sample id> already ingested the same way (only their ingestion is skipped; "
        "they are deleted at the end like fresh ones); missing ones are ingested",
    )
    parser.add_argument("--out", type=Path, default=RESULTS / "evolve_feedback.json")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # a terminated run still deletes its users
    data = json.loads(args.data.read_text())
    data = data[: args.limit] if args.limit else data
    settings = Settings(automation_config_id=f"evolve-{uuid.uuid4()}")
    users = []
    with GraphMemory.connect(settings=settings) as mem:
        mem.init()
        header = stamp(neo4j_version(mem.query))
        with Progress() as progress:
            task = progress.add_task("users", total=len(data))
            for sample in data:
                users.append(
                    run_user(
                        mem, sample, args.rounds, args.seed, args.max_questions, args.max_sessions, args.reuse
                    )
                )
                progress.advance(task)

    def mean(key: str) -> float:
        return round(sum(u[key] for u in users) / max(1, len(users)), 4)

    report = {
        "stamp": header,
        "users": users,
        "held_out_r10_before": mean("held_out_r10_before"),
        "held_out_r10_feedback_own_words": mean("held_out_r10_feedback_own_words"),
        "held_out_r10_feedback_fixed": mean("held_out_r10_feedback_fixed"),
        "held_out_r10_feedback_adapted": mean("held_out_r10_feedback_adapted"),
        "asked_keys_gain": round(
            mean("held_out_r10_feedback_fixed") - mean("held_out_r10_feedback_own_words"), 4
        ),
        "feedback_gain": round(mean("held_out_r10_feedback_adapted") - mean("held_out_r10_before"), 4),
        "train_r10_before": mean("train_r10_before"),
        "train_r10_own_words": mean("train_r10_own_words"),
        "train_r10_fixed": mean("train_r10_fixed"),
        "train_r10_adapted": mean("train_r10_adapted"),
        "adaptation_gain": round(
            mean("held_out_r10_feedback_adapted") - mean("held_out_r10_feedback_fixed"), 4
        ),
        "adversarial_r10_before": mean("adversarial_r10_before"),
        "adversarial_r10_fixed": mean("adversarial_r10_fixed"),
        "adversarial_r10_adapted": mean("adversarial_r10_adapted"),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, default=str))
    plot(report, args.out.with_suffix(".png"))
    print(json.dumps({k: v for k, v in report.items() if k not in ("users", "stamp")}, indent=2))
    for u in users:
        print(u["sample_id"], {k: v for k, v in u.items() if k not in ("curve", "sample_id")})


if __name__ == "__main__":
    main()
