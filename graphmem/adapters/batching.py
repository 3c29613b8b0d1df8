"""An embedder wrapper for servers: concurrent ``embed`` calls are coalesced into one model call.

Under the REST API's thread pool, twenty requests that each embed one text would run twenty model calls at
once, competing for the same cores. ``BatchingEmbedder`` hands every call to one worker thread, which takes
whatever calls are waiting (up to ``max_batch`` texts) and embeds them together: natural batching, no
waiting window, so a lone call is not delayed and a burst costs about one batched model call.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from graphmem.embedding import Embedder


@dataclass
class _Call:
    texts: list[str]
    done: threading.Event = field(default_factory=threading.Event)
    vectors: list[list[float]] = field(default_factory=list)
    error: BaseException | None = None


class BatchingEmbedder:
    """Wraps any :class:`Embedder`; other attributes (``tokenizer``, ``warm``, ...) pass through."""

    def __init__(self, inner: Embedder, *, max_batch: int = 256) -> None:
        self._inner = inner
        self._max_batch = max_batch
        self._calls: queue.SimpleQueue[_Call] = queue.SimpleQueue()
        self._worker: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self.batches: list[int] = []  # texts per model call, the most recent 1,000 (for tests and benchmarks)

    @property
    def inner(self) -> Embedder:
        return self._inner

    @property
    def dimension(self) -> int:
        return self._inner.dimension

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        call = _Call(list(texts))
        self._ensure_worker()
        self._calls.put(call)
        call.done.wait()
        if call.error is not None:
            raise call.error
        return call.vectors

    def _ensure_worker(self) -> None:
        if self._worker is None:
            with self._start_lock:
                if self._worker is None:
                    self._worker = threading.Thread(target=self._run, name="graphmem-embed", daemon=True)
                    self._worker.start()

    def _take(self) -> list[_Call]:
        calls = [self._calls.get()]
        size = len(calls[0].texts)
        while size < self._max_batch:
            try:
                nxt = self._calls.get_nowait()
            except queue.Empty:
                break
            calls.append(nxt)
            size += len(nxt.texts)
        return calls

    def _run(self) -> None:
        while True:
            calls = self._take()
            texts = [t for c in calls for t in c.texts]
            try:
                vectors = self._inner.embed(texts)
                if len(vectors) != len(texts):
                    raise ValueError(f"the embedder returned {len(vectors)} vectors for {len(texts)} texts")
            except BaseException as exc:  # handed to every waiting caller, the worker keeps serving
                for c in calls:
                    c.error = exc
                    c.done.set()
                continue
            self.batches = [*self.batches[-999:], len(texts)]
            start = 0
            for c in calls:
                c.vectors = vectors[start : start + len(c.texts)]
                start += len(c.texts)
                c.done.set()
