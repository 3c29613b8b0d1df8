"""Formation's pure middle: what :func:`graphmem.formation.gather.gather` read becomes a
:class:`FormationPlan`, the complete list of writes that :func:`graphmem.formation.writer.apply` runs.

No driver here: every decision of a ``remember`` (duplicates, links, causes, entity merges, fact inputs,
which draft becomes which memory) is made by :func:`plan_formation` from one :class:`FormationContext`, and is
tested without a database (``tests/test_formation_plan.py``).
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphmem.config import Settings
from graphmem.formation.drafts import MemoryDraft, entity_id, session_uid, user_key
from graphmem.model import importance, linking
from graphmem.model.anchors import DUE_NOW
from graphmem.model.dates import event_range, resolve_dates
from graphmem.model.extracted import ExtractedFact, memory_type_hint, with_subject
from graphmem.model.extraction import TurnExtraction
from graphmem.model.facts import FactInput
from graphmem.model.importance import DEFAULT_PRIORITY
from graphmem.model.keys import search_text
from graphmem.model.planned import ended_by, fact_start, happened_at, later_unnamed, moved_start
from graphmem.models import FactType, MemoryType, Source
from graphmem.store.records import dump_metadata

__all__ = ["EntityMatch", "FormationContext", "FormationPlan", "plan_formation"]

Row = dict[str, Any]


@dataclass(frozen=True)
class EntityMatch:
    """A stored entity whose name embeds close to a new entity key's name (from ``entity_similar``)."""

    key: str
    id: str
    cosine: float


@dataclass(frozen=True)
class FormationContext:
    """Everything formation reads before it decides: one batch of drafts of one user and one session."""

    drafts: tuple[MemoryDraft, ...]  # after PII redaction, when the settings ask for it
    now: datetime
    extracted: tuple[TurnExtraction, ...]  # one per draft
    known_entities: Mapping[str, str]  # the user's entity keys -> ids
    contexts: tuple[str, ...]  # each draft's context text (previous turn and itself)
    vectors: tuple[list[float], ...]  # each draft's embedding
    context_vectors: tuple[list[float], ...]  # each draft's context embedding
    neighbours: tuple[tuple[linking.Neighbour, ...], ...]  # each draft's nearest stored memories
    entity_vectors: Mapping[str, list[float]]  # new entity keys (not known yet) -> embedding of their name
    entity_matches: Mapping[
        str, tuple[EntityMatch, ...]
    ]  # new entity key -> close stored entities, best first

    @property
    def user_id(self) -> str:
        return self.drafts[0].user_id

    @property
    def session_id(self) -> str | None:
        return self.drafts[0].session_id


@dataclass(frozen=True)
class FormationPlan:
    """The writes of one formation, in the parameter shapes of their Cypher statements."""

    user_id: str
    now: datetime
    rows: tuple[Row, ...]  # new Memory nodes (``formation_write``, like every list below but merges)
    follows: tuple[Row, ...]  # FOLLOWS chain inside the batch
    session: Row | None  # the Session node to extend (its tail: the first row's FOLLOWS), if any
    related: tuple[Row, ...]
    causes: tuple[Row, ...]
    entities: tuple[Row, ...]  # Entity nodes, created or given an alias
    entity_links: tuple[Row, ...]  # ENTITY edges
    merges: tuple[Row, ...]  # near-duplicates of stored memories (``memory_merge_duplicate``)
    facts: tuple[FactInput, ...]
    memory_ids: tuple[str, ...]  # per draft: the id of the memory it becomes (new, merged into, or earlier)
    created: Mapping[int, Row]  # draft index -> its new row


