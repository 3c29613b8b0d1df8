"""Retrieval methods compared in one run, on the same store and the same embedder, for every quality harness.

Both harnesses (benchmarks/locomo.py, benchmarks/longmemeval.py) ingest into graphmem, describe their
questions as :class:`Query` objects and ask :func:`rank_all` for each method's ranked memory ids; they only
differ in how they score a ranking. The methods:

- ``bm25 (bm25s)``: Okapi BM25 (the ``bm25s`` package, English stop words, Snowball stemmer) over the
  tenant's memory texts, indexed in Python;
- ``fulltext (Neo4j)``: the Neo4j full-text index graphmem uses for its keyword seeds (Lucene BM25);
- ``exact cosine (numpy)``: brute-force cosine over all of the tenant's stored embeddings: the ceiling any
  vector index can reach with this embedder;
- ``vector index only (ANN)``: Neo4j's HNSW index asked for neighbours over-fetched by the tenant's share of
  the whole store, then filtered to the tenant (no exact fallback);
- ``hybrid (no graph)``: graphmem's ranking with ``hops=0`` (the wide pool, linearly fused; no PageRank);
- ``graphmem``: graphmem's ranking (the pool and its graph neighbourhood, fusion + personalized PageRank);
- ``graphmem + cross-encoder`` (``--rerank``): the same, the top of the pool re-scored by the cross-encoder;
- a peer library, run out of process by :func:`run_peer` (see benchmarks/peers/).

Texts and vectors handed to the baselines are graphmem's own: the memory's content with its speaker, and the
embedding stored on the memory, so every method sees the same items and the same MiniLM vectors.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import bm25s
import numpy as np
import Stemmer
from rich.console import Console
from rich.progress import Progress

from graphmem import Embedder, GraphMemory
from graphmem.embedding import embed_query_checked, embedder_name
from graphmem.formation.writer import user_key
from graphmem.retrieval.recall import RecallRequest, run_search
from graphmem.retrieval.search import embed_queries
from graphmem.retrieval.terms import lucene_query, query_terms

PEERS_DIR = Path(__file__).parent / "peers"
console = Console()

_FULLTEXT = """
// Full-text (BM25) seeds for one tenant. The Lucene query requires the tenant's user_key token; the
// user_id filter below is what guarantees isolation.
// $lucene: the Lucene query string (built by graphmem.retrieval.terms.lucene_query), $user_id, $k
// $as_of: datetime or null (transaction time)
CALL db.index.fulltext.queryNodes('memory_content', $lucene, {limit: $k}) YIELD node AS m, score
WITH m, score WHERE m.user_id = $user_id
  AND ($as_of IS NULL OR (m.recorded_at <= $as_of AND (m.expired_at IS NULL OR m.expired_at > $as_of)
       AND (m.forgotten_at IS NULL OR m.forgotten_at > $as_of)
       AND (m.superseded_at IS NULL OR m.superseded_at > $as_of)))
  AND ($as_of IS NOT NULL OR (m.expired_at IS NULL AND NOT m.status IN ['forgotten', 'superseded']))
RETURN m.id AS id, score
ORDER BY score DESC
"""

_VECTOR_INDEX = """
// Approximate vector-index search, over-fetched and then filtered to one tenant (large tenants).
// $user_id, $embedding, $k, $fetch (how many neighbours to ask the index for)
// $as_of: datetime or null
CALL db.index.vector.queryNodes('memory_embedding', $fetch, $embedding) YIELD node AS m, score
WITH m, score WHERE m.user_id = $user_id
  AND ($as_of IS NULL OR (m.recorded_at <= $as_of AND (m.expired_at IS NULL OR m.expired_at > $as_of)
       AND (m.forgotten_at IS NULL OR m.forgotten_at > $as_of)
       AND (m.superseded_at IS NULL OR m.superseded_at > $as_of)))
  AND ($as_of IS NOT NULL OR (m.expired_at IS NULL AND NOT m.status IN ['forgotten', 'superseded']))
