"""Reference sentences: the pool a small memory lacks, for judging how far its best match stands out.

A hit's confidence rests on its standout: its cosine in standard deviations above the pool, the tenant's
best ``pool_k`` candidates (docs/recall.md, Confidence). A tenant with fewer memories than that has no pool
to stand out from: with one memory the standout is 0 whatever the memory says, with five it rests on five
numbers, and a new user's question that one of their few memories answers was reported as "nothing
relevant". Such a pool is filled up to ``pool_k`` with the best-matching of a fixed set of everyday
first-person sentences (``graphmem/data/reference_sentences.txt``: 149 lines written for graphmem, none
taken from a benchmark), embedded once per embedder. The standout then says how far the memory stands above
what ordinary talk about daily life scores for the same question, which is what a fuller store's pool
measures too. A tenant whose vector search returns ``pool_k`` memories is judged by its own pool alone.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

import numpy as np

from graphmem.embedding import Embedder, embed_checked
from graphmem.errors import EmbedderError

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_vectors: weakref.WeakKeyDictionary[Embedder, np.ndarray] = weakref.WeakKeyDictionary()
_unhashable: dict[int, tuple[Embedder, np.ndarray]] = {}  # embedders a weak dictionary cannot key (held)


def sentences() -> list[str]:
    """The reference sentences, one per line of the packaged file."""
    text = resources.files("graphmem.data").joinpath("reference_sentences.txt").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip()]


def vectors(embedder: Embedder) -> np.ndarray:
    """The reference sentences embedded by ``embedder`` as stored passages (unit rows), computed once per
    embedder object (bge-small: ~0.4 s on two cores; the servers' warm-up does it at start).

    The lock guards the cache only, never the embedding: under the async bridge an embedding call yields the
    event loop's thread to other recalls (graphmem.aio), and one of them waiting on a held lock would block
    that thread for good. Two first calls may both embed; the first to finish is kept."""
    with _lock:
        found = _lookup(embedder)
    if found is not None:
        return found
    computed = np.asarray(embed_checked(embedder, sentences()), dtype=np.float64)
    norms = np.linalg.norm(computed, axis=1, keepdims=True)
    computed = computed / np.where(norms > 0, norms, 1.0)
    with _lock:
        found = _lookup(embedder)
        if found is not None:
            return found
        try:
            _vectors[embedder] = computed
        except TypeError:  # not hashable or not weakly referable: kept by identity, with the object
            _unhashable[id(embedder)] = (embedder, computed)
        return computed


def _lookup(embedder: Embedder) -> np.ndarray | None:
    """The cached vectors of ``embedder`` (the caller holds the lock)."""
    try:
        return _vectors.get(embedder)
    except TypeError:
        held = _unhashable.get(id(embedder))
        return held[1] if held is not None else None


def best_cosines(embedder: Embedder, query: Sequence[float], n: int) -> list[float]:
    """The ``n`` highest cosines of the query vector with the reference sentences, best first (on the scale
    of :func:`graphmem.retrieval.signals.best_cosine`: a plain cosine in [−1, 1])."""
    if n <= 0:
        return []
    q = np.asarray(query, dtype=np.float64)
    norm = float(np.linalg.norm(q))
    if norm == 0.0:
        return []
    scores = vectors(embedder) @ (q / norm)
    return sorted(scores.tolist(), reverse=True)[:n]


def for_pool(
    embedder: Embedder, query: Sequence[float] | None, seeds: Sequence[Mapping[str, Any]], pool_k: int
) -> list[float]:
    """The best ``pool_k`` reference cosines of the query when the vector search found fewer than ``pool_k``
    memories (``seeds``: recall_pool's, each with the sources that ``found`` it), else none. In process.
    An embedder that fails on the reference sentences leaves the pool as it is (logged): recall goes on."""
    found = sum(1 for s in seeds if any(f["source"] == "vector" for f in s["found"]))
    if query is None or not seeds or found >= pool_k:
        return []
    try:
        return best_cosines(embedder, query, pool_k)
    except EmbedderError as exc:
        logger.warning(
            "embedding the reference sentences failed; confidence judged on the pool alone: %s", exc
        )
        return []