def plan_formation(
    ctx: FormationContext, settings: Settings, *, new_id: Callable[[], str] = lambda: str(uuid.uuid4())
) -> FormationPlan:
    """Decide every write of a formation from what was read; ``new_id`` names new nodes."""
    drafts = ctx.drafts
    links = linking.plan_links(
        [linking.NewItem(d.content, d.occurred_at or ctx.now, d.session_id) for d in drafts],
        [list(n) for n in ctx.neighbours],
        linking.batch_cosines(ctx.vectors),
        duplicate_threshold=settings.duplicate_threshold,
        related_threshold=settings.related_threshold,
        related_k=settings.related_k,
    )
    row_of = _rows(ctx, links, new_id)
    memory_ids = tuple(
        row_of[i]["id"]
        if i in row_of
        else links.duplicate_of_existing[i][0]
        if i in links.duplicate_of_existing
        else row_of[links.duplicate_of_batch[i][0]]["id"]
        for i in range(len(drafts))
    )
    entities, entity_links = _entities(ctx, row_of, settings.entity_merge_threshold)
    rows = [row_of[i] for i in sorted(row_of)]
    return FormationPlan(
        user_id=ctx.user_id,
        now=ctx.now,
        rows=tuple(rows),
        follows=tuple(_follows(rows)),
        session=_session(ctx, rows),
        related=tuple(
            {"src": row_of[i]["id"], "dst": _ref(row_of, t), "weight": w} for i, t, w in links.related
        ),
        causes=tuple(_causes(ctx, links, row_of)),
        entities=tuple(entities),
        entity_links=tuple(entity_links),
        merges=tuple(_merges(ctx, links, new_id)),
        facts=tuple(_facts(ctx, memory_ids, settings.extract_facts)),
        memory_ids=memory_ids,
        created=row_of,
    )


def _at(ctx: FormationContext, i: int) -> datetime:
    return ctx.drafts[i].occurred_at or ctx.now


def _ref(row_of: Mapping[int, Row], target: str | int) -> str:
    return str(row_of[target]["id"]) if isinstance(target, int) else target


def _rows(ctx: FormationContext, links: linking.LinkPlan, new_id: Callable[[], str]) -> dict[int, Row]:
    """Draft index -> the Memory row it creates; duplicates create none and reinforce their target."""
    dup = set(links.duplicate_of_existing) | set(links.duplicate_of_batch)
    row_of: dict[int, Row] = {}
    for i, (d, ex) in enumerate(zip(ctx.drafts, ctx.extracted, strict=True)):
        if i in dup:
            continue
        hint = memory_type_hint(list(ex.facts))
        memory_type = d.memory_type or (MemoryType(hint) if hint else MemoryType.EPISODIC)
        score = importance.importance(
            importance.factors(
                base=d.importance,
                access_count=0,
                n_facts=len(ex.facts),
                memory_type=memory_type,
                occurred_at=d.occurred_at or ctx.now,
                now=ctx.now,
            ),
            marked=importance.is_marked(d.priority, d.tags, d.metadata),
        )
        sid = ctx.session_id
        row_of[i] = {
            "id": new_id(),
            "user_id": d.user_id,
            "content": d.content,
            "embedding": ctx.vectors[i],
            "context_embedding": ctx.context_vectors[i],
            "session_uid": session_uid(ctx.user_id, sid) if sid is not None else None,
            "props": {**_props(d, memory_type, score, ctx.now), **_keys(d, ex, ctx.contexts[i], ctx.now)},
        }
    for i, (j, _) in links.duplicate_of_batch.items():  # in-batch duplicates reinforce the earlier draft
        props = row_of[j]["props"]
        props["access_count"] += 1
        props["strength"] = min(4.0, props["strength"] + 1.0)
        props["last_accessed_at"] = _at(ctx, i)
    return row_of


