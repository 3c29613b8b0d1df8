"""Reconstruction as pure rules: which memories cannot stand alone, and how a reading of one is assembled
from its neighbours (the turn it answers, the entities around it, current facts).

A memory cannot stand alone when a reader without the conversation could not tell what it is about:

- it opens with a reply particle ("Yes, it was amazing!", "Thanks, ...", "Wow!"), or is at most
  ``ELLIPSIS_WORDS`` words long (a fragment: "Last Tuesday.", "The blue one");
- or it refers back with a pronoun or demonstrative ("it", "they", "that", "there", ...) and names nothing
  itself: no proper name and at most ``MAX_CONTENT_WORDS`` content words ("That sounds lovely!").

The reconstructed reading is the memory's own words, followed by what it answers and what it is about;
its confidence is the hit's times ``CONFIDENCE_FACTOR`` (an inference, never a record). The stored memory
is never rewritten.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphmem.model.tokens import WORD

REPLY_PARTICLES = frozenset(
    (  # noqa: SIM905
        "yes yeah yep yup no nope nah sure thanks thank totally absolutely definitely exactly agreed "
        "indeed wow oh ah haha lol ok okay right true same congrats congratulations aw aww awesome cool "
        "nice"
    ).split()
)
ANAPHORS = frozenset(
    (  # noqa: SIM905
        "it its it's they them their theirs this that these those he him his she her there"
    ).split()
)
FUNCTION_WORDS = frozenset(
    (  # noqa: SIM905
        "a an the and or but so to of in on at for with by from as is was are were be been being am do "
        "did does i me my we us our you your i'm i've you're we're it's that's was so very really just "
        "too also what how when where why who which not no yes can could would should will shall may "
        "might must have has had sounds sound like"
    ).split()
)
ELLIPSIS_WORDS = 3
MAX_CONTENT_WORDS = 4
CONFIDENCE_FACTOR = 0.8
"""A reconstructed reading is an inference from neighbours: its confidence is the hit's times this."""
_WORD = WORD  # letters of any script (graphmem.model.tokens.WORD)


def _proper_names(words: Sequence[str]) -> list[str]:
    """Capitalised words other than the first of a sentence and 'I'."""
    return [
        w for i, w in enumerate(words) if i > 0 and w[:1].isupper() and w not in ("I", "I'm", "I've", "I'd")
    ]


def stands_alone(text: str) -> bool:
    """Whether a reader could tell what ``text`` is about without the conversation (see the module doc)."""
    words = _WORD.findall(text)
    if not words:
        return True  # nothing to reconstruct (an image placeholder, a number)
    lower = [w.lower() for w in words]
    if lower[0] in REPLY_PARTICLES or len(words) <= ELLIPSIS_WORDS:
        return False
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]
    names = [n for s in sentences for n in _proper_names(_WORD.findall(s))]
    if not any(w in ANAPHORS for w in lower) or names:
        return True
    content = [w for w in lower if w not in FUNCTION_WORDS and w not in ANAPHORS and w not in REPLY_PARTICLES]
    return len(content) > MAX_CONTENT_WORDS


def reading(
    content: str,
    *,
    speaker: str | None = None,
    previous: tuple[str | None, str] | None = None,
    entities: Sequence[str] = (),
    facts: Sequence[tuple[str, str]] = (),
) -> str:
    """The reconstructed reading: ``speaker: content (in reply to X: "..."; about: A, B; now: key = v)``."""
    parts = []
    if previous is not None:
        who, said = previous
        parts.append(f'in reply to {who + ": " if who else ""}"{said.strip()}"')
    names = list(dict.fromkeys(e for e in entities if e))
    if names:
        parts.append("about: " + ", ".join(names))
    if facts:
        parts.append("now: " + "; ".join(f"{k} = {v}" for k, v in facts))
    head = f"{speaker}: {content.strip()}" if speaker else content.strip()
    return f"{head} ({'; '.join(parts)})" if parts else head
