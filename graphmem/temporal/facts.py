"""Fact versions in the graph: set (classify, supersede, keep both or merge, all audited) and retract (reads:
:mod:`graphmem.temporal.reads`)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from graphmem.errors import FactNotFound, ValidationError
from graphmem.model import facts
from graphmem.model.fact_keys import canonical_key
from graphmem.model.fact_versions import Known
from graphmem.model.facts import CurrentFact, FactInput, KeyState, Resolution
from graphmem.models import Fact
from graphmem.store import records
from graphmem.store.driver import Tx
from graphmem.store.runtime import Runtime
from graphmem.store.values import list_map

# A step run inside a write's transaction once its result is known (audit event, idempotency key).
Commit = Callable[[Tx, Fact], None]

logger = logging.getLogger(__name__)

__all__ = ["Commit", "FactInput", "apply", "fact_from_row", "fact_params", "retract_fact", "set_fact"]


def fact_from_row(row: dict[str, Any]) -> Fact:
    """A fact version from its stored row, never raising: fields that do not fit at their defaults (a value
    that is not text as its JSON text)."""
    return records.model_from_row(Fact, row, what=f"fact {records.text(row.get('id'))}")


def apply(tx: Tx, inputs: list[FactInput], now: datetime) -> list[tuple[str, Resolution]]:
    """Write ``inputs`` inside ``tx``: read current versions, plan, write; (id, resolution) per input."""
    if not inputs:
        return []
    inputs = [replace(i, key=canonical_key(i.key, i.user_id)) for i in inputs]
    since: dict[tuple[str, str | None, str], datetime] = {}
    for i in inputs:  # the earliest valid time each key's inputs name: its versions are read back that far
        since[i.identity] = min(since.get(i.identity, now), i.valid_from or now, now)
    keyed = [{"user_id": u, "agent_id": a, "key": k, "since": t} for (u, a, k), t in since.items()]
    rows = tx.run("fact_current", keys=keyed, now=now)  # locks the owners first: writers of a key take turns
    currents = {
        (r["user_id"], r["agent_id"], r["key"]): CurrentFact(
            id=r["id"],
            value=records.text(r["value"]),
            valid_from=records.moment(r["valid_from"]),
            source=facts.stored_source(r["source"]),
            version=facts.stored_version(r["version"]),
            planned_at=records.optional_moment(r["planned_at"]),
            replaced=records.optional_text(r["replaced"]),
            replaced_value=records.optional_text(r["replaced_value"]),
            resumes=_resumed(r["resumes"]),
            fields=_resumed(r["fields"]),
            floor=records.optional_moment(r["floor"]),
        )
        for r in rows
        if r["id"] is not None
    }
    states = {
        (r["user_id"], r["agent_id"], r["key"]): KeyState(  # a floor only where no version is current
            floor=r["floor"] if r["id"] is None else None,
            last_version=facts.stored_version(r["last_version"]),
            known=_known(r["known"]),
            since=since[(r["user_id"], r["agent_id"], r["key"])],
        )
        for r in rows
    }
    plan = facts.plan(inputs, currents, now, states)
    user_id = inputs[0].user_id
    tx.run(
        "fact_write",
        **fact_params(
            user_id,
            now,
            create=[{"valid_to": None, "expire": False, **r} for r in plan.create],
            closes=plan.close + [{"id": r, "revoke": True} for r in plan.revoked],
            supersedes=plan.supersedes,
            conflicts=plan.conflicts_with,
            reinstated=plan.reinstated,
            outdated=plan.outdated,
            audit=plan.audit,
        ),
    )
    logger.debug(
        "facts: %d inputs, %d new versions, %d closed", len(inputs), len(plan.create), len(plan.close)
    )
    return plan.results


def set_fact(
    rt: Runtime, new: FactInput, *, now: datetime | None = None, on_commit: Commit | None = None
) -> Fact:
    """Write one value; ``on_commit`` runs inside the same transaction with the resulting version."""
    when = now or datetime.now(UTC)

    def work(tx: Tx) -> Fact:
        fact_id = apply(tx, [new], when)[0][0]
        fact = fact_from_row(tx.run("fact_by_id", user_id=new.user_id, id=fact_id)[0]["fact"])
        if on_commit is not None:
            on_commit(tx, fact)
        return fact

    return rt.store.unit_of_work(work)


def retract_fact(
    rt: Runtime,
    user_id: str,
    key: str,
    *,
    agent_id: str | None = None,
    valid_to: datetime | None = None,
    now: datetime | None = None,
    on_commit: Commit | None = None,
) -> Fact:
    """Retract the current version of ``key`` (see :func:`graphmem.model.facts.plan_retraction`); returns the
    ended version (with ``valid_to``) or the retracted one (a withdrawn plan resumes the value it closed).
    :class:`FactNotFound` when there is no current version; ``on_commit`` runs inside the same transaction."""
    when = now or datetime.now(UTC)
    key = canonical_key(key, user_id)

    def work(tx: Tx) -> Fact:
        rows = tx.run("fact_retract_lock", user_id=user_id, key=key, agent_id=agent_id, now=when)
        if not rows:
            raise FactNotFound(key)
        try:
            current = {**rows[0]["fact"], "valid_from": records.moment(rows[0]["fact"]["valid_from"])}
            retraction = facts.plan_retraction(
                current,
                valid_to=valid_to,
                resumed=_resumed(rows[0]["resumed"]),
                now=when,
                last_version=facts.stored_version(rows[0]["last_version"]),
            )
        except ValueError as exc:
            raise ValidationError("valid_to", str(exc)) from exc
        if retraction.create is not None or retraction.revoke is not None:
            create = [] if retraction.create is None else [retraction.create]
            revoke = [] if retraction.revoke is None else [{"id": retraction.revoke, "revoke": True}]
            tx.run("fact_write", **fact_params(user_id, when, create=create, closes=revoke))
        ended_id = retraction.create["id"] if retraction.create is not None else None
        tx.run("fact_retract", user_id=user_id, id=retraction.close_id, ended_id=ended_id, now=when)
        if valid_to is None and current.get("planned_at") is not None:
            _withdrawn_statements(tx, user_id, key, retraction, when)
        ended = retraction.create is not None and retraction.create["status"] == facts.ENDED
        fact_id = ended_id if ended and ended_id else retraction.close_id
        fact = fact_from_row(tx.run("fact_by_id", user_id=user_id, id=fact_id)[0]["fact"])
        if on_commit is not None:
            on_commit(tx, fact)
        return fact

    fact = rt.store.unit_of_work(work)
    logger.debug("facts: retracted a version (%s)", fact.status)
    return fact


def _withdrawn_statements(
    tx: Tx, user_id: str, key: str, retraction: facts.Retraction, when: datetime
) -> None:
    """A plan retracted: its statement stops holding now, and the statement of the value it had closed (the
    resumed version's memory) is current again, as for a plan called off in conversation."""
    # reinstated first, as a batch's (graphmem.temporal.facts.apply); fact_write runs them in that order
    reinstated = [] if retraction.create is None else [{"fact": retraction.create["id"], "key": key}]
    outdated = [{"old": retraction.close_id, "new": None, "key": key, "at": when}]
    tx.run("fact_write", **fact_params(user_id, when, reinstated=reinstated, outdated=outdated))


def fact_params(
    user_id: str,
    now: datetime,
    *,
    create: Sequence[dict[str, Any]] = (),
    closes: Sequence[dict[str, Any]] = (),
    supersedes: Sequence[dict[str, Any]] = (),
    conflicts: Sequence[dict[str, Any]] = (),
    reinstated: Sequence[dict[str, Any]] = (),
    outdated: Sequence[dict[str, Any]] = (),
    audit: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """The parameters of ``fact_write`` (its header names each list's rows; an empty list writes nothing),
    its lists in one map (:func:`graphmem.store.values.list_map`)."""
    plan = list_map(
        create=create,
        closes=closes,
        supersedes=supersedes,
        conflicts=conflicts,
        reinstated=reinstated,
        outdated=outdated,
        audit=audit,
    )
    return {"user_id": user_id, "now": now, "plan": plan}


def _known(rows: Any) -> tuple[Known, ...]:
    """A key's versions valid somewhere as ``fact_current`` reads them (a row that does not fit is left out:
    stored data never makes a write fail)."""
    out = []
    for row in rows if isinstance(rows, list) else []:
        start, recorded = (
            records.optional_moment(row.get("valid_from")),
            records.optional_moment(row.get("recorded_at")),
        )
        if isinstance(row.get("id"), str) and start is not None and recorded is not None:
            out.append(
                Known(
                    id=row["id"],
                    value=records.text(row.get("value")),
                    valid_from=start,
                    valid_to=records.optional_moment(row.get("valid_to")),
                    source=facts.stored_source(row.get("source")),
                    recorded_at=recorded,
                    memory_id=records.optional_text(row.get("memory_id")),
                    fields=_resumed(row) or {},
                )
            )
    return tuple(out)


def _resumed(row: Any) -> dict[str, Any] | None:
    """A version's fields as a continuation copies them (the version a plan replaces, or the current one's
    own): text value, a known source, and its start at UTC as it is written back (None if not a time)."""
    if not isinstance(row, dict):
        return None
    return {
        **row,
        "value": records.text(row.get("value")),
        "source": facts.stored_source(row.get("source")).value,
        "valid_from": records.optional_moment(row.get("valid_from")),
    }
