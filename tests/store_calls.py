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


def record_transactions(
    store: Any, method: str, monkeypatch: pytest.MonkeyPatch
) -> list[list[tuple[str, dict[str, Any]]]]:
    """Per transaction run through ``store.<method>`` (``unit_of_work``, ``rehearse``) from now on, the named
    statements it runs and their parameters, in order."""
    transactions: list[list[tuple[str, dict[str, Any]]]] = []
    original = getattr(store, method)

    def recording(work: Any) -> Any:
        statements: list[tuple[str, dict[str, Any]]] = []
        transactions.append(statements)

        def recorded(tx: Any) -> Any:
            run = tx.run

            def named(name: str, /, **params: Any) -> Any:
                statements.append((name, params))
                return run(name, **params)

            tx.run = named
            return work(tx)

        return original(recorded)

    monkeypatch.setattr(store, method, recording)
    return transactions
