"""A LangGraph ``BaseStore`` backed by graphmem: pass ``store=GraphMemStore(mem, ...)`` to a LangGraph graph.

Items are Memory nodes labelled ``StoreItem`` (priority P0: never forgotten by the jobs) carrying their
namespace, key and JSON value; their text is embedded, so a ``search`` with a ``query`` goes through
graphmem's recall among the user's store items (read-only: it reinforces nothing), followed by the
namespace's other indexed items (score None), as LangGraph's InMemoryStore returns every item ranked.
``put``'s ``index`` is LangGraph's: ``None`` embeds the item's text (:func:`item_text`), a list of field
paths (LangGraph's syntax: ``"a.b"``, ``"list[*].text"``, ``"list[0]"``) embeds the text at those paths
only, and ``False`` (or paths that hold no text) stores the item without a vector: ``get``, a listing and a
``filter`` search return it, a ``query`` search does not (as LangGraph's PostgresStore; its InMemoryStore
appends such items, unscored, after the ranked ones).
``filter`` matches value fields as LangGraph's own stores do: equality, nested fields, and the operators
``$eq $ne $gt $gte $lt $lte``. Deleting is a soft forget. The tenant of an operation comes from its
namespace through ``user_from_namespace`` (default: every operation acts for the one ``user_id`` given).
``list_namespaces`` lists the one user's namespaces; with ``user_from_namespace``, the namespaces, of every
user, whose items are stored for the user the namespace names (those an operation on them reads), never a
namespace whose items another store wrote for a user it does not name.

Install with ``pip install 'graphmem[langgraph]'``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import operator
import uuid
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    get_text_at_path,
)

from graphmem.adapters.ops import sync_memory
from graphmem.embedding import embed_checked
from graphmem.errors import ConfigurationError, ValidationError
from graphmem.memory import GraphMemory
from graphmem.model import new_ids
from graphmem.model import validation as check
from graphmem.store import records

MAX_SEARCH = 200
STORE_TAG = "langgraph"
"""The tag of every store item: a query search recalls among the items only."""


def item_text(key: str, value: dict[str, Any]) -> str:
    """The searchable text of an item: its string fields (or its JSON), prefixed by its key (pure)."""
    strings = [v for v in value.values() if isinstance(v, str) and v.strip()]
    body = " ".join(strings) if strings else json.dumps(value, sort_keys=True, default=str)
    return f"{key}: {body}"


def indexed_text(key: str, value: dict[str, Any], index: object) -> str | None:
    """The text an item put with ``index`` is searched by (pure): its :func:`item_text` for ``None``; for a
    list of field paths, the texts LangGraph's stores embed for them (``get_text_at_path``), joined; None
    (not searchable) for ``False`` or paths that hold no text."""
    if index is None:
        return item_text(key, value)
    if index is False:
        return None
    if not isinstance(index, list | tuple) or not all(isinstance(p, str) and p.strip() for p in index):
        raise ValidationError("index", "must be None, False or a list of field paths")
    texts = [t.strip() for path in index for t in get_text_at_path(value, path) if t.strip()]
    return " ".join(texts) or None


_ORDERS: dict[str, Callable[[float, float], bool]] = {
    "$gt": operator.gt,
    "$gte": operator.ge,
    "$lt": operator.lt,
    "$lte": operator.le,
}
OPERATORS = frozenset({"$eq", "$ne", *_ORDERS})
"""The comparison operators of LangGraph's store filters (its InMemoryStore and PostgresStore take these)."""


def matches(value: dict[str, Any], conditions: dict[str, Any] | None) -> bool:
    """Whether an item's value meets a search ``filter`` as LangGraph's own stores read it (pure): a field
    equals a value, or meets ``{"$gt": 3, "$ne": 5, ...}``; a dict without operators matches nested fields,
    a list element by element. A field that is missing or not a number never meets an order."""
    return not conditions or all(_meets(value.get(k), v) for k, v in conditions.items())


