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

from graphmem.model.pattern_pieces import KIN

__all__ = ["restore"]

# a sentence's first word (after "Just", "Finally", ...), a verb of a change of one's own home or work
_DROPPED = re.compile(
    r"(?:^|[.!?]\s+|\n\s*)(?P<word>(?i:(?:just|finally|officially|recently|actually|also) )?"
    r"(?P<verb>(?i:got|left|quit|joined|started|accepted|took|landed|lost|handed|finished|been|based|retired|"
    r"signed))\b)"
)
# the subject a verb form drops: "Been ..." is "I've been ...", "Based ..." is "I'm based ..."
_SUBJECT = {"been": "I've ", "based": "I'm "}


# a sentence whose subject is someone else: "My sister ...", "Emma moved ...", "She ..."
_ABOUT_SOMEONE = re.compile(
    rf"\s*(?:[Mm]y (?:{KIN})\b|(?:He|She|They)\b|(?!I\b)[A-Z][a-z]+ (?:is|was|has|had|moved|got|left|started|"
    r"lives|works|went|just)\b)"
)
_STOPS = re.compile(r"[.!?\n]")


def _about_someone(text: str, at: int) -> bool:
    """Whether the sentence before the one starting at ``at`` is about someone else."""
    stops = [m.end() for m in _STOPS.finditer(text, 0, max(0, at - 1))]
    return bool(stops) and _ABOUT_SOMEONE.match(text, stops[-2] if len(stops) > 1 else 0) is not None


def restore(text: str) -> tuple[str, Callable[[int], int]]:
    """``text`` with the "I" of each sentence that drops it, and the map from a position in it to the same
    place in ``text`` (a position inside a restored subject maps to where the sentence starts)."""
    parts: list[str] = []
    starts: list[int] = []  # where each restored subject starts, in the restored text
    sizes: list[int] = []  # the characters added up to and including it
    last = added = 0
    for m in _DROPPED.finditer(text):
        at = m.start("word")
        if _about_someone(text, at):
            continue  # "My sister is well. Left Deloitte in October.": hers, not the speaker's
        subject = _SUBJECT.get(m["verb"].lower(), "I ")
        parts += [text[last:at], subject, m["word"][0].lower(), m["word"][1:]]
        starts.append(at + added)
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
