import graphmem


def test_exported_members_are_exactly_the_public_surface() -> None:
    assert set(graphmem.__all__) == {
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
        "GraphSnapshot",
        "GraphMemError",
        "GraphMemory",
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
    }
    for name in graphmem.__all__:
        assert hasattr(graphmem, name), name


def test_every_error_derives_from_one_root() -> None:
    from graphmem import errors

    for name in errors.__all__:
        cls = getattr(errors, name)
        assert issubclass(cls, graphmem.GraphMemError), name


def test_the_async_facade_has_every_public_member_of_the_sync_one() -> None:
    from graphmem.aio import AsyncAutomation, AsyncJobs
    from graphmem.automation.control import Automation
    from graphmem.dynamics.jobs import Jobs

    def public(cls: type) -> set[str]:
        return {n for n in dir(cls) if not n.startswith("_")}

    assert public(graphmem.AsyncGraphMemory) == public(graphmem.GraphMemory)
    assert public(AsyncJobs) == public(Jobs) - {"work"}  # the blocking worker loop: `graphmem worker`
    assert public(AsyncAutomation) >= {n for n in public(Automation) if callable(getattr(Automation, n))}


NAMESPACES = {
    "facts": {"set", "get", "list", "retract", "history"},
    "core": {"list", "set", "append", "replace", "history"},
    # count: the total a page of list() is out of (a separate read, made only when asked)
    "memories": {"get", "list", "count", "update", "history", "link", "govern", "feedback", "proactive"},
    "users": {"export", "export_to", "delete", "anonymize"},
    "temporal": {"timeline", "snapshot", "diff", "audit_log"},
}


def test_the_facade_keeps_the_per_turn_verbs_and_namespaces_the_rest() -> None:
    from graphmem import facade

    def public(cls: type) -> set[str]:
        return {n for n in dir(cls) if not n.startswith("_")}

    assert public(graphmem.GraphMemory) == {
        "add_messages",
        "automation",
        "close",
        "connect",
        "context",
        "core",
        "embedder",
        "facts",
        "flush",
        "forget",
        "init",
        "jobs",
        "memories",
        "query",
        "recall",
        "reembed",
        "remember",
        "runtime",
        "scheduler",
        "temporal",
        "users",
        "warm",
    }
    for name, methods in NAMESPACES.items():
        cls = getattr(facade, name.capitalize())
        assert public(cls) == methods, name
        assert public(getattr(graphmem.aio, f"Async{name.capitalize()}")) == methods, name
