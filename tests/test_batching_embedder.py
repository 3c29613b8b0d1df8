"""BatchingEmbedder: concurrent calls coalesce into fewer model calls, each caller gets its own vectors,
errors reach every caller of the failed batch."""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import pytest

from graphmem.adapters.batching import BatchingEmbedder
from graphmem.errors import EmbedderError


class Slow:
    """A fake model: a fixed cost per call (like a real one's overhead), vectors that encode the text."""

    dimension = 2

    def __init__(self) -> None:
        self.calls = 0
        self.tokenizer = "passes through"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        time.sleep(0.05)
        if "boom" in texts:
            raise EmbedderError("model failed")
        return [[float(len(t)), float(sum(map(ord, t)))] for t in texts]


def test_concurrent_calls_share_model_calls_and_get_their_own_vectors() -> None:
    inner = Slow()
    batching = BatchingEmbedder(inner)
    texts = [f"text number {i}" * (i % 3 + 1) for i in range(40)]
    with ThreadPoolExecutor(max_workers=20) as pool:
        results = list(pool.map(lambda t: batching.embed([t]), texts))
    assert results == [inner.embed([t]) for t in texts]
    assert inner.calls - len(texts) < len(texts) / 2  # far fewer model calls than callers
    assert max(batching.batches) > 1
    assert batching.dimension == 2 and batching.tokenizer == "passes through"


def test_an_error_reaches_the_callers_of_its_batch_and_the_worker_goes_on() -> None:
    batching = BatchingEmbedder(Slow())
    with pytest.raises(EmbedderError):
        batching.embed(["boom"])
    assert batching.embed(["fine"]) == [[4.0, float(sum(map(ord, "fine")))]]


def test_a_lone_call_is_its_own_batch() -> None:
    batching = BatchingEmbedder(Slow())
    batching.embed(["alone", "together"])
    assert batching.batches == [2]  # no waiting for company: the worker embeds what is there
