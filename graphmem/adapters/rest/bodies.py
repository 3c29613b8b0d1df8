"""The REST API's request bodies (unknown fields are refused)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from graphmem.adapters.moments import Moment


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RememberBody(_Body):
    content: str
    session_id: str | None = None
    memory_type: str | None = None
    occurred_at: Moment | None = None
    metadata: dict[str, Any] | None = None
    priority: str | None = None
    importance: float = 0.5
    tags: list[str] | None = None
    agent_id: str | None = None
    source: str = "user"
    org_id: str | None = None
    scope: str = Field(default="user", description="session | user | agent | org (docs/scopes.md)")


class MessagesBody(_Body):
    session_id: str
    messages: list[Any]
    agent_id: str | None = None
    org_id: str | None = None
    scope: str = Field(default="user", description="session | user | agent | org (docs/scopes.md)")


class _Reader(_Body):
    """The scopes a read merges beyond the user's own (docs/scopes.md)."""

    session_id: str | None = None
    agent_id: str | None = None
    org_id: str | None = None


FILTERS = (
    'which memories it may return: {"memory_type": a type or a list, "tags": [...] (all of them), '
    '"metadata": {key: value} (equal)}'
)


AS_OF = "valid time: what had happened by then (a memory's occurred_at); omitted: now"
KNOWN_AT = "transaction time: only what graphmem had recorded by then, as it read then; omitted: now"


class RecallBody(_Reader):
    query: str
    k: int = 10
    as_of: Moment | None = Field(default=None, description=AS_OF)
    known_at: Moment | None = Field(default=None, description=KNOWN_AT)
    hops: int = 3
    views: dict[str, float] | None = None
    reinforce: bool = True
    explain: bool = False
    reconstruct: bool = False
    conversation: list[str] | None = Field(
        default=None, description="the turns the question comes from, oldest first (context-dependent recall)"
    )
    filters: dict[str, Any] | None = Field(default=None, description=FILTERS)


class ContextBody(_Reader):
    query: str
    token_budget: int | None = Field(
        default=None,
        description="tokens; none: the automation configuration's context_budget (2,000 unless set)",
    )
    k: int = 10
    reinforce: bool = True
    as_of: Moment | None = Field(default=None, description=AS_OF)
    known_at: Moment | None = Field(default=None, description=KNOWN_AT)
    conversation: list[str] | None = Field(
        default=None, description="the turns the question comes from, oldest first (context-dependent recall)"
    )
    filters: dict[str, Any] | None = Field(default=None, description=FILTERS)


class UpdateBody(_Body):
    content: str
    expected_version: int = Field(description="the version read; a moved version is a 409 and writes nothing")


class FeedbackBody(_Body):
    useful: bool = Field(description="whether the memory helped answer the question")
    query: str | None = Field(
        default=None,
        description="the question it was (or should have been) the answer to; omitted: the latest recall "
        "that returned the memory",
    )


class FactBody(_Body):
    key: str
    value: str
    fact_type: str = "custom"
    valid_from: Moment | None = None
    source: str | None = None
    agent_id: str | None = None
    org_id: str | None = None
    session_id: str | None = None
    scope: str = Field(default="user", description="session | user | agent | org (docs/scopes.md)")


class RetractBody(_Body):
    key: str
    valid_to: Moment | None = Field(default=None, description="true until then; omitted: never true")
    agent_id: str | None = None
    org_id: str | None = None
    session_id: str | None = None
    scope: str = Field(default="user", description="session | user | agent | org (docs/scopes.md)")


class CoreBlockBody(_Body):
    value: str
    limit: int = 2000
    description: str = ""
    read_only: bool = False


class CoreAppendBody(_Body):
    text: str


class CoreReplaceBody(_Body):
    old: str
    new: str


class ConfigBody(_Body):
    config: dict[str, Any]
    expected_version: int | None = Field(default=None, description="default: the version inside config")


# --- the shared scopes' own routes (rest.scopes) ---
class SharedMemoryBody(_Body):
    content: str
    memory_type: str | None = None
    occurred_at: Moment | None = None
    metadata: dict[str, Any] | None = None
    priority: str | None = None
    importance: float = 0.5
    tags: list[str] | None = None
    source: str = "user"
    idempotency_key: str | None = None


class SharedRecallBody(_Body):
    query: str
    k: int = 10
    as_of: Moment | None = None
    hops: int = 3
    reinforce: bool = True
    explain: bool = False


class SharedFactBody(_Body):
    key: str
    value: str
    fact_type: str = "custom"
    valid_from: Moment | None = None
    source: str | None = None


def shared(scope: str, agent_id: str | None, org_id: str | None) -> tuple[str | None, str | None]:
    """The agent and organisation whose shared scope a write reaches (none for a user or session write:
    there ``agent_id`` only attributes the memory)."""
    return (agent_id if scope == "agent" else None, org_id if scope == "org" else None)


def scope_args(
    agent_id: str | None, org_id: str | None, session_id: str | None, scope: str
) -> dict[str, Any]:
    """A route's scope query parameters as the facade's keyword arguments."""
    return {"agent_id": agent_id, "org_id": org_id, "session_id": session_id, "scope": scope}
