"""The one rule ids follow only where a write creates them: no invisible characters.

A user, session, agent or organisation id, a fact key, a core block's label or a LangGraph store key that a
write stores must not hold a format character (Unicode category Cf: the zero-width space U+200B, the byte
order mark U+FEFF, the joiners U+200C/U+200D, the bidirectional marks and overrides such as U+202E) or a
control character (Cc; every id check refuses those already): two ids that print alike would name two
tenants, and an override turns the text after it around in every log and listing (docs/scopes.md, Ids).
Reads, exports and deletions take any id as it was stored, so an older id holding one stays readable and
erasable: only the calls that write under an id call this module.
"""

from __future__ import annotations

import unicodedata

from graphmem.errors import ValidationError
from graphmem.model import scopes

_INVISIBLE = frozenset({"Cf", "Cc"})


def refuse_invisible(**ids: object) -> None:
    """Raise :class:`ValidationError` naming the first id (a keyword's name) that holds an invisible
    character, and the character; ids that are not text (None: not given) are left to the other checks."""
    for field, value in ids.items():
        if not isinstance(value, str) or value.isprintable():  # the fast path: most ids are plain
            continue
        for char in value:
            if unicodedata.category(char) in _INVISIBLE:
                raise ValidationError(
                    field, f"contains the invisible character U+{ord(char):04X}, which a new id may not hold"
                )


def written(who: scopes.Caller) -> scopes.Caller:
    """``who`` (validated) if none of its ids holds an invisible character: the caller of a write."""
    refuse_invisible(user_id=who.user_id, session_id=who.session_id, agent_id=who.agent_id, org_id=who.org_id)
    return who