def _meets(item: Any, wanted: Any) -> bool:
    if isinstance(wanted, dict):
        if any(str(k).startswith("$") for k in wanted):
            return all(_compare(item, op, v) for op, v in wanted.items())
        return isinstance(item, dict) and all(_meets(item.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, list | tuple):
        return (
            isinstance(item, list | tuple)
            and len(item) == len(wanted)
            and all(_meets(i, w) for i, w in zip(item, wanted, strict=True))
        )
    return bool(item == wanted)


def _compare(item: Any, op: str, wanted: Any) -> bool:
    if op == "$eq":
        return bool(item == wanted)
    if op == "$ne":
        return bool(item != wanted)
    a, b = _number(item), _number(wanted)
    return a is not None and b is not None and _ORDERS[op](a, b)


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    return None if math.isnan(number) else number


def check_filter(conditions: object, field: str = "filter") -> dict[str, Any] | None:
    """A search filter as LangGraph gives it: a dict of fields, whose ``$`` keys are known operators."""
    if conditions is None:
        return None
    if not isinstance(conditions, dict):
        raise ValidationError(field, f"must be a dict, not {type(conditions).__name__}")
    operators = [k for k in conditions if str(k).startswith("$")]
    if operators and len(operators) != len(conditions):
        raise ValidationError(field, "mixes operators with fields; put fields one level up")
    for key, wanted in conditions.items():
        if str(key).startswith("$") and key not in OPERATORS:
            raise ValidationError(
                field, f"has an unknown operator {key!r} (known: {', '.join(sorted(OPERATORS))})"
            )
        if isinstance(wanted, dict):
            check_filter(wanted, f"{field}.{key}")
    return conditions


def namespace_matches(namespace: tuple[str, ...], op: ListNamespacesOp) -> bool:
    for condition in op.match_conditions or ():
        path = condition.path
        part = namespace[: len(path)] if condition.match_type == "prefix" else namespace[-len(path) :]
        if len(namespace) < len(path) or any(p != "*" and p != n for p, n in zip(path, part, strict=True)):
            return False
    return True


class GraphMemStore(BaseStore):
    """LangGraph long-term memory on graphmem (sync and async; async runs the sync calls in a thread)."""

    def __init__(
        self,
        mem: GraphMemory,
        *,
        user_id: str | None = None,
        user_from_namespace: Callable[[tuple[str, ...]], str] | None = None,
    ) -> None:
        if (user_id is None) == (user_from_namespace is None):
            raise ConfigurationError("GraphMemStore needs exactly one of user_id and user_from_namespace")
        self._mem = sync_memory(mem, "GraphMemStore")
        self._fixed = None if user_id is None else check.user_id(user_id)
        self._tenant = user_from_namespace or (lambda _ns: self._fixed or "")

    def _user(self, namespace: tuple[str, ...]) -> str:
        try:
            return check.user_id(self._tenant(namespace))
        except (IndexError, KeyError) as exc:
            raise ValidationError("namespace", f"no user in namespace {namespace!r}") from exc

    # --- BaseStore ---------------------------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        results: list[Result] = []
        for op in ops:
            if isinstance(op, GetOp):
                results.append(self._get(op))
            elif isinstance(op, PutOp):
                self._put(op)
                results.append(None)
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, ListNamespacesOp):
                results.append(self._namespaces(op))
            else:
                raise ValidationError("op", f"unsupported store operation {type(op).__name__}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.to_thread(self.batch, list(ops))

    # --- operations --------------------------------------------------------------------------------
    def _rows(self, user_id: str, prefix: tuple[str, ...], keys: list[str] | None) -> list[dict[str, Any]]:
        keys = None if keys is None else [str(check.identifier(k, "key")) for k in keys]
        rows = self._mem.runtime.store.read("store_items", user_id=user_id, prefix=_labels(prefix), keys=keys)
        return [r["item"] for r in rows]

    def _get(self, op: GetOp) -> Item | None:
        rows = self._rows(self._user(op.namespace), op.namespace, [op.key])
        return _item(rows[0]) if rows else None

    def _put(self, op: PutOp) -> None:
        user_id = self._user(op.namespace)
        rt = self._mem.runtime
        now = datetime.now(UTC)
        if op.value is None:
            rt.store.write(
                "store_item_delete",
                user_id=user_id,
                namespace=_labels(op.namespace),
                key=check.identifier(op.key, "key"),
                now=now,
            )
            return
        # the same contract as a memory's metadata and content: JSON only, bounded, valid text
        value = check.metadata(op.value, "value", max_bytes=rt.settings.max_metadata_bytes)
        key = str(check.identifier(op.key, "key"))
        labels = _labels(op.namespace)
        named = {f"namespace[{i}]": label for i, label in enumerate(labels)}
        new_ids.refuse_invisible(user_id=user_id, key=key, **named)
        searched = indexed_text(key, value, op.index)
        text = check.text(searched or item_text(key, value), "value", max_chars=rt.settings.max_content_chars)
        rt.store.write(
            "store_item_put",
            user_id=user_id,
            namespace=labels,
            key=key,
            id=str(uuid.uuid4()),
            content=text,
            value=json.dumps(value, sort_keys=True),
            embedding=None if searched is None else embed_checked(rt.embedder, [text])[0],
            indexed=searched is not None,
            props={
                "memory_type": "semantic",
                "priority": "P0",
                "importance": 0.5,
                "strength": 1.0,
                "retention": 1.0,
                "status": "active",
                "layer": "active",
                "source": "agent",
                "confidence": 1.0,
                "access_count": 0,
                "tags": [STORE_TAG],
            },
            now=now,
        )

    def _search(self, op: SearchOp) -> list[SearchItem]:
        user_id = self._user(op.namespace_prefix)
        rows = self._rows(user_id, op.namespace_prefix, None)
        wanted = check_filter(op.filter)
        by_id = {r["id"]: r for r in rows if matches(_value(r), wanted)}
        offset, limit = _page(op.offset, op.limit)
        ranked: list[tuple[dict[str, Any], float | None]] = [(r, None) for r in by_id.values()]
        if op.query:  # among the indexed items only
            indexed = {i: r for i, r in by_id.items() if r.get("store_indexed") is not False}
            ranked = self._ranked(user_id, op.query, indexed, offset + limit)
        return [_search_item(row, score) for row, score in ranked[offset : offset + limit]]

    def _ranked(
        self, user_id: str, query: str, by_id: dict[str, dict[str, Any]], wanted: int
    ) -> list[tuple[dict[str, Any], float | None]]:
        """The items ``by_id`` ranked for ``query``: those recall scores first, by score, then the others
        (score None), most recently updated first, as LangGraph's InMemoryStore returns every item of the
        namespace. The recall reads store items only (their tag): ranked among all of a user's memories,
        the items were crowded out of the top ``k`` by a few hundred ordinary ones."""
        k = min(MAX_SEARCH, max(50, 4 * wanted))
        hits = self._mem.recall(query, user_id=user_id, k=k, reinforce=False, filters={"tags": [STORE_TAG]})
        scored: list[tuple[dict[str, Any], float | None]] = [
            (by_id[h.memory.id], h.score) for h in hits if h.memory.id in by_id
        ]
        seen = {row["id"] for row, _ in scored}
        return scored + [(row, None) for key, row in by_id.items() if key not in seen]

    def _namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        offset, limit = _page(op.offset, op.limit)
        prefix = next((c.path for c in op.match_conditions or () if c.match_type == "prefix"), ())
        concrete = tuple(itertools.takewhile(lambda p: p != "*", prefix))
        found = {
            namespace[: op.max_depth] if op.max_depth is not None else namespace
            for namespace in self._visible(concrete)
            if namespace_matches(namespace, op)
        }
        return sorted(found)[offset : offset + limit]

    def _visible(self, prefix: tuple[str, ...]) -> list[tuple[str, ...]]:
        """The namespaces under ``prefix`` of the live items this store reads: its one user's, or, when
        namespaces name their users, each namespace whose items are stored for the user it names (an item
        another store wrote for a user its namespace does not name is not this store's to list)."""
        store = self._mem.runtime.store
        if self._fixed is not None:
            rows = store.read("store_namespaces", user_id=self._fixed, prefix=_labels(prefix))
            return [tuple(records.texts(r["namespace"])) for r in rows]
        rows = store.read("store_namespaces_mapped", prefix=_labels(prefix))
        found = [(tuple(records.texts(r["namespace"])), r["user_id"]) for r in rows]
        return [namespace for namespace, user in found if self._owner(namespace) == user]

    def _owner(self, namespace: tuple[str, ...]) -> str | None:
        """The user ``namespace`` names, or None when it names none."""
        try:
            return self._user(namespace)
        except ValidationError:
            return None


def _page(offset: object, limit: object) -> tuple[int, int]:
    """A search's or listing's ``offset`` and ``limit``: whole numbers from 0 (a float or None was a
    TypeError, a negative number a slice from the end)."""
    return check.bounded_int(offset, "offset", 0, 2**62), check.bounded_int(limit, "limit", 0, 2**62)


def _labels(namespace: tuple[str, ...]) -> list[str]:
    """A namespace's labels, each checked like an id (no control characters, no lone surrogates)."""
    return [str(check.identifier(label, f"namespace[{i}]")) for i, label in enumerate(namespace)]


def _value(row: dict[str, Any]) -> dict[str, Any]:
    """An item's stored value, never raising: text that is not a JSON object reads as ``{}`` (WARNING)."""
    return records.load_object(row.get("store_value"), f"store item {records.text(row.get('id'))}")


def _item(row: dict[str, Any]) -> Item:
    return Item(
        value=_value(row),
        key=records.text(row.get("store_key")),
        namespace=tuple(records.texts(row.get("store_ns"))),
        created_at=records.moment(row.get("created_at")),
        updated_at=records.moment(row.get("updated_at")),
    )


def _search_item(row: dict[str, Any], score: float | None) -> SearchItem:
    return SearchItem(
        namespace=tuple(records.texts(row.get("store_ns"))),
        key=records.text(row.get("store_key")),
        value=_value(row),
        created_at=records.moment(row.get("created_at")),
        updated_at=records.moment(row.get("updated_at")),
        score=score,
    )