RETURN m.id AS id, score
ORDER BY score DESC
LIMIT $k
"""

_TENANT = """
MATCH (m:Memory) WHERE m.user_id = $user_id
  AND ($as_of IS NULL OR (m.recorded_at <= $as_of AND (m.expired_at IS NULL OR m.expired_at > $as_of)))
  AND ($as_of IS NOT NULL OR (m.expired_at IS NULL AND NOT m.status IN ['forgotten', 'superseded']))
RETURN m.id AS id, m.content AS content, m.speaker AS speaker, m.role AS role, m.embedding AS embedding
ORDER BY m.occurred_at, m.id
"""


QUERY_KEY = "\x00query\x00"  # cache key prefix of query embeddings


class CachingEmbedder:
    """Wraps an embedder; texts embedded once are served from memory (each question is embedded once for
    all methods, and recall can be timed without the embedding).

    Vectors are kept as tuples and handed out as fresh lists. Tens of thousands of cached *lists* of floats
    make every full pass of Python's cyclic garbage collector walk millions of floats (~50 ms here), and
    those passes land inside timed recalls: they doubled the measured dev-size recall p95 (docs/recall.md,
    round 16). A tuple of floats is untracked by the collector once seen, so the cache costs it nothing."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.cache: dict[str, tuple[float, ...]] = {}
        self.name = embedder_name(inner)

    def load(self, saved: Mapping[str, Sequence[float]]) -> None:
        """Add vectors saved by an earlier run (``json.dumps(self.cache)`` writes them)."""
        self.cache.update((text, tuple(vec)) for text, vec in saved.items())

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    @property
    def tokenizer(self) -> Any:
        return self.inner.tokenizer

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        missing = list(dict.fromkeys(t for t in texts if t not in self.cache))
        if missing:
            for text, vec in zip(missing, self.inner.embed(missing), strict=True):
                self.cache[text] = tuple(vec)
        return [list(self.cache[t]) for t in texts]

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """Queries as the model wants them (bge-small: with its instruction), cached apart from passages."""
        keys = [QUERY_KEY + t for t in texts]
        missing = list(dict.fromkeys(t for t, k in zip(texts, keys, strict=True) if k not in self.cache))
        if missing:
            for text, vec in zip(missing, embed_query_checked(self.inner, missing), strict=True):
                self.cache[QUERY_KEY + text] = tuple(vec)
        return [list(self.cache[k]) for k in keys]


@dataclass(frozen=True)
class Query:
    """One question asked of one tenant, optionally as of a time (transaction time, as graphmem's recall)."""

    qid: str
    user_id: str
    text: str
    as_of: datetime | None = None


@dataclass
class Tenant:
    """A tenant's memories as the baselines see them: ids, texts (speaker + content) and unit vectors."""

    ids: list[str]
    texts: list[str]
    vectors: np.ndarray
    _bm25: Any = field(default=None, repr=False)

    def bm25(self) -> Any:
        if self._bm25 is None:
            self._bm25 = bm25s.BM25()
            self._bm25.index(_tokens(self.texts), show_progress=False)
        return self._bm25


def item_text(content: str, speaker: str | None, role: str | None) -> str:
    """A memory's text with its speaker, as graphmem embeds it (role names are not speakers)."""
    return f"{speaker}: {content}" if speaker and speaker != role else content


_STEMMER = Stemmer.Stemmer("english")


def _tokens(texts: list[str]) -> Any:
    return bm25s.tokenize(texts, stopwords="en", stemmer=_STEMMER, show_progress=False)


def top_cosine(vectors: np.ndarray, query: np.ndarray, k: int) -> list[int]:
    """Indices of the k rows of ``vectors`` most similar to ``query`` by cosine, best first, ties by index."""
    if len(vectors) == 0:
        return []
    norms = np.linalg.norm(vectors, axis=1) * (np.linalg.norm(query) or 1.0)
    scores = vectors @ query / np.where(norms == 0, 1.0, norms)
    order = np.lexsort((np.arange(len(scores)), -scores))
    return [int(i) for i in order[:k]]


