"""The namespaces of :class:`graphmem.GraphMemory` (``mem.facts``, ``mem.core``, ``mem.memories``,
``mem.users``, ``mem.temporal``), one small module each, over the use-case packages. Each namespace
checks its arguments at the boundary (``graphmem.model.validation``) and writes through one
:func:`~graphmem.facade._write.audited_write` path."""

from __future__ import annotations

from graphmem.facade.core import Core
from graphmem.facade.facts import Facts
from graphmem.facade.memories import Memories
from graphmem.facade.temporal import Temporal
from graphmem.facade.users import Users

__all__ = ["Core", "Facts", "Memories", "Temporal", "Users"]
