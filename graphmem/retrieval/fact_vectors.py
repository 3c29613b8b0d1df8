"""Vectors of fact texts, embedded once per embedder: the context ranks current facts by them, and recall
asks which of an outdated statement's keys a question is about (graphmem.model.timescope.still_holds). A
fact version's own text vector is also stored with it (:func:`remember`), so contexts score it in the
database (context_read) and this cache serves the rest: key words, and facts with a pending plan."""

from __future__ import annotations

import logging
import weakref
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from graphmem.embedding import embed_checked
from graphmem.errors import EmbedderError, GraphMemError
from graphmem.model.fact_keys import RELATIONS, key_words
from graphmem.model.knn import unit_rows
from graphmem.model.timescope import outdated_for, planned_only, scheme_keys

logger = logging.getLogger(__name__)

FACT_VECTORS_MAX = 4096
"""Fact texts whose vectors are kept per embedder (a user's facts change rarely and every context() ranks them
all: embedding ten of them again cost 15 of a context's 88 ms on a LoCoMo tenant)."""
_fact_cache: weakref.WeakKeyDictionary[Any, dict[str, list[float]]] = weakref.WeakKeyDictionary()


def fact_vectors(embedder: Any, texts: list[str]) -> list[list[float]]:
    """The vectors of ``texts``, embedding only those not embedded before by this embedder (at most
    ``FACT_VECTORS_MAX`` kept, the oldest evicted first). Before round 54 a full cache was cleared and only
    the missing texts refilled, so the call then failed (KeyError) on a text it had found cached."""
    try:
        cache = _fact_cache.setdefault(embedder, {})
    except TypeError:  # an embedder that cannot be weakly referenced is not cached
        cache = {}
    wanted = dict.fromkeys(texts)
    known = {t: v for t in wanted if (v := cache.get(t)) is not None}  # one read each: threads share it
    missing = [t for t in wanted if t not in known]
    if not missing:
        return [known[t] for t in texts]
    fresh = dict(zip(missing, embed_checked(embedder, missing), strict=True))
    overflow = len(cache) + len(fresh) - FACT_VECTORS_MAX
    for old in list(cache)[:overflow] if overflow > 0 else ():  # the oldest make room
        cache.pop(old, None)
    cache.update(list(fresh.items())[-FACT_VECTORS_MAX:])
    vectors = known | fresh  # from this call's reads, not the cache: another call may evict meanwhile
    return [vectors[t] for t in texts]


def remember(rt: Any, facts: Sequence[Mapping[str, Any]], vectors: Sequence[Sequence[float]]) -> None:
    """Store the vectors just embedded for context_read's fact rows (``facts``, in order) with their versions:
    those of a version's own text (no pending plan: ``next_from``), so later contexts, in any process, are
    scored in the database. A failed write is logged and changes nothing else (the context is read)."""
    rows = [
        {
            "id": f["id"],
            "user_id": f["tenant"],
            "key": f["key"],
            "value": f["value"],
            "embedding": [float(x) for x in v],
        }
        for f, v in zip(facts, vectors, strict=True)
        if isinstance(f.get("id"), str) and f.get("next_from") is None
    ]
    if not rows:
        return
    try:
        rt.store.write("fact_embedding_set", rows=sorted(rows, key=lambda r: r["id"]))  # one lock order
    except GraphMemError as exc:
        logger.warning("storing fact vectors failed; the next context embeds them again: %s", exc)


def cosines(query: Sequence[float], vectors: Sequence[Sequence[float]]) -> list[float]:
    """The query vector's cosine with each of ``vectors`` (0 for a zero vector), in one matrix product."""
    if not vectors:
        return []
    scores = unit_rows(vectors) @ unit_rows([query])[0]
    return [float(x) for x in scores]


def key_cosines(
    embedder: Any, query: Sequence[float] | None, memories: Iterable[Mapping[str, Any]]
) -> dict[str, float]:
    """The query vector's cosine with the words of each key that decides a statement's currency: of the pool's
    memories outdated for some keys that no longer hold while other keys of theirs still hold
    (graphmem.model.timescope.outdated_for; cypher/fragments/pool_memory.cypher), of those that state
    plans only, their keys and the key scheme's relations (``not_yet``), and of those a fact of the scheme
    holds of, its key and the relations (``backs``). Without such a memory nothing is embedded; the key texts
    are embedded once per embedder (:func:`fact_vectors`). An embedder that fails leaves them out (logged):
    such a statement keeps the currency it had before round 44."""
    keys: set[str] = set()
    for memory in memories:
        held, gone = outdated_for(memory)
        if held and gone:
            keys |= held | gone
        if planned := planned_only(memory):  # graphmem.model.timescope.not_yet
            keys |= planned | set(RELATIONS)
        if current := scheme_keys(memory.get("holds")):  # graphmem.model.timescope.backs
            keys |= current | set(RELATIONS)
    if not keys or query is None:
        return {}
    ordered = sorted(keys)
    try:
        vectors = fact_vectors(embedder, [key_words(k) for k in ordered])
    except EmbedderError as exc:
        logger.warning("embedding fact keys failed; outdated statements stay outdated: %s", exc)
        return {}
    return dict(zip(ordered, cosines(query, vectors), strict=True))
