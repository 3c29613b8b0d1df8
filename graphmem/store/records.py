"""Mapping between graph rows and value types, in one place."""

from __future__ import annotations

import json
import logging
import math
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError as ModelError

from graphmem.model import anchors
from graphmem.models import Memory

logger = logging.getLogger(__name__)


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


def load_metadata(raw: Any) -> dict[str, Any]:
    """Stored metadata (JSON text) as a JSON-safe dict, whatever was stored."""
    if not isinstance(raw, str):
        return {}
    try:
        loaded = json.loads(raw)
    except (ValueError, RecursionError):
        return {"_unreadable": clean_text(raw[:1000])}
    loaded = clean_json(loaded)
    return loaded if isinstance(loaded, dict) else {"value": loaded}


def memory_from_row(row: dict[str, Any]) -> Memory:
    """A Memory from a stored row. Fields that do not fit the model (written by hand, or by an older
    version) fall back to their defaults instead of failing the read (text fields are kept as text).
    Retention and strength are derived now from the stored anchors (graphmem.model.anchors)."""
    data = {k: v for k, v in row.items() if k != "embedding" and v is not None}
    if row.get("retention_scale") is not None or row.get("strength_rate") is not None:  # derived now
        now = datetime.now(UTC)
        data["retention"], data["strength"] = anchors.retention_now(row, now), anchors.strength_now(row, now)
    data["metadata"] = load_metadata(data.pop("metadata", None))
    tags = data.get("tags")
    data["tags"] = tuple(clean_text(str(t)) for t in tags) if isinstance(tags, list | tuple) else ()
    known = Memory.model_fields
    data = {k: v for k, v in data.items() if k in known}
    for _ in range(len(known)):
        try:
            return Memory.model_validate(data)
        except ModelError as exc:
            bad = {str(e["loc"][0]) for e in exc.errors() if e["loc"]}
            logger.warning(
                "memory %s: unreadable stored fields %s left at their defaults", row.get("id"), bad
            )
            for name in bad:
                field = known[name]
                if field.is_required():
                    data[name] = clean_text(str(data.get(name, "")))
                else:
                    data.pop(name, None)
    return Memory.model_validate(data)
