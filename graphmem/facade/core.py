"""``mem.core``: core memory blocks, pinned first in every ``context()`` (Letta-style, versioned)."""

from __future__ import annotations

import builtins

from graphmem.governance import core_blocks as blocks
from graphmem.model import new_ids
from graphmem.model import validation as check
from graphmem.models import CoreBlock
from graphmem.store.runtime import Runtime

__all__ = ["Core"]


class Core:
    """List, set, edit and trace a user's core memory blocks (``mem.core``)."""

    def __init__(self, rt: Runtime) -> None:
        self._rt = rt

    def list(self, user_id: str) -> list[CoreBlock]:
        """The user's core memory blocks (pinned first in every ``context()``), by label."""
        return blocks.list_blocks(self._rt, check.user_id(user_id))

    def set(
        self,
        user_id: str,
        label: str,
        value: str,
        *,
        limit: int = blocks.DEFAULT_LIMIT,
        description: str = "",
        read_only: bool = False,
    ) -> CoreBlock:
        """Create or overwrite a core memory block; the previous value is kept in its history. Edits of one
        block take turns: a block changed meanwhile by another call raises ``VersionConflict`` (retry)."""
        spec = blocks.check_spec(self._rt, label, limit, description, read_only)
        uid = check.user_id(user_id)
        new_ids.refuse_invisible(user_id=uid, label=spec.label)
        return blocks.set_block(self._rt, uid, spec, blocks.block_value(value))

    def append(self, user_id: str, label: str, text: str) -> CoreBlock:
        """Append a line to a block (errors: missing or read-only block, limit exceeded)."""
        return blocks.append(
            self._rt,
            check.user_id(user_id),
            check.identifier(label, "label") or "",
            check.text(text, "text", max_chars=self._rt.settings.max_content_chars),
        )

    def replace(self, user_id: str, label: str, old: str, new: str) -> CoreBlock:
        """Replace ``old`` by ``new`` in a block (errors: ``old`` not in the block, read-only, limit)."""
        return blocks.replace(
            self._rt,
            check.user_id(user_id),
            check.identifier(label, "label") or "",
            check.text(old, "old", max_chars=self._rt.settings.max_content_chars),
            blocks.block_value(new, "new"),
        )

    def history(self, user_id: str, label: str) -> builtins.list[CoreBlock]:
        """Every version of a core memory block, oldest first."""
        return blocks.history(self._rt, check.user_id(user_id), check.identifier(label, "label") or "")