def ann_fetch(user_count: int, total: int, k: int, overfetch: float, max_fetch: int) -> int:
    """Neighbours to ask a shared ANN index for so that about ``overfetch × k`` of them are the tenant's."""
    if user_count <= 0 or total <= 0:
        return k
    return max(k, min(math.ceil(k * total / user_count * overfetch), total, max_fetch))


Ranker = Callable[[Query, int], list[str]]


class Methods:
    """Every in-process method, bound to one connected GraphMemory (whose embedder is a CachingEmbedder)."""

    def __init__(self, mem: GraphMemory, embedder: CachingEmbedder, recall_options: dict[str, Any]) -> None:
        self.mem = mem
        self.embedder = embedder
        self.recall_options = recall_options
        self.rerank = bool(recall_options.get("rerank"))
        self.confidence: dict[str, float] = {}
        self._tenants: dict[tuple[str, datetime | None], Tenant] = {}

    def tenant(self, user_id: str, as_of: datetime | None = None) -> Tenant:
        key = (user_id, as_of)
        if key not in self._tenants:
            rows = self.mem.query(_TENANT, {"user_id": user_id, "as_of": as_of})
            dim = len(rows[0]["embedding"]) if rows else 1
            vectors = np.array([r["embedding"] for r in rows], dtype=np.float32).reshape(len(rows), dim)
            texts = [item_text(r["content"], r["speaker"], r["role"]) for r in rows]
            self._tenants[key] = Tenant([r["id"] for r in rows], texts, vectors)
        return self._tenants[key]

    def prepare(self, queries: list[Query]) -> None:
        """Embed every question (one batch; and graphmem's vector text of it, the question less the tenant's
        speakers' names) and load every tenant, so per-query times exclude both."""
        self.embedder.embed_queries([q.text for q in queries])
        by_user: dict[str, list[str]] = {}
        for q in queries:
            by_user.setdefault(q.user_id, []).append(q.text)
            self.tenant(q.user_id, q.as_of)
        for user, texts in by_user.items():
            embed_queries(self.mem.runtime, texts, [user])

    def _vector(self, text: str) -> list[float]:
        return self.embedder.embed_queries([text])[0]

    def bm25s(self, q: Query, k: int) -> list[str]:
        tenant = self.tenant(q.user_id, q.as_of)
        if not tenant.ids:
            return []
        tokens = bm25s.tokenize(
            [q.text], stopwords="en", stemmer=_STEMMER, return_ids=False, show_progress=False
        )
        docs, scores = tenant.bm25().retrieve(tokens, k=min(k, len(tenant.ids)), show_progress=False)
        return [tenant.ids[int(d)] for d, s in zip(docs[0], scores[0], strict=True) if s > 0]

    def fulltext(self, q: Query, k: int) -> list[str]:
        terms = query_terms(q.text)
        if not terms:
            return []
        rows = self.mem.runtime.store.run_readonly(
            _FULLTEXT,
            {
                "lucene": lucene_query(terms, user_key(q.user_id)),
                "user_id": q.user_id,
                "k": k,
                "as_of": q.as_of,
            },
        )
        return [r["id"] for r in rows]

    def exact_cosine(self, q: Query, k: int) -> list[str]:
        tenant = self.tenant(q.user_id, q.as_of)
        query = np.asarray(self._vector(q.text), dtype=np.float32)
        return [tenant.ids[i] for i in top_cosine(tenant.vectors, query, k)]

    def vector_index(self, q: Query, k: int) -> list[str]:
        store = self.mem.runtime.store
        counts = store.read("user_memory_count", tenants=[q.user_id])[0]
        preset = self.mem.runtime.settings.preset()
        fetch = ann_fetch(
            int(counts["user_count"]), int(counts["total"]), k, preset.overfetch, preset.max_fetch
        )
        rows = store.run_readonly(
            _VECTOR_INDEX,
            {
                "user_id": q.user_id,
                "embedding": self._vector(q.text),
                "k": k,
                "fetch": fetch,
                "as_of": q.as_of,
            },
        )
        return [r["id"] for r in rows]

    def _search(self, q: Query, k: int, hops: int, preset: Any = None) -> list[str]:
        """graphmem's ranking (recall's search stage: no side effects, no row fetch); the top hit's
        confidence is kept in ``self.confidence`` for the metamemory AUROC."""
        options = {o: v for o, v in self.recall_options.items() if v is not None and o != "hops"}
        request = RecallRequest(
            query=q.text,
            user_id=q.user_id,
            k=k,
            as_of=q.as_of,
            hops=hops,
            views=options.get("views"),
            reinforce=False,
            preset=preset,
        )
        ranked, _ = run_search(self.mem.runtime, request)
        self.confidence[q.qid] = ranked.hits[0].confidence if ranked.hits else 0.0
        return [h.id for h in ranked.hits]

    def hybrid(self, q: Query, k: int) -> list[str]:
        return self._search(q, k, hops=0)

    def graphmem(self, q: Query, k: int) -> list[str]:
        return self._search(q, k, hops=int(self.recall_options.get("hops") or 1))

    def graphmem_rerank(self, q: Query, k: int) -> list[str]:
        preset = self.mem.runtime.settings.preset().model_copy(update={"rerank": True})
        return self._search(q, k, hops=int(self.recall_options.get("hops") or 1), preset=preset)

    def rankers(self) -> dict[str, Ranker]:
        return {
            "bm25 (bm25s)": self.bm25s,
            "fulltext (Neo4j)": self.fulltext,
            "exact cosine (numpy)": self.exact_cosine,
            "vector index only (ANN)": self.vector_index,
            "hybrid (no graph)": self.hybrid,
            "graphmem": self.graphmem,
            **({"graphmem + cross-encoder": self.graphmem_rerank} if self.rerank else {}),
        }


