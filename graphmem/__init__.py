"""graphmem: long-term memory for AI agents, on Neo4j."""

from __future__ import annotations

from graphmem.aio import AsyncGraphMemory
from graphmem.config import Settings
from graphmem.embedding import Embedder, OnnxCrossEncoder, OnnxEmbedder, SentenceTransformerEmbedder
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
from graphmem.governance.users import DeletionReport
from graphmem.memory import GraphMemory
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
