"""Optional cross-encoder reranker: ms-marco MiniLM-L-12-v2 (INT8 ONNX), loaded once per process through
:class:`graphmem.embedding.OnnxCrossEncoder` (the same sha256-checked carrier wheel as the embedder). Used
when a preset has ``rerank=True`` (the ``precise`` preset)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from graphmem.embedding import OnnxCrossEncoder
from graphmem.model.scoring import minmax


@functools.cache
def cross_encoder() -> OnnxCrossEncoder:
    """The process-wide cross-encoder (its model loads on first use)."""
    return OnnxCrossEncoder()


def _passage(memory: Mapping[str, Any]) -> str:
    """What the cross-encoder reads of a memory: its search text (the content with its speaker, entity names
    and resolved dates; pool rows carry it as ``text``), else the content."""
    return str(memory.get("text") or memory.get("search_text") or memory.get("content") or "")


def rerank(
    query: str,
    top_n: int,
    memories: Mapping[str, Mapping[str, Any]],
    scores: dict[str, float],
    parts: dict[str, dict[str, float]],
    factors: Mapping[str, float],
) -> dict[str, float]:
    """Cross-encoder over the top ``top_n``: its min-max logits blended 50/50 with the min-max relevance the
    engine gave (``parts[id]["relevance"]``, before the factors: the blend measured best in
    ../shared/reference/offline-models.md), times the memory's ``factors`` (currency, metamemory, asking,
    context: graphmem.retrieval.search), as the engine's own relevance is. The cross-encoder reads meaning
    only; that a statement was outdated by a later one, that recall inhibited it, that it only asks, it does
    not know, so its score carries them as the engine's does. The rest keep their order below."""
    top = sorted(scores, key=lambda m: -scores[m])[:top_n]
    texts = [_passage(memories[m]) for m in top]
    ce = minmax(dict(zip(top, cross_encoder().score(query, texts), strict=True)))
    base = minmax({m: parts[m]["relevance"] for m in top})
    floor = max((s for m, s in scores.items() if m not in ce), default=0.0)
    out = dict(scores)
    for mid in top:
        parts[mid]["rerank"] = ce[mid]
        out[mid] = floor + 1.0 + factors[mid] * (0.5 * ce[mid] + 0.5 * base[mid])
    return out
