"""Run graphmem's synchronous code over asyncio with greenlets (the async API's only mechanism).

:func:`greenlet_spawn` runs a plain function in a child greenlet; whenever that function reaches
:func:`await_only` (the async store, the embedder), the child switches back to the coroutine that spawned
it, which awaits the awaitable on the event loop and switches back in with its result or exception. The
business logic is written once, synchronously; only the store and the embedder know they are async. The
same shape as SQLAlchemy's asyncio extension (``sqlalchemy.util._concurrency_py3k``).
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar, cast

import greenlet

from graphmem.errors import ConfigurationError

P = ParamSpec("P")
T = TypeVar("T")


class _BridgeGreenlet(greenlet.greenlet):  # type: ignore[misc]
    """A child greenlet that knows the greenlet (the one running the event loop) awaiting for it."""

    def __init__(self, fn: Callable[..., Any], driver: greenlet.greenlet) -> None:
        super().__init__(fn, driver)
        self.driver = driver
        self.gr_context = driver.gr_context  # contextvars of the awaiting task are seen by the sync code


def in_bridge() -> bool:
    """True in code run by :func:`greenlet_spawn`, where :func:`await_only` may be called."""
    return isinstance(greenlet.getcurrent(), _BridgeGreenlet)


def await_only(awaitable: Awaitable[T]) -> T:
    """Await ``awaitable`` from synchronous code running under :func:`greenlet_spawn`; return its result."""
    current = greenlet.getcurrent()
    if not isinstance(current, _BridgeGreenlet):
        close = getattr(awaitable, "close", None)
        if close is not None:  # no "coroutine was never awaited" warning on top of the error
            close()
        raise ConfigurationError(
            "an async graphmem store was used outside the event loop bridge: call it through "
            "AsyncGraphMemory (await mem.method(...)), not through a synchronous GraphMemory"
        )
    return cast(T, current.driver.switch(awaitable))


async def greenlet_spawn(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """Run the synchronous ``fn(*args, **kwargs)``, awaiting on this loop whatever it hands to await_only."""
    child = _BridgeGreenlet(fn, greenlet.getcurrent())
    result: Any = child.switch(*args, **kwargs)
    while not child.dead:
        try:
            value = await result
        except BaseException:
            result = child.throw(*sys.exc_info())
        else:
            result = child.switch(value)
    return cast(T, result)


def pause(seconds: float) -> None:
    """Wait without blocking an event loop: under the bridge the wait is awaited on the loop (other tasks run
    meanwhile), elsewhere the thread sleeps."""
    if in_bridge():
        await_only(asyncio.sleep(seconds))
    else:
        time.sleep(seconds)
