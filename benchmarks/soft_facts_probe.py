"""A probe, not a feature: can the bundled embedder read where a user lives and works when the fact rules
read nothing? Round 52 measured it and did not build it (docs/temporal.md, "A soft reader, measured").

    .venv/bin/python benchmarks/soft_facts_probe.py --data tests/data/current_state_dev.json \
        tests/data/current_state_heldout.json --out benchmarks/results/soft_facts_probe.json

Offline (no server), per conversation of a current-state set, turn by turn in day order:

- **rules**: the location / employer value :func:`graphmem.model.fact_patterns.extract` reads in the turn;
- **soft**: zero-shot hypotheses. Each candidate (an entity mention of the turn: a place of the gazetteer
  for ``location``, a non-place, non-person name for ``employer``) is put into first-person hypotheses of
  the key ("I live in X.") and of its look-alikes ("I'm visiting X on a trip.", "My family lives in X.",
  "I used to live in X.", ...); the clause holding the candidate is embedded (bge-small) and the candidate
  is read when its best key hypothesis is nearer than every look-alike (no threshold: the margin is 0);
- **both**: the soft reading where the rules read nothing for that key in that turn.

Each arm's value of a key is its latest reading (the engine's plans, endings and corrections are not
modelled), scored as right / wrong / none with ``current_state.fact_right``. Only totals are printed and
written: the held-out sets stay unread.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from current_state import fact_right

from graphmem.embedding import OnnxEmbedder
from graphmem.model import entities, fact_patterns
from graphmem.model.places import is_place
from graphmem.model.planned import clause

KEYS = ("location", "employer")
HOLDS = {
    "location": ("I live in {}.", "I moved to {}.", "My home is in {}."),
    "employer": ("I work at {}.", "I got a job at {}.", "My employer is {}."),
}
LOOK_ALIKES = {
    "location": (
        "I'm visiting {} on a trip.",
        "My family lives in {}.",
        "I used to live in {}.",
        "I might move to {} one day.",
        "I work for {}.",
        "We are thinking about moving to {}.",
        "I'm not moving to {} after all.",
        "I'm going to {} next week.",
    ),
    "employer": (
        "I bought something from {}.",
        "My friend works at {}.",
        "I used to work at {}.",
        "I have a job interview at {}.",
        "I live in {}.",
        "I'm thinking about a job at {}.",
        "I'm using {}.",
        "I'm learning about {}.",
    ),
}
EMBEDDER = OnnxEmbedder()


@cache
def vector(text: str) -> np.ndarray:
    return np.asarray(EMBEDDER.embed([text])[0])


def unit(text: str, name: str) -> str:
    """The clause of ``text`` holding ``name`` (the whole text when it is not found verbatim)."""
    at = text.find(name)
    if at < 0:
        return text
    start, end = clause(text, (at, at + len(name)))
    return text[start:end].strip() or text


def soft(text: str) -> dict[str, str]:
    """Each key's candidate whose key hypotheses beat its look-alikes by the widest margin (> 0)."""
    found: dict[str, str] = {}
    mentions = entities.extract(text)
    for key in KEYS:
        best: tuple[float, str] | None = None
        for m in mentions:
            if (key == "location") != is_place(m.name) or (key == "employer" and m.type == "person"):
                continue
            v = vector(unit(text, m.name))
            holds = max(float(vector(h.format(m.name)) @ v) for h in HOLDS[key])
            other = max(float(vector(h.format(m.name)) @ v) for h in LOOK_ALIKES[key])
            if holds > other and (best is None or holds - other > best[0]):
                best = (holds - other, m.name)
        if best is not None:
            found[key] = best[1]
    return found


def rules(text: str) -> dict[str, str]:
    found = {}
    for fact in fact_patterns.extract(text):
        key = fact.key.split("/")[-1]
        if key in KEYS and fact.value and fact.subject is None:
            found[key] = fact.value
    return found


def score(cases: Sequence[dict[str, Any]]) -> dict[str, dict[str, int]]:
    counts: Counter[tuple[str, str]] = Counter()
    for case in cases:
        arms: dict[str, dict[str, str]] = {"rules": {}, "soft": {}, "both": {}}
        for turn in sorted(case["turns"], key=lambda t: t["day"]):
            read, guessed = rules(turn["text"]), soft(turn["text"])
            arms["rules"].update(read)
            arms["soft"].update(guessed)
            arms["both"].update({**{k: v for k, v in guessed.items() if k not in read}, **read})
        for key, expect in case["expect"].items():
            for arm, values in arms.items():
                value = values.get(key)
                outcome = "none" if value is None else "right" if fact_right(value, expect) else "wrong"
                counts[arm, outcome] += 1
    return {arm: {o: counts[arm, o] for o in ("right", "wrong", "none")} for arm in ("rules", "soft", "both")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, nargs="+", required=True)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    result = {
        "command": " ".join(["python", *sys.argv]),
        "sets": {p.name: score(json.loads(p.read_text())) for p in args.data},
    }
    print(json.dumps(result["sets"], indent=1))
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
