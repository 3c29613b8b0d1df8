"""Recall filters: which memories a recall may return, by their type, tags and metadata (pure).

``recall(..., filters={"memory_type": ..., "tags": [...], "metadata": {...}})``: a memory is returned only if
its type is one of ``memory_type``, it carries every one of ``tags`` and its metadata holds each key of
``metadata`` with that value (equality of JSON values). The filter applies to the ranked pool, after the
graph has spread activation through every memory (a memory the filter leaves out can still lead to one it
keeps); retrieval-induced forgetting spares what it leaves out. When the pool holds fewer than ``k`` memories
the filter admits, a second read fetches the tenant's best by cosine among those it admits
(graphmem.retrieval.filtered), so a recall returns ``k`` whenever ``k`` memories match (with a vector; a
metadata value that is a list or an object narrows that read by its key only: docs/recall.md, Filters).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from graphmem.errors import ValidationError
from graphmem.model import validation as check
from graphmem.models import MemoryType

KEYS = ("memory_type", "tags", "metadata")


@dataclass(frozen=True)
class RecallFilter:
    memory_types: frozenset[str] = frozenset()  # empty: any type
    tags: tuple[str, ...] = ()  # every one must be present
    metadata: tuple[tuple[str, Any], ...] = ()  # top-level key, JSON value

    @property
    def reads_metadata(self) -> bool:
        return bool(self.metadata)

    @property
    def needles(self) -> list[str]:
        """Substrings of the stored metadata JSON text of every memory whose metadata passes, as graphmem
        writes that text (``json.dumps(metadata, sort_keys=True)``, graphmem.store.records.dump_metadata):
        each key with the start of its value's text (:func:`_value_text`), or the key alone for a value
        whose text varies (a list, an object). A read narrows by them; :meth:`admits` decides."""
        return [json.dumps(key) + ": " + (_value_text(value) or "") for key, value in self.metadata]

    def admits(self, memory: Mapping[str, Any]) -> bool:
        """Whether a stored memory row (its ``memory_type``, ``tags`` and ``metadata`` JSON text) passes; a
        stored value of another shape than graphmem writes passes nothing it is asked about."""
        kind = memory.get("memory_type")
        if self.memory_types and not (isinstance(kind, str) and kind in self.memory_types):
            return False
        stored_tags = memory.get("tags")
        if self.tags and not (isinstance(stored_tags, list) and all(t in stored_tags for t in self.tags)):
            return False
        if not self.metadata:
            return True
        found = _metadata(memory.get("metadata"))
        return all(key in found and json_equal(found[key], value) for key, value in self.metadata)


def _value_text(value: Any) -> str | None:
    """How the JSON text of every stored value equal to ``value`` (:func:`json_equal`) starts, or None when
    that varies: text, true, false and null as they are; a number that is not whole as its own text (a
    float's shortest repr: a stored one equal to it is the same float); a whole one as an integer's, which
    both ``7`` and ``7.0`` start with (not 0, stored as ``-0.0`` too, nor past 1e16, written ``1e+16``)."""
    if value is None or isinstance(value, str | bool):
        return json.dumps(value)
    if isinstance(value, float) and not value.is_integer():
        return json.dumps(value)
    if isinstance(value, int | float) and 0 < abs(value) < 1e16:
        return str(int(value))
    return None


def json_equal(a: Any, b: Any) -> bool:
    """Equality of JSON values: true is not 1 (as Python has it), 1 is 1.0; lists and objects member-wise."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _metadata(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, str):
        return {}
    try:
        loaded = json.loads(raw)
    except (ValueError, RecursionError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def check_filters(value: object, *, max_metadata_bytes: int) -> RecallFilter | None:
    """``filters`` as the public API takes it, validated; None for no filter (None or an empty dict)."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise ValidationError("filters", f"must be a dict, not {type(value).__name__}")
    unknown = [str(k) for k in value if k not in KEYS]
    if unknown:
        raise ValidationError("filters", f"has unknown keys {unknown}; known: {', '.join(KEYS)}")
    kinds = value.get("memory_type")
    kinds = [kinds] if isinstance(kinds, str) else kinds or []
    if not isinstance(kinds, list | tuple):
        raise ValidationError("filters.memory_type", "must be a type or a list of types")
    types = frozenset(check.enum(k, MemoryType, "filters.memory_type").value for k in kinds)
    tags = tuple(check.tags(value.get("tags")))
    metadata = check.metadata(value.get("metadata"), "filters.metadata", max_bytes=max_metadata_bytes)
    for key, wanted in metadata.items():  # {"n": {"$gt": 1}} matched nothing, silently
        if (operator := check.operator_key(key, wanted)) is not None:
            raise ValidationError(
                f"filters.metadata.{key}", f"matches by equality only; {operator!r} reads as an operator"
            )
    pairs = tuple(sorted(metadata.items()))  # JSON values already (lists, not tuples; NFC text, as stored)
    if not (types or tags or pairs):
        return None
    return RecallFilter(types, tags, pairs)
