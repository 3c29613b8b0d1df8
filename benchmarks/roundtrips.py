"""Round trips to Neo4j per call: a store wrapper counting every call that reaches the server (a unit of work
is one transaction), the same way tests/test_recall_pipeline.py counts them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from graphmem import GraphMemory
from graphmem.store.driver import Store, Tx

T = TypeVar("T")


class CountingStore:
    """The real store, counting calls by kind (``read:<query>``, ``transaction``, ...)."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self.calls: list[str] = []

    def read(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        self.calls.append(f"read:{name}")
        return self.inner.read(name, **params)

    def write(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        self.calls.append(f"write:{name}")
        return self.inner.write(name, **params)

    def write_auto(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        self.calls.append(f"write_auto:{name}")
        return self.inner.write_auto(name, **params)

    def unit_of_work(self, work: Callable[[Tx], T]) -> T:
        self.calls.append("transaction")
        return self.inner.unit_of_work(work)

    def run_readonly(self, cypher: str, params: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        self.calls.append("run_readonly")
        return self.inner.run_readonly(cypher, params)

    def run_statement(self, cypher: str, params: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        self.calls.append("run_statement")
        return self.inner.run_statement(cypher, params)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def count(mem: GraphMemory, call: Callable[[GraphMemory], object]) -> list[str]:
    """The calls ``call`` makes to the server through a copy of ``mem`` whose store counts them (its second
    run: per-client caches, such as the tenant size, are warm as in a long-lived client)."""
    store = CountingStore(mem.runtime.store)  # type: ignore[arg-type]
    counted = GraphMemory(store, mem.embedder, mem.runtime.settings)  # type: ignore[arg-type]
    call(counted)
    store.calls.clear()
    call(counted)
    return store.calls
