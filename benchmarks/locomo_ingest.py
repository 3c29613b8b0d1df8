"""Ingest the LoCoMo conversations into graphmem: one user per conversation, one session per session.

    .venv/bin/python benchmarks/locomo_ingest.py --data ../shared/data/locomo/locomo-dev.json

Each turn becomes a memory through ``add_messages`` (role ``user``, ``name`` = the speaker, timestamp = the
session's date plus the turn's position in seconds, ``dia_id`` and any image caption in metadata). Facts
a speaker states are keyed under their name (``Caroline/location``). ``ingest_locomo`` is also what the
retrieval benchmark (benchmarks/locomo.py) calls.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress

from graphmem import GraphMemory

console = Console()


def session_time(text: str) -> datetime:
    """LoCoMo's ``"1:56 pm on 8 May, 2023"`` as an aware datetime (UTC)."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def sessions(conversation: dict[str, Any]) -> list[tuple[int, datetime, list[dict[str, Any]]]]:
    out = []
    for key, turns in conversation.items():
        if key.startswith("session_") and not key.endswith("date_time") and turns:
            n = int(key.split("_")[1])
            out.append((n, session_time(conversation[f"{key}_date_time"]), turns))
    return sorted(out, key=lambda s: s[0])


def messages_of(turns: list[dict[str, Any]], start: datetime) -> list[dict[str, Any]]:
    out = []
    for i, turn in enumerate(turns):
        metadata = {"dia_id": turn["dia_id"]}
        if turn.get("blip_caption"):
            metadata["blip_caption"] = turn["blip_caption"]
        out.append(
            {
                "role": "user",
                "name": turn["speaker"],
                "content": turn["text"] or "(shared an image)",
                "timestamp": start + timedelta(seconds=i),
                "metadata": metadata,
            }
        )
    return out


def graph_counts(mem: GraphMemory, user_ids: list[str]) -> dict[str, dict[str, int]]:
    nodes = mem.query(
        "MATCH (n) WHERE n.user_id IN $users RETURN labels(n)[0] AS label, count(*) AS n ORDER BY label",
        {"users": user_ids},
    )
    edges = mem.query(
        "MATCH (a)-[r]->() WHERE a.user_id IN $users RETURN type(r) AS type, count(*) AS n ORDER BY type",
        {"users": user_ids},
    )
    return {"nodes": {r["label"]: r["n"] for r in nodes}, "edges": {r["type"]: r["n"] for r in edges}}


def _wipe(mem: GraphMemory, user_id: str) -> None:
    """Remove an earlier ingestion of the same user (a re-run would otherwise only reinforce duplicates)."""
    with mem.runtime.store.driver.session(database=mem.runtime.store.database) as session:
        session.run(  # CALL ... IN TRANSACTIONS needs an auto-commit transaction
            "MATCH (n) WHERE n.user_id = $u OR (n:User AND n.id = $u) "
            "CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS",
            {"u": user_id},
        ).consume()


def ingest_locomo(
    mem: GraphMemory, data_path: str | Path, *, user_prefix: str = "locomo-", replace: bool = True
) -> dict[str, Any]:
    """Ingest every conversation of a LoCoMo file.

    Returns ``{"conversations": {sample_id: {"user_id", "dia_to_memory", "turns", "sessions"}},
    "turns", "memories", "messages_per_s", "seconds", "counts": {"nodes": {...}, "edges": {...}}}``.
    A near-duplicate turn maps to the memory it reinforced, so ``memories`` can be below ``turns``.
    """
    data = json.loads(Path(data_path).read_text())
    conversations: dict[str, Any] = {}
    total_turns = 0
    started = time.perf_counter()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(
            "ingesting LoCoMo",
            total=sum(len(t) for sample in data for _, _, t in sessions(sample["conversation"])),
        )
        for sample in data:
            user_id = f"{user_prefix}{sample['sample_id']}"
            if replace:
                _wipe(mem, user_id)
            dia_to_memory: dict[str, str] = {}
            parts = sessions(sample["conversation"])
            for n, when, turns in parts:
                batch = messages_of(turns, when)
                memories = mem.add_messages(batch, user_id=user_id, session_id=f"session_{n}")
                for message, memory in zip(batch, memories, strict=True):
                    dia_to_memory[message["metadata"]["dia_id"]] = memory.id
                total_turns += len(batch)
                progress.advance(task, len(batch))
            conversations[sample["sample_id"]] = {
                "user_id": user_id,
                "dia_to_memory": dia_to_memory,
                "turns": len(dia_to_memory),
                "sessions": len(parts),
            }
    seconds = time.perf_counter() - started
    users = [c["user_id"] for c in conversations.values()]
    counts = graph_counts(mem, users)
    return {
        "conversations": conversations,
        "turns": total_turns,
        "memories": counts["nodes"].get("Memory", 0),
        "seconds": round(seconds, 2),
        "messages_per_s": round(total_turns / seconds, 1),
        "counts": counts,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=Path("../shared/data/locomo/locomo-dev.json"))
    parser.add_argument("--user-prefix", default="locomo-")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/conversation_ingest.json"))
    args = parser.parse_args(argv)
    with GraphMemory.connect() as mem:
        mem.init()
        report = ingest_locomo(mem, args.data, user_prefix=args.user_prefix)
    summary = {k: v for k, v in report.items() if k != "conversations"}
    summary["command"] = " ".join([Path(sys.executable).name, *sys.argv])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(summary, indent=2))
    console.print_json(json.dumps(summary))


if __name__ == "__main__":
    main()
