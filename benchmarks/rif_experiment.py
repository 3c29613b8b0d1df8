"""Retrieval-induced forgetting, measured through the public API (Anderson, Bjork & Bjork 1994).

Study: categories of related memories (``"<item> is one of the <category> I listed"``). Practice: half of
the categories, half of their items each (RP+), recalled with a category-plus-item cue, ``--rounds`` times
(k = 1): recall reinforces what it returns and inhibits the competitors the cue activated but recall did not
return (graphmem.model.metamemory: candidates whose own relevance to the cue is at least half the returned
memory's; inhibition recovers with a one-day half-life and ranking multiplies scores by 1 - inhibition).
Test: every category cued by its name alone (k = half the items, ``reinforce=False`` so the test itself
changes nothing), after the practice. Measures, per item type, the share of items recalled at test:
practised (RP+), unpractised items of practised categories (RP-) and items of unpractised categories (NRP);
RIF = NRP - RP-. The same run with ``retrieval_induced_forgetting`` off (a second client and tenant) is the
control: there the practised items only gain strength, which ranking weighs at 1 % of the score, so any RIF
left is output interference from reinforcement rather than inhibition.

    .venv/bin/python benchmarks/rif_experiment.py --repeats 5
    .venv/bin/python benchmarks/rif_experiment.py --quick      # one repeat, 4 categories
"""

from __future__ import annotations

import argparse
import json
import random
import uuid
from pathlib import Path
from typing import Any

from machine import neo4j_version, stamp

from graphmem import GraphMemory, Settings

RESULTS = Path(__file__).parent / "results"
CATEGORIES = {
    "fruits": ["banana", "cherry", "mango", "orange", "peach", "plum"],
    "tools": ["hammer", "wrench", "saw", "pliers", "chisel", "drill"],
    "animals": ["tiger", "rabbit", "horse", "eagle", "dolphin", "wolf"],
    "drinks": ["coffee", "lemonade", "cocoa", "cider", "milkshake", "espresso"],
    "sports": ["tennis", "rugby", "hockey", "cycling", "rowing", "boxing"],
    "instruments": ["violin", "trumpet", "piano", "cello", "flute", "drums"],
    "vegetables": ["carrot", "spinach", "leek", "potato", "onion", "celery"],
    "vehicles": ["tractor", "bicycle", "scooter", "ferry", "truck", "tram"],
}


def one_run(
    mem: GraphMemory, categories: dict[str, list[str]], rng: random.Random, rounds: int
) -> dict[str, Any]:
    user = f"rif-{uuid.uuid4()}"
    try:
        for cat, items in categories.items():
            for item in items:
                mem.remember(f"{item.capitalize()} is one of the {cat} I listed", user_id=user)
        names = sorted(categories)
        rng.shuffle(names)
        practised = set(names[: len(names) // 2])
        kind: dict[str, str] = {}
        rp_plus: list[tuple[str, str]] = []
        for cat in names:
            items = list(categories[cat])
            rng.shuffle(items)
            half = len(items) // 2
            for i, item in enumerate(items):
                if cat not in practised:
                    kind[item] = "NRP"
                elif i < half:
                    kind[item] = "RP+"
                    rp_plus.append((cat, item))
                else:
                    kind[item] = "RP-"
        for _ in range(rounds):
            rng.shuffle(rp_plus)
            for cat, item in rp_plus:
                mem.recall(f"{cat}: {item}", user_id=user, k=1, hops=0)
        recalled: dict[str, bool] = {}
        for cat in rng.sample(sorted(categories), len(categories)):
            k = len(categories[cat]) // 2
            hits = mem.recall(f"the {cat} I listed", user_id=user, k=k, hops=0, reinforce=False)
            found = {h.memory.content.split(" ", 1)[0].lower() for h in hits}
            for item in categories[cat]:
                recalled[item] = item in found
        out = {}
        for label in ("RP+", "RP-", "NRP"):
            items = [i for i, kd in kind.items() if kd == label]
            out[label] = sum(recalled[i] for i in items) / max(1, len(items))
        return out
    finally:
        mem.runtime.store.run_statement(
            "MATCH (n) WHERE n.user_id = $u DETACH DELETE n",
            {"u": user},
        )


def experiment(
    rif: bool, categories: dict[str, list[str]], repeats: int, rounds: int, seed: int
) -> dict[str, Any]:
    settings = Settings(retrieval_induced_forgetting=rif, automation_config_id=f"rif-{uuid.uuid4()}")
    runs = []
    with GraphMemory.connect(settings=settings) as mem:
        mem.init()
        for r in range(repeats):
            runs.append(one_run(mem, categories, random.Random(seed + r), rounds))
    mean = {label: round(sum(x[label] for x in runs) / len(runs), 4) for label in ("RP+", "RP-", "NRP")}
    return {**mean, "RIF": round(mean["NRP"] - mean["RP-"], 4), "runs": runs}


def plot(result: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = ["RP+", "RP-", "NRP"]
    fig, ax = plt.subplots(figsize=(6, 4))
    width = 0.38
    for j, (name, key) in enumerate([("RIF on", "on"), ("RIF off", "off")]):
        xs = [i + (j - 0.5) * width for i in range(len(labels))]
        ax.bar(
            xs, [result[key][lb] for lb in labels], width, label=f"{name} (RIF = {result[key]['RIF']:+.3f})"
        )
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylabel("share recalled at test")
    ax.set_title("retrieval practice: practised, unpractised related, baseline")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs per condition (different assignments)")
    parser.add_argument("--rounds", type=int, default=3, help="practice rounds")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--quick", action="store_true", help="one repeat over 4 categories (harness check)")
    parser.add_argument("--out", type=Path, default=RESULTS / "rif_experiment.json")
    args = parser.parse_args()
    categories = CATEGORIES
    if args.quick:
        categories = dict(list(CATEGORIES.items())[:4])
        args.repeats = 1
        if args.out == RESULTS / "rif_experiment.json":
            args.out = RESULTS / "rif_experiment_quick.json"
    with GraphMemory.connect() as mem:
        header = stamp(neo4j_version(mem.query), repeats=args.repeats, rounds=args.rounds)
    result = {
        "stamp": header,
        "on": experiment(True, categories, args.repeats, args.rounds, args.seed),
        "off": experiment(False, categories, args.repeats, args.rounds, args.seed),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, default=str))
    plot(result, args.out.with_suffix(".png"))
    print(
        json.dumps({k: {m: v for m, v in result[k].items() if m != "runs"} for k in ("on", "off")}, indent=2)
    )


if __name__ == "__main__":
    main()