def _props(draft: MemoryDraft, memory_type: MemoryType, score: float, now: datetime) -> Row:
    priority = draft.priority or DEFAULT_PRIORITY[memory_type]
    return {
        "memory_type": memory_type.value,
        "priority": priority.value,
        "importance": score,
        "strength": 1.0,
        "retention": 1.0,
        "access_count": 0,
        "last_accessed_at": None,
        "decay_due": DUE_NOW,  # the next decay run computes its coefficients (graphmem.model.anchors)
        "status": "active",
        "layer": "working",
        "source": draft.source.value,
        "confidence": draft.confidence,
        "tags": list(draft.tags),
        "metadata": dump_metadata(draft.metadata),
        "session_id": draft.session_id,
        "agent_id": draft.agent_id,
        "org_id": draft.org_id,
        "role": draft.role,
        "speaker": draft.speaker,
        "user_key": user_key(draft.user_id),
        "occurred_at": draft.occurred_at or now,
        "created_at": now,
    }


def _keys(draft: MemoryDraft, ex: TurnExtraction, context: str, now: datetime) -> Row:
    """The richer keys (:mod:`graphmem.model.keys`): search text, context text and the event's date range."""
    ranges = resolve_dates(draft.content, draft.occurred_at or now)
    span = event_range(ranges)
    return {
        "search_text": search_text(
            draft.content, draft.speaker, [m.name for m in ex.entities], ranges, ex.facts
        ),
        "context_text": context,
        "event_start": span[0] if span else None,
        "event_end": span[1] if span else None,
    }


def _follows(rows: Sequence[Row]) -> list[Row]:
    """Consecutive new memories of the batch, chained."""
    return [
        {
            "src": a["id"],
            "dst": b["id"],
            "weight": 1.0,
            "kind": "session",
        }
        for a, b in itertools.pairwise(rows)
    ]


def _session(ctx: FormationContext, rows: Sequence[Row]) -> Row | None:
    if ctx.session_id is None or not rows:
        return None
    return {
        "uid": session_uid(ctx.user_id, ctx.session_id),
        "user_id": ctx.user_id,
        "session_id": ctx.session_id,
        "agent_id": ctx.drafts[0].agent_id,
        "first_id": rows[0]["id"],
        "last_id": rows[-1]["id"],
        "first_at": min(r["props"]["occurred_at"] for r in rows),  # the batch's span in valid time
        "last_at": max(r["props"]["occurred_at"] for r in rows),
    }


def _causes(ctx: FormationContext, links: linking.LinkPlan, row_of: Mapping[int, Row]) -> list[Row]:
    """CAUSES edges from causal cues, then the ones an extractor (e.g. an LLM) named inside the batch."""
    out = [
        {
            "src": _ref(row_of, c),
            "dst": _ref(row_of, e),
            "weight": w,
            "cue": cue,
            "method": "cue",
            "valid_from": _at(ctx, e if isinstance(e, int) else c),  # type: ignore[arg-type]
        }
        for c, e, w, cue in links.causes
    ]
    for i, ex in enumerate(ctx.extracted):
        if ex.caused_by is not None and i in row_of and ex.caused_by in row_of and ex.caused_by < i:
            out.append(
                {
                    "src": row_of[ex.caused_by]["id"],
                    "dst": row_of[i]["id"],
                    "weight": 0.5,
                    "cue": None,
                    "method": "extractor",
                    "valid_from": _at(ctx, i),
                }
            )
    return out


def _entities(
    ctx: FormationContext, row_of: Mapping[int, Row], threshold: float
) -> tuple[list[Row], list[Row]]:
    """The entity rows to upsert and the memory -> entity links, for the mentions of new memories. Same
    normalized key: same entity. A new key whose name embeds close to an existing entity that also looks
    alike (:func:`graphmem.model.linking.should_merge_entities`) joins that entity as an alias."""
    mentions = [(i, m) for i, ex in enumerate(ctx.extracted) if i in row_of for m in ex.entities]
    first: dict[str, str] = {}
    aliases: dict[str, list[str]] = {}
    types: dict[str, str] = {}
    for _, m in mentions:
        first.setdefault(m.key, m.name)
        types.setdefault(m.key, m.type)
        if m.name not in aliases.setdefault(m.key, []):
            aliases[m.key].append(m.name)
    resolved = {k: ctx.known_entities[k] for k in first if k in ctx.known_entities}
    for key in first:
        if key in resolved:
            continue
        match = next(
            (
                x
                for x in ctx.entity_matches.get(key, ())
                if linking.should_merge_entities(key, x.key, x.cosine, threshold)
            ),
            None,
        )
        resolved[key] = match.id if match is not None else entity_id(ctx.user_id, key)
    entities = [
        {
            "id": resolved[key],
            "user_id": ctx.user_id,
            "name": name,
            "type": types[key],
            "key": key,
            "aliases": aliases[key],
            "embedding": ctx.entity_vectors.get(key) if key not in ctx.known_entities else None,
        }
        for key, name in first.items()
    ]
    links = [
        {
            "memory_id": row_of[i]["id"],
            "entity_id": resolved[m.key],
            "name": m.name,
        }
        for i, m in mentions
    ]
    return entities, links


