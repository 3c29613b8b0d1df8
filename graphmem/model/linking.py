"""Link decisions at formation (pure): near-duplicates, RELATED_TO, CAUSES and entity merges.

Inputs are plain data: the batch's vectors (true cosine between them), and for each new memory its most
similar existing memories with Neo4j's cosine score (``(1 + cos) / 2``, converted here). All weights and
thresholds are true cosine.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import numpy as np

from graphmem.model.extraction import CueDirection, causal_cue
from graphmem.model.reconstruction import ANAPHORS, FUNCTION_WORDS, REPLY_PARTICLES, stands_alone
from graphmem.model.tokens import WORD, fold

LINK_TYPES = frozenset({"FOLLOWS", "RELATED_TO", "CAUSES", "CONFLICTS_WITH"})
"""Relationship types a caller may create with ``link()`` (between two memories of one user)."""

CAUSAL_WINDOW = 10
"""A causal cue links to one of this many preceding memories of the batch ..."""
CAUSAL_RECENT = timedelta(days=7)
"""... or to an existing memory of the same session or this recent."""
CAUSAL_MIN_COSINE = 0.2
"""Below this, the immediately preceding memory is taken as the other side of the cue."""

_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_NEGATION = re.compile(r"\b(?:not|no|never|don't|doesn't|didn't|isn't|wasn't|won't|can't)\b", re.IGNORECASE)


def neo4j_to_cosine(score: float) -> float:
    """Neo4j's ``vector.similarity.cosine`` is ``(1 + cos) / 2``."""
    return 2.0 * score - 1.0


@dataclass(frozen=True)
class Neighbour:
    """An existing memory similar to a new one."""

    id: str
    cosine: float
    content: str
    occurred_at: datetime | None
    session_id: str | None


@dataclass(frozen=True)
class NewItem:
    """What the planner knows about one new memory of the batch."""

    content: str
    occurred_at: datetime
    session_id: str | None


@dataclass
class LinkPlan:
    duplicate_of_existing: dict[int, tuple[str, float]] = field(default_factory=dict)  # i -> (id, cos)
    duplicate_of_batch: dict[int, tuple[int, float]] = field(default_factory=dict)  # i -> (earlier j, cos)
    related: list[tuple[int, str | int, float]] = field(default_factory=list)  # (i, existing id | j, cos)
    causes: list[tuple[str | int, str | int, float, str]] = field(
        default_factory=list
    )  # (cause, effect, w, cue)


def same_claims(a: str, b: str) -> bool:
    """Near-identical vectors can still differ in what they claim: numbers or a negation."""
    return _reading(a).claims == _reading(b).claims


_WORD = WORD  # letters of any script (graphmem.model.tokens.WORD)
_FILLER = FUNCTION_WORDS | ANAPHORS | REPLY_PARTICLES
STEM = 5
"""Words are compared by their first five letters ("loved" and "love", "tournaments" and "tournament")."""


@dataclass(frozen=True)
class _Reading:
    """What the textual rules compare of one text, read once: its claims (numbers in order of value as
    text, and whether it negates), the stems of its words, and those of its content words."""

    claims: tuple[tuple[str, ...], bool]
    stems: frozenset[str]
    content: frozenset[str]


def _reading(text: str) -> _Reading:
    words = _WORD.findall(fold(text))
    return _Reading(
        claims=(tuple(sorted(_NUMBER.findall(text))), _NEGATION.search(text) is not None),
        stems=frozenset(w[:STEM] for w in words),
        content=frozenset(w[:STEM] for w in words if w not in _FILLER),
    )


class Readings(dict[str, _Reading]):
    """Texts' readings, each read once (one per :func:`plan_links` call): a batch of near-identical long
    turns compares each with every earlier one, and reading both texts again for each pair cost 61 of 146 s
    for 200 turns of 20,000 characters. Kept only for the call: no turn's words outlive it in the process."""

    def __missing__(self, text: str) -> _Reading:
        self[text] = found = _reading(text)
        return found


def restates(existing: str, new: str, readings: Readings | None = None) -> bool:
    """Whether ``new`` only says again what ``existing`` says: the same claims (:func:`same_claims`) and
    every content word of ``new`` found in ``existing``. Near-identical vectors are not enough: "I won my
    fourth video game tournament on Friday, online" and "I just won another regional video game
    tournament" are 0.95 apart in bge-small and are two events."""
    read = Readings() if readings is None else readings
    old, said = read[existing], read[new]
    return old.claims == said.claims and said.content <= old.stems


def merges_into(
    existing: str, new: str, *, same_turn: bool = False, readings: Readings | None = None
) -> bool:
    """Whether a new memory whose vector is a near-duplicate of an existing one is merged into it: it
    restates it and can stand alone, or, a reply that cannot ("Yes", "Yes, that was the best part!"),
    answers the same turn (``same_turn``: the turns before both, in one batch and session, restate each
    other). A reply means what the turn it answers says: before round 56 "Yes" to "Do you smoke?" after "Yes"
    to "Are you vegetarian?" in one session was merged into the first, and the second answer was lost."""
    return restates(existing, new, readings) and (same_turn or stands_alone(new))


