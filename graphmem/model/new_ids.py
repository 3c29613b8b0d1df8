"""The one rule ids follow only where a write creates them: no invisible characters.

A user, session, agent or organisation id, a fact key, a core block's label or a LangGraph store key that a
write stores must not hold a format character (Unicode category Cf: the zero-width space U+200B, the byte
order mark U+FEFF, the bidirectional marks and overrides such as U+202E) or a control character (Cc; every
id check refuses those already): two ids that print alike would name two tenants, and an override turns the
text after it around in every log and listing (docs/scopes.md, Ids). The zero-width non-joiner and joiner
(U+200C, U+200D) are spelling inside a Persian or Indic word and inside an emoji sequence: allowed between
two visible characters beyond ASCII, refused elsewhere ("alice" + U+200D).
Reads, exports and deletions take any id as it was stored, so an older id holding one stays readable and
erasable: only the calls that write under an id call this module.
"""

from __future__ import annotations

import unicodedata

from graphmem.errors import ValidationError
from graphmem.model import scopes

_INVISIBLE = frozenset({"Cf", "Cc"})
_JOINERS = frozenset("\u200c\u200d")


def refuse_invisible(**ids: object) -> None:
    """Raise :class:`ValidationError` naming the first id (a keyword's name) that holds an invisible
    character, and the character; ids that are not text (None: not given) are left to the other checks."""
    for field, value in ids.items():
        if not isinstance(value, str) or value.isprintable():  # the fast path: most ids are plain
            continue
        for i, char in enumerate(value):
            if unicodedata.category(char) in _INVISIBLE and not _spelling(value, i):
                raise ValidationError(
                    field, f"contains the invisible character U+{ord(char):04X}, which a new id may not hold"
                )


def written(who: scopes.Caller) -> scopes.Caller:
    """``who`` (validated) if none of its ids holds an invisible character: the caller of a write."""
    refuse_invisible(user_id=who.user_id, session_id=who.session_id, agent_id=who.agent_id, org_id=who.org_id)
    return who


def _spelling(value: str, i: int) -> bool:
    """Whether ``value[i]`` is a joiner between two visible characters beyond ASCII (a word of a script that
    writes with it, an emoji sequence)."""
    if value[i] not in _JOINERS or i == 0 or i == len(value) - 1:
        return False
    around = (value[i - 1], value[i + 1])
    return all(ord(c) > 127 and unicodedata.category(c) not in _INVISIBLE for c in around)
