"""Run mem0 (PyPI ``mem0ai``, open-source ``Memory``) as a retrieval peer, offline and without an LLM.

    benchmarks/peers/.venv-mem0/bin/python benchmarks/peers/mem0_run.py INPUT.json OUTPUT.json

Executed by its own virtualenv (see mem0-requirements.txt) by benchmarks/baselines.py:run_peer. INPUT holds
each tenant's items ``{id, text, vector}`` and the queries ``{qid, tenant, text, vector}``; the vectors are
graphmem's all-MiniLM-L6-v2 embeddings, served to mem0 through its embedder seam so both libraries search the
very same vectors. Items go in with ``add(..., infer=False)`` (stored verbatim, no LLM), one mem0 user per
tenant, in a local on-disk Qdrant; queries are ``search(query, filters={"user_id": ...}, top_k=k,
threshold=0.0)``. The LLM is replaced by an object that raises on use, so a call to it would fail the run.
OUTPUT: ``{"rankings": {qid: [item ids]}, "info": {...}}``.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import tempfile
import time
from typing import Any

os.environ.setdefault("MEM0_TELEMETRY", "False")
os.environ.setdefault("OPENAI_API_KEY", "offline-no-key")  # the default providers need one to construct


def text_key(text: str) -> str:
    """Texts are matched with whitespace collapsed: mem0 trims queries before embedding them."""
    return " ".join(str(text).split())


class LookupEmbedder:
    """mem0's embedder seam backed by precomputed vectors (text -> vector); an unknown text is an error."""

    def __init__(self, vectors: dict[str, list[float]]) -> None:
        self.vectors = vectors
        self.calls = 0

    def embed(self, text: Any, memory_action: str | None = None) -> list[float]:
        self.calls += 1
        key = text_key(text)
        if key not in self.vectors:
            raise KeyError(f"no precomputed vector for text {key[:60]!r}")
        return self.vectors[key]


class NoLLM:
    """Stands in for mem0's LLM: any use fails the run (the comparison must not involve an LLM)."""

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(f"mem0 tried to use its LLM ({name}) in an infer=False benchmark")


def main(inp: str, out: str) -> None:
    with open(inp) as fh:
        payload = json.loads(fh.read())
    with tempfile.TemporaryDirectory(prefix="mem0-peer-") as home:
        os.environ["MEM0_DIR"] = home
        from mem0 import Memory  # after MEM0_DIR is set: mem0 reads it at import

        vectors: dict[str, list[float]] = {}
        for tenant in payload["tenants"]:
            for item in tenant["items"]:
                vectors[text_key(item["text"])] = item["vector"]
        for q in payload["queries"]:
            vectors[text_key(q["text"])] = q["vector"]
        dims = len(next(iter(vectors.values())))
        memory = Memory.from_config(
            {
                "vector_store": {
                    "provider": "qdrant",
                    "config": {
                        "collection_name": "bench",
                        "path": os.path.join(home, "qdrant"),
                        "embedding_model_dims": dims,
                        "on_disk": True,
                    },
                },
                "embedder": {"provider": "openai", "config": {"embedding_dims": dims}},
                "history_db_path": os.path.join(home, "history.db"),
            }
        )
        embedder = LookupEmbedder(vectors)
        memory.embedding_model = embedder
        memory.llm = NoLLM()

        started = time.perf_counter()
        mem0_to_ours: dict[str, str] = {}
        users: dict[str, str] = {}
        for n, tenant in enumerate(payload["tenants"]):
            users[tenant["tenant"]] = f"t{n}"
            for item in tenant["items"]:
                added = memory.add(
                    [{"role": "user", "content": item["text"]}],
                    user_id=users[tenant["tenant"]],
                    metadata={"gm_id": item["id"]},
                    infer=False,
                )
                for row in added["results"]:
                    mem0_to_ours[row["id"]] = item["id"]
        add_s = time.perf_counter() - started

        k = int(payload["k"])
        rankings: dict[str, list[str]] = {}
        started = time.perf_counter()
        for q in payload["queries"]:
            found = memory.search(q["text"], filters={"user_id": users[q["tenant"]]}, top_k=k, threshold=0.0)
            rankings[q["qid"]] = [mem0_to_ours[r["id"]] for r in found["results"]]
        search_s = time.perf_counter() - started
        keyword = getattr(memory.vector_store, "_has_bm25_slot", False) and (
            memory.vector_store._get_bm25_encoder() is not None
        )

    import importlib.metadata as md

    info = {
        "library": f"mem0ai {md.version('mem0ai')}",
        "vector_store": "qdrant (local, on disk)",
        "items": len(mem0_to_ours),
        "add_s": round(add_s, 2),
        "search_ms_per_query": search_s * 1000 / max(len(payload["queries"]), 1),
        "embedder_calls": embedder.calls,
        "bm25_keyword_search": bool(keyword),
        "note": "semantic search only offline: no BM25 (fastembed's Qdrant/bm25 model is fetched at run "
        "time) and no entity boosts or lemmas (spaCy's en_core_web_sm is not on PyPI); add(infer=False) "
        "stores turns verbatim, so mem0's LLM fact extraction and update logic are not exercised",
    }
    with open(out, "w") as fh:
        json.dump({"rankings": rankings, "info": info}, fh)


if __name__ == "__main__":
    logging.basicConfig(level=logging.ERROR)
    main(sys.argv[1], sys.argv[2])
