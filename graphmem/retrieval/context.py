"""Context assembly for a prompt: current facts, then recalled memories, then recent history, within a
token budget counted with a real tokenizer, with a report of what was kept and dropped."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from graphmem.automation.config import configured_budget
from graphmem.embedding import embed_checked
from graphmem.errors import EmbedderError
from graphmem.governance import core_blocks
from graphmem.model.date_queries import date_notes
from graphmem.model.keys import turn_line, vector_text
from graphmem.model.scopes import Caller
from graphmem.model.timescope import TimeScope
from graphmem.models import CoreBlock, FactType, Hit, Memory
from graphmem.retrieval import fact_vectors
from graphmem.retrieval import recall as recall_use_case
from graphmem.store import records
from graphmem.store.records import memory_from_row
from graphmem.store.runtime import Runtime

logger = logging.getLogger(__name__)

ItemKind = Literal["core", "fact", "memory", "notice", "possible", "history", "other_fact"]
SECTION_TITLES: dict[str, str] = {
    "core": "Core memory",
    "fact": "Known facts",
    "memory": "Relevant memories",
    "notice": "Relevant memories",
    "possible": "Possibly related memories (low confidence)",
    "history": "Recent history",
    "other_fact": "Other known facts",
}
RELEVANT = 0.5
"""A recalled memory is listed as relevant when its confidence reaches this (an even chance that it answers
the query); the other recalled memories follow as possibly related, so the agent is told how far to trust
each without losing the ones the estimate misjudges (on the LoCoMo development split, 37 % of the evidence
turns recall ranks among its best 10 have a confidence below 0.5; ``benchmarks/context_quality.py``)."""
RECENT_HISTORY = 10
"""The user's latest turns listed as recent history."""
NOTHING_RELEVANT = "Nothing relevant to this query is known."
NOTHING_CLEAR = "No memory clearly answers this query."
"""The notice when memories were recalled but none reaches :data:`RELEVANT`."""


