"""A memory's search keys beyond its own words (pure, no database, no LLM).

Formation stores, next to ``content``:

- ``search_text``: one full-text field holding the content, the speaker's name, the names of the entities
  found in it and the dates its relative expressions resolve to (ISO dates, month and weekday names,
  years). Merging the expansion into the item's own key, rather than indexing each key separately, is
  what LongMemEval found to work best.
- ``context_text``: the previous turn of the same session and this one, each prefixed by its speaker; it
  is embedded into ``context_embedding`` (a question often names what the previous turn said).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphmem.model.dates import DateRange, date_words

__all__ = ["context_text", "search_text", "turn_line"]

_WORD = re.compile(r"\w+")


def turn_line(content: str, speaker: str | None) -> str:
    """``"speaker: content"``, or the bare content without a speaker."""
    return f"{speaker}: {content}" if speaker else content


def search_text(
    content: str, speaker: str | None, entity_names: Sequence[str], ranges: Sequence[DateRange]
) -> str:
    """The content followed by the speaker, entity names and date words not already in it, one field."""
    have = set(_WORD.findall(content.lower()))
    extra: dict[str, None] = {}
    for word in [speaker or "", *entity_names, *(w for r in ranges for w in date_words(r))]:
        tokens = set(_WORD.findall(word.lower()))
        if tokens and not tokens <= have:
            extra[word.strip()] = None
            have |= tokens
    return " ".join([content, *extra]) if extra else content


def context_text(previous: tuple[str, str | None] | None, content: str, speaker: str | None) -> str:
    """The previous turn (content, speaker) and this one, one per line, speaker-prefixed."""
    line = turn_line(content, speaker)
    return f"{turn_line(*previous)}\n{line}" if previous is not None else line
