"""What the fact planner (:mod:`graphmem.model.facts`) reads and writes (pure): a value to set, a key's
stored state, the writes of a batch, and how stored values are read back."""

from __future__ import annotations

import math
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from graphmem.models import FactType, Source

__all__ = [
    "COPIED",
    "COUNT_MAX",
    "ENDED",
    "RETRACTED",
    "SAID_WRONG",
    "SOURCE_TRUST",
    "CurrentFact",
    "FactInput",
    "FactPlan",
    "Identity",
    "KeyState",
    "Known",
    "Resolution",
    "audit_row",
    "held_value",
    "normalize_value",
    "stored_count",
    "stored_source",
    "stored_version",
]

SOURCE_TRUST: dict[Source, int] = {Source.USER: 3, Source.TOOL: 2, Source.AGENT: 1, Source.INFERENCE: 0}


RETRACTED = "retracted"  # the status of a current version closed by a retraction
# FactInput.corrects of a correction naming no wrong value ("I said that wrong, it's Commerzbank"): the key's
# current value or pending plan, whatever it is, was said by mistake (no name is written so)
SAID_WRONG = "*"
ENDED = "ended"  # the status of the version a retraction records with a valid_to
COPIED = ("user_id", "agent_id", "key", "value", "fact_type", "source", "confidence", "memory_id")
"""The fields a version resumed after a withdrawn plan takes from the version the plan had closed."""


class Resolution(StrEnum):
    NEW = "new"
    MERGE = "merge"
    KEEP_BOTH = "keep_both"
    SUPERSEDE = "supersede"
    BACKFILL = "backfill"  # a value dated before the current one's, placed in the key's history


@dataclass(frozen=True)
class FactInput:
    """A value to set, from ``set_fact`` or from the extractor."""

    user_id: str
    key: str
    value: str
    fact_type: FactType = FactType.CUSTOM
    agent_id: str | None = None
    valid_from: datetime | None = None
    source: Source = Source.USER
    confidence: float = 1.0
    memory_id: str | None = None
    ends: bool = False  # "I no longer ...": close the current version if it has this value; create nothing
    # when the change was stated, for a value stated before it starts (a plan: "I'm moving to Manchester next
    # month"; graphmem.model.planned); a set_fact whose valid_from is later than now is planned now
    planned_at: datetime | None = None
    # "I'm not moving to Manchester after all": the key's plan not started by valid_from (naming this value,
    # or any when the value is empty) is withdrawn; nothing else changes (graphmem.model.fact_endings)
    withdraws: bool = False
    # "the move got pushed back to June": with ``withdraws``, the withdrawn plan's value is planned again from
    # this date (with no plan pending nothing changes)
    put_off_to: datetime | None = None
    # "I ended up staying in Leeds": with ``withdraws``, ``value`` is where the speaker stays, so the pending
    # plan that would replace it is withdrawn (a stay anywhere else, a trip, calls nothing off)
    stays: bool = False
    # "still in Geneva till then": a value held until the key's pending plan starts, which it does not replace
    # (graphmem.model.facts; the value the plan replaces, said again, confirms it as any value does)
    holds: bool = False
    # "Sorry, I meant Liverpool, not Manchester": the key's current value or pending plan naming this (any,
    # when SAID_WRONG) was said by mistake; ``value`` takes its place
    # (graphmem.model.fact_endings.plan_correction)
    corrects: str | None = None
    # "we're going to Brisbane instead of Sydney": with ``corrects``, a pending plan's value changes (its date
    # kept); a current value is not corrected ("I'm going to Tesco instead of Aldi" is shopping)
    replans: bool = False

    @property
    def identity(self) -> tuple[str, str | None, str]:
        """A key has one current value whatever the fact type: the type is a label, not part of the key."""
        return (self.user_id, self.agent_id, self.key)


@dataclass(frozen=True)
class CurrentFact:
    """What the planner needs to know about a stored current version."""

    id: str
    value: str
    valid_from: datetime
    source: Source
    version: int
    planned_at: datetime | None = None  # a plan (see FactInput.planned_at)
    replaced: str | None = None  # the version a plan superseded (its statement is outdated with the plan's)
    floor: datetime | None = None  # the floor (KeyState) its line of versions began over
    replaced_value: str | None = None  # a plan's: the value that held when it was made (see restates)
    # a plan's: the version it replaces (back through plans that held nowhere: withdrawn, or replaced before
    # their start), when closed at their start, as a resumed copy takes its fields (COPIED, and valid_from):
    # withdrawing the plan continues it (graphmem.model.fact_endings.plan_withdraw)
    resumes: Mapping[str, Any] | None = None
    fields: Mapping[str, Any] | None = None  # its own, as a resumed copy takes them (COPIED, valid_from)


