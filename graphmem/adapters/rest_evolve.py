"""REST routes for self-organisation and self-evolution: a user's topics (browse, rebuild) and tuned
retrieval parameters (read, history, adapt from feedback, roll back). Installed by ``rest.create_app``."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from graphmem.memory import GraphMemory


def include(app: FastAPI, mem: GraphMemory, auth: list[Any]) -> None:
    @app.get("/users/{user_id}/topics", tags=["topics"], dependencies=auth)
    def topics(user_id: str) -> list[dict[str, Any]]:
        """The user's topics, largest first (built by ``POST .../topics/rebuild``)."""
        return [t.model_dump(mode="json") for t in mem.topics.list(user_id)]

    @app.get("/users/{user_id}/topics/{topic_id}/memories", tags=["topics"], dependencies=auth)
    def topic_memories(user_id: str, topic_id: str, k: int = 50) -> list[dict[str, Any]]:
        return [m.model_dump(mode="json") for m in mem.topics.memories(topic_id, user_id=user_id, k=k)]

    @app.post("/users/{user_id}/topics/rebuild", tags=["topics"], dependencies=auth)
    def topics_rebuild(user_id: str) -> dict[str, int]:
        """The topics job for one user: cluster the live memories into topics, replacing the old ones."""
        return mem.topics.rebuild(user_id)

    @app.get("/users/{user_id}/tuning", tags=["automation"], dependencies=auth)
    def tuning(user_id: str) -> dict[str, Any]:
        """The user's tuned retrieval parameters in force and every version with its evidence."""
        ev = mem.automation.evolution
        return {
            "tuning": ev.tuning(user_id).model_dump(mode="json"),
            "history": [t.model_dump(mode="json") for t in ev.history(user_id)],
        }

    @app.post("/users/{user_id}/tuning/adapt", tags=["automation"], dependencies=auth)
    def tuning_adapt(user_id: str, dry_run: bool = False) -> dict[str, Any]:
        """Adapt the user's parameters to their feedback (a new version when the evidence supports it)."""
        return mem.automation.evolution.adapt(user_id, dry_run=dry_run).model_dump(mode="json")

    @app.post("/users/{user_id}/tuning/rollback", tags=["automation"], dependencies=auth)
    def tuning_rollback(user_id: str, to_version: int) -> dict[str, Any]:
        """Put an earlier version back in force, as a new version (0: the preset's values)."""
        return mem.automation.evolution.rollback(user_id, to_version=to_version).model_dump(mode="json")