@dataclass
class Rankings:
    """Each method's ranked ids per query id, and its mean time per query (ms)."""

    by_method: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    ms_per_query: dict[str, float] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)


def rank_all(rankers: dict[str, Ranker], queries: list[Query], k: int) -> Rankings:
    """Run every method on every query (one method at a time, with a progress bar)."""
    out = Rankings()
    with Progress(console=console, transient=True) as progress:
        for name, ranker in rankers.items():
            task = progress.add_task(name, total=len(queries))
            ranked: dict[str, list[str]] = {}
            started = time.perf_counter()
            for q in queries:
                ranked[q.qid] = ranker(q, k)
                progress.advance(task)
            out.by_method[name] = ranked
            out.ms_per_query[name] = round((time.perf_counter() - started) * 1000 / max(len(queries), 1), 2)
    return out


# --- peers --------------------------------------------------------------------------------------------
@dataclass
class PeerOutcome:
    """A peer run: its rankings (None when it could not run), a status line, and what it reported."""

    name: str
    rankings: dict[str, list[str]] | None
    status: str
    info: dict[str, Any] = field(default_factory=dict)


def peer_input(methods: Methods, queries: list[Query], k: int) -> dict[str, Any]:
    """What a peer gets: each tenant's items (id, text, graphmem's stored vector) and the queries with their
    vectors, so the peer uses the very same embeddings and never loads a model of its own."""
    tenants: dict[str, Any] = {}
    for q in queries:
        key = f"{q.user_id}@{q.as_of.isoformat() if q.as_of else ''}"
        if key not in tenants:
            t = methods.tenant(q.user_id, q.as_of)
            tenants[key] = {
                "tenant": key,
                "items": [
                    {"id": i, "text": text, "vector": [round(float(x), 6) for x in vec]}
                    for i, text, vec in zip(t.ids, t.texts, t.vectors, strict=True)
                ],
            }
    return {
        "k": k,
        "tenants": list(tenants.values()),
        "queries": [
            {
                "qid": q.qid,
                "tenant": f"{q.user_id}@{q.as_of.isoformat() if q.as_of else ''}",
                "text": q.text,
                "vector": [round(x, 6) for x in methods.embedder.embed_queries([q.text])[0]],
            }
            for q in queries
        ],
    }


