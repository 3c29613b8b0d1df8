"""Self-organisation: the topics job clusters each user's live memories into ``Topic`` nodes (``IN_TOPIC``
edges), named from their entities and keywords (pure rules in ``graphmem.model.topics``), and
``mem.topics`` browses them. Topics are derived data: each run rebuilds a user's topics whole, in one
transaction, so a reader sees the old set or the new one."""

from __future__ import annotations

import builtins
import uuid
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

from graphmem.model import topics as rules
from graphmem.model import validation as check
from graphmem.model.dynamics import LIVE_STATUSES
from graphmem.models import Memory
from graphmem.store import records
from graphmem.store.driver import Tx
from graphmem.store.records import memory_from_row
from graphmem.store.runtime import Runtime

__all__ = ["Topic", "Topics", "pending", "plan", "rebuild_user"]


class Topic(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    size: int
    keywords: list[str] = []
    entities: list[str] = []
    created_at: datetime | None = None


def topic_from_row(row: dict[str, Any]) -> Topic:
    """A topic from its stored row, never raising: keywords and entities not lists of text read as text
    items (or none), other odd fields at their defaults."""
    data = {**row, **{k: records.texts(row.get(k)) for k in ("keywords", "entities")}}
    what = f"topic {records.text(row.get('id'))}"
    return records.model_from_row(Topic, data, what=what, fallback={"size": 0})


def plan(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The topics of one user from ``topic_graph`` rows (pure): members, name, keywords, entities. A memory
    whose id is not text (removed, or set by hand to a number or a list) is no member: it failed the job with
    a raw ValueError or TypeError from the clustering (``None cannot be a node``, sorting ids)."""
    rows = [r for r in rows if isinstance(r["id"], str)]
    content = {r["id"]: str(r["content"] or "") for r in rows}
    entities = {r["id"]: [str(e) for e in r["entities"] or []] for r in rows}
    edges = [
        (r["id"], link["dst"], float(link["weight"] or 0.0))
        for r in rows
        for link in r["links"]
        if isinstance(link["dst"], str)
    ]
    groups = rules.communities(list(content), edges)
    everyone = Counter(w for text in content.values() for w in set(rules.words(text)))
    out = []
    for members in groups:
        mentioned = [e for mid in members for e in entities[mid]]
        terms = rules.keywords([content[m] for m in members], everyone, len(content))
        out.append(
            {
                "id": str(uuid.uuid4()),
                "name": rules.name(mentioned, terms),
                "keywords": terms,
                "entities": [e for e, _ in Counter(mentioned).most_common(5)],
                "size": len(members),
                "members": members,
            }
        )
    return out


def pending(read: Callable[..., list[dict[str, Any]]], user_id: str | None) -> list[dict[str, Any]]:
    """Per tenant (one, or all with ``user_id=None``): the signature of what its topics are built from and
    whether it differs from the one stored at its last rebuild (``stale``); one read (``topic_pending``)."""
    return read("topic_pending", user_id=user_id, live=list(LIVE_STATUSES))


def rebuild_user(
    rt: Runtime, uid: str, clock: datetime, signature: str | None, tx: Tx | None = None
) -> dict[str, int]:
    """Rebuild one user's topics whole in one transaction (``tx``: inside that one, e.g. a dry run's),
    storing ``signature`` (read before the memories, so a change meanwhile makes the next run rebuild)."""
    rows = (tx.run if tx is not None else rt.store.read)(
        "topic_graph", user_id=uid, live=list(LIVE_STATUSES), now=clock
    )
    topics = plan(rows)

    def work(t: Tx) -> dict[str, int]:
        if signature is not None:  # the tenant's User node first, as formation takes it (then the memories)
            t.run("topic_mark", user_id=uid, signature=signature, now=clock)
        removed = int(t.run("topic_clear", user_id=uid)[0]["removed"])
        made = t.run("topic_create", topics=topics, user_id=uid, now=clock) if topics else []
        linked = int(made[0]["memberships"] or 0) if made else 0
        return {"topics": len(topics), "memberships": linked, "previous_topics": removed}

    return work(tx) if tx is not None else rt.store.unit_of_work(work)


class Topics:
    """``mem.topics``: rebuild a user's topics (the topics job), list them, read one topic's memories."""

    def __init__(self, rt: Runtime) -> None:
        self._rt = rt

    def rebuild(self, user_id: str, *, now: datetime | None = None) -> dict[str, int]:
        """Cluster the user's live memories into topics, replacing the previous ones (counts returned).
        Always rebuilds; the scheduled topics job skips a user whose memories did not change since."""
        uid = check.user_id(user_id)
        clock = check.aware_datetime(now, "now") or datetime.now(UTC)
        found = pending(self._rt.store.read, uid)
        return rebuild_user(self._rt, uid, clock, found[0]["signature"] if found else None)

    def list(self, user_id: str) -> list[Topic]:
        """The user's topics, largest first."""
        rows = self._rt.store.read("topic_list", user_id=check.user_id(user_id))
        return [topic_from_row(r["topic"]) for r in rows]

    def memories(self, topic_id: str, *, user_id: str, k: int = 50) -> builtins.list[Memory]:
        """The live memories of one topic, strongest first."""
        rows = self._rt.store.read(
            "topic_memories",
            topic_id=check.identifier(topic_id, "topic_id") or "",
            user_id=check.user_id(user_id),
            live=list(LIVE_STATUSES),
            k=check.k(k),
        )
        return [memory_from_row(r["memory"]) for r in rows]
