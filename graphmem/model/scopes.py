"""Scopes: who a memory or fact belongs to, and which scopes a caller may read (pure rules).

A memory belongs to one scope: a **session** of a user, a **user**, an **agent** (shared by every user of
that agent, e.g. a procedure it learned) or an **organisation** (shared knowledge). The store partitions
the graph by one tenant key (the indexed ``user_id`` property of every node): a user's own key is its
``user_id`` (so every store written before scopes existed is already user-scoped, without a migration),
the other scopes have reserved keys (``session::``, ``agent::``, ``org::`` prefixes, which user ids may not
take). Every query stays tenant-scoped: a read names the exact keys it may see (``user_id IN $tenants``).

A caller (a user, with an optional session, agent and organisation) reads, narrowest first: its
session, its user, its agent, its organisation (session ⊂ user ⊂ agent ⊂ org). On a conflict (a fact key
set in two scopes) the narrower scope wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from graphmem.errors import ValidationError

__all__ = [
    "RESERVED_PREFIXES",
    "Caller",
    "Scope",
    "check_not_reserved",
    "scope_of_tenant",
    "session_prefix",
    "tenant",
]


class Scope(StrEnum):
    """Who a memory or fact belongs to, narrowest first."""

    SESSION = "session"
    USER = "user"
    AGENT = "agent"
    ORG = "org"


SESSION_PREFIX, AGENT_PREFIX, ORG_PREFIX = "session::", "agent::", "org::"
RESERVED_PREFIXES = (SESSION_PREFIX, AGENT_PREFIX, ORG_PREFIX)
_ID_FIELD = {Scope.SESSION: "session_id", Scope.AGENT: "agent_id", Scope.ORG: "org_id"}


def check_not_reserved(user_id: str) -> str:
    """A user id must not look like another scope's key (else it would read that scope's data)."""
    if user_id.startswith(RESERVED_PREFIXES):
        raise ValidationError(
            "user_id", f"must not start with {', '.join(RESERVED_PREFIXES)} (reserved for shared scopes)"
        )
    return user_id


def session_prefix(user_id: str) -> str:
    """The prefix of every session-scope key of ``user_id`` (length-prefixed: no two users share it)."""
    return f"{SESSION_PREFIX}{len(user_id)}:{user_id}/"


@dataclass(frozen=True)
class Caller:
    """Who reads or writes: a user, with the session, agent and organisation it acts in (validated ids).
    Without a user (an agent or organisation acting for itself) only the shared scopes are in reach."""

    user_id: str | None
    session_id: str | None = None
    agent_id: str | None = None
    org_id: str | None = None

    def tenant(self, scope: Scope) -> str:
        """The tenant key of ``scope`` for this caller; ValidationError naming the id a scope needs."""
        if scope in (Scope.USER, Scope.SESSION) and self.user_id is None:
            raise ValidationError("user_id", f"is required for scope={scope.value!r}")
        if scope is Scope.USER:
            assert self.user_id is not None
            return self.user_id
        value = {Scope.SESSION: self.session_id, Scope.AGENT: self.agent_id, Scope.ORG: self.org_id}[scope]
        if value is None:
            raise ValidationError(_ID_FIELD[scope], f"is required for scope={scope.value!r}")
        return tenant(scope, value, user_id=self.user_id)

    def readable(self) -> list[tuple[Scope, str]]:
        """The scopes this caller may read and their tenant keys, narrowest first (a session is read only
        with its user)."""
        return [(s, self.tenant(s)) for s in Scope if self._has(s)]

    @property
    def principal(self) -> str:
        """Who the caller's own records (recall events, change counters) are filed under: its user, else
        its narrowest shared scope."""
        return self.readable()[0][1]

    def personal(self) -> list[str]:
        """The caller's own tenant keys (session and user): its history, not shared knowledge."""
        return [t for s, t in self.readable() if s in (Scope.SESSION, Scope.USER)]

    def _has(self, scope: Scope) -> bool:
        if scope in (Scope.USER, Scope.SESSION) and self.user_id is None:
            return False
        ids = {Scope.USER: self.user_id, Scope.SESSION: self.session_id}
        return (ids | {Scope.AGENT: self.agent_id, Scope.ORG: self.org_id})[scope] is not None


def tenant(scope: Scope, scope_id: str, *, user_id: str | None = None) -> str:
    """The tenant key of a scope: the user id itself, or a reserved key (a session's names its user)."""
    if scope is Scope.USER:
        return scope_id
    if scope is Scope.SESSION:
        if user_id is None:
            raise ValueError("a session scope belongs to a user")  # internal invariant
        return session_prefix(user_id) + scope_id
    return (AGENT_PREFIX if scope is Scope.AGENT else ORG_PREFIX) + scope_id


def person_of(key: str) -> str:
    """Whose a tenant key is, as fact keys name them: a session scope's user (``session::5:alice/chat`` ->
    ``alice``), any other key itself."""
    if key.startswith(SESSION_PREFIX):
        size, _, rest = key[len(SESSION_PREFIX) :].partition(":")
        if size.isascii() and size.isdecimal() and rest[int(size) : int(size) + 1] == "/":
            return rest[: int(size)]
    return key


def scope_of_tenant(key: str) -> Scope:
    """The scope a stored tenant key belongs to."""
    for scope, prefix in (
        (Scope.SESSION, SESSION_PREFIX),
        (Scope.AGENT, AGENT_PREFIX),
        (Scope.ORG, ORG_PREFIX),
    ):
        if key.startswith(prefix):
            return scope
    return Scope.USER
