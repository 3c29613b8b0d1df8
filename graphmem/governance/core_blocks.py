"""Core memory blocks: labelled, size-limited text the agent edits itself, pinned at the top of every context.

A block is stored as a P0 :class:`~graphmem.models.Memory` with the extra label ``CoreBlock``; it never decays
and is never forgotten. Every edit writes a new version and closes the previous one (status ``superseded``,
``expired_at``) behind a ``SUPERSEDES`` edge, so the history of a block stays in the graph.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from graphmem.embedding import embed_checked
from graphmem.errors import (
    CoreBlockLimitExceeded,
    CoreBlockNotFound,
    CoreBlockReadOnly,
    ValidationError,
    VersionConflict,
)
from graphmem.model import validation as check
from graphmem.model.fact_versions import COUNT_MAX
from graphmem.models import CoreBlock
from graphmem.store import audit, records
from graphmem.store.driver import Tx
from graphmem.store.runtime import Runtime

logger = logging.getLogger(__name__)

DEFAULT_LIMIT = 2000
MAX_DESCRIPTION_CHARS = 1000


@dataclass(frozen=True)
class BlockSpec:
    """A block's settings, checked at the public boundary."""

    label: str
    limit: int = DEFAULT_LIMIT
    description: str = ""
    read_only: bool = False


def check_spec(
    rt: Runtime, label: object, limit: object, description: object, read_only: object
) -> BlockSpec:
    if description is not None and not isinstance(description, str):
        raise ValidationError("description", "must be a string")
    if description is not None and len(description) > MAX_DESCRIPTION_CHARS:
        raise ValidationError("description", f"is longer than {MAX_DESCRIPTION_CHARS} characters")
    return BlockSpec(
        label=check.identifier(label, "label") or "",
        limit=check.bounded_int(limit, "limit", 1, rt.settings.max_content_chars),
        description=check.clean_string(description or "", "description"),
        read_only=check.boolean(read_only, "read_only"),
    )


def block_value(value: object, field: str = "value") -> str:
    """A block's text may be empty (a fresh block), but must be a string."""
    if not isinstance(value, str):
        raise ValidationError(field, f"must be a string, not {type(value).__name__}")
    return check.clean_string(value, field)


def block_from_row(row: dict[str, Any]) -> CoreBlock:
    """A block from its stored row, never raising: fields that do not fit at their defaults."""
    data = {
        "label": row.get("core_label"),
        "value": row.get("content") or "",
        "limit": row.get("core_limit") or DEFAULT_LIMIT,
        "description": row.get("core_description") or "",
        "read_only": row.get("core_read_only") is True,
        "id": row.get("id"),
        "version": stored_version(row.get("version")),
        "updated_at": row.get("updated_at"),
    }
    return records.model_from_row(CoreBlock, data, what=f"core block {records.text(row.get('id'))}")


def stored_version(value: object) -> int:
    """A block's stored version; anything but a positive integer (overwritten by hand) reads as 1, as
    ``core_block_write`` reads it, so the block can still be edited (one above ``COUNT_MAX`` as that)."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return min(value, COUNT_MAX)
    return 1


def appended(current: str, text: str) -> str:
    """Appending puts the text on a new line (pure)."""
    return f"{current}\n{text}" if current else text


def replaced(block: CoreBlock, old: str, new: str) -> str:
    """Replace every occurrence of ``old``; replacing text that is not there is an error (pure)."""
    if old not in block.value:
        raise ValidationError("old", f"text not found in core memory block {block.label!r}")
    return block.value.replace(old, new)


def list_blocks(rt: Runtime, user_id: str) -> list[CoreBlock]:
    return [block_from_row(r["block"]) for r in rt.store.read("core_block_list", user_id=user_id)]


def get_block(rt: Runtime, user_id: str, label: str) -> CoreBlock | None:
    rows = rt.store.read("core_block_get", user_id=user_id, label=label)
    return block_from_row(rows[0]["block"]) if rows else None


def history(rt: Runtime, user_id: str, label: str) -> list[CoreBlock]:
    """Every version of a block, oldest first."""
    return [
        block_from_row(r["block"]) for r in rt.store.read("core_block_history", user_id=user_id, label=label)
    ]


def write(rt: Runtime, user_id: str, spec: BlockSpec, value: str, *, expected_version: int) -> CoreBlock:
    """Write a new version of a block (the previous one becomes history)."""
    if len(value) > spec.limit:
        raise CoreBlockLimitExceeded(spec.label, len(value), spec.limit)
    now = datetime.now(UTC)
    embedding = embed_checked(rt.embedder, [f"{spec.label}: {value}"])[0]
    props = {
        "memory_type": "semantic",
        "priority": "P0",
        "importance": 1.0,
        "strength": 1.0,
        "retention": 1.0,
        "status": "active",
        "layer": "long_term",
        "source": "agent",
        "confidence": 1.0,
        "access_count": 0,
        "tags": ["core"],
        "core_limit": spec.limit,
        "core_description": spec.description,
        "core_read_only": spec.read_only,
    }
    block_id = str(uuid.uuid4())

    def work(tx: Tx) -> list[dict[str, Any]]:
        rows = tx.run(
            "core_block_write",
            user_id=user_id,
            label=spec.label,
            id=block_id,
            value=value,
            embedding=embedding,
            props=props,
            expected_version=expected_version,
            now=now,
        )
        if rows:  # the audit event commits with the new version
            audit.append(
                tx,
                "core_block_write",
                user_id=user_id,
                now=now,
                target_ids=[block_id],
                version=rows[0]["block"]["version"],
                details={"label": spec.label, "chars": len(value)},
            )
        return rows

    rows = rt.store.unit_of_work(work)
    if not rows:
        current = get_block(rt, user_id, spec.label)
        raise VersionConflict(
            f"core block {spec.label!r}", expected_version, current.version if current else 0
        )
    rt.changes.touch(user_id)
    block = block_from_row(rows[0]["block"])
    logger.debug("core block %s: version %d", spec.label, block.version)
    return block


def set_block(rt: Runtime, user_id: str, spec: BlockSpec, value: str) -> CoreBlock:
    """Create or overwrite a block with its settings (the developer's call: allowed on read-only blocks)."""
    current = get_block(rt, user_id, spec.label)
    return write(rt, user_id, spec, value, expected_version=current.version if current else 0)


def _editable(rt: Runtime, user_id: str, label: str) -> CoreBlock:
    block = get_block(rt, user_id, label)
    if block is None:
        raise CoreBlockNotFound(label)
    if block.read_only:
        raise CoreBlockReadOnly(label)
    return block


def _spec(block: CoreBlock) -> BlockSpec:
    return BlockSpec(block.label, block.limit, block.description, block.read_only)


def append(rt: Runtime, user_id: str, label: str, text: str) -> CoreBlock:
    block = _editable(rt, user_id, label)
    return write(rt, user_id, _spec(block), appended(block.value, text), expected_version=block.version)


def replace(rt: Runtime, user_id: str, label: str, old: str, new: str) -> CoreBlock:
    block = _editable(rt, user_id, label)
    return write(rt, user_id, _spec(block), replaced(block, old, new), expected_version=block.version)
