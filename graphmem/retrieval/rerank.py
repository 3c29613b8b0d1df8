"""Optional cross-encoder reranker: ms-marco MiniLM-L-12-v2 (INT8 ONNX), loaded once per process through
:class:`graphmem.embedding.OnnxCrossEncoder` (the same sha256-checked carrier wheel as the embedder). Used
when a preset has ``rerank=True`` (the ``precise`` preset)."""

from __future__ import annotations

import functools

from graphmem.embedding import OnnxCrossEncoder


@functools.cache
def cross_encoder() -> OnnxCrossEncoder:
    """The process-wide cross-encoder (its model loads on first use)."""
    return OnnxCrossEncoder()