@dataclass(frozen=True)
class Known:
    """A stored version valid somewhere, as known now: its valid interval (``valid_to`` None: open) and when
    it was recorded (where two hold at one time, the later record does: ``fact_at.cypher``)."""

    id: str
    value: str
    valid_from: datetime
    valid_to: datetime | None
    source: Source
    recorded_at: datetime
    memory_id: str | None = None
    fields: Mapping[str, Any] = field(default_factory=dict)  # as a copy takes them (COPIED)


@dataclass(frozen=True)
class KeyState:
    """A key's stored history as the planner sees it: the end of its last known valid interval when it has no
    current version (None: no versions, or one is current), its highest version number (a conflicted
    version's too, so a new version never repeats its number), and its versions valid somewhere (``known``),
    those ending after ``since`` (None: all of them) or open."""

    floor: datetime | None = None
    last_version: int = 0
    known: tuple[Known, ...] = ()
    since: datetime | None = None


@dataclass
class FactPlan:
    """Everything one batch of fact inputs writes: new versions, closed ones, edges and audit rows."""

    create: list[dict[str, Any]] = field(default_factory=list)
    close: list[dict[str, Any]] = field(default_factory=list)
    supersedes: list[dict[str, Any]] = field(default_factory=list)
    conflicts_with: list[dict[str, Any]] = field(default_factory=list)
    audit: list[dict[str, Any]] = field(default_factory=list)
    results: list[tuple[str, Resolution]] = field(default_factory=list)  # (fact id, resolution) per input
    # memories whose stated value was superseded or ended: {old (fact id), new (fact id or None), key, at,
    # memory (the memory stating the change when no new version does: a plan called off), stated (the memory
    # of old, when known: a withdrawal in the batch drops the marks on a statement it reinstates)}
    outdated: list[dict[str, Any]] = field(default_factory=list)
    # memories whose stated value holds again (a withdrawn plan's predecessor): {fact (its id), key}
    reinstated: list[dict[str, Any]] = field(default_factory=list)
    # versions whose record no longer holds from now (Fact.revoked_at): recorded again in ``create`` with
    # another end (the value a pending plan replaces, ended before the plan's start)
    revoked: list[str] = field(default_factory=list)


COUNT_MAX = 2**40
"""The largest stored count or version graphmem reads (``cypher/fragments/typed_count``): a larger one (set
by hand, up to the largest integer) reads as this, so one more, or a sum of such counts, never overflows the
server's 64-bit integers or the driver's parameters."""


def stored_version(value: Any) -> int:
    """A stored version number; one of another type (written by hand) reads as 0, so the next is 1; one above
    :data:`COUNT_MAX` as that."""
    ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    return min(int(value), COUNT_MAX) if ok else 0


def stored_count(value: Any, default: int) -> int:
    """A stored count or version as ``cypher/fragments/typed_count`` reads it: a whole number from 0 to
    :data:`COUNT_MAX` (a larger one saturates there), anything else (written by hand) ``default``."""
    ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    ok = ok and value >= 0
    return min(int(value), COUNT_MAX) if ok else default


def stored_source(value: Any) -> Source:
    """A stored source; an unknown one (written by hand) reads as the least trusted, so any new value wins."""
    try:
        return Source(value)
    except ValueError:
        return min(Source, key=SOURCE_TRUST.__getitem__)


def normalize_value(value: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", value.lower()).split())


Identity = tuple[str, str | None, str]


def held_value(resumes: Mapping[str, Any] | None, planned_at: datetime | None) -> str | None:
    """The value of ``resumes`` (the version a plan replaces) when it had started by ``planned_at`` (when the
    plan was made): the value that holds until the plan's start (:func:`graphmem.model.facts.restates`)."""
    since = None if resumes is None else resumes.get("valid_from")
    if planned_at is None or not isinstance(since, datetime) or since > planned_at:
        return None
    return str(resumes["value"])  # type: ignore[index]


def audit_row(new: FactInput, current: CurrentFact | None) -> dict[str, Any]:
    """The audit row of ``new`` against ``current``, without its resolution, reason and new id."""
    return {
        "id": str(uuid.uuid4()),
        "user_id": new.user_id,
        "key": new.key,
        "fact_type": new.fact_type.value,
        "old_id": current.id if current else None,
        "new_value": new.value,
        "old_value": current.value if current else None,
    }
