"""Precision (and recall) of the rule-based entity extractor on a small hand-labelled sample.

    .venv/bin/python benchmarks/entity_precision.py [--sample tests/data/entities_sample.json]

A predicted mention counts as correct when its normalized key equals a labelled entity's key
(so "Dr. Lee" ~ "Lee" and "The Wanderers" ~ "Wanderers" match).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from graphmem.model.entities import normalize_key
from graphmem.model.extraction import PatternExtractor


def measure(sample: Path) -> dict[str, object]:
    items = json.loads(sample.read_text())["items"]
    predicted = PatternExtractor().extract([it["text"] for it in items])
    tp = fp = fn = 0
    false_pos: list[str] = []
    missed: list[str] = []
    for item, ex in zip(items, predicted, strict=True):
        gold = {normalize_key(e) for e in item["entities"]}
        got = {m.key for m in ex.entities}
        tp += len(gold & got)
        fp += len(got - gold)
        fn += len(gold - got)
        false_pos += sorted(got - gold)
        missed += sorted(gold - got)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    return {
        "items": len(items),
        "true_positives": tp,
        "false_positives": fp,
        "false_negatives": fn,
        "precision": round(precision, 3),
        "recall": round(recall, 3),
        "false_positive_keys": false_pos,
        "missed_keys": missed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sample", type=Path, default=Path("tests/data/entities_sample.json"))
    args = parser.parse_args()
    print(json.dumps(measure(args.sample), indent=2))


if __name__ == "__main__":
    main()