def _merges(ctx: FormationContext, links: linking.LinkPlan, new_id: Callable[[], str]) -> list[Row]:
    return [
        {
            "i": i,
            "id": target,
            "merge_id": new_id(),
            "content": ctx.drafts[i].content,
            "similarity": round(cos, 4),
            "occurred_at": _at(ctx, i),
            "metadata": dump_metadata(ctx.drafts[i].metadata),
        }
        for i, (target, cos) in links.duplicate_of_existing.items()
    ]


def _when(f: ExtractedFact, text: str, said: datetime) -> tuple[datetime | None, datetime | None]:
    """(start, new date): a plan's start (its clause's date, or the date after "until" of "I'm not moving to
    Leeds until June"), and the date a withdrawal puts the pending plan off to ("pushed back to June")."""
    if f.span is None or f.ends or (f.corrects and not f.replans):  # a plan changed may say its own day
        return None, None
    if f.put_off:
        moved = moved_start(text, f.span, said)
        return (None, moved) if f.withdraws else (moved, None)
    start = fact_start(text, f.span, said, future=f.planned, ahead=f.ahead, replans=f.replans)
    return (None if f.withdraws else start), None


def _since(f: ExtractedFact, text: str, said: datetime) -> datetime:
    """When a fact not planned ahead holds from: an ending by its date; a profile fact stated with a past
    date from that date ("I moved to Paris in 2015": placed before a value starting later, not current
    from now: graphmem.model.fact_history); else from when it was said."""
    if f.span is None or f.withdraws or f.corrects:
        return said
    if f.ends:
        return ended_by(text, f.span, said)
    past = happened_at(text, f.span, said) if FactType(f.fact_type) is FactType.PROFILE else None
    return past or said


def _facts(ctx: FormationContext, memory_ids: Sequence[str], extract: bool) -> list[FactInput]:
    """Fact inputs of what user drafts state, each tied to the memory its draft became: valid from when it
    was said, or a plan from the date its clause names (graphmem.model.planned)."""
    out: list[FactInput] = []
    for i, (d, ex) in enumerate(zip(ctx.drafts, ctx.extracted, strict=True)):
        if not extract or d.source is not Source.USER:
            continue
        said = _at(ctx, i)
        for f in ex.facts:
            start, moved = _when(f, d.content, said)
            if (moved if f.withdraws else start) is None and (
                f.planned or (f.ahead and later_unnamed(d.content, f.span or (0, 0)))
            ):
                continue  # "I'll move to Oslo one day", "I'm moving after Christmas": not a fact until dated
            out.append(
                FactInput(
                    user_id=ctx.user_id,
                    key=with_subject(f, d.subject).key,
                    value=f.value,
                    fact_type=FactType(f.fact_type),
                    agent_id=d.agent_id,
                    valid_from=start or _since(f, d.content, said),
                    source=d.source,
                    confidence=d.confidence,
                    put_off_to=moved,
                    memory_id=memory_ids[i],
                    planned_at=None if start is None else said,
                    **f.changes(),
                )
            )
    return out
