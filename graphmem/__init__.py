"""graphmem: long-term memory for AI agents, on Neo4j."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from graphmem.errors import (
    ConfigurationError,
    ConnectionFailed,
    CoreBlockLimitExceeded,
    CoreBlockNotFound,
    CoreBlockReadOnly,
    EmbedderError,
    ExtractionError,
    FactNotFound,
    GraphMemError,
    MemoryNotFound,
    NotFoundError,
    QueryTimeout,
    SchemaError,
    ServerError,
    StoreError,
    TenantMismatch,
    TransientError,
    ValidationError,
    VersionConflict,
)

if TYPE_CHECKING:
    from graphmem.aio import AsyncGraphMemory
    from graphmem.config import Settings
    from graphmem.embedding import Embedder, OnnxCrossEncoder, OnnxEmbedder, SentenceTransformerEmbedder
    from graphmem.governance.users import DeletionReport
    from graphmem.memory import GraphMemory
    from graphmem.model.scopes import Scope
    from graphmem.models import (
        CoreBlock,
        Explanation,
        Fact,
        FactType,
        Hit,
        Memory,
        MemoryStatus,
        MemoryType,
        Priority,
        Source,
    )
    from graphmem.store.audit import AuditEvent
    from graphmem.temporal.snapshots import GraphDiff, GraphSnapshot, TimelineEvent

# Heavy parts (the driver, the facade, pydantic models) load on first use, so that `import graphmem.cli.main`
# and commands that need none of them start fast.
_LAZY = {
    "AsyncGraphMemory": "graphmem.aio",
    "AuditEvent": "graphmem.store.audit",
    "CoreBlock": "graphmem.models",
    "DeletionReport": "graphmem.governance.users",
    "Embedder": "graphmem.embedding",
    "Explanation": "graphmem.models",
    "Fact": "graphmem.models",
    "FactType": "graphmem.models",
    "GraphDiff": "graphmem.temporal.snapshots",
    "GraphMemory": "graphmem.memory",
    "GraphSnapshot": "graphmem.temporal.snapshots",
    "Hit": "graphmem.models",
    "Memory": "graphmem.models",
    "MemoryStatus": "graphmem.models",
    "MemoryType": "graphmem.models",
    "Priority": "graphmem.models",
    "OnnxCrossEncoder": "graphmem.embedding",
    "OnnxEmbedder": "graphmem.embedding",
    "SentenceTransformerEmbedder": "graphmem.embedding",
    "Scope": "graphmem.model.scopes",
    "Settings": "graphmem.config",
    "Source": "graphmem.models",
    "TimelineEvent": "graphmem.temporal.snapshots",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'graphmem' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__version__ = "0.1.0"

__all__ = [
    "AsyncGraphMemory",
    "AuditEvent",
    "ConfigurationError",
    "ConnectionFailed",
    "CoreBlock",
    "CoreBlockLimitExceeded",
    "CoreBlockNotFound",
    "CoreBlockReadOnly",
    "DeletionReport",
    "Embedder",
    "EmbedderError",
    "Explanation",
    "ExtractionError",
    "Fact",
    "FactNotFound",
    "FactType",
    "GraphDiff",
    "GraphMemError",
    "GraphMemory",
    "GraphSnapshot",
    "Hit",
    "Memory",
    "MemoryNotFound",
    "MemoryStatus",
    "MemoryType",
    "NotFoundError",
    "OnnxCrossEncoder",
    "OnnxEmbedder",
    "Priority",
    "QueryTimeout",
    "SchemaError",
    "Scope",
    "SentenceTransformerEmbedder",
    "ServerError",
    "Settings",
    "Source",
    "StoreError",
    "TenantMismatch",
    "TimelineEvent",
    "TransientError",
    "ValidationError",
    "VersionConflict",
    "__version__",
]
