"""What recall reads of the tenants before it searches, cached per client
(graphmem.store.runtime.TenantProfiles): their size (the vector planner's input), their speakers and the
people in the user's life."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from graphmem.model.relations import ONE_HOLDER
from graphmem.store.runtime import Runtime, TenantProfile

__all__ = ["tenant_profile"]


def tenant_profile(rt: Runtime, tenants: list[str]) -> TenantProfile:
    """The readable tenants' size, speakers and people, read at most once per TTL per client."""
    cache_key = "\x1f".join(tenants)  # the readable tenants together are the searched share
    profile = rt.tenant_profiles.get(cache_key)
    if profile is None:
        row = rt.store.read("tenant_profile", tenants=tenants, roles=list(ONE_HOLDER))[0]
        speakers = frozenset(str(s).lower() for s in row["speakers"] or [])
        people = narrowest(row["people"] or [], tenants)
        profile = TenantProfile(int(row["user_count"]), int(row["total"]), speakers, people)
        rt.tenant_profiles.put(cache_key, profile)
    return profile


def narrowest(rows: list[list[Any]], tenants: list[str]) -> tuple[tuple[str, str, datetime | None], ...]:
    """The relation facts read (``[tenant, key, value, valid from]``) as (key, value, valid from), each key
    from the narrowest readable scope that holds it (``tenants`` is narrowest first: the user's own manager,
    not the organisation's; graphmem.retrieval.context.narrowest reads facts so); a value not text left
    out."""
    order = {t: i for i, t in enumerate(tenants)}
    best: dict[str, tuple[int, str, datetime | None]] = {}
    for tenant, key, value, since in rows:
        rank = order.get(tenant, len(order))
        if isinstance(key, str) and isinstance(value, str) and rank < best.get(key, (len(order) + 1,))[0]:
            best[key] = (rank, value, since if isinstance(since, datetime) else None)
    return tuple((key, value, since) for key, (_, value, since) in best.items())
