"""Auto-commit maintenance statements are idempotent: a transient error (a deadlock between concurrent inner
transactions, as the 90-day simulation met in the decay job) reruns them; time-outs and an unreachable
server do not."""

from __future__ import annotations

import neo4j.exceptions as nex
import pytest

from graphmem import errors
from graphmem.store.failures import rerun_transient


def _failing(times: int, exc: BaseException) -> tuple[list[int], object]:
    calls: list[int] = []

    def run() -> str:
        calls.append(1)
        if len(calls) <= times:
            raise exc
        return "done"

    return calls, run


def _neo4j(code: str) -> nex.Neo4jError:
    return nex.Neo4jError._hydrate_neo4j(code=code, message="test")


def test_a_deadlock_reruns_the_statement() -> None:
    calls, run = _failing(2, _neo4j("Neo.TransientError.Transaction.DeadlockDetected"))
    assert rerun_transient(run, "test") == "done"
    assert len(calls) == 3


def test_the_async_stores_translated_transient_error_reruns_too() -> None:
    calls, run = _failing(1, errors.TransientError("Neo.TransientError.Transaction.DeadlockDetected: x"))
    assert rerun_transient(run, "test") == "done"
    assert len(calls) == 2


def test_a_transient_error_that_persists_is_raised_after_the_last_run() -> None:
    calls, run = _failing(5, _neo4j("Neo.TransientError.Transaction.DeadlockDetected"))
    with pytest.raises(nex.TransientError):
        rerun_transient(run, "test", attempts=3)
    assert len(calls) == 3


@pytest.mark.parametrize(
    "exc",
    [
        _neo4j("Neo.TransientError.Transaction.TransactionTimedOut"),
        nex.ServiceUnavailable("down"),
        errors.ConnectionFailed("down"),
        errors.QueryTimeout("too slow"),
    ],
    ids=["timeout", "unavailable", "connection-failed", "query-timeout"],
)
def test_time_outs_and_an_unreachable_server_are_not_rerun(exc: BaseException) -> None:
    calls, run = _failing(1, exc)
    with pytest.raises(type(exc)):
        rerun_transient(run, "test")
    assert len(calls) == 1


def test_under_the_async_bridge_the_backoff_does_not_block_the_loop() -> None:
    """The async API runs the store's sync code in greenlets on the event loop: the pause before a rerun is
    awaited there, so other tasks run meanwhile (a thread sleep would stall them all)."""
    import asyncio

    from graphmem.store._bridge import greenlet_spawn

    ticks: list[int] = []

    async def ticker() -> None:
        while True:
            ticks.append(1)
            await asyncio.sleep(0.01)

    async def main() -> int:
        task = asyncio.create_task(ticker())
        await asyncio.sleep(0)
        calls, run = _failing(1, errors.TransientError("Neo.TransientError.Transaction.DeadlockDetected: x"))
        assert await greenlet_spawn(rerun_transient, run, "test") == "done"
        task.cancel()
        return len(calls)

    assert asyncio.run(main()) == 2
    assert len(ticks) >= 5  # the 0.2 s backoff let the ticker run
