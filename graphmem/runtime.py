"""What every use-case module needs: the store, the embedder and the settings."""

from __future__ import annotations

from dataclasses import dataclass

from .config import Settings
from .embedding import Embedder
from .store import Store


@dataclass(frozen=True)
class Runtime:
    store: Store
    embedder: Embedder
    settings: Settings
