"""Saying things to graphmem in tests: one user turn at a time, stamped with when it was said."""

from __future__ import annotations

from datetime import datetime

from graphmem import GraphMemory


def say(mem: GraphMemory, user_id: str, when: datetime, text: str) -> str:
    """Store one user turn said at ``when`` (in that day's session); its memory's id."""
    turn = {"role": "user", "content": text, "timestamp": when}
    return mem.add_messages([turn], user_id=user_id, session_id=when.date().isoformat())[0].id
