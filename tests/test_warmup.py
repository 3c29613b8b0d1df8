"""The plan warm-up (graphmem.retrieval.warmup) on the real server: it runs recall's statements with the
parameter shapes of a real recall, and writes nothing."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from store_calls import record_transactions

from graphmem import GraphMemory
from graphmem.formation.warmup import warm_formation
from graphmem.retrieval.warmup import WARM_K, WARM_TENANT, warm_plans
from graphmem.store.queries import FILTERED


def recording(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[tuple[str, dict[str, Any]]], list[list[tuple[str, dict[str, Any]]]]]:
    """Record ``store``'s named reads and, per rehearsal, the statements its transaction runs."""
    reads: list[tuple[str, dict[str, Any]]] = []
    original_read = store.read

    def read(name: str, /, **params: Any) -> Any:
        reads.append((name, params))
        return original_read(name, **params)

    monkeypatch.setattr(store, "read", read)
    return reads, record_transactions(store, "rehearse", monkeypatch)


def test_warm_plans_runs_recalls_statements_and_writes_nothing(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem.remember("I keep my passport in the blue drawer", user_id=user_id)
    store = mem.runtime.store
    reads, rehearsals = recording(store, monkeypatch)
    filtering = mem.runtime.vector_filter.ready(store)
    count = "MATCH (n) WHERE n:RecallEvent OR n:Memory RETURN count(n) AS n"
    before = mem.runtime.store.run_readonly(count)[0]["n"]
    warm_plans(mem.runtime)
    after = mem.runtime.store.run_readonly(count)[0]["n"]

    rehearsed = [name for statements in rehearsals for name, _ in statements]
    statements = [params for run in rehearsals for _, params in run]
    assert all(len(params.get("ids", [None] * WARM_K)) == WARM_K for params in statements)  # a recall's sizes
    pools = [params for name, params in reads if name.endswith("recall_pool")]
    assert {params["lucene"] is None for params in pools} == {True, False}  # both full-text shapes
    # both vector plans (different statements): the exact scan and the indexes a large tenant is searched by
    assert {params["method"] for params in pools} == {"exact", "filtered" if filtering else "index"}
    assert mem.runtime.tenant_profiles.get(WARM_TENANT) is None  # the made-up profile is not left behind
    assert all(params["tenants"] == [WARM_TENANT] for params in pools)
    assert [params["tenants"] for name, params in reads if name == "recall_filtered"] == [[WARM_TENANT]]
    assert {"recall_write", "memory_fetch"} <= set(rehearsed)
    # the rows' read is also planned for a transaction that holds a change, as in a real recall's
    changed = [[name for name, _ in run] for run in rehearsals if ("warmup_pending_change", {}) in run]
    assert changed == [["recall_write", "warmup_pending_change", "memory_fetch"]]
    assert after == before  # the rehearsal rolled back; the warm-up tenant holds nothing
    hits = mem.recall("where is my passport?", user_id=user_id)  # the tenant's own recall still works
    assert hits and "passport" in hits[0].memory.content


def test_rehearse_rolls_back(mem: GraphMemory, user_id: str) -> None:
    """Store.rehearse runs its work (a real write, seen inside the transaction) and keeps none of it."""
    memory = mem.remember("a memory that the rehearsal forgets for a moment", user_id=user_id)
    now = datetime.now(UTC)

    def forget(tx: Any) -> Any:
        tx.run("memory_forget", id=memory.id, user_id=user_id, reason="rehearsal", now=now)
        return tx.run("memory_fetch", ids=[memory.id], tenants=[user_id], embedding=None, now=now)

    inside = mem.runtime.store.rehearse(forget)
    assert inside[0]["memory"]["status"] == "forgotten"
    after = mem.runtime.store.read(
        "memory_fetch", ids=[memory.id], tenants=[user_id], embedding=None, now=now
    )
    assert after[0]["memory"]["status"] == "active"


def test_a_serving_process_freezes_its_start_up_out_of_the_collector(mem: GraphMemory) -> None:
    """`graphmem api`, `mcp` and `worker` warm up through cli.common.warm, which ends with gc.freeze: the
    objects made at start-up leave the collector's full passes (docs/recall.md, round 16)."""
    import gc

    from graphmem.cli.common import warm

    gc.unfreeze()
    try:
        warm(mem)
        assert gc.get_freeze_count() > 10_000  # the imported modules alone are tens of thousands
    finally:
        gc.unfreeze()  # the test process goes on collecting as before


def test_warm_formation_runs_formations_statements_and_writes_nothing(
    mem: GraphMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = mem.runtime.store
    reads, rehearsals = recording(store, monkeypatch)
    count = "MATCH (n) WHERE n:Memory OR n:Entity OR n:Fact OR n:AuditEvent OR n:Session RETURN count(n) AS n"
    before = store.run_readonly(count)[0]["n"]
    warm_formation(mem.runtime)
    assert store.run_readonly(count)[0]["n"] == before  # rolled back: nothing written
    rehearsed = [[name for name, _ in statements] for statements in rehearsals]
    read_names = [name for name, _ in reads]
    assert "formation_context" in read_names
    if mem.runtime.entity_index.ready(store):  # one name and two: the list-size ranges of entity resolution
        assert read_names.count(FILTERED + "entity_similar_index") == 2
    assert all(params.get("user_id", WARM_TENANT) == WARM_TENANT for _, params in reads)
    assert len(rehearsed) == 2  # a one-turn write and a small batch: the list-size ranges plan apart
    statements = {"formation_write", "fact_current", "fact_write"}
    assert all(statements <= set(names) for names in rehearsed)
    batch = dict(rehearsals[1])["formation_write"]["plan"]
    assert batch["follows"] and batch["causes"]  # the batch chains its turns, gives a cause
    assert all(names[-1] == "audit_append" for names in rehearsed)  # the audit step, in the same transaction


def test_a_library_process_warms_up_through_the_facade(
    mem: GraphMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`mem.warm()`: the same preparation the servers make, for a long-running process of the library's own:
    recall's plans read, formation's rehearsed (rolled back), the start-up frozen out of the collector."""
    import gc

    reads, rehearsals = recording(mem.runtime.store, monkeypatch)
    before = mem.query("MATCH (n) RETURN count(n) AS n")[0]["n"]
    gc.unfreeze()
    try:
        seconds = mem.warm()
        assert gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()
    assert seconds > 0
    assert any("recall_pool" in name for name, _ in reads)
    assert any(any(name == "formation_write" for name, _ in r) for r in rehearsals)
    assert mem.query("MATCH (n) RETURN count(n) AS n")[0]["n"] == before
    reads.clear()
    gc.unfreeze()
    try:
        mem.warm(plans=False)  # the worker: the model and the freeze only
    finally:
        gc.unfreeze()
    assert not any("recall_pool" in name for name, _ in reads)
