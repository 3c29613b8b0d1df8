"""graphmem: long-term memory for AI agents, on Neo4j."""

from __future__ import annotations

from .config import Settings
from .embedding import Embedder, SentenceTransformerEmbedder
from .errors import (
    ConfigurationError,
    ConnectionFailed,
    CoreBlockLimitExceeded,
    CoreBlockNotFound,
    CoreBlockReadOnly,
    EmbedderError,
    ExtractionError,
    GraphMemError,
    MemoryNotFound,
    NotFoundError,
    SchemaError,
    ServerError,
    StoreError,
    TenantMismatch,
    TransientError,
    ValidationError,
    VersionConflict,
)
from .memory import GraphMemory
from .models import (
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

__version__ = "0.1.0"

__all__ = [
    "ConfigurationError",
    "ConnectionFailed",
    "CoreBlock",
    "CoreBlockLimitExceeded",
    "CoreBlockNotFound",
    "CoreBlockReadOnly",
    "Embedder",
    "EmbedderError",
    "Explanation",
    "ExtractionError",
    "Fact",
    "FactType",
    "GraphMemError",
    "GraphMemory",
    "Hit",
    "Memory",
    "MemoryNotFound",
    "MemoryStatus",
    "MemoryType",
    "NotFoundError",
    "Priority",
    "SchemaError",
    "SentenceTransformerEmbedder",
    "ServerError",
    "Settings",
    "Source",
    "StoreError",
    "TenantMismatch",
    "TransientError",
    "ValidationError",
    "VersionConflict",
    "__version__",
]
