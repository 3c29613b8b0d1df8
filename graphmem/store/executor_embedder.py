"""The embedder of an ``AsyncGraphMemory``: embedding is CPU work, so under the async bridge it runs in the
event loop's thread pool and never blocks the loop (graphmem.aio)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from graphmem.embedding import Embedder, embed_query_checked, embedder_name
from graphmem.store._bridge import await_only, in_bridge

R = TypeVar("R")


class ExecutorEmbedder:
    """Runs the wrapped embedder in the event loop's thread pool when called under the bridge: the CPU work
    of embedding never blocks the loop. Elsewhere (a scheduler thread) it calls the embedder directly."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self._dimension: int | None = None

    @staticmethod
    def _off_loop(fn: Callable[[], R]) -> R:
        if not in_bridge():
            return fn()
        return await_only(asyncio.get_running_loop().run_in_executor(None, fn))

    @property
    def dimension(self) -> int:
        if self._dimension is None:  # the first read may load the model
            inner = self.inner
            self._dimension = self._off_loop(lambda: inner.dimension)
        return self._dimension

    @property
    def tokenizer(self) -> Any:
        inner = self.inner
        return self._off_loop(lambda: getattr(inner, "tokenizer", None))

    @property
    def name(self) -> str:
        return embedder_name(self.inner)

    def warm(self) -> None:
        inner = self.inner
        self._off_loop(lambda: getattr(inner, "warm", lambda: None)())

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        inner, batch = self.inner, list(texts)
        return self._off_loop(lambda: inner.embed(batch))

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        inner, batch = self.inner, list(texts)
        return self._off_loop(lambda: embed_query_checked(inner, batch))
