"""The one error tree of graphmem.

Every error graphmem raises on purpose derives from :class:`GraphMemError`. Errors carry their subject
(``MemoryNotFound(memory_id)``) and driver errors are translated at the store boundary with
``raise ... from exc``. :class:`TransientError` marks failures that are worth retrying.
"""

from __future__ import annotations

MAX_MESSAGE_CHARS = 2000
"""The longest message an error shows: one that quotes a huge value (an unknown enum name of 200,000
characters, thousands of ids) keeps its start and end, and says how much it left out."""


def capped(text: str) -> str:
    """``text`` as an error message shows it: at most :data:`MAX_MESSAGE_CHARS`, its start and end kept."""
    if len(text) <= MAX_MESSAGE_CHARS:
        return text
    head, tail = MAX_MESSAGE_CHARS - 500, 400
    return f"{text[:head]} … ({len(text) - head - tail} characters left out) … {text[-tail:]}"


class GraphMemError(Exception):
    """Root of every error graphmem raises."""

    def __str__(self) -> str:
        return capped(super().__str__())


# --- bad input -------------------------------------------------------------------------------------
class ValidationError(GraphMemError, ValueError):
    """A value passed to the public API is malformed or out of range."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class NotFoundError(GraphMemError, LookupError):
    """Something the caller named does not exist (in the caller's scope)."""


class MemoryNotFound(NotFoundError):
    def __init__(self, memory_id: str, *, reason: str | None = None) -> None:
        super().__init__(f"memory {memory_id!r} not found" + (f" ({reason})" if reason else ""))
        self.memory_id = memory_id


class FactNotFound(NotFoundError):
    """No current version of a fact key (e.g. retracting a key never set or already retracted)."""

    def __init__(self, key: str) -> None:
        super().__init__(f"fact {key!r} has no current version")
        self.key = key


class CoreBlockNotFound(NotFoundError):
    def __init__(self, label: str) -> None:
        super().__init__(f"core memory block {label!r} not found")
        self.label = label


class UserNotFound(NotFoundError):
    """Nothing at all is stored for a user (a mistyped user id): a deletion, anonymisation or job run for one
    user that would find nothing to do refuses it instead of reporting success."""

    def __init__(self, user_id: str) -> None:
        super().__init__(f"nothing is stored for user {user_id!r}")
        self.user_id = user_id


class CoreBlockReadOnly(GraphMemError):
    """The agent tried to edit a read-only core memory block."""

    def __init__(self, label: str) -> None:
        super().__init__(f"core memory block {label!r} is read-only")
        self.label = label


class CoreBlockLimitExceeded(ValidationError):
    """A core memory block's value would exceed the block's character limit."""

    def __init__(self, label: str, length: int, limit: int) -> None:
        super().__init__("value", f"block {label!r} would be {length} characters long; its limit is {limit}")
        self.label = label
        self.length = length
        self.limit = limit


class TenantMismatch(GraphMemError):
    """An operation would connect data of two different users."""

    def __init__(self, src_id: str, dst_id: str) -> None:
        super().__init__(f"{src_id!r} and {dst_id!r} belong to different users")
        self.src_id = src_id
        self.dst_id = dst_id


class ExtractionError(GraphMemError):
    """An optional extractor (e.g. an LLM endpoint) failed; callers fall back to the pattern extractor."""


class VersionConflict(GraphMemError):
    """An optimistic-concurrency check failed: the stored version moved."""

    def __init__(self, subject: str, expected: int, actual: int) -> None:
        super().__init__(f"{subject}: expected version {expected}, found {actual}")
        self.subject = subject
        self.expected = expected
        self.actual = actual


# --- schema / configuration ------------------------------------------------------------------------
class SchemaError(GraphMemError):
    """The database schema does not fit this graphmem (e.g. a vector index of another dimension)."""


class ConfigurationError(GraphMemError):
    """graphmem is configured wrongly (missing credentials, bad settings)."""


class EmbedderError(GraphMemError):
    """The embedding model could not be loaded or failed to embed."""


# --- the database ----------------------------------------------------------------------------------
class StoreError(GraphMemError):
    """The database refused or failed a query."""


class TransientError(StoreError):
    """A retryable database failure (lost connection, deadlock, leader switch)."""


class ConnectionFailed(TransientError):
    """The database could not be reached."""


class QueryTimeout(StoreError):
    """A query ran past its transaction time limit (``Settings.transaction_timeout`` / ``query_timeout``)."""


# --- the locally managed server --------------------------------------------------------------------
class ServerError(GraphMemError):
    """The locally managed Neo4j server could not be assembled, started or stopped."""


class PrerequisiteMissing(ServerError):
    """A tool the local server needs (Java 21+, Maven) is missing."""


class PortInUse(ServerError):
    def __init__(self, port: int, host: str = "127.0.0.1") -> None:
        super().__init__(f"port {host}:{port} is already in use by another program")
        self.port = port
        self.host = host


class DownloadFailed(ServerError):
    """Maven could not download the server's jars."""


class ServerStartTimeout(ServerError):
    """The server process started but Bolt did not answer in time."""


__all__ = [
    "ConfigurationError",
    "ConnectionFailed",
    "CoreBlockLimitExceeded",
    "CoreBlockNotFound",
    "CoreBlockReadOnly",
    "DownloadFailed",
    "EmbedderError",
    "ExtractionError",
    "FactNotFound",
    "GraphMemError",
    "MemoryNotFound",
    "NotFoundError",
    "PortInUse",
    "PrerequisiteMissing",
    "QueryTimeout",
    "SchemaError",
    "ServerError",
    "ServerStartTimeout",
    "StoreError",
    "TenantMismatch",
    "TransientError",
    "UserNotFound",
    "ValidationError",
    "VersionConflict",
]
