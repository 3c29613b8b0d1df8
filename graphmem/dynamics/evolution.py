"""Self-evolution: feedback adapts a user's retrieval parameters, each change a versioned, explained,
reversible layer of the automation configuration (``mem.automation.evolution``).

Evidence is the user's feedback (``mem.memories.feedback``), each judging one query: the query given with
the feedback, else the latest recall that returned the memory. :meth:`Evolution.adapt` fetches each judged
query's candidate pool once and re-ranks it under every candidate setting of the tunable parameters
(``graphmem.model.adaptation``: pure rules, bounds and the choice), and stores the winner as a new version
of the user's tuning (an ``AutomationConfig:UserTuning`` node, every version kept with the evidence that
caused it; ``rollback`` writes an old version again as a new one). Recall then ranks that user's queries
with the tuned weights (``Settings.adaptive_retrieval``; an explicit per-call preset is used as given).
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from graphmem.config import RetrievalPreset
from graphmem.errors import ValidationError, VersionConflict
from graphmem.formation.writer import user_key
from graphmem.model import adaptation
from graphmem.model import validation as check
from graphmem.model.intent import resolve_views
from graphmem.model.keys import asked_key
from graphmem.retrieval.fact_vectors import key_cosines
from graphmem.retrieval.search import SearchRequest, embed_queries, fetch_pool, rank
from graphmem.store import audit, lenient
from graphmem.store.driver import Tx
from graphmem.store.records import clean_json, clean_text
from graphmem.store.runtime import Runtime

__all__ = ["Adaptation", "Evolution", "Tuning", "tuned_preset"]

WINDOW_DAYS = 90.0
"""Feedback older than this no longer counts (the user's habits may have changed)."""
MAX_FEEDBACK = 500
"""Most recent feedback rows read per adaptation (bounds its cost)."""
UTILITY_K = 10


class Tuning(BaseModel):
    """One version of a user's tuned retrieval parameters (version 0: never tuned, the preset's values)."""

    model_config = ConfigDict(frozen=True)

    user_id: str
    version: int = 0
    params: dict[str, float] = Field(default_factory=dict)
    evidence: dict[str, Any] = Field(default_factory=dict)
    updated_at: datetime | None = None
    updated_by: str | None = None


class Adaptation(BaseModel):
    """What one adaptation found: the tuning in force after it, and the decision's numbers."""

    model_config = ConfigDict(frozen=True)

    tuning: Tuning
    changed: bool
    reason: str
    judged_queries: int
    feedback: int
    utility_before: float
    utility_after: float
    dry_run: bool = False


def config_id(rt: Runtime, user_id: str) -> str:
    return f"{rt.settings.automation_config_id}/user/{user_id}"


def stored_params(body: dict[str, Any] | None, found: lenient.Findings) -> dict[str, float]:
    """The tunable parameters of a stored tuning body: names this version does not tune (a newer graphmem
    may tune more) are ignored, values that are not finite numbers left to the preset, others clamped."""
    if body is None:
        found.reset.append(lenient.WHOLE)
        return {}
    found.unknown.extend(lenient.key_name(k) for k in body if k != "params")
    raw = body.get("params", {})
    if not isinstance(raw, dict):
        found.reset.append("params")
        return {}
    numbers: dict[str, float] = {}
    for name, value in raw.items():
        if name not in adaptation.TUNABLE:
            found.unknown.append(f"params.{lenient.key_name(name)}")
        elif isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            found.reset.append(f"params.{name}")
        else:
            numbers[name] = float(value)
    return adaptation.clamp(numbers)


def _tuning(user_id: str, row: dict[str, Any]) -> Tuning:
    """A stored version of a user's tuning; stored data never fails the read (see :func:`stored_params`)."""
    found = lenient.Findings()
    version = row.get("version")
    number = version if isinstance(version, int) and not isinstance(version, bool) else 0
    params = stored_params(lenient.parse_object(row.get("body")), found)
    evidence = lenient.parse_object(row.get("evidence") or "{}")
    if evidence is None:
        found.reset.append("evidence")
    updated_at, updated_by = row.get("updated_at"), row.get("updated_by")
    lenient.report(f"retrieval tuning of a user (version {number})", found, once_key=f"{user_id}/{number}")
    return Tuning(
        user_id=user_id,
        version=number,
        params=params,
        evidence=clean_json(evidence) if evidence is not None else {"unreadable": True},
        updated_at=_native(updated_at),
        updated_by=clean_text(updated_by) if isinstance(updated_by, str) else None,
    )


def _native(value: object) -> datetime | None:
    """A stored time as an aware datetime (``None`` when it is none)."""
    native = value.to_native() if hasattr(value, "to_native") else value
    return native if isinstance(native, datetime) and native.tzinfo is not None else None


def read_tuning(rt: Runtime, user_id: str) -> Tuning:
    rows = rt.store.read("tuning_get", id=config_id(rt, user_id), user_id=user_id)
    return _tuning(user_id, rows[0]) if rows and rows[0]["body"] is not None else Tuning(user_id=user_id)


def tuned_preset(rt: Runtime, user_id: str, base: RetrievalPreset) -> RetrievalPreset:
    """``base`` with the user's tuned parameters (one read per user and minute, cached in the runtime)."""
    params = rt.tuned.get(user_id)
    if params is None:
        params = read_tuning(rt, user_id).params
        rt.tuned.put(user_id, params)
    return base.model_copy(update=params) if params else base


def _preset_params(preset: RetrievalPreset, tuned: dict[str, float]) -> dict[str, float]:
    return {name: float(tuned.get(name, getattr(preset, name))) for name in adaptation.TUNABLE}


def judged_queries(rows: list[dict[str, Any]]) -> list[adaptation.Judged]:
    """Group feedback rows by query; the newest judgement of a memory for a query wins."""
    useful: dict[str, set[str]] = defaultdict(set)
    useless: dict[str, set[str]] = defaultdict(set)
    seen: set[tuple[str, str]] = set()
    for r in rows:  # newest first
        key = (r["query"], r["memory_id"])
        if key in seen:
            continue
        seen.add(key)
        (useful if r["useful"] else useless)[r["query"]].add(r["memory_id"])
    queries = list(dict.fromkeys(r["query"] for r in rows))
    return [adaptation.Judged(q, frozenset(useful[q]), frozenset(useless[q])) for q in queries]


def score_candidates(
    rt: Runtime,
    user_id: str,
    judged: list[adaptation.Judged],
    base: RetrievalPreset,
    current: dict[str, float],
) -> dict[adaptation.Key, list[float]]:
    """Feedback utility per judged query of every candidate setting (the grid and the current one): each
    judged query's pool is fetched once and re-ranked per candidate (ranking is pure; no cross-encoder).
    Each judged question is left out of the asked keys it is scored with (the feedback being weighed wrote it
    into its useful memories' keys, which would find them under every setting alike); the keys the user's
    other questions taught stay, as they do for a new question."""
    candidates = {tuple(sorted({**current, **c}.items())) for c in adaptation.grid()}
    candidates.add(tuple(sorted(current.items())))  # what is not searched keeps its current value
    totals: dict[adaptation.Key, list[float]] = {c: [] for c in candidates}
    vectors = embed_queries(rt, [j.query for j in judged], [user_id])
    for j, vector in zip(judged, vectors, strict=True):
        req = SearchRequest(
            query=j.query,
            user_id=user_id,
            user_key=user_key(user_id),
            k=UTILITY_K,
            preset=base,
            embedding=vector,
            views=resolve_views(j.query, None).views,
        )
        row = without_question(fetch_pool(rt, req), j.query)
        row["key_cosines"] = key_cosines(rt.embedder, vector, row["memories"])  # as search() ranks it
        for cand in candidates:
            ranked = rank(row, replace(req, preset=base.model_copy(update=dict(cand))), None)
            order = [h.id for h in ranked.hits + ranked.competitors]
            totals[cand].append(adaptation.utility(order, j, UTILITY_K))
    return totals


def without_question(row: dict[str, Any], question: str) -> dict[str, Any]:
    """A pool row whose memories' asked keys (and summaries' sources' keys) no longer hold ``question``."""
    for memory in row["memories"]:
        if memory.get("asked") is not None:
            memory["asked"] = asked_key(memory["asked"], question, False)
    for seed in row["seeds"]:
        for found in seed["found"]:
            if found.get("via_asked") is not None:
                found["via_asked"] = asked_key(found["via_asked"], question, False)
    return row


class Evolution:
    """``mem.automation.evolution``: per-user tuning from feedback, its versions and rollback."""

    def __init__(self, rt: Runtime) -> None:
        self._rt = rt

    def tuning(self, user_id: str) -> Tuning:
        """The user's tuning in force (version 0 with no params: never tuned)."""
        return read_tuning(self._rt, check.user_id(user_id))

    def history(self, user_id: str) -> list[Tuning]:
        """Every version of the user's tuning, oldest first, each with the evidence that caused it."""
        uid = check.user_id(user_id)
        rows = self._rt.store.read("tuning_history", id=config_id(self._rt, uid), user_id=uid)
        return [_tuning(uid, r) for r in rows]

    def adapt(self, user_id: str, *, now: datetime | None = None, dry_run: bool = False) -> Adaptation:
        """Judge every candidate setting against the user's feedback of the last ``WINDOW_DAYS`` and store
        the chosen one as a new version when the evidence supports a change (``dry_run``: decide only)."""
        uid = check.user_id(user_id)
        clock = check.aware_datetime(now, "now") or datetime.now(UTC)
        rows = self._rt.store.read(
            "feedback_evidence",
            user_id=uid,
            since=clock - timedelta(days=WINDOW_DAYS),
            now=clock,
            limit=MAX_FEEDBACK,
        )
        judged = [j for j in judged_queries(rows) if j.useful]  # only "not useful": no unbiased evidence
        current = read_tuning(self._rt, uid)
        base = self._rt.settings.preset()
        params = _preset_params(base, current.params)
        scores = score_candidates(self._rt, uid, judged, base, params) if judged else {}
        choice = adaptation.choose(params, scores, len(judged))
        tuning = current
        if choice.changed and not dry_run:
            evidence = {
                "reason": choice.reason,
                "judged_queries": len(judged),
                "feedback_ids": [r["id"] for r in rows],
                "utility_before": round(choice.current_utility, 4),
                "utility_after": round(choice.best_utility, 4),
                "previous": params,
            }
            tuning = self._write(uid, choice.params, evidence, current.version, clock, "adapt")
        return Adaptation(
            tuning=tuning,
            changed=choice.changed,
            reason=choice.reason,
            judged_queries=len(judged),
            feedback=len(rows),
            utility_before=choice.current_utility,
            utility_after=choice.best_utility,
            dry_run=dry_run,
        )

    def set(
        self, user_id: str, params: dict[str, float], *, reason: str = "set by hand", by: str = "api"
    ) -> Tuning:
        """Pin a user's parameters by hand (names in ``graphmem.model.adaptation.TUNABLE``, within bounds),
        as a new version; the next adaptation starts from them."""
        uid, actor = check.user_id(user_id), check.identifier(by, "by")
        if not isinstance(params, dict):
            raise ValidationError("params", f"must be a dict of name to value, not {type(params).__name__}")
        for name, value in params.items():
            if name not in adaptation.TUNABLE:
                raise ValidationError(
                    "params", f"{name!r} is not tunable; tunable: {', '.join(adaptation.TUNABLE)}"
                )
            low, high = adaptation.TUNABLE[name]
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not low <= float(value) <= high
            ):
                raise ValidationError(f"params.{name}", f"must be a number between {low} and {high}")
        current = read_tuning(self._rt, uid)
        evidence = {"reason": check.text(reason, "reason", max_chars=500), "previous": current.params}
        clean = {k: float(v) for k, v in params.items()}
        return self._write(uid, clean, evidence, current.version, datetime.now(UTC), actor or "api")

    def rollback(self, user_id: str, *, to_version: int, now: datetime | None = None) -> Tuning:
        """Put an earlier version's parameters back in force, as a new version (0: the preset's values)."""
        uid = check.user_id(user_id)
        target = check.bounded_int(to_version, "to_version", 0, 2**62)
        versions = {t.version: t for t in self.history(uid)}
        if target != 0 and target not in versions:
            raise ValidationError("to_version", f"user {uid!r} has no tuning version {target}")
        current = read_tuning(self._rt, uid)
        params = versions[target].params if target else {}
        evidence = {"reason": f"rollback to version {target}", "previous": current.params}
        clock = check.aware_datetime(now, "now") or datetime.now(UTC)
        return self._write(uid, params, evidence, current.version, clock, "rollback")

    def _write(
        self,
        uid: str,
        params: dict[str, float],
        evidence: dict[str, Any],
        expected: int,
        now: datetime,
        by: str,
    ) -> Tuning:
        cid = config_id(self._rt, uid)
        body = json.dumps({"params": params}, sort_keys=True)
        proof = json.dumps(evidence, sort_keys=True, default=str)

        def work(tx: Tx) -> int:
            found = int(tx.run("automation_config_lock", id=cid, now=now)[0]["version"])
            if found != expected:
                raise VersionConflict(f"tuning of {uid!r}", expected, found)
            tx.run(
                "tuning_write",
                id=cid,
                user_id=uid,
                version=found + 1,
                body=body,
                evidence=proof,
                now=now,
                by=by,
            )
            audit.append(
                tx, "config_change", user_id=uid, now=now, actor=by, target_ids=[cid], version=found + 1
            )
            return found + 1

        version = self._rt.store.unit_of_work(work)
        self._rt.tuned.drop(uid)
        return Tuning(
            user_id=uid, version=version, params=params, evidence=evidence, updated_at=now, updated_by=by
        )
