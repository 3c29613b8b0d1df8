"""Settings, built at the edge by the caller (or from the environment when the caller asks for it).

Nothing here reads the environment at import time: :class:`Settings` reads ``GRAPHMEM_*`` and ``NEO4J_*``
variables only when it is constructed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, BaseModel, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

MAX_CONTENT_CHARS = 20_000
"""Longest memory text accepted by ``remember`` (characters)."""

MAX_K = 200
"""Largest ``k`` accepted by ``recall``."""

MAX_BATCH = 1_000
"""Most messages accepted by one ``add_messages`` call."""


class RetrievalPreset(BaseModel, frozen=True):
    """How seeds are gathered and how the final score is blended. Presets are named in ``PRESETS``."""

    name: str = "balanced"
    seed_k: int = Field(default=50, ge=1, le=1000, description="seeds taken from each index")
    rrf_k: int = Field(default=60, ge=1)
    exact_scan_max: int = Field(
        default=50_000,
        ge=0,
        description="tenants with at most this many memories are searched by an exact cosine scan",
    )
    overfetch: float = Field(default=2.0, ge=1.0, description="ANN over-fetch factor for large tenants")
    max_fetch: int = Field(
        default=5_000,
        ge=1,
        description="most neighbours asked of the ANN index; beyond it the exact scan is used",
    )
    blend: str = Field(default="balanced", description="a name in graphmem.model.scoring.BLEND_PRESETS")
    fusion: Literal["linear", "rrf"] = Field(
        default="linear", description="how vector and full-text seed scores are fused (see README)"
    )
    vector_weight: float = Field(default=0.5, ge=0, le=1, description="share of cosine in linear fusion")
    hop_decay: float = Field(default=0.7, gt=0, le=1, description="activation kept per hop")
    activation_threshold: float = Field(default=0.02, ge=0, description="weaker activation stops spreading")
    beam: int = Field(default=60, ge=1, description="most memories one hop may activate")
    frontier: int = Field(default=20, ge=1, description="most memories one hop spreads from")
    max_fan: int = Field(default=200, ge=2, description="entities with this many mentions spread nothing")


PRESETS: dict[str, RetrievalPreset] = {
    "balanced": RetrievalPreset(),
    "fast": RetrievalPreset(name="fast", seed_k=20, exact_scan_max=5_000),
}


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
    # --- time limits (see graphmem.store.driver.driver_options and docs/operations.md) ---
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
    retrieval_preset: str = "balanced"
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

    # --- agent-facing interfaces (see graphmem.adapters.mcp, graphmem.adapters.rest) ---
    mcp_user_id: str | None = Field(default=None, description="the tenant the MCP server acts for")
    api_key: SecretStr | None = Field(default=None, description="the key REST clients send in X-API-Key")
    max_body_bytes: int = Field(default=1_048_576, ge=1, description="REST: larger request bodies get 413")
    protect_docs: bool = Field(default=False, description="REST: /docs and /openapi.json need a key")

    def preset(self) -> RetrievalPreset:
        return PRESETS[self.retrieval_preset]
