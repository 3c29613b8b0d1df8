"""A memory's search keys beyond its own words (pure, no database, no LLM).

Formation stores, next to ``content``:

- ``search_text``: one full-text field holding the content, the speaker's name, the names of the entities
  found in it, the dates its relative expressions resolve to (ISO dates, month and weekday names, years) and
  the words inside its compound terms (``parse_config``, ``TokenExpiredError``: the index holds each as one
  term; :mod:`graphmem.model.tokens`). Merging the expansion into the item's own key, rather than indexing
  each key separately, is what LongMemEval found to work best.
- the **profile facts** the turn states (``location: Lisbon``, ``employer: Spotify``; :func:`fact_lines`): one
  line each under the turn's own words in the text its ``embedding`` is made from, and their words in
  ``search_text``. A question asks by the relation ("Where do I live?") where the turn says it another way
  ("I moved to Lisbon last month"): bge-small's cosine of that question with the turn is 0.44, with the turn
  and its fact line 0.55, above the user's other turns (0.43-0.49 in the first-hour test of
  ``tests/test_fact_keys.py``). Preferences and rules are left out: their key is the turn's own words.
- ``context_text``: the previous turn of the same session and this one, each prefixed by its speaker; its
  vector, ``context_embedding`` (:func:`context_vector`), is the normalised sum of the two turns' own
  vectors (a question often names what the previous turn said).

Feedback adds one more (``mem.memories.feedback``):

- ``asked``: the questions the user marked the memory useful for, one per line, newest last
  (:func:`asked_key`). The full-text index holds it beside the memory's own words, so a later question in
  the same words finds the memory where its own text says it otherwise: "What does Melanie do to destress?"
  marked answered by "I've been running farther, great for my headspace" lets "How does Melanie destress
  after work?" find that turn by "destress". Search engines learn from clicks the same way (document
  expansion from the query log). A memory marked *not* useful for a question loses that question.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from graphmem.model.date_queries import date_words
from graphmem.model.dates import DateRange
from graphmem.model.fact_patterns import ExtractedFact
from graphmem.model.tokens import compound_parts, index_tokens
from graphmem.models import FactType

__all__ = [
    "ASKED_CHARS",
    "ASKED_MAX",
    "asked_key",
    "chained_context_vectors",
    "context_text",
    "context_vector",
    "fact_lines",
    "fact_vector_text",
    "own_text",
    "search_text",
    "turn_line",
    "vector_text",
    "with_fact_lines",
]

ASKED_MAX = 10
"""Most questions an asked key keeps (the newest): a bound on the field, not a quality setting; BM25's length
normalisation already discounts a long key, and a memory judged for more than ten different questions is found
by its own words."""

ASKED_CHARS = 500
"""Each kept question is cut to this many characters (a question is a sentence or two; a pasted document given
as the feedback's query would otherwise fill the key)."""


def fact_vector_text(key: str | None, value: str | None) -> str:
    """The text a fact's vector is made of, as ``context()`` ranks current facts by it: ``key value`` on one
    line, the key's separators as spaces (relation words carry the meaning: "where do I live" is near
    ``location Leeds``); a version's vector is stored with it (``cypher/fact_embedding_set.cypher``)."""
    return vector_text(f"{key}: {value}")


def vector_text(line: str) -> str:
    """A fact's line as context() embeds it (:func:`fact_vector_text`; with a pending plan, its whole line):
    on one line, the key's separators as spaces."""
    return " ".join(line.split()).replace("_", " ").replace(":", " ").replace("/", " ")


def turn_line(content: str, speaker: str | None) -> str:
    """``"speaker: content"``, or the bare content without a speaker."""
    return f"{speaker}: {content}" if speaker else content


def fact_lines(facts: Sequence[ExtractedFact]) -> list[str]:
    """The profile facts a turn states of its speaker, as lines ``relation: value`` (``allergy peanuts:
    yes``). Left out: an ended value ("I no longer live in Leeds") is not a current relation, and a fact
    about someone else ("Emma lives in Lisbon": "location: Lisbon" would read as the speaker's, and drew
    "Where am I travelling?" to it), and a relation with one of many ("my friend Tom": ``person:Tom:
    friend`` says nothing the words do not, and moved the vector of "a trip to Japan with my friend Tom")."""
    return [
        f"{f.key.replace(':', ' ')}: {f.value}"
        for f in facts
        if f.fact_type is FactType.PROFILE
        and not f.ends
        and f.subject is None
        and not f.key.startswith("person:")
    ]


def own_text(content: str, speaker: str | None, role: str | None, facts: Sequence[ExtractedFact]) -> str:
    """The text a memory's own vector is made from: ``speaker: content`` (a role name is no speaker), then the
    profile facts it states (formation passes its extraction's; reembed and updates the pattern rules')."""
    return with_fact_lines(turn_line(content, speaker if speaker != role else None), facts)


def with_fact_lines(text: str, facts: Sequence[ExtractedFact]) -> str:
    """``text`` (a turn's line) with its :func:`fact_lines` under it: what its own vector is made from."""
    return "\n".join([text, *fact_lines(facts)])


def search_text(
    content: str,
    speaker: str | None,
    entity_names: Sequence[str],
    ranges: Sequence[DateRange],
    facts: Sequence[ExtractedFact] = (),
) -> str:
    """The content followed by the speaker, entity names, date words, profile facts' words and the words
    inside its compound terms (``parse_config``: parse config; :func:`graphmem.model.tokens.compound_parts`)
    that the index does not already hold as terms of it, one field."""
    have = set(index_tokens(content))
    extra: dict[str, None] = {}
    stated = [w for line in fact_lines(facts) for w in line.split(":", 1)]
    dated = (w for r in ranges for w in date_words(r))
    for word in [speaker or "", *entity_names, *dated, *stated, *compound_parts(content)]:
        tokens = set(index_tokens(word))
        if tokens and not tokens <= have:
            extra[word.strip()] = None
            have |= tokens
    return " ".join([content, *extra]) if extra else content


def context_text(previous: tuple[str, str | None] | None, content: str, speaker: str | None) -> str:
    """The previous turn (content, speaker) and this one, one per line, speaker-prefixed."""
    line = turn_line(content, speaker)
    return f"{turn_line(*previous)}\n{line}" if previous is not None else line


def context_vector(previous: object, own: Sequence[float]) -> list[float]:
    """The context key's vector: the previous turn's own vector plus this turn's, normalised (the direction
    between the two), or this turn's own vector when there is no previous turn (or its stored vector is not
    one of the same width, written by hand).

    Embedding the two turns' text together (what formation did until round 29) costs a second model call on a
    text twice as long, two thirds of a message's embedding time; on the LoCoMo development split (exact
    bge-small cosine, best of the two keys, fused with BM25) the sum ranks as well: R@10 0.660 against 0.658,
    multi-hop 0.415 against 0.414 (docs/formation.md)."""
    return chained_context_vectors(previous, [own], chained=True)[0]


def chained_context_vectors(
    first: object, own: Sequence[Sequence[float]], *, chained: bool
) -> list[list[float]]:
    """:func:`context_vector` of consecutive turns in one array operation: each turn's previous turn is the
    one before it, the first one's is ``first`` (a stored vector, or None); ``chained`` False: no turn has a
    previous one (turns outside a session)."""
    if not own or not chained:
        return [list(v) for v in own]
    mine = np.asarray(own, dtype=np.float64)
    summed = mine.copy()
    summed[1:] += mine[:-1]
    previous = _as_vector(first, mine.shape[1])
    if previous is None:
        summed[0] = 0.0  # no previous turn: the turn's own vector (below)
    else:
        summed[0] += previous
    with np.errstate(over="ignore", invalid="ignore"):  # a stored vector of huge values: its norm is inf
        norms = np.linalg.norm(summed, axis=1)
    ok = np.isfinite(norms) & (norms > 0.0)
    out = mine.copy()
    out[ok] = summed[ok] / norms[ok, None]
    rows: list[list[float]] = out.tolist()
    return rows


def _as_vector(value: object, width: int) -> np.ndarray | None:
    """``value`` as an array if it is a list of ``width`` finite numbers, else None (a stored vector may
    have been written by hand)."""
    if not isinstance(value, list | tuple) or len(value) != width:
        return None
    try:
        vector = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        return None
    return vector if bool(np.isfinite(vector).all()) else None


def asked_key(current: object, question: str | None, useful: bool) -> str | None:
    """The asked key after feedback on ``question``: useful adds it (newest last, once, at most
    :data:`ASKED_MAX`), not useful removes it; no question leaves the key as it is. A stored value that is not
    text (written by hand) counts as empty."""
    kept = [q for q in current.split("\n") if q] if isinstance(current, str) else []
    if question is None:
        return "\n".join(kept) or None
    asked = " ".join(question.split())[:ASKED_CHARS].strip()
    kept = [q for q in kept if q != asked]
    if useful and asked:
        kept = [*kept, asked][-ASKED_MAX:]
    return "\n".join(kept) or None
