"""BM25 with the tenant's own statistics (pure, no database).

Neo4j's full-text index scores BM25 with document frequencies counted over the whole index, every tenant's
memories together. A tenant's ranking then moves with what other tenants store (measured: the same questions
on the same LoCoMo store, R@10 0.785 in the morning and 0.778 in the afternoon after test tenants were added,
with Lucene scores of the same memories up to 73 % apart), and term statistics leak between tenants. So the
index only *finds* the full-text candidates; recall scores them here, with each query term's document
frequency counted in the readable tenants by the index itself (``recall_pool``: ``+user_key:… +(term)``, the
index's english analyzer), the tenants' memory count as the collection size, and each candidate's text.

Term frequency counts the candidate's words through the same steps as the index's english analyzer (lower
case, possessive ``'s`` dropped, Lucene's English stop words, Porter stemmer, via PyStemmer), so the words it
counts are the words the document frequency counted. A document's length is its whitespace word count, and
the average length is that of the pool's memories (a sample of the tenant; its exact average would cost a
read of every memory). ``K1`` and ``B`` are Lucene's defaults: the scorer the index used, with the tenant's
statistics; no new parameter.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

import Stemmer

from graphmem.model.tokens import index_tokens

__all__ = [
    "DF_CAP",
    "K1",
    "STOP_WORDS",
    "B",
    "Counts",
    "analyze",
    "counted",
    "length",
    "remember",
    "rescore",
    "scores",
    "stem",
]

K1 = 1.2
B = 0.75

DF_CAP = 5_000
"""Most index hits counted for one term's document frequency (the count's cost is one row per hit). A term in
more of a tenant's memories than this is common there: its idf is at most ln(1 + N / 5,000), against ~10 for a
rare word in a 100,000-memory tenant, so counting it exactly moves little; tenants of up to 5,000 memories are
counted exactly."""

STOP_WORDS = frozenset(
    (  # noqa: SIM905
        "a an and are as at be but by for if in into is it no not of on or such that the their then there "
        "these they this to was will with"
    ).split()
)
"""Lucene's English stop words (``EnglishAnalyzer.ENGLISH_STOP_WORDS_SET``), which the index drops."""

_STEMMER = Stemmer.Stemmer("porter")  # the index's PorterStemFilter


@functools.lru_cache(maxsize=65_536)
def stem(word: str) -> str:
    """``word``'s Porter stem, as the full-text index stems it."""
    return str(_STEMMER.stemWord(word))


def analyze(text: str) -> list[str]:
    """``text``'s terms as the english analyzer indexes them: cut as its tokenizer cuts
    (:func:`graphmem.model.tokens.index_tokens`), lower case, ``'s`` dropped, stop words out, Porter stems."""
    out = []
    for token in index_tokens(text):
        token = token.removesuffix("'s")
        if token and token not in STOP_WORDS:
            out.append(stem(token))
    return out


def length(text: str) -> int:
    """A document's length: its whitespace word count."""
    return len(text.split())


def scores(
    frequencies: Mapping[str, int],
    documents: int,
    texts: Mapping[str, str],
    candidates: Iterable[str],
    alternatives: Sequence[tuple[str, str]] = (),
) -> dict[str, float]:
    """BM25 of each candidate (an id of ``texts``) for the query terms ``frequencies`` maps to their
    document frequency in the tenants; ``documents`` is their memory count, the average length that of
    ``texts``. Candidates that hold no query term score 0. ``alternatives``: pairs of phrases of the query
    that name one thing two ways ("sister", "Ana"): a text scores the better of the two, not both (a
    disjunction, as Lucene's dis_max), so naming a person twice does not outweigh what is said of them."""
    lengths = [length(t) for t in texts.values()]
    average = sum(lengths) / len(lengths) if lengths else 1.0
    weights: dict[str, float] = {}
    for term, count in frequencies.items():
        stems = analyze(term)
        if len(stems) != 1:
            continue
        df = max(0, min(int(count), documents))
        weights[stems[0]] = weights.get(stems[0], 0.0) + math.log(1 + (documents - df + 0.5) / (df + 0.5))
    pairs = [(set(analyze(a)), set(analyze(b))) for a, b in alternatives]
    out: dict[str, float] = {}
    for mid in candidates:
        text = texts.get(mid, "")
        counts = Counter(analyze(text))
        norm = K1 * (1 - B + B * length(text) / max(average, 1e-9))
        each = {s: w * counts[s] * (K1 + 1) / (counts[s] + norm) for s, w in weights.items() if counts[s]}
        out[mid] = sum(each.values()) - sum(min(_sum(each, a), _sum(each, b)) for a, b in pairs)
    return out


def _sum(each: Mapping[str, float], stems: set[str]) -> float:
    return sum(each.get(s, 0.0) for s in stems)


def rescore(
    row: Mapping[str, Any],
    memories: Mapping[str, Any],
    seeds: dict[str, dict[str, float]],
    *,
    asked: bool = True,
    alternatives: Sequence[tuple[str, str]] = (),
) -> None:
    """Re-score the full-text seeds of a pool row by BM25 with the tenants' own statistics (:func:`scores`) in
    place of the index's, which count every tenant's memories. A row without them (no query term, or a pool
    from before they were read) keeps the index's scores. ``asked``: a memory's document is its own text and
    its asked key (the questions feedback marked it useful for), as the index holds both; ``alternatives``:
    phrases of the query that name one thing two ways (:func:`scores`)."""

    def document(text: Any, key: Any) -> str:
        own = "" if text is None else str(text)
        return f"{own}\n{key}" if asked and isinstance(key, str) and key else own

    frequencies = row.get("frequencies")
    if not frequencies or not row.get("documents"):
        return
    df = {str(term): int(count) for term, count in frequencies}
    texts = {mid: document(m.get("text") or m.get("content"), m.get("asked")) for mid, m in memories.items()}
    for seed in row["seeds"]:  # a summary found by a replaced source's words is scored on that source's text
        for f in seed["found"]:
            if f["source"] == "fulltext" and f.get("via_text"):
                texts[seed["id"]] = document(f["via_text"], f.get("via_asked"))
    found = [mid for mid, f in seeds.items() if "fulltext" in f]
    for mid, score in scores(df, int(row["documents"]), texts, found, alternatives).items():
        seeds[mid]["fulltext"] = score


class Counts(Protocol):
    """Where known document frequencies are kept between recalls (graphmem.store.runtime.TermCounts)."""

    COMMON: int

    def get(self, key: str) -> int | None: ...

    def put(self, key: str, value: int) -> None: ...


def counted(df_queries: list[list[str]], counts: Counts) -> tuple[list[list[str]], list[list[Any]]]:
    """``df_queries`` ([term, full-text query counting it]) split into those still to count and the
    ``[term, count]`` pairs ``counts`` already knows."""
    ask, known = [], []
    for term, lucene in df_queries:
        count = counts.get(lucene)
        if count is None:
            ask.append([term, lucene])
        else:
            known.append([term, count])
    return ask, known


def remember(df_queries: list[list[str]], frequencies: list[list[Any]], counts: Counts) -> list[list[Any]]:
    """``frequencies`` ([term, count] just read for ``df_queries``); the common terms' counts are kept in
    ``counts``."""
    lucene = dict((term, query) for term, query in df_queries)
    for term, count in frequencies:
        if term in lucene and isinstance(count, int) and count >= counts.COMMON:
            counts.put(lucene[term], count)
    return list(frequencies)
