"""graphmem: long-term memory for AI agents, on Neo4j."""

from __future__ import annotations

from .config import Settings
from .embedding import Embedder, SentenceTransformerEmbedder
from .errors import (
    ConfigurationError,
    ConnectionFailed,
    EmbedderError,
    GraphMemError,
    MemoryNotFound,
    NotFoundError,
    SchemaError,
    ServerError,
    StoreError,
    TransientError,
    ValidationError,
    VersionConflict,
)
from .memory import GraphMemory
from .models import Explanation, Hit, Memory, MemoryStatus, MemoryType, Priority, Source

__version__ = "0.1.0"

__all__ = [
    "ConfigurationError",
    "ConnectionFailed",
    "Embedder",
    "EmbedderError",
    "Explanation",
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
    "TransientError",
    "ValidationError",
    "VersionConflict",
    "__version__",
]
