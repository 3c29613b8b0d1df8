"""Identifier recall: a coding agent's memories named by functions, asked by the name whole or in words.

    .venv/bin/python benchmarks/identifiers.py --out benchmarks/results/identifiers.json

The memories are what an agent notes while debugging: "While debugging we looked at <qualified name>: <first
sentence of its docstring>", for public functions and methods of libraries installed with graphmem (httpx,
neo4j, pydantic, rich, typer, networkx, numpy, fastapi) whose name is a compound term (``raise_for_status``,
``getLogger``), one memory per distinct name, ``--memories`` of them (300) drawn with a fixed seed, formed
through ``add_messages`` in calls of 50. Each is then asked twice, reinforcement off: by its name as written
("What does raise_for_status do?") and in words ("What does the raise for status function do?"), and the
run reports R@1 and R@5 per form. The full-text index keeps a compound term whole; until round 61 recall cut
the query into letter runs and found such memories by their vector alone (docs/recall.md, "Identifiers and
words beyond ASCII"). The docstrings come from the installed versions, so the memories change with them;
quality only (no latency): the load does not change it. The user is deleted at the end.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import random
import re
import uuid
import warnings
from pathlib import Path
from typing import Any

from machine import neo4j_version, stamp

from graphmem import GraphMemory

MODULES = ("httpx", "neo4j", "pydantic", "rich.console", "typer", "networkx", "numpy", "fastapi")
SEED = 3
_COMPOUND = re.compile(r"_|[a-z][A-Z]")
_PIECE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def functions() -> list[tuple[str, str, str]]:
    """(qualified name, name, first docstring sentence) of every public function or method with a compound
    name in :data:`MODULES`, each name once, in a fixed order."""
    found: dict[str, tuple[str, str, str]] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # preview and deprecation notices raised by reading attributes
        for module_name in MODULES:
            try:
                module = importlib.import_module(module_name)
            except ImportError:
                continue
            for name, obj in inspect.getmembers(module):
                members = [(name, obj)]
                if inspect.isclass(obj):
                    members += [(f"{name}.{n}", o) for n, o in inspect.getmembers(obj) if callable(o)]
                for qualified, member in members:
                    short = qualified.rsplit(".", 1)[-1]
                    if short.startswith("_") or not _COMPOUND.search(short) or short in found:
                        continue
                    doc = (inspect.getdoc(member) or "").strip().split("\n\n")[0].replace("\n", " ")
                    first = re.split(r"(?<=[.!?])\s", doc)[0]
                    if 20 < len(first) < 200:
                        found[short] = (f"{module_name}.{qualified}", short, first)
    return [found[k] for k in sorted(found)]


def in_words(name: str) -> str:
    """``raise_for_status`` -> "raise for status", ``getLogger`` -> "get logger"."""
    return " ".join(p.lower() for run in name.split("_") for p in _PIECE.findall(run))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=300)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    chosen = functions()
    random.Random(SEED).shuffle(chosen)
    chosen = chosen[: args.memories]
    mem = GraphMemory.connect()
    user = f"bench-identifiers-{uuid.uuid4().hex[:8]}"
    version = neo4j_version(mem.query)
    found: dict[str, list[int]] = {"whole": [0, 0], "words": [0, 0]}
    try:
        texts = [f"While debugging we looked at {qualified}: {first}" for qualified, _, first in chosen]
        for i in range(0, len(texts), 50):
            batch = [{"role": "user", "content": t} for t in texts[i : i + 50]]
            mem.add_messages(batch, user_id=user, session_id=f"debugging-{i // 50}")
        for (_, name, _), text in zip(chosen, texts, strict=True):
            words = in_words(name)
            asked = {"whole": f"What does {name} do?", "words": f"What does the {words} function do?"}
            for form, query in asked.items():
                got = [h.memory.content for h in mem.recall(query, user_id=user, k=5, reinforce=False)]
                found[form][0] += bool(got) and got[0] == text
                found[form][1] += text in got
    finally:
        mem.users.delete(user)
        mem.close()
    n = len(chosen)
    report: dict[str, Any] = {
        **stamp(version),
        "memories": n,
        "modules": list(MODULES),
        "results": {form: {"R@1": round(a / n, 3), "R@5": round(b / n, 3)} for form, (a, b) in found.items()},
    }
    print(json.dumps(report["results"]))
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
