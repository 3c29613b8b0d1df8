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
        "Priority",
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
    }
    for name in graphmem.__all__:
        assert hasattr(graphmem, name), name


def test_every_error_derives_from_one_root() -> None:
    from graphmem import errors

    for name in errors.__all__:
        cls = getattr(errors, name)
        assert issubclass(cls, graphmem.GraphMemError), name
