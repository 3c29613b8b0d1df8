"""Formation's reads: everything a batch of drafts is decided on, read once into a
:class:`~graphmem.formation.plan.FormationContext` before anything is planned or written.

The reads, in order: one ``formation_context`` read (the user's known entity keys, which the extractor is
told about; the session's last stored memory and its vector, context of the first draft; the tenant's
capped size, which the neighbour plan needs for large batches), one embedding call for the drafts' texts
(each context key is summed from two own vectors: :func:`~graphmem.model.keys.context_vector`), their
nearest stored memories (:mod:`graphmem.formation.neighbours`), and, for entity keys the user has not used
before, one embedding call for their names and one read for close stored entities (``entity_similar``,
a scan of the user's entities, or ``entity_similar_index`` through the entity vector index for a user with
many).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from graphmem.embedding import embed_checked
from graphmem.errors import GraphMemError
from graphmem.formation import neighbours as nearest
from graphmem.formation.drafts import MemoryDraft, embedding_text, session_uid
from graphmem.formation.plan import EntityMatch, FormationContext
from graphmem.model import linking
from graphmem.model.entities import Mention
from graphmem.model.extraction import Extractor, PatternExtractor, TurnExtraction, redact_pii
from graphmem.model.keys import chained_context_vectors, context_text
from graphmem.store.queries import variant
from graphmem.store.runtime import Runtime

__all__ = ["ENTITY_SCAN_MAX", "KNOWN_ENTITY_LIMIT", "gather", "similar_entities"]

logger = logging.getLogger(__name__)

KNOWN_ENTITY_LIMIT = 5_000
"""Most entity keys of a user that the extractor is told about (most mentioned first)."""

ENTITY_SCAN_MAX = 50
"""Users with more entities than this have a new name's closest entities found through the entity vector
index (where it filters by tenant): scanning costs ~23 µs per (new name, stored entity) pair, growing with the
user's entities (10 names: 25-34 ms at 100 entities, 2.2-3.0 s at 10,000), the index about 1 ms per name at
any count (10 names: 4-12 ms from 100 to 10,000 entities; ``benchmarks/formation_profile.py entities``)."""

ENTITY_MATCHES = 3
"""Stored entities kept per new name (both paths: ``cypher/entity_similar*.cypher``)."""


def gather(
    rt: Runtime, drafts: Sequence[MemoryDraft], now: datetime, extractor: Extractor | None
) -> FormationContext:
    """Read (and embed) everything :func:`~graphmem.formation.plan.plan_formation` needs for ``drafts``."""
    settings = rt.settings
    user_id = drafts[0].user_id
    if settings.redact_pii:
        drafts = [_redact(d) for d in drafts]
    first = drafts[0]
    cap = nearest.count_cap(rt, len(drafts))
    row = rt.store.read(
        "formation_context",
        user_id=user_id,
        limit=KNOWN_ENTITY_LIMIT,
        uid=None if first.session_id is None else session_uid(user_id, first.session_id),
        cap=cap + 1 if cap else 0,
    )[0]
    # an entity key of another type (a list or number written by hand) names nothing the text can mention
    known = {r["key"]: r["id"] for r in row["known"] if isinstance(r["key"], str) and r["key"].strip()}
    extracted = _extract(extractor, [d.content for d in drafts], known)
    last = row["last"]
    contexts = _context_texts(
        drafts, None if last is None else (last["content"] or "", last["speaker"] or last["role"])
    )
    texts = [embedding_text(d, ex.facts) for d, ex in zip(drafts, extracted, strict=True)]
    unique = list(dict.fromkeys(texts))
    by_text = dict(zip(unique, embed_checked(rt.embedder, unique), strict=True))
    vectors = [by_text[t] for t in texts]
    context_vectors = chained_context_vectors(  # as _context_texts pairs the turns
        None if last is None else last["embedding"], vectors, chained=first.session_id is not None
    )
    neighbours = nearest.neighbours(
        rt, user_id, vectors, settings.related_k + 5, counted=(row["n"], cap) if cap else None
    )
    mentions = [m for ex in extracted for m in ex.entities]
    entity_vectors, matches = _entity_candidates(rt, user_id, mentions, known)
    return FormationContext(
        drafts=tuple(drafts),
        now=now,
        extracted=tuple(extracted),
        known_entities=known,
        contexts=tuple(contexts),
        vectors=tuple(vectors),
        context_vectors=tuple(context_vectors),
        neighbours=tuple(tuple(n) for n in neighbours),
        entity_vectors=entity_vectors,
        entity_matches=matches,
    )


def _entity_candidates(
    rt: Runtime, user_id: str, mentions: list[Mention], known: dict[str, str]
) -> tuple[dict[str, list[float]], dict[str, tuple[EntityMatch, ...]]]:
    """New entity keys' name embeddings (of their first mention), and the stored entities close to each."""
    names: dict[str, str] = {}
    for m in mentions:
        names.setdefault(m.key, m.name)
    if not names:
        return {}, {}
    new_keys = [k for k in names if k not in known]
    vectors = dict(zip(new_keys, embed_checked(rt.embedder, [names[k] for k in new_keys]), strict=True))
    if not (new_keys and known):
        return vectors, {}
    asked = [{"key": k, "embedding": vectors[k]} for k in new_keys]
    rows = similar_entities(rt, user_id, asked, (1.0 + rt.settings.entity_merge_threshold) / 2.0, len(known))
    matches = {
        r["key"]: tuple(
            EntityMatch(key=x["key"], id=x["id"], cosine=linking.neo4j_to_cosine(float(x["score"])))
            for x in r["matches"]
            if isinstance(x["key"], str) and x["key"].strip()  # a key of another type (by hand): no match
        )
        for r in rows
    }
    return vectors, matches


