"""A chat's dropped "I" restored (pure): "Got laid off from Wells Fargo yesterday", "Been living in Lyon since
March", "Based in Johannesburg.", "Accepted an offer from Wealthsimple, starting Feb 1." People drop the
subject of a sentence about themselves; the fact patterns read "I ...". :func:`restore` gives the text with
the subject said, and a map from its positions back to the text as written, so that a fact's span still
points into the message (:mod:`graphmem.model.planned` reads its clause there).

Only a sentence opening with a past form is restored ("Got", "Left", "Started", "Been", "Based", ...): one
opening with "-ing" is as often a gerund ("Living in London is expensive", "Working at Google was hard"), and
"Moved", "Moving", "Relocated" keep their own subjectless patterns, which check that the value is a place
("Moving to Linux on Monday" is no home)."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable

__all__ = ["restore"]

# a sentence's first word (after "Just", "Finally", ...), a verb of a change of one's own home or work
_DROPPED = re.compile(
    r"(?:^|(?<=[.!?]\s)|(?<=\n))(?i:(?:just|finally|officially|recently|actually|also) )?"
    r"(?P<verb>(?i:got|left|quit|joined|started|accepted|took|landed|lost|handed|finished|been|based))\b"
)
# the subject a verb form drops: "Been ..." is "I've been ...", "Living ..." is "I'm living ..."
_SUBJECT = {"been": "I've ", "based": "I'm "}


def restore(text: str) -> tuple[str, Callable[[int], int]]:
    """``text`` with the "I" of each sentence that drops it, and the map from a position in it to the same
    place in ``text`` (a position inside a restored subject maps to where the sentence starts)."""
    parts: list[str] = []
    starts: list[int] = []  # where each restored subject starts, in the restored text
    sizes: list[int] = []  # the characters added up to and including it
    last = added = 0
    for m in _DROPPED.finditer(text):
        subject = _SUBJECT.get(m["verb"].lower(), "I ")
        parts += [text[last : m.start()], subject, m.group()[0].lower(), m.group()[1:]]
        starts.append(m.start() + added)
        added += len(subject)
        sizes.append(added)
        last = m.end()
    if not starts:
        return text, lambda at: at
    parts.append(text[last:])

    def back(at: int) -> int:
        i = bisect_right(starts, at) - 1  # the last subject starting at or before ``at``
        if i < 0:
            return at
        inside = at - starts[i] < sizes[i] - (sizes[i - 1] if i else 0)
        return starts[i] - (sizes[i - 1] if i else 0) if inside else at - sizes[i]

    return "".join(parts), back
