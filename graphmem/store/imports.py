"""The messages ``graphmem import`` (and the Google ADK memory service) stored for a user, one done
``IdempotencyKey`` per message: its key names the message (``import:`` and a fingerprint of its session and
content, see :func:`graphmem.cli.importer.fingerprints`; ``adk:<session>:<event id>`` for an ADK event, see
:mod:`graphmem.adapters.adk`), its result the memories the message became (an ADK event too long for one
memory is stored in parts). A re-import of a file, whatever its batches or however many lines were appended
to it, or a re-added ADK session, however many events it gained, skips the messages already recorded: they
are neither stored twice nor reinforce their memory again. Deleting the user deletes the keys with it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

from graphmem.store.idempotency import key_id
from graphmem.store.runtime import Runtime

__all__ = ["imported", "record"]

PAGE = 5000
"""Keys per round trip."""


def imported(rt: Runtime, user_id: str, keys: Sequence[str]) -> set[str]:
    """Those of ``keys`` recorded as imported for ``user_id``."""
    ids = {key_id(user_id, k): k for k in keys}
    found: set[str] = set()
    names = list(ids)
    for start in range(0, len(names), PAGE):
        rows = rt.store.read("import_marks_done", ids=names[start : start + PAGE])
        found.update(ids[r["id"]] for r in rows)
    return found


def record(rt: Runtime, user_id: str, stored: Iterable[tuple[str, str | Sequence[str]]]) -> None:
    """Record each (key, memory id or ids) of ``stored`` as imported for ``user_id`` (a key recorded is
    kept)."""
    rows = [
        {"id": key_id(user_id, k), "key": k, "memories": [m] if isinstance(m, str) else list(m)}
        for k, m in stored
    ]
    now = datetime.now(UTC)
    for start in range(0, len(rows), PAGE):
        rt.store.write("import_marks_record", user_id=user_id, rows=rows[start : start + PAGE], now=now)