def peer_python(name: str) -> Path:
    return PEERS_DIR / f".venv-{name}" / "bin" / "python"


def ensure_peer_venv(name: str, timeout_s: float = 900) -> str | None:
    """Build benchmarks/peers/.venv-<name> from <name>-requirements.txt if it is missing; None when ready,
    else why it could not be built (a half-built virtualenv is removed so the next run tries again)."""
    if peer_python(name).exists():
        return None
    requirements = PEERS_DIR / f"{name}-requirements.txt"
    if not requirements.exists():
        return f"no {requirements.name} to build its virtualenv from"
    venv = PEERS_DIR / f".venv-{name}"
    steps = [
        [sys.executable, "-m", "venv", str(venv)],
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "-r", str(requirements)],
    ]
    for step in steps:
        try:
            done = subprocess.run(step, capture_output=True, text=True, timeout=timeout_s, check=False)
            problem = None if done.returncode == 0 else (done.stderr or done.stdout).strip()[-400:]
        except (OSError, subprocess.TimeoutExpired) as exc:
            problem = str(exc)
        if problem is not None:
            shutil.rmtree(venv, ignore_errors=True)
            return f"could not build the {name} virtualenv: {problem}"
    return None


def run_peer(name: str, payload: dict[str, Any], workdir: Path, timeout_s: float = 3600) -> PeerOutcome:
    """Run benchmarks/peers/<name>_run.py in its own virtualenv on ``payload``; never raises."""
    problem = ensure_peer_venv(name)
    if problem:
        return PeerOutcome(name, None, f"not run: {problem}")
    workdir.mkdir(parents=True, exist_ok=True)
    inp, out = workdir / f"{name}-input.json", workdir / f"{name}-output.json"
    inp.write_text(json.dumps(payload))
    out.unlink(missing_ok=True)
    cmd = [str(peer_python(name)), str(PEERS_DIR / f"{name}_run.py"), str(inp), str(out)]
    env = {**os.environ, "MEM0_TELEMETRY": "False", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s, env=env, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return PeerOutcome(name, None, f"failed: {exc}")
    if done.returncode != 0 or not out.exists():
        tail = (done.stderr or done.stdout).strip()[-600:]
        return PeerOutcome(name, None, f"failed (exit {done.returncode}): {tail}")
    result = json.loads(out.read_text())
    return PeerOutcome(name, result["rankings"], "ok", result.get("info", {}))


def add_peer(rankings: Rankings, outcome: PeerOutcome, label: str) -> None:
    """Put a peer's rankings beside the in-process methods (or a note saying why it is absent)."""
    if outcome.rankings is None:
        rankings.notes[label] = outcome.status
        return
    rankings.by_method[label] = outcome.rankings
    ms = outcome.info.get("search_ms_per_query")
    if isinstance(ms, int | float):
        rankings.ms_per_query[label] = round(float(ms), 2)
    rankings.notes[label] = str(outcome.info.get("note", "ok"))


# --- reporting ----------------------------------------------------------------------------------------
def bar_plot(path: Path, title: str, groups: list[str], values: dict[str, list[float]], ylabel: str) -> None:
    """Grouped bars: one group per category, one bar per method."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(max(8.0, 1.6 * len(groups) + 2), 4.8))
    width = 0.8 / max(len(values), 1)
    for i, (method, ys) in enumerate(values.items()):
        xs = [g + (i - (len(values) - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, ys, width, label=method)
    ax.set_xticks(range(len(groups)), groups, rotation=15, ha="right")
    ax.set_ylim(0, 1)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize="small", ncols=2, loc="upper left", bbox_to_anchor=(0, -0.08))
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)
