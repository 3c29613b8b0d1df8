"""``mem.facts``: bi-temporal facts (a key's value, superseded by later values, never erased)."""

from __future__ import annotations

import builtins
from datetime import datetime

from graphmem.facade._write import audited_write
from graphmem.model import new_ids
from graphmem.model import validation as check
from graphmem.model.fact_keys import is_relation_key
from graphmem.model.scopes import Scope
from graphmem.models import Fact, FactType, Source
from graphmem.store import idempotency
from graphmem.store.idempotency import Step
from graphmem.store.runtime import Runtime
from graphmem.temporal import facts as factbase
from graphmem.temporal import reads as temporal

__all__ = ["Facts"]


class Facts:
    """Set, read, retract and trace a user's facts (``mem.facts``)."""

    def __init__(self, rt: Runtime) -> None:
        self._rt = rt

    def set(
        self,
        user_id: str | None,
        key: str,
        value: str,
        *,
        fact_type: FactType | str = FactType.CUSTOM,
        valid_from: datetime | None = None,
        source: Source | str | None = None,
        agent_id: str | None = None,
        idempotency_key: str | None = None,
        scope: Scope | str = Scope.USER,
        session_id: str | None = None,
        org_id: str | None = None,
    ) -> Fact:
        """Set a fact value: supersede the current version, keep both as a conflict, or merge.
        A repeat with the same ``idempotency_key`` returns the first result and writes nothing.
        ``scope`` (``user``, ``session``, ``agent``, ``org``; docs/scopes.md) says whose fact it is; the
        other scopes need their id (``session_id``, ``agent_id``, ``org_id``)."""
        owner, aid = check.owner(user_id, scope, session_id, agent_id, org_id)
        new = factbase.FactInput(
            user_id=owner,
            key=check.fact_key(key, owner),
            value=check.text(value, "value", max_chars=self._rt.settings.max_content_chars),
            fact_type=check.enum(fact_type, FactType, "fact_type"),
            agent_id=aid,
            valid_from=check.aware_datetime(valid_from, "valid_from"),
            source=Source.USER if source is None else check.enum(source, Source, "source"),
        )
        ids = {"user_id": user_id, "session_id": session_id, "agent_id": aid, "org_id": org_id}
        new_ids.refuse_invisible(**ids, key=new.key)

        def write(step: Step) -> Fact:
            fact = factbase.set_fact(self._rt, new, on_commit=lambda tx, f: step(tx, [f.id], f.version))
            if is_relation_key(new.key):  # recall reads the people in a user's life with the tenant profile
                self._rt.tenant_profiles.forget(new.user_id)
            return fact

        return audited_write(
            self._rt,
            "set_fact",
            user_id=new.user_id,
            actor=new.agent_id,
            key=check.identifier(idempotency_key, "idempotency_key", required=False),
            write=write,
            replay=lambda ids: idempotency.fact(self._rt, new.user_id, ids),
        )

    def retract(
        self,
        user_id: str | None,
        key: str,
        *,
        valid_to: datetime | None = None,
        agent_id: str | None = None,
        idempotency_key: str | None = None,
        scope: Scope | str = Scope.USER,
        session_id: str | None = None,
        org_id: str | None = None,
    ) -> Fact:
        """Retract a fact's current version without erasing history. Without ``valid_to`` it was never true
        as recorded: from now on no ``as_of`` finds it (an earlier ``known_at`` still does). With
        ``valid_to`` it was true until then: a new version (status ``ended``) valid over
        ``[valid_from, valid_to)`` is recorded. Returns that version, or the retracted one (status
        ``retracted``); afterwards the key has no current value (``get()`` without times is None), except
        that a ``valid_to`` still ahead keeps the ended version true until then (``get()`` returns it).
        Raises ``FactNotFound`` when the key has no current version, ``ValidationError`` when ``valid_to``
        does not follow its ``valid_from``. A repeat with the same ``idempotency_key`` returns the first
        result and writes nothing. ``scope`` and its ids as for :meth:`set`."""
        uid, aid = check.owner(user_id, scope, session_id, agent_id, org_id)
        fact_key = check.text(key, "key", max_chars=check.MAX_ID_CHARS)
        end = check.aware_datetime(valid_to, "valid_to")

        def write(step: Step) -> Fact:
            fact = factbase.retract_fact(
                self._rt,
                uid,
                fact_key,
                agent_id=aid,
                valid_to=end,
                on_commit=lambda tx, f: step(tx, [f.id], f.version),
            )
            if is_relation_key(fact_key):
                self._rt.tenant_profiles.forget(uid)
            return fact

        return audited_write(
            self._rt,
            "retract_fact",
            user_id=uid,
            actor=aid,
            key=check.identifier(idempotency_key, "idempotency_key", required=False),
            write=write,
            replay=lambda ids: idempotency.fact(self._rt, uid, ids),
        )

    def get(
        self,
        user_id: str | None,
        key: str,
        *,
        as_of: datetime | None = None,
        known_at: datetime | None = None,
        agent_id: str | None = None,
        scope: Scope | str = Scope.USER,
        session_id: str | None = None,
        org_id: str | None = None,
    ) -> Fact | None:
        """The current version of a fact, or None. With ``as_of`` (valid time: what was true then) and/or
        ``known_at`` (transaction time: what had been recorded by then), the version that held then, as it
        read at ``known_at``; the other defaults to now. Naive datetimes are read as UTC. ``scope`` and its
        ids as for :meth:`set` (one scope's fact; ``context()`` merges the scopes)."""
        uid, aid = check.owner(user_id, scope, session_id, agent_id, org_id)
        fact_key = check.text(key, "key", max_chars=check.MAX_ID_CHARS)
        valid_at = check.aware_datetime(as_of, "as_of")
        recorded_by = check.aware_datetime(known_at, "known_at")
        return temporal.fact_at(self._rt, uid, fact_key, agent_id=aid, as_of=valid_at, known_at=recorded_by)

    def list(
        self,
        user_id: str | None,
        *,
        as_of: datetime | None = None,
        known_at: datetime | None = None,
        agent_id: str | None = None,
        scope: Scope | str = Scope.USER,
        session_id: str | None = None,
        org_id: str | None = None,
    ) -> builtins.list[Fact]:
        """Every fact of the scope, one version per key in key order: the current values, or with ``as_of``
        and/or ``known_at`` the versions that held then, as :meth:`get` reads one key. ``scope`` and its ids
        as for :meth:`set` (one scope's facts; ``context()`` merges the scopes)."""
        uid, aid = check.owner(user_id, scope, session_id, agent_id, org_id)
        valid_at = check.aware_datetime(as_of, "as_of")
        recorded_by = check.aware_datetime(known_at, "known_at")
        return temporal.fact_list(self._rt, uid, agent_id=aid, as_of=valid_at, known_at=recorded_by)

    def history(
        self,
        user_id: str | None,
        key: str,
        *,
        agent_id: str | None = None,
        scope: Scope | str = Scope.USER,
        session_id: str | None = None,
        org_id: str | None = None,
        limit: int | None = None,
    ) -> builtins.list[Fact]:
        """Every version of a fact, oldest first, with valid time (``valid_from``/``valid_to``) and
        transaction time (``recorded_at``/``expired_at``); kept contradictions have status ``conflicted``.
        ``limit`` (1 to 1,000): only the latest versions in valid time (a key that changes often keeps
        thousands).
        ``scope`` and its ids as for :meth:`set`."""
        uid, aid = check.owner(user_id, scope, session_id, agent_id, org_id)
        key = check.text(key, "key", max_chars=check.MAX_ID_CHARS)
        most = None if limit is None else check.bounded_int(limit, "limit", 1, 1000)
        return temporal.fact_history(self._rt, uid, key, agent_id=aid, limit=most)
