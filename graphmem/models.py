"""Value types of the public API: plain data, no database access."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, computed_field

from graphmem.model.scopes import Scope, scope_of_tenant


class MemoryType(StrEnum):
    EPISODIC = "episodic"
    SEMANTIC = "semantic"
    PROCEDURAL = "procedural"
    PREFERENCE = "preference"


class Priority(StrEnum):
    """Decay tiers. ``COMMON`` (common knowledge) sits above P0 and never decays."""

    COMMON = "common"
    P0 = "P0"
    P1 = "P1"
    P2 = "P2"
    P3 = "P3"


class MemoryStatus(StrEnum):
    ACTIVE = "active"
    WEAK = "weak"
    DORMANT = "dormant"
    FORGOTTEN = "forgotten"
    CONFLICTED = "conflicted"
    SUPERSEDED = "superseded"


class Source(StrEnum):
    USER = "user"
    AGENT = "agent"
    TOOL = "tool"
    INFERENCE = "inference"


class Memory(BaseModel):
    """One stored memory, as read back from the graph."""

    model_config = ConfigDict(frozen=True)

    id: str
    content: str
    user_id: str
    memory_type: MemoryType = MemoryType.EPISODIC
    session_id: str | None = None
    agent_id: str | None = None
    org_id: str | None = None
    priority: Priority = Priority.P2
    importance: float = 0.5
    strength: float = 1.0
    retention: float = 1.0
    access_count: int = 0
    status: MemoryStatus = MemoryStatus.ACTIVE
    layer: str = "active"
    source: Source = Source.USER
    confidence: float = 1.0
    tags: tuple[str, ...] = ()
    metadata: dict[str, Any] = Field(default_factory=dict)
    version: int = 1
    created_at: datetime | None = None
    occurred_at: datetime | None = None
    last_accessed_at: datetime | None = None
    role: str | None = None
    speaker: str | None = None
    recorded_at: datetime | None = None  # transaction time: when graphmem first recorded the memory
    updated_at: datetime | None = None  # when the current version was written (None: a memory never updated)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def scope(self) -> Scope:
        """The scope this memory belongs to (``user_id`` holds its tenant key; docs/scopes.md)."""
        return scope_of_tenant(self.user_id)


class FactType(StrEnum):
    PREFERENCE = "preference"
    PROFILE = "profile"
    RULE = "rule"
    CUSTOM = "custom"


class Fact(BaseModel):
    """One version of a fact: a key's value for a user, with valid time and transaction time."""

    model_config = ConfigDict(frozen=True)

    id: str
    user_id: str
    key: str
    value: str
    fact_type: FactType = FactType.CUSTOM
    agent_id: str | None = None
    status: str = "current"
    source: Source = Source.USER
    confidence: float = 1.0
    version: int = 1
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    recorded_at: datetime | None = None
    expired_at: datetime | None = None
    memory_id: str | None = None
    planned_at: datetime | None = None  # set on a plan: when a change that starts at valid_from was stated
    # set when this version's record was replaced by a later one with another end (valid nowhere as known from
    # then): the value a pending plan replaced, said to have ended before the plan's start
    revoked_at: datetime | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def scope(self) -> Scope:
        """The scope this fact belongs to (``user_id`` holds its tenant key; docs/scopes.md)."""
        return scope_of_tenant(self.user_id)


class CoreBlock(BaseModel):
    """A labelled block of core memory (``persona``, ``human``, ...) the agent edits; always in context."""

    model_config = ConfigDict(frozen=True)

    label: str
    value: str
    limit: int = 2000
    description: str = ""
    read_only: bool = False
    id: str | None = None
    version: int = 1
    updated_at: datetime | None = None


class Explanation(BaseModel):
    """Why a hit was returned: which seed sources found it, how activation reached it, score parts."""

    model_config = ConfigDict(frozen=True)

    search_level: str
    score_type: str
    raw_score: float
    seed_sources: dict[str, int] = Field(default_factory=dict, description="source -> rank (1-based)")
    path: list[str] = Field(default_factory=list, description="node ids from a seed to this memory")
    edge_types: list[str] = Field(default_factory=list)
    components: dict[str, float] = Field(default_factory=dict)
    metamemory: dict[str, float] = Field(
        default_factory=dict,
        description="the memory's accessibility, reliability and timeliness in [0, 1] (docs/dynamics.md)",
    )


class Reconstruction(BaseModel):
    """A reading of a memory that cannot stand alone, assembled from its neighbours at recall time
    (``recall(..., reconstruct=True)``); the stored memory is unchanged."""

    model_config = ConfigDict(frozen=True)

    id: str
    text: str
    sources: list[str] = Field(default_factory=list, description="ids of the memories it was assembled from")
    confidence: float = Field(ge=0.0, le=1.0, description="lower than the hit's: an inference")


class Hit(BaseModel):
    """One recall result."""

    model_config = ConfigDict(frozen=True)

    memory: Memory
    score: float
    explanation: Explanation
    confidence: float = Field(
        default=0.0, ge=0.0, le=1.0, description="calibrated estimate that this memory answers the query"
    )
    reconstruction: Reconstruction | None = None
    details: list[Memory] = Field(
        default_factory=list,
        description="when the hit is a summary: the sources it replaced that the query found it by (at most "
        "one by meaning and one by words, the stronger first); its extract may not hold what they said. "
        "They stay forgotten",
    )
