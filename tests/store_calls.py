"""Which named queries a test's code sends through the store (each still runs)."""

from __future__ import annotations

from typing import Any

import pytest


def record_calls(store: Any, method: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names passed to ``store.<method>`` (``read``, ``write``) from now on, in order."""
    calls: list[str] = []
    original = getattr(store, method)

    def recording(name: str, /, **params: Any) -> Any:
        calls.append(name)
        return original(name, **params)

    monkeypatch.setattr(store, method, recording)
    return calls
