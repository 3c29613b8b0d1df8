"""Mapping between graph rows and value types, in one place."""

from __future__ import annotations

import json
from typing import Any

from graphmem.models import Memory


def dump_metadata(metadata: dict[str, Any]) -> str:
    """Neo4j properties cannot hold maps: metadata is stored as JSON text."""
    return json.dumps(metadata, sort_keys=True, default=str)


def memory_from_row(row: dict[str, Any]) -> Memory:
    data = {k: v for k, v in row.items() if k != "embedding" and v is not None}
    raw_meta = data.pop("metadata", None)
    data["metadata"] = json.loads(raw_meta) if isinstance(raw_meta, str) else {}
    data["tags"] = tuple(data.get("tags") or ())
    known = Memory.model_fields
    return Memory.model_validate({k: v for k, v in data.items() if k in known})
