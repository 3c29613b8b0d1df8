"""Mapping between graph rows and value types, in one place."""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, TypeVar

from pydantic import BaseModel
from pydantic import ValidationError as ModelError

from graphmem.model import anchors
from graphmem.model.fact_versions import stored_count
from graphmem.models import Memory

logger = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
"""The time a stored record whose required time is unreadable reads with."""


def dump_metadata(metadata: dict[str, Any]) -> str:
    """Neo4j properties cannot hold maps: metadata is stored as JSON text."""
    return json.dumps(metadata, sort_keys=True, default=str)


def clean_text(value: str) -> str:
    """Text that any JSON encoder accepts: lone UTF-16 surrogates become U+FFFD."""
    if value.isascii():
        return value
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return value


def clean_json(value: Any, depth: int = 0) -> Any:
    """A value read back from storage made JSON-safe: text cleaned, non-finite numbers to None, anything
    that is not JSON data to its text, nesting cut at 64 levels. Stored data can never make a read fail."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, bool | int) or value is None:
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if depth >= 64:
        return None
    if isinstance(value, dict):
        return {clean_text(str(k)): clean_json(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [clean_json(v, depth + 1) for v in value]
    return clean_text(str(value))


def load_json(raw: Any) -> tuple[bool, Any]:
    """Stored JSON text decoded and made JSON-safe (:func:`clean_json`): (True, value), or (False, None)
    when ``raw`` is not text or not readable JSON (bad syntax, nesting too deep for the decoder)."""
    if not isinstance(raw, str):
        return False, None
    try:
        return True, clean_json(json.loads(raw))
    except (ValueError, RecursionError):
        return False, None


def load_metadata(raw: Any) -> dict[str, Any]:
    """Stored metadata (JSON text) as a JSON-safe dict, whatever was stored."""
    ok, loaded = load_json(raw)
    if not ok:
        return {"_unreadable": clean_text(raw[:1000])} if isinstance(raw, str) else {}
    return loaded if isinstance(loaded, dict) else {"value": loaded}


def load_object(raw: Any, what: str) -> dict[str, Any]:
    """Stored JSON text that should hold an object, as a JSON-safe dict: anything else is ``{}`` with a
    WARNING naming ``what`` (never the value)."""
    ok, loaded = load_json(raw)
    if ok and isinstance(loaded, dict):
        return loaded
    if raw is not None:
        logger.warning("%s: stored value is not a JSON object; read as {}", what)
    return {}


def text(value: Any) -> str:
    """A stored value as text: text is cleaned (:func:`clean_text`), anything else is its JSON (or str)."""
    if isinstance(value, str):
        return clean_text(value)
    try:
        return json.dumps(clean_json(value), sort_keys=True)
    except (TypeError, ValueError):
        return clean_text(str(value))


def optional_text(value: Any) -> str | None:
    return None if value is None else text(value)


def texts(value: Any) -> list[str]:
    """A stored list of text (anything else: no items)."""
    return [text(v) for v in value if v is not None] if isinstance(value, list | tuple) else []


def moment(value: Any) -> datetime:
    """A stored time (anything else: :data:`EPOCH`), as :func:`optional_moment` reads it."""
    return optional_moment(value) or EPOCH


def optional_moment(value: Any) -> datetime | None:
    """A stored time at UTC; one without a zone (a local date-time written by hand) read as UTC, as input is
    (graphmem.model.validation.aware_datetime), so it compares with the others; anything else None. A time
    read back carries its zone's *name*, and Neo4j orders "…Z[UTC]" and "…Z" of one instant apart: a time
    the planners write back (a plan's start as its valid_to, a resumed value's start) must go as an offset,
    or reads comparing it miss the version."""
    if not isinstance(value, datetime):
        return None
    return value.astimezone(UTC) if value.tzinfo is not None else value.replace(tzinfo=UTC)


def model_from_row(
    model: type[M], row: Mapping[str, Any], *, what: str, fallback: Mapping[str, Any] | None = None
) -> M:
    """``model`` from a stored row, never raising: keys the model does not know and null values are left
    out; a field that does not validate takes its default (a required one ``fallback``'s value, else its
    stored value as text), with one WARNING naming ``what`` and the fields (never their values)."""
    known = model.model_fields
    data = {k: v for k, v in row.items() if k in known and v is not None}
    fallback = fallback or {}
    for _ in range(2 * len(known) + 1):
        try:
            return model.model_validate(data)
        except ModelError as exc:
            bad = sorted({str(e["loc"][0]) for e in exc.errors() if e["loc"]} & set(known))
        if not bad:
            break
        logger.warning("%s: unreadable stored fields %s left at their defaults", what, bad)
        for name in bad:
            if name in fallback and data.get(name) is not fallback[name]:
                data[name] = fallback[name]
            elif known[name].is_required():
                data[name] = text(data.get(name, ""))
            else:
                data.pop(name, None)
    return model.model_validate(data)


def memory_from_row(row: dict[str, Any]) -> Memory:
    """A Memory from a stored row. Fields that do not fit the model (written by hand, or by an older
    version) fall back to their defaults instead of failing the read (text fields are kept as text).
    Retention and strength are derived now from the stored anchors (graphmem.model.anchors)."""
    data = {k: v for k, v in row.items() if k != "embedding" and v is not None}
    data["version"] = stored_count(row.get("version"), 1)  # as an update reads it (memory_lock)
    if row.get("retention_scale") is not None or row.get("strength_rate") is not None:  # derived now
        now = datetime.now(UTC)
        data["retention"], data["strength"] = anchors.retention_now(row, now), anchors.strength_now(row, now)
    data["metadata"] = load_metadata(data.pop("metadata", None))
    tags = data.get("tags")
    data["tags"] = tuple(clean_text(str(t)) for t in tags) if isinstance(tags, list | tuple) else ()
    return model_from_row(Memory, data, what=f"memory {text(row.get('id'))}")
