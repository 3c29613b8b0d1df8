"""Reconstruction at recall time (``recall(..., reconstruct=True)``): each returned memory that cannot stand
alone (``graphmem.model.reconstruction.stands_alone``) gets a reading assembled from the turn it follows,
the entities around it and the current facts drawn from them, with a lower confidence. One read for the
neighbours and one write recording every reconstruction (``Reconstruction`` nodes, ``RECONSTRUCTS`` the
memory); the stored memories are never rewritten."""

from __future__ import annotations

import uuid
from datetime import datetime

from graphmem.model import reconstruction as rule
from graphmem.models import Hit, Reconstruction
from graphmem.store.runtime import Runtime


def reconstruct(
    rt: Runtime, hits: list[Hit], *, user_id: str, tenants: list[str], query: str, now: datetime
) -> list[Hit]:
    """``hits`` with a ``reconstruction`` on each memory that cannot stand alone (others unchanged); the
    memories may be of any of ``tenants`` (the scopes the recall read), the records are filed under
    ``user_id`` (the caller's principal, as its recall event)."""
    needing = [h.memory.id for h in hits if not rule.stands_alone(h.memory.content)]
    if not needing:
        return hits
    found = rt.store.read("reconstruct_context", ids=needing, tenants=tenants, now=now)
    rows = {r["id"]: r for r in found}
    made: dict[str, Reconstruction] = {}
    for h in hits:
        row = rows.get(h.memory.id)
        if row is None:
            continue
        previous = (row["previous_speaker"], str(row["previous"])) if row["previous"] else None
        facts = [(str(k), str(v)) for k, v in (row["facts"] or []) if k is not None]
        if previous is None and not row["entities"] and not facts:
            continue  # nothing around it to read it by
        text = rule.reading(
            h.memory.content,
            speaker=h.memory.speaker,
            previous=previous,
            entities=[str(e) for e in row["entities"] or []],
            facts=facts,
        )
        sources = [h.memory.id] + ([row["previous_id"]] if row["previous_id"] else [])
        made[h.memory.id] = Reconstruction(
            id=str(uuid.uuid4()), text=text, sources=sources, confidence=h.confidence * rule.CONFIDENCE_FACTOR
        )
    if made:
        records = [
            {"memory_id": mid, **r.model_dump(include={"id", "text", "sources", "confidence"})}
            for mid, r in made.items()
        ]
        rt.store.write(
            "reconstruction_record", rows=records, user_id=user_id, tenants=tenants, query=query, now=now
        )
    return [
        h.model_copy(update={"reconstruction": made[h.memory.id]}) if h.memory.id in made else h for h in hits
    ]
