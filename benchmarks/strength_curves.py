"""Strength and retention over time per priority and per strength factor, from the specification.

Evaluates :func:`graphmem.model.lifecycle.decay` (the rule the decay job's Cypher is property-tested against)
day by day for a memory never recalled: one curve per priority (neutral factors), and for P3 one curve per
factor (neutral, emotional, emphasised, deep and early in its session, with a stronger near-duplicate). The
day each curve crosses the forget threshold is marked. No database: runs in a second.

    .venv/bin/python benchmarks/strength_curves.py
"""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from graphmem.model import lifecycle
from graphmem.model.dynamics import PRESETS, DynamicsParams

RESULTS = Path(__file__).parent / "results"
START = datetime(2026, 1, 1, tzinfo=UTC)
FACTORS: dict[str, tuple[dict[str, float], float]] = {
    "neutral": ({}, 0.0),
    "emotional (VADER 0.8)": ({"emotion": 0.8}, 0.0),
    "emphasised (remember this + list)": ({"presentation": 0.8}, 0.0),
    "deep and first in session": ({"depth": 1.0, "serial": 1.0}, 0.0),
    "stronger near-duplicate (0.9)": ({}, 0.9),
}


def curve(
    priority: str, factors: dict[str, float], rivalry: float, days: int, p: DynamicsParams
) -> dict[str, Any]:
    state = lifecycle.MemoryState(
        created_at=START, priority=priority, factors=factors, rivalry=rivalry, memory_type="episodic"
    )
    strength, retention, forgotten = [], [], None
    for day in range(days + 1):
        now = START + timedelta(days=day)
        out = lifecycle.decay(state, now, p)
        assert out is not None
        strength.append(round(out.strength, 4))
        retention.append(round(out.retention, 4))
        done = lifecycle.MemoryState(
            **{**state.__dict__, "strength": out.strength, "retention": out.retention}
        )
        # a user who keeps talking: forget_min_newer newer memories have come (tests/test_dynamics_absence.py)
        if forgotten is None and lifecycle.forgets(done, now, p, newer=p.forget_min_newer):
            forgotten = day
    return {"strength": strength, "retention": retention, "forgotten_on_day": forgotten}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=400)
    parser.add_argument("--preset", default="balanced", choices=sorted(PRESETS))
    parser.add_argument("--out", type=Path, default=RESULTS / "strength_curves.json")
    args = parser.parse_args()
    p = PRESETS[args.preset]
    result = {
        "command": f"python benchmarks/strength_curves.py --days {args.days} --preset {args.preset}",
        "priority": {prio: curve(prio, {}, 0.0, args.days, p) for prio in ("P0", "P1", "P2", "P3")},
        "factor_P3": {name: curve("P3", f, r, args.days, p) for name, (f, r) in FACTORS.items()},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result))
    plot(result, args.days, p, args.out.with_suffix(".png"))
    for group in ("priority", "factor_P3"):
        for name, c in result[group].items():
            print(f"{group:9} {name:36} forgotten on day {c['forgotten_on_day']}")


def plot(result: dict[str, Any], days: int, p: DynamicsParams, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for ax, group, title, span in (
        (axes[0], "priority", "strength per priority (neutral episodic memory)", days),
        (axes[1], "factor_P3", "strength of a P3 memory per factor", min(days, 60)),
    ):
        for name, c in result[group].items():
            label = (
                name if c["forgotten_on_day"] is None else f"{name} (forgotten day {c['forgotten_on_day']})"
            )
            ax.plot(range(span + 1), c["strength"][: span + 1], label=label)
        ax.axhline(p.forget_strength, color="grey", linestyle=":", linewidth=1)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("days since recorded (never recalled)")
        ax.legend(fontsize=7)
    axes[0].set_ylabel("strength (0-4); dotted: forget threshold")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
