"""Settings, built at the edge by the caller (or from the environment when the caller asks for it).

Nothing here reads the environment at import time: :class:`Settings` reads ``GRAPHMEM_*`` and ``NEO4J_*``
variables only when it is constructed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from graphmem.errors import ValidationError as GraphMemValidationError

MAX_CONTENT_CHARS = 20_000
"""Longest memory text accepted by ``remember`` (characters)."""

MAX_K = 200
"""Largest ``k`` accepted by ``recall``."""

MAX_BATCH = 1_000
"""Most messages accepted by one ``add_messages`` call."""


class RetrievalPreset(BaseModel, frozen=True):
    """How recall gathers its candidate pool and ranks it (see docs/recall.md). A preset is an object: pass
    one of ``PRESETS`` by name or your own instance, in ``Settings(retrieval_preset=...)`` or per call
    (``recall(..., preset=...)``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = "balanced"
    pool_k: int = Field(default=100, ge=1, le=1000, description="candidates taken from each index")
    exact_scan_max: int = Field(
        default=50_000,
        ge=0,
        description="largest tenant the planner may search by an exact cosine scan (when it is cheaper)",
    )
    overfetch: float = Field(default=2.0, ge=1.0, description="ANN over-fetch factor for large tenants")
    max_fetch: int = Field(
        default=5_000,
        ge=1,
        description="most neighbours asked of an ANN index; beyond it the exact scan is used",
    )
    vector_weight: float = Field(default=0.5, ge=0, le=1, description="share of cosine in linear fusion")
    graph: bool = Field(default=True, description="rank with personalized PageRank over the neighbourhood")
    graph_weight: float = Field(default=0.7, ge=0, le=1, description="share of the PageRank score")
    damping: float = Field(default=0.85, gt=0, lt=1, description="PageRank: probability of following an edge")
    entity_restart: float = Field(default=0.05, ge=0, lt=1, description="restart mass on query entities")
    max_fan: int = Field(default=20, ge=2, description="entities with this many mentions are hubs, skipped")
    max_links: int = Field(
        default=5, ge=1, description="edges per pool memory in the expansion: FOLLOWS, CAUSES, then heaviest"
    )
    session_penalty: float = Field(
        default=0.0, ge=0, le=1, description="final cut: score discount per hit already taken from a session"
    )
    speaker_boost: float = Field(
        default=0.1, ge=0, le=1, description="added when the query names the speaker"
    )
    date_boost: float = Field(
        default=0.1,
        ge=0,
        le=1,
        description="added when the query's date expression overlaps the memory's stored event range",
    )
    session_boost: float = Field(
        default=0.1,
        ge=0,
        le=1,
        description="added in proportion to the best own score in the memory's session (session aggregation)",
    )
    state_weight: float = Field(default=0.05, ge=0, le=1, description="share of memory state in the score")
    asked_keys: bool = Field(
        default=True,
        description="full text also matches the questions feedback marked a memory useful for (asked key)",
    )
    rerank: bool = Field(default=False, description="re-score the top of the pool with the cross-encoder")
    rerank_top: int = Field(
        default=20, ge=1, le=200, description="how many candidates the cross-encoder sees"
    )


BALANCED = RetrievalPreset()
FAST = RetrievalPreset(name="fast", pool_k=30, exact_scan_max=5_000, graph=False)
PRECISE = RetrievalPreset(name="precise", rerank=True)
PRESETS: dict[str, RetrievalPreset] = {p.name: p for p in (BALANCED, FAST, PRECISE)}


def resolve_preset(preset: str | RetrievalPreset) -> RetrievalPreset:
    """A preset object from a name in ``PRESETS`` or an instance (anything else: ``ValidationError``)."""
    if isinstance(preset, RetrievalPreset):
        return preset
    if isinstance(preset, str) and preset in PRESETS:
        return PRESETS[preset]
    raise GraphMemValidationError(
        "retrieval_preset", f"unknown preset {preset!r}; known: {', '.join(sorted(PRESETS))}"
    )


class Settings(BaseSettings):
    """Everything graphmem needs to run. Construct it where the program starts.

    Connection values are taken from the arguments, else from ``NEO4J_URI`` / ``NEO4J_USERNAME`` /
    ``NEO4J_PASSWORD`` / ``NEO4J_DATABASE``, else from the locally managed server in ``home``.
    """

    model_config = SettingsConfigDict(env_prefix="GRAPHMEM_", extra="ignore", populate_by_name=True)

    neo4j_uri: str | None = Field(
        default=None, validation_alias=AliasChoices("NEO4J_URI", "GRAPHMEM_NEO4J_URI")
    )
    neo4j_username: str | None = Field(
        default=None, validation_alias=AliasChoices("NEO4J_USERNAME", "GRAPHMEM_NEO4J_USERNAME")
    )
    neo4j_password: str | None = Field(
        default=None, validation_alias=AliasChoices("NEO4J_PASSWORD", "GRAPHMEM_NEO4J_PASSWORD")
    )
    neo4j_database: str = Field(
        default="neo4j", validation_alias=AliasChoices("NEO4J_DATABASE", "GRAPHMEM_NEO4J_DATABASE")
    )
    home: Path | None = Field(default=None, description="home of the locally managed server")
    # --- time limits (see graphmem.store.failures.driver_options and docs/operations.md) ---
    connect_timeout: float = Field(
        default=5.0,
        gt=0,
        description="seconds to reach the server (retries included) before ConnectionFailed",
    )
    transaction_timeout: float = Field(
        default=120.0, ge=0, description="server-side limit of each graphmem transaction, seconds (0: none)"
    )
    query_timeout: float = Field(
        default=30.0, ge=0, description="server-side limit of a query() call's read transaction, seconds"
    )
    embedding_model: str = Field(
        default="bge-small-en-v1.5",
        description="'bge-small-en-v1.5' (bundled INT8 ONNX, the default), "
        "'all-minilm-l6-v2' (the minilm extra) or a local sentence-transformers model folder; "
        "changing it needs `graphmem reembed`",
    )
    embedding_device: Literal["cpu", "cuda", "mps"] = "cpu"
    retrieval_preset: Annotated[RetrievalPreset, NoDecode] = Field(
        default=BALANCED, description="a name in graphmem.config.PRESETS or a RetrievalPreset"
    )
    max_content_chars: int = Field(default=MAX_CONTENT_CHARS, ge=1)
    max_metadata_bytes: int = Field(
        default=65_536, ge=2, description="a memory's metadata, as compact JSON in UTF-8 (64 KB by default)"
    )
    # --- formation (see graphmem.formation.writer) ---
    redact_pii: bool = Field(default=False, description="redact emails, phones, card/account numbers")
    duplicate_threshold: float = Field(
        default=0.95, ge=0.0, le=1.0, description="cosine for a near-duplicate"
    )
    related_threshold: float = Field(default=0.55, ge=0.0, le=1.0, description="cosine for a RELATED_TO edge")
    related_k: int = Field(default=5, ge=0, le=50, description="RELATED_TO edges per new memory (at most)")
    entity_merge_threshold: float = Field(default=0.9, ge=0.0, le=1.0, description="cosine to merge entities")
    extract_facts: bool = Field(default=True, description="run the fact pattern extractor at formation")
    reinforce_on_recall: bool = Field(default=True, description="recall strengthens what it returns")
    retrieval_induced_forgetting: bool = Field(
        default=True, description="recall weakens competitors that were activated but not returned"
    )
    record_recalls: bool = Field(default=True, description="store a RecallEvent per recall")
    recall_effects: Literal["inline", "deferred"] = Field(
        default="inline",
        description="'inline': recall writes its reinforcement, inhibition and RecallEvent in its own "
        "transaction and returns the reinforced state; 'deferred': recall only reads, and a background "
        "writer commits each recall's effects in its own transaction off the request path (flush()/close() "
        "wait for them; the REST API and the MCP server use it); see docs/recall.md",
    )
    adaptive_retrieval: bool = Field(
        default=True, description="recall uses the user's tuned fusion weights (graphmem.dynamics.evolution)"
    )

    # --- automation (see graphmem.automation.control; the job configuration itself is stored in Neo4j) ---
    automation_config_id: str = Field(default="default", description="which stored automation config to use")
    dynamics_preset: str = Field(default="balanced", description="decay preset used until a config is stored")
    gds_enabled: bool = Field(default=True, description="use GDS for associate when the plugin is present")
    gds_probe: str = Field(
        default="gds.version", description="procedure whose presence means GDS is installed"
    )
    apoc_probe: str = Field(
        default="apoc.help", description="procedure whose presence means APOC is installed"
    )
    worker_poll_seconds: float = Field(default=30.0, gt=0, description="worker: config re-read interval")
    worker_lease_seconds: float | None = Field(
        default=None,
        gt=0,
        description="worker: slot claim lease, renewed while its job runs (default 3 x poll)",
    )

    # --- agent-facing interfaces (see graphmem.adapters.mcp, graphmem.adapters.rest) ---
    mcp_user_id: str | None = Field(default=None, description="the tenant the MCP server acts for")
    api_key: SecretStr | None = Field(default=None, description="the key REST clients send in X-API-Key")
    max_body_bytes: int = Field(default=1_048_576, ge=1, description="REST: larger request bodies get 413")
    protect_docs: bool = Field(default=False, description="REST: /docs and /openapi.json need a key")
    api_slots: int | None = Field(
        default=None,
        ge=0,
        description="REST: requests run at once, recalls admitted ahead of writes and writes held to half "
        "the slots (default two per core, at least 4; 0 turns admission off); see docs/rest.md",
    )
    api_queue_seconds: float = Field(
        default=30.0, gt=0, description="REST: a request that waited this long for a slot gets 503 Busy"
    )

    @field_validator("retrieval_preset", mode="before")
    @classmethod
    def _known_preset(cls, value: object) -> RetrievalPreset:
        if isinstance(value, dict):
            return RetrievalPreset.model_validate(value)
        if isinstance(value, str) and value not in PRESETS:  # ValueError → pydantic's ValidationError
            raise ValueError(f"unknown retrieval preset {value!r}; known: {', '.join(sorted(PRESETS))}")
        return resolve_preset(value)  # type: ignore[arg-type]

    def preset(self) -> RetrievalPreset:
        return self.retrieval_preset

    def worker_lease(self) -> float:
        """Seconds a worker's slot claim lasts unrenewed: three poll intervals unless set (two missed renewals
        are tolerated, the same rule as a fresh worker heartbeat)."""
        return self.worker_lease_seconds or 3 * self.worker_poll_seconds