def _same_turn(items: Sequence[NewItem], i: int, j: int, readings: Readings) -> bool:
    """Whether batch items ``i`` and ``j`` follow the same turn: each comes after a turn of its own session in
    the batch, and those two turns restate each other."""
    if min(i, j) == 0 or not items[i].session_id or items[i].session_id != items[j].session_id:
        return False
    before = [items[i - 1], items[j - 1]]
    if any(b.session_id != items[i].session_id for b in before):
        return False
    first, second = before[0].content, before[1].content
    return restates(first, second, readings) and restates(second, first, readings)


def batch_cosines(vectors: Sequence[Sequence[float]]) -> np.ndarray:
    m = np.asarray(vectors, dtype=np.float64)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    unit: np.ndarray = m / np.where(norms == 0, 1.0, norms)
    out: np.ndarray = unit @ unit.T
    return out


def cross_cosines(
    a: Sequence[Sequence[float]] | np.ndarray, b: Sequence[Sequence[float]] | np.ndarray
) -> np.ndarray:
    """Cosine of every row of ``a`` against every row of ``b``."""
    x = np.asarray(a, dtype=np.float32)
    y = np.asarray(b, dtype=np.float32)
    x = x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)
    y = y / np.maximum(np.linalg.norm(y, axis=1, keepdims=True), 1e-12)
    out: np.ndarray = x @ y.T
    return out


def top_k(row: np.ndarray, k: int) -> list[int]:
    """Indices of the k largest values of ``row``, largest first."""
    if k <= 0 or row.size == 0:
        return []
    k = min(k, row.size)
    part = np.argpartition(-row, k - 1)[:k]
    return [int(j) for j in part[np.argsort(-row[part], kind="stable")]]


def plan_links(
    items: Sequence[NewItem],
    neighbours: Sequence[Sequence[Neighbour]],
    cosines: np.ndarray,
    *,
    duplicate_threshold: float,
    related_threshold: float,
    related_k: int,
) -> LinkPlan:
    """For each new memory in batch order: is it a duplicate, what does it relate to, what does it cause.

    The batch's pairs are compared in numpy: only the few pairs above the duplicate threshold reach the
    textual rule, and each memory ranks its earlier kept drafts in one sort (their top ``related_k``, ties in
    batch order, are all that the stable sort of the candidates below can take)."""
    out = LinkPlan()
    kept: list[int] = []  # earlier drafts that are not duplicates, in batch order
    read = Readings()
    for i, item in enumerate(items):
        hits = [
            n
            for n in neighbours[i]
            if n.cosine >= duplicate_threshold and merges_into(n.content, item.content, readings=read)
        ]
        if hits:
            best = max(hits, key=lambda n: n.cosine)
            out.duplicate_of_existing[i] = (best.id, best.cosine)
            continue
        index = np.asarray(kept, dtype=np.intp)
        row = cosines[i, index] if kept else np.empty(0)
        earlier = [
            int(j)
            for j in index[row >= duplicate_threshold]
            if merges_into(
                items[j].content, item.content, same_turn=_same_turn(items, i, j, read), readings=read
            )
        ]
        if earlier:
            j = max(earlier, key=lambda j: float(cosines[i, j]))
            out.duplicate_of_batch[i] = (j, float(cosines[i, j]))
            continue
        candidates: list[tuple[str | int, float]] = [(n.id, n.cosine) for n in neighbours[i]]
        best_kept = np.argsort(-row, kind="stable")[:related_k]  # ties in batch order, as the full sort
        candidates += [(int(index[t]), float(row[t])) for t in best_kept]
        candidates.sort(key=lambda c: -c[1])
        for target, cos in candidates[:related_k]:
            if cos >= related_threshold:
                out.related.append((i, target, round(cos, 4)))
        cause = _cause(i, item, neighbours[i], cosines, kept)
        if cause is not None:
            out.causes.append(cause)
        kept.append(i)
    return out


def _cause(
    i: int, item: NewItem, neighbours: Sequence[Neighbour], cosines: np.ndarray, kept: list[int]
) -> tuple[str | int, str | int, float, str] | None:
    """A CAUSES edge for item ``i`` when it states a causal cue: to the most similar recent memory (a kept
    earlier draft, or a neighbour of the same session or close in time), else the previous kept draft."""
    cue = causal_cue(item.content)
    if cue is None:
        return None
    recent: list[tuple[str | int, float]] = [(j, float(cosines[i, j])) for j in kept[-CAUSAL_WINDOW:]]
    recent += [
        (n.id, n.cosine)
        for n in neighbours
        if (item.session_id is not None and n.session_id == item.session_id)
        or (n.occurred_at is not None and abs(item.occurred_at - n.occurred_at) <= CAUSAL_RECENT)
    ]
    if not recent:
        return None
    other, cos = max(recent, key=lambda c: c[1])
    if cos < CAUSAL_MIN_COSINE and kept:
        other, cos = kept[-1], float(cosines[i, kept[-1]])
    weight = round(max(cos, 0.1), 4)
    if cue.direction is CueDirection.EFFECT:
        return (other, i, weight, cue.cue)
    return (i, other, weight, cue.cue)


def should_merge_entities(new_key: str, old_key: str, cosine: float, threshold: float) -> bool:
    """Merge two entity names by embedding only when they also start alike ("new york city" ~ "new york",
    but not "york" ~ "new york")."""
    return cosine >= threshold and new_key.split()[0][:3] == old_key.split()[0][:3]
