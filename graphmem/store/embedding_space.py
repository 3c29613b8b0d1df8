"""One vector space per store: the embedder's name is recorded, a different embedder is refused until
``graphmem reembed`` has re-embedded every memory, entity and fact text vector (vectors of two models never
share an index).

A store written before spaces were recorded, that already holds vectors, is taken to be in the previous
default's space (all-MiniLM-L6-v2), so upgrading graphmem asks for a re-embedding instead of silently mixing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from graphmem.embedding import MINILM, Embedder, embed_checked, embedder_name
from graphmem.errors import SchemaError
from graphmem.model import fact_patterns
from graphmem.model.dates import event_range, resolve_dates
from graphmem.model.keys import (
    context_text,
    context_vector,
    fact_vector_text,
    own_text,
    search_text,
    turn_line,
    with_fact_lines,
)
from graphmem.store.driver import QueryStore
from graphmem.store.records import optional_text

logger = logging.getLogger(__name__)

LEGACY_SPACE = MINILM
PAGE = 512
#: per kind of node: the query reading a page of it and the query writing its new vectors
QUERIES = {
    "memory": ("reembed_memory_page", "reembed_memory_write"),
    "entity": ("reembed_entity_page", "reembed_entity_write"),
    "fact": ("reembed_fact_page", "reembed_fact_write"),
}
KINDS = {"memory": "memories", "entity": "entities", "fact": "facts"}


def stored_space(store: QueryStore) -> str | None:
    """The name of the space the store's vectors live in (``None``: a store without vectors yet)."""
    rows = store.read("embedding_space_get")
    row = rows[0] if rows else {}
    if row.get("name"):
        return str(row["name"])
    return LEGACY_SPACE if row.get("has_vectors") else None


def check_or_record(store: QueryStore, embedder: Embedder) -> None:
    """At ``init()``: record the embedder's space in a new store; refuse an embedder of another space."""
    name = embedder_name(embedder)
    found = stored_space(store)
    if found is None:
        record(store, embedder)
    elif found != name:
        raise SchemaError(
            f"this store's vectors come from {found!r} but the embedder is {name!r}: run "
            f"`graphmem reembed` (or GraphMemory.reembed()) to re-embed the store with {name!r}, "
            f"or configure embedding_model={found!r}"
        )


def record(store: QueryStore, embedder: Embedder) -> None:
    store.write(
        "embedding_space_set",
        name=embedder_name(embedder),
        dimension=embedder.dimension,
        now=datetime.now(UTC),
    )


def memory_text(row: dict[str, object]) -> str:
    """The text a memory's ``embedding`` was made from (the rule formation and core blocks use; the profile
    facts under it are the pattern rules' reading of the content, as the default extractor reads it)."""
    content = str(row.get("content") or "")
    if row.get("core_label"):
        return f"{row['core_label']}: {content}"
    speaker, role = row.get("speaker"), row.get("role")
    return own_text(
        content,
        str(speaker) if speaker else None,
        str(role) if role else None,
        fact_patterns.extract(content),
    )


def reembed(
    store: QueryStore,
    embedder: Embedder,
    *,
    progress: Callable[[int, int], None] | None = None,
    user_id: str | None = None,
) -> dict[str, int]:
    """Re-embed every memory (and its context key), entity and fact text vector of the store with
    ``embedder``, page by page in id order, then record the new space. Restartable: a rerun simply does all
    pages again.

    ``user_id`` limits it to one tenant and records nothing (a repair; the space is the whole store's)."""
    totals = store.read("reembed_total")[0]
    total = sum(int(totals[kind]) for kind in KINDS.values())
    counts = dict.fromkeys(KINDS.values(), 0)
    done = 0
    for label, (read_page, write_page) in QUERIES.items():
        after = ""
        while True:
            page = store.read(read_page, after=after, limit=PAGE, user_id=user_id)
            if not page:
                break
            store.write(write_page, rows=_rows(label, page, embedder))
            after = str(page[-1]["id"])
            done += len(page)
            counts[KINDS[label]] += len(page)
            if progress is not None:
                progress(done, total)
    if user_id is None:
        record(store, embedder)
    logger.info("re-embedded %d memories, entities and facts with %s", done, embedder_name(embedder))
    return counts


def _rows(label: str, page: list[dict[str, object]], embedder: Embedder) -> list[dict[str, object]]:
    if label in ("entity", "fact"):
        texts = [str(r["name"]) if label == "entity" else _fact_text(r) for r in page]
        vectors = embed_checked(embedder, texts)
        return [{"id": r["id"], "embedding": v} for r, v in zip(page, vectors, strict=True)]
    keys = [None if r.get("bare") is None else search_keys(r) for r in page]
    page = [
        r if k is None else {**r, "context_text": k["context_text"]} for r, k in zip(page, keys, strict=True)
    ]
    own = [memory_text(r) for r in page]
    previous = [previous_line(r) for r in page]
    texts = list(dict.fromkeys(own + [p for p in previous if p]))
    by_text = dict(zip(texts, embed_checked(embedder, texts), strict=True))
    return [
        {
            "id": r["id"],
            "embedding": by_text[text],
            "context_embedding": (
                context_vector(by_text[p] if p else None, by_text[text]) if r.get("context_text") else None
            ),
            "keys": k,
        }
        for r, text, p, k in zip(page, own, previous, keys, strict=True)
    ]


def search_keys(row: dict[str, Any]) -> dict[str, Any]:
    """The keys formation stores beside a memory's content (:func:`graphmem.formation.plan`'s), for a memory
    written before it stored them, from its ``bare`` read: when it was said, its entities' names, the previous
    turn of its session. The pattern rules read its facts, as the default extractor does."""
    bare, content = row["bare"], str(row.get("content") or "")
    speaker = str(row["speaker"]) if row.get("speaker") else None
    said = bare.get("said") if isinstance(bare.get("said"), datetime) else datetime.now(UTC)
    ranges = resolve_dates(content, said)
    span = event_range(ranges)
    previous = bare.get("previous")
    names = [str(n) for n in bare.get("entities") or () if n]
    return {
        "search_text": search_text(content, speaker, names, ranges, fact_patterns.extract(content)),
        "context_text": context_text(
            (str(previous[0] or ""), previous[1]) if previous else None, content, speaker or row.get("role")
        ),
        "event_start": span[0] if span else None,
        "event_end": span[1] if span else None,
    }


def _fact_text(row: dict[str, object]) -> str:
    return fact_vector_text(optional_text(row["key"]), optional_text(row["value"]))


def previous_line(row: dict[str, object]) -> str | None:
    """The previous turn's line in a memory's stored ``context_text`` (what formation paired it with), or
    None when it has none: the context key is re-made from it and the memory's own text as formation made it
    (:func:`graphmem.model.keys.context_vector`; formation sums the previous turn's own vector, which differs
    from its line's only for a turn with a role and no speaker name)."""
    context = row.get("context_text")
    if not isinstance(context, str):
        return None
    speaker = row.get("speaker") or row.get("role")
    line = turn_line(str(row.get("content") or ""), str(speaker) if speaker else None)
    if not context.endswith("\n" + line):
        return None
    previous = context[: -len(line) - 1]  # its profile facts under it, as that turn's own vector has them
    return with_fact_lines(previous, fact_patterns.extract(previous))