class ContextItem(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: ItemKind
    text: str
    tokens: int
    rank: int
    memory_id: str | None = None
    score: float | None = None


class Context(BaseModel):
    """An assembled context: ``text`` fits ``budget`` tokens; ``kept`` and ``dropped`` say what made it."""

    model_config = ConfigDict(frozen=True)

    text: str
    items: list[ContextItem]
    kept: list[ContextItem]
    dropped: list[ContextItem]
    tokens: int
    budget: int


def assemble(
    rt: Runtime, req: recall_use_case.RecallRequest, who: Caller, when: TimeScope, budget: int | None
) -> Context:
    """``GraphMemory.context``: recall, the scoped facts ranked by the query, recent history and core memory,
    fitted to ``budget``. Facts, history and core memory are read with the recall's hits, in one round trip
    (``cypher/context_read.cypher``): a context takes three (the pool, that read, the recall's effects).
    The recall's effects are written after the assembly, so its RecallEvent records the tokens the context
    used and dropped (the dashboard's value panel). ``budget`` None: the stored configuration's
    ``context_budget``, read in the same round trip."""
    reads = ContextReads(rt, who, when)
    held = recall_use_case.recall_held(rt, req, fetch=reads.fetch)
    try:
        parts = reads.parts(held.query_vector)
        facts = rank_facts(rt, req.query, parts.facts, query_vector=held.query_vector)
        count = token_counter(rt)
        tokens = budget if budget is not None else configured_budget(parts.config)
        items = candidate_items(facts, held.hits, parts.recent, count, core=parts.core, leading=req.k)
        context = fit(items, tokens, count)
    except Exception:  # the recall happened: its effects are written all the same, without the tokens
        try:
            recall_use_case.commit(rt, req.user_id, held.effects)
        except Exception:  # the assembly's error is the one to raise
            logger.warning("context(): writing its recall's effects failed too", exc_info=True)
        raise
    dropped = sum(item.tokens for item in context.dropped)
    recall_use_case.commit(
        rt, req.user_id, held.effects, context_tokens_used=context.tokens, context_tokens_dropped=dropped
    )
    return context


@dataclass(frozen=True)
class ContextParts:
    """What a context lists besides its recalled memories: the current facts (a key from its narrowest
    scope only, the latest recorded first), the latest memories' rows (newest first), the core blocks; and
    the stored configuration its default budget comes from."""

    facts: list[dict[str, Any]]
    recent: list[dict[str, Any]]
    core: list[CoreBlock]
    config: str | None  # the stored automation configuration's body (its context_budget)


class ContextReads:
    """``context_read``: the recall's hits (as its :data:`~graphmem.retrieval.recall.Fetch`), facts, recent
    history and core memory in one statement; read by :meth:`parts` alone when the recall found nothing."""

    def __init__(self, rt: Runtime, who: Caller, when: TimeScope) -> None:
        self._rt, self._who, self._when = rt, who, when
        self._row: dict[str, Any] | None = None

    def fetch(self, ids: list[str], now: datetime, vector: list[float] | None) -> list[dict[str, Any]]:
        self._row = self._read(ids, now, vector)
        return [{"memory": memory} for memory in self._row["fetched"]]

    def parts(self, vector: list[float] | None = None) -> ContextParts:
        row = self._row if self._row is not None else self._read([], datetime.now(UTC), vector)
        core = [core_blocks.block_from_row(block) for block in row["core"]]
        facts = narrowest(row["facts"], self._who)
        return ContextParts(facts=facts, recent=row["recent"], core=core, config=row["config"])

    def _read(self, ids: list[str], now: datetime, vector: list[float] | None) -> dict[str, Any]:
        who = self._who
        rows = self._rt.store.read(
            "context_read",
            ids=ids,
            embedding=vector,
            tenants=[t for _, t in who.readable()],
            personal=who.personal(),
            user_id=who.user_id,
            k=RECENT_HISTORY,
            config_id=self._rt.settings.automation_config_id,
            now=now,
            **self._when.params(),
        )
        return rows[0]


def token_counter(rt: Runtime) -> Callable[[str], int]:
    """Counts with the embedding model's own tokenizer when it has one, else by whitespace words."""
    tokenizer = getattr(rt.embedder, "tokenizer", None)
    if tokenizer is None:
        return lambda text: len(text.split())

    def count(text: str) -> int:
        return len(tokenizer.encode(text, add_special_tokens=False))

    return count


def fact_text(fact: dict[str, Any]) -> str:
    """How a fact reads in a context: ``key: value`` (``preference:tea: love``); with a plan not started yet,
    its date and value too (``location: Leeds (from 2026-04-01: Manchester)``, or ``employer: Spotify (from
    2026-03-16)`` for a key that holds no value before it). Values read as the facts API reads them
    (``records.text``: a list set by hand reads as its JSON)."""
    key, value, upcoming = (_one_line(fact.get(k)) for k in ("key", "value", "next_value"))
    nxt = fact.get("next_from")
    if not isinstance(nxt, datetime):
        return f"{key}: {value}"
    day = nxt.astimezone(UTC).date().isoformat()
    if value is None:
        return f"{key}: {upcoming} (from {day})"
    return f"{key}: {value} (from {day}: {upcoming})"


def _one_line(value: Any) -> str | None:
    """A stored key or value on one line (whitespace runs, newlines included, as one space): a fact is one
    line of the context, and a newline stored in it (an older key, a value) wrote a line of its own."""
    text = records.optional_text(value)
    return None if text is None else " ".join(text.split())


def narrowest(rows: list[dict[str, Any]], who: Caller) -> list[dict[str, Any]]:
    """The current facts of every scope ``who`` may read; a key set in several scopes keeps only its
    narrowest scope's value (a user's fact overrides its organisation's; docs/scopes.md)."""
    order = [t for _, t in who.readable()]
    rank: dict[str, int] = {}
    for r in rows:
        rank[r["key"]] = min(order.index(r["tenant"]), rank.get(r["key"], len(order)))
    return [r for r in rows if order.index(r["tenant"]) == rank[r["key"]]]


def rank_facts(
    rt: Runtime, query: str, facts: list[dict[str, Any]], *, query_vector: list[float] | None = None
) -> list[dict[str, Any]]:
    """Current facts, most relevant to ``query`` first: by cosine of the query with each fact's text
    (relation words in the key carry the meaning: "where do I live" is near ``location: Leeds``); ties
    and a failing embedder keep the stored order (most recently recorded first). ``query_vector``: the
    query as recall embedded it (its vector query, with the model's query instruction), so that a context
    embeds its query once; without it the query is embedded here. A version whose text vector is stored
    comes scored by the database (``score``, context_read); the others' texts are embedded here and, for a
    version without a pending plan (whose text is its own), stored with it (:func:`fact_vectors.remember`)."""
    if len(facts) < 2:
        return facts
    scores: list[float | None] = [  # Neo4j's cosine is (1 + cos) / 2; a pending plan's text is another
        2 * f["score"] - 1 if isinstance(f.get("score"), float) and f.get("next_from") is None else None
        for f in facts
    ]
    missing = [i for i, score in enumerate(scores) if score is None]
    texts = [vector_text(fact_text(facts[i])) for i in missing]
    try:
        q = query_vector if query_vector is not None else embed_checked(rt.embedder, [query])[0]
        vectors = fact_vectors.fact_vectors(rt.embedder, texts) if texts else []
    except EmbedderError as exc:
        logger.warning("embedding facts failed; context keeps them by recency: %s", exc)
        return facts
    for i, score in zip(missing, fact_vectors.cosines(q, vectors), strict=True):
        scores[i] = score
    fact_vectors.remember(rt, [facts[i] for i in missing], vectors)
    order = sorted(range(len(facts)), key=lambda i: (-(scores[i] or 0.0), i))
    return [facts[i] for i in order]


def candidate_items(
    facts: list[dict[str, Any]],
    hits: list[Hit],
    recent: list[dict[str, Any]],
    count: Callable[[str], int],
    core: list[CoreBlock] | None = None,
    leading: int | None = None,
) -> list[ContextItem]:
    """Items in priority order (rank 0 first): core memory blocks, the ``leading`` facts and the ``leading``
    rules most relevant to the query (``facts`` come ranked; the recall's ``k``: as many as memories are asked
    for), the recalled memories that are likely relevant (confidence at least :data:`RELEVANT`; when none
    is, a notice saying so), the other recalled memories as possibly related, recent history not recalled,
    and last the other facts. A user with hundreds of facts (project states, preferences) gets the few the
    query is about first, and its relevant memories are not dropped for the rest: they fill what budget is
    left."""
    items: list[ContextItem] = []

    def add(kind: ItemKind, text: str, memory_id: str | None = None, score: float | None = None) -> None:
        items.append(
            ContextItem(
                kind=kind, text=text, tokens=count(text), rank=len(items), memory_id=memory_id, score=score
            )
        )

    # --- core memory blocks (graphmem.governance.core_blocks): pinned first;
    # never repeated as recalled memories or history
    recalled = set()
    for block in core or []:
        recalled.add(block.id)
        add("core", f"[{block.label}] {block.value}", block.id)
    # ---
    lead = facts if leading is None else _leading(facts, leading)
    for fact in lead:
        add("fact", fact_text(fact))
    relevant = [h for h in hits if h.confidence >= RELEVANT]
    if not relevant:
        add("notice", NOTHING_CLEAR if hits else NOTHING_RELEVANT)
    for hit in [*relevant, *(h for h in hits if h.confidence < RELEVANT)]:
        if hit.memory.id in recalled:
            continue
        recalled.add(hit.memory.id)
        # a summary enters as the sources the query found it by (its extract may not hold what they said)
        text = " | ".join(memory_line(d) for d in hit.details) if hit.details else memory_line(hit.memory)
        add("memory" if hit.confidence >= RELEVANT else "possible", text, hit.memory.id, hit.score)
    for row in recent:
        memory = memory_from_row(row)
        if memory.id not in recalled:
            add("history", memory_line(memory), memory.id)
    first = {id(fact) for fact in lead}
    for fact in facts:
        if id(fact) not in first:
            add("other_fact", fact_text(fact))
    return items


def _leading(facts: list[dict[str, Any]], k: int) -> list[dict[str, Any]]:
    """The facts a context lists first, in their (relevance) order: the ``k`` most relevant, and the ``k``
    most relevant rules beside them (``Always answer in British English``: an instruction holds for every
    answer, whatever the query; bounded, so that a user's many rules cannot crowd out the memories either)."""
    led, taken = [], {True: 0, False: 0}
    for fact in facts:
        rule = fact.get("fact_type") == FactType.RULE.value
        if taken[rule] < k:
            led.append(fact)
            taken[rule] += 1
    return led


def memory_line(memory: Memory) -> str:
    """A memory as the agent reads it: when it was said and by whom, then what, then the days its relative
    date expressions meant (``[2026-11-09T10:00+00:00] Maya: Yesterday I had a migraine (Yesterday: Sun
    2026-11-08)``): "yesterday" needs its day, a model counts days badly, and in a conversation "I" needs its
    speaker."""
    said = turn_line(memory.content, memory.speaker)
    if not memory.occurred_at:
        return said
    notes = date_notes(memory.content, memory.occurred_at)
    return f"[{memory.occurred_at.isoformat(timespec='minutes')}] {said}" + (f" ({notes})" if notes else "")


def fit(items: list[ContextItem], budget: int, count: Callable[[str], int]) -> Context:
    """Keep the best-ranked items whose text, with section titles, fits the budget; drop the rest.

    Each line and title is counted once and the sums decide (a WordPiece tokenizer, the default embedder's,
    counts a text split at line breaks as the sum of its lines). The whole text is counted at the end; a
    tokenizer for which the sum fell short then decides item by item on the rendered text, as it always did
    (that is quadratic: 1.5 s of a 1.8 s context of 200 memories)."""
    kept, dropped = _fit_by_sums(items, budget, count)
    text = render(kept)
    tokens = count(text) if text else 0
    if tokens > budget:
        kept, dropped = _fit_by_renders(items, budget, count)
        text = render(kept)
        tokens = count(text) if text else 0
    return Context(text=text, items=items, kept=kept, dropped=dropped, tokens=tokens, budget=budget)


def _fit_by_sums(
    items: list[ContextItem], budget: int, count: Callable[[str], int]
) -> tuple[list[ContextItem], list[ContextItem]]:
    kept: list[ContextItem] = []
    dropped: list[ContextItem] = []
    titled: set[str] = set()
    used = 0
    bullet = count("-")  # an item's line is "- " and its text, already counted in ``item.tokens``
    for item in items:
        title = SECTION_TITLES[item.kind]
        cost = item.tokens + bullet + (0 if title in titled else count(f"## {title}"))
        if used + cost <= budget:
            kept.append(item)
            titled.add(title)
            used += cost
        else:
            dropped.append(item)
    return kept, dropped


def _fit_by_renders(
    items: list[ContextItem], budget: int, count: Callable[[str], int]
) -> tuple[list[ContextItem], list[ContextItem]]:
    kept: list[ContextItem] = []
    dropped: list[ContextItem] = []
    for item in items:
        if count(render([*kept, item])) <= budget:
            kept.append(item)
        else:
            dropped.append(item)
    return kept, dropped


def render(items: list[ContextItem]) -> str:
    sections: list[str] = []
    for kind, title in SECTION_TITLES.items():
        lines = [f"- {i.text}" for i in items if i.kind == kind]
        if lines:
            sections.append(f"## {title}\n" + "\n".join(lines))
    return "\n\n".join(sections)