def similar_entities(
    rt: Runtime, user_id: str, names: list[dict[str, Any]], min_score: float, entities: int
) -> list[dict[str, Any]]:
    """The stored entities closest to each new name: through the entity vector index where it filters by
    tenant and the user has more than ``ENTITY_SCAN_MAX`` entities (``entities``: counted up to
    ``KNOWN_ENTITY_LIMIT``), else by scanning the user's entities. A failing index query (another process
    rebuilds it) falls back to the scan."""
    if entities > ENTITY_SCAN_MAX and rt.entity_index.ready(rt.store):
        try:
            name = variant("entity_similar_index", filtered=True)
            return rt.store.read(name, user_id=user_id, names=names, min_score=min_score, k=ENTITY_MATCHES)
        except GraphMemError as exc:
            logger.info("entity index query failed (%s); scanning the user's entities", exc)
            rt.entity_index.reset()
    return rt.store.read(
        "entity_similar", user_id=user_id, names=names, min_score=min_score, k=ENTITY_MATCHES
    )


def _context_texts(drafts: Sequence[MemoryDraft], previous: tuple[str, str | None] | None) -> list[str]:
    """Each draft's previous turn of the session and itself; the first one's previous turn is ``previous``,
    the session's last stored memory (content, speaker), or none."""
    out = []
    for d in drafts:
        speaker = d.speaker or d.role
        out.append(context_text(previous, d.content, speaker))
        if d.session_id is not None:
            previous = (d.content, speaker)
    return out


def _redact(draft: MemoryDraft) -> MemoryDraft:
    text, kinds = redact_pii(draft.content)
    if not kinds:
        return draft
    return replace(draft, content=text, metadata={**draft.metadata, "pii_redacted": kinds})


def _extract(extractor: Extractor | None, texts: list[str], known: dict[str, str]) -> list[TurnExtraction]:
    out = (extractor or PatternExtractor()).extract(texts, known=known.keys())
    if len(out) != len(texts):  # a misbehaving custom extractor must not corrupt the batch
        logger.warning(
            "extractor returned %d results for %d turns; using the pattern extractor", len(out), len(texts)
        )
        out = PatternExtractor().extract(texts, known=known.keys())
    return out
