"""What ``context()`` lists and how much of it (real server, real embedder): every recalled memory, the
confident ones as relevant and the others as possibly related, within a budget counted in full."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta

import pytest

from graphmem import GraphMemory
from graphmem.embedding import Embedder
from graphmem.retrieval.context import ContextItem, _fit_by_renders, _fit_by_sums, fit, render
from graphmem.retrieval.fact_vectors import FACT_VECTORS_MAX, fact_vectors


def token_counter_of(embedder: Embedder) -> Callable[[str], int]:
    tokenizer = embedder.tokenizer  # type: ignore[attr-defined]
    return lambda text: len(tokenizer.encode(text, add_special_tokens=False))


DEMO_LIKE = [
    "I finally adopted a dog! He's a beagle named Rex.",
    "I work as a nurse at St. Mary's hospital, mostly night shifts.",
    "Because of the night shifts my sister Emma looks after Rex on weekends.",
    "I love Italian food, especially mushroom risotto.",
    "I'm planning a trip to Japan in October with my friend Tom.",
]


def _said(mem: GraphMemory, user_id: str, turns: list[str]) -> None:
    start = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
    mem.add_messages(
        [{"role": "user", "content": t, "timestamp": start + timedelta(days=i)} for i, t in enumerate(turns)],
        user_id=user_id,
        session_id="s1",
    )


def test_a_memory_recall_is_unsure_of_is_listed_as_possibly_related(mem: GraphMemory, user_id: str) -> None:
    """ "Where am I travelling?" shares no word with "I'm planning a trip to Japan": recall ranks that memory
    first, but its confidence stays below 0.5 (with the demo's "later this year" the trip's date covers the
    date expression and lifts it above). The context used to answer "nothing relevant" and leave it out."""
    _said(mem, user_id, DEMO_LIKE)
    question = "Where am I travelling?"
    top = mem.recall(question, user_id=user_id, k=3, reinforce=False)[0]
    assert "Japan" in top.memory.content
    assert top.confidence < 0.5  # the case this test is about (the embedder is pinned by its sha256)
    ctx = mem.context(question, user_id=user_id, reinforce=False)
    assert "- No memory clearly answers this query." in ctx.text
    possible = [i for i in ctx.kept if i.kind == "possible"]
    assert possible and "Japan" in possible[0].text
    assert ctx.text.index("## Relevant memories") < ctx.text.index("## Possibly related memories")


def test_confident_memories_come_before_the_possibly_related(mem: GraphMemory, user_id: str) -> None:
    _said(mem, user_id, DEMO_LIKE)
    question = "What is the name of my dog?"
    hits = mem.recall(question, user_id=user_id, k=10, reinforce=False)
    ctx = mem.context(question, user_id=user_id, reinforce=False)
    relevant = [i.memory_id for i in ctx.kept if i.kind == "memory"]
    possible = [i.memory_id for i in ctx.kept if i.kind == "possible"]
    assert relevant == [h.memory.id for h in hits if h.confidence >= 0.5]
    assert "Rex" in next(i.text for i in ctx.kept if i.kind == "memory")
    assert possible == [h.memory.id for h in hits if h.confidence < 0.5]
    assert not any(i.kind == "notice" for i in ctx.kept)
    assert [i.rank for i in ctx.items] == sorted(i.rank for i in ctx.items)
    assert max(i.rank for i in ctx.items if i.kind == "memory") < min(
        i.rank for i in ctx.items if i.kind == "possible"
    )


def test_the_budget_counts_every_token(mem: GraphMemory, user_id: str, embedder: Embedder) -> None:
    """The model's tokenizer truncates at 512 tokens; counted with it, a context of any length came to at
    most 512 and a budget above that was never enforced."""
    long_turns = [
        f"Travel diary day {i}: " + "we walked along the river and talked about books. " * 40
        for i in range(8)
    ]
    _said(mem, user_id, long_turns)
    ctx = mem.context("What did we talk about on the river walk?", user_id=user_id, token_budget=1200)
    counted = len(embedder.tokenizer.encode(ctx.text, add_special_tokens=False))  # type: ignore[attr-defined]
    assert ctx.dropped
    assert ctx.tokens == counted
    assert 512 < counted <= 1200


def _items(texts: list[tuple[str, str]], count: Callable[[str], int]) -> list[ContextItem]:
    return [
        ContextItem(kind=kind, text=text, tokens=count(text), rank=i)  # type: ignore[arg-type]
        for i, (kind, text) in enumerate(texts)
    ]


TEXTS = [
    ("fact", "location: St. Louis"),
    ("memory", "[2026-03-08T09:33+00:00] user: Emma lives in Lisbon now, but she's staying until June."),
    (
        "possible",
        "[2023-05-08T13:56+00:00] Caroline: I went to a LGBTQ support group yesterday — so powerful!",
    ),
    ("possible", "Straße, naïve café, 東京, emoji 🎉 and a URL https://example.org/a?b=c"),
    ("history", "[2026-03-20T20:14+00:00] user: Tom is a photographer, and he wants to see Kyoto in autumn."),
] * 6


def test_fitting_by_sums_keeps_what_fitting_by_renders_keeps(embedder: Embedder) -> None:
    """The default tokenizer counts a text split at line breaks as the sum of its lines, so the linear fit
    keeps the same items as counting every trial render (the quadratic one it replaced)."""
    count = token_counter_of(embedder)
    items = _items(TEXTS, count)
    for budget in (1, 20, 57, 150, 400, 10_000):
        fast = fit(items, budget, count)
        slow_kept, _ = _fit_by_renders(items, budget, count)
        assert fast.kept == slow_kept, budget
        assert fast.tokens == count(fast.text) <= budget


def test_a_counter_that_is_not_a_sum_still_keeps_the_budget() -> None:
    def count(text: str) -> int:  # words, and line breaks cost 5: more than the sum of the lines
        return len(text.split()) + 5 * text.count("\n")

    items = _items(TEXTS, count)
    for budget in (10, 100, 333):
        by_sums, _ = _fit_by_sums(items, budget, count)
        assert count(render(by_sums)) > budget  # the sums fall short: the fallback decides
        ctx = fit(items, budget, count)
        assert ctx.tokens == count(ctx.text) <= budget
        assert ctx.kept == _fit_by_renders(items, budget, count)[0]


class _Counting:
    """A three-dimensional embedder that records what it was asked to embed."""

    dimension = 3

    def __init__(self) -> None:
        self.asked: list[str] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.asked += texts
        return [[1.0, float(len(t)), 0.5] for t in texts]


def test_fact_texts_are_embedded_once_per_embedder() -> None:
    first, second = _Counting(), _Counting()
    texts = ["location Lisbon", "diet vegetarian", "location Lisbon"]
    assert fact_vectors(first, texts) == [[1.0, float(len(t)), 0.5] for t in texts]
    assert first.asked == ["location Lisbon", "diet vegetarian"]
    fact_vectors(first, [*texts, "employer Acme"])
    assert first.asked == ["location Lisbon", "diet vegetarian", "employer Acme"]  # only the new one
    fact_vectors(second, texts[:1])
    assert second.asked == ["location Lisbon"]  # another embedder, another vector space


def test_a_full_cache_of_fact_vectors_still_answers_every_text() -> None:
    """Round 54's shape probe: once the cache held ``FACT_VECTORS_MAX`` texts, a call that found some of its
    texts cached and had to embed others cleared the cache, refilled only the new ones and raised KeyError
    on the cached ones (every context() of a user with many facts, and of any user in a long-running
    process that had seen many). The oldest entries make room instead."""
    embedder = _Counting()
    fact_vectors(embedder, [f"other {i}" for i in range(FACT_VECTORS_MAX - 2)])
    fact_vectors(embedder, ["mine 0", "mine 1"])  # the cache is full
    texts = [f"mine {i}" for i in range(95)]
    assert fact_vectors(embedder, texts) == [[1.0, float(len(t)), 0.5] for t in texts]
    assert embedder.asked[-93:] == texts[2:]  # the two cached ones were not embedded again
    many = [f"many {i}" for i in range(FACT_VECTORS_MAX + 10)]  # more than the cache holds, in one call
    assert fact_vectors(embedder, many) == [[1.0, float(len(t)), 0.5] for t in many]


def test_a_context_embeds_its_query_once(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Facts are ranked by the vector recall searched with, not by a second embedding of the query."""
    mem.facts.set(user_id, "location", "Lisbon")
    mem.facts.set(user_id, "diet", "vegetarian")
    mem.remember("I cycle to the office along the river", user_id=user_id)
    embedder = mem.runtime.embedder
    asked: list[tuple[str, str]] = []
    for name in ("embed", "embed_queries"):
        original = getattr(embedder, name)

        def counting(
            texts: Sequence[str], original: Callable[..., list[list[float]]] = original, name: str = name
        ) -> object:
            asked.extend((name, t) for t in texts)
            return original(texts)

        monkeypatch.setattr(embedder, name, counting)
    query = "Which city do I live in?"
    context = mem.context(query, user_id=user_id, reinforce=False)
    facts = [item.text for item in context.items if item.kind == "fact"]
    assert facts[0].startswith("location") and len(facts) == 2
    assert [n for n, t in asked if t == query] == ["embed_queries"], asked  # recall's, and no other


def test_a_context_without_a_budget_takes_the_configured_one(auto: GraphMemory, user_id: str) -> None:
    """The automation configuration's ``context_budget`` is the budget of a context that names none (it was
    stored and shown on the dashboard, and read by nothing); a budget passed still wins."""
    _said(auto, user_id, DEMO_LIKE)
    assert auto.context("what do I do for work?", user_id=user_id, reinforce=False).budget == 2000
    auto.automation.set_config(auto.automation.get_config().model_copy(update={"context_budget": 40}))
    small = auto.context("what do I do for work?", user_id=user_id, reinforce=False)
    assert small.budget == 40 and 0 < small.tokens <= 40 and small.dropped
    assert (
        auto.context("what do I do for work?", user_id=user_id, token_budget=500, reinforce=False).budget
        == 500
    )
