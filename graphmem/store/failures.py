"""Driver errors in graphmem's error tree, the driver options every connection uses, and the rerun of
auto-commit maintenance statements after a transient error."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

import neo4j
import neo4j.exceptions as nex

from graphmem import errors
from graphmem.store._bridge import pause

logger = logging.getLogger(__name__)

T = TypeVar("T")


class Timeouts(Protocol):
    """The settings that bound how long a call may take (see :class:`graphmem.config.Settings`)."""

    connect_timeout: float
    transaction_timeout: float
    query_timeout: float


def driver_options(settings: Timeouts) -> dict[str, Any]:
    """Options of every driver graphmem opens (sync or async): fail fast when the server is down.

    ``connect_timeout`` is the whole budget for reaching the server: half for opening one connection, half
    for the driver's retries (it retries unreachable servers and transient errors until that time is spent).
    """
    budget = settings.connect_timeout
    return {
        # A young graph lacks properties that queries mention (expired_at, ...): not worth a warning.
        "notifications_disabled_classifications": [neo4j.NotificationDisabledClassification.UNRECOGNIZED],
        "connection_timeout": budget / 2,
        "connection_acquisition_timeout": budget,
        "max_transaction_retry_time": budget / 2,
    }


AUTO_ATTEMPTS = 3
"""Runs of an auto-commit maintenance statement before a transient error (a deadlock between its concurrent
inner transactions and another writer, a leader switch) is raised; its callers' statements are idempotent."""


def rerun_transient(run: Callable[[], T], name: str, attempts: int = AUTO_ATTEMPTS) -> T:
    """``run()``, rerun after a transient driver error, up to ``attempts`` runs (backoff 0.2 s, 0.4 s, ...).
    Time-outs and an unreachable server are not rerun: they would only wait longer for the same answer."""
    for attempt in range(1, attempts + 1):
        try:
            return run()
        except (nex.ServiceUnavailable, nex.SessionExpired, errors.ConnectionFailed):
            raise
        except (nex.TransientError, errors.TransientError) as exc:  # the async store has translated it
            if attempt == attempts or "TransactionTimedOut" in str(getattr(exc, "code", None) or exc):
                raise
            logger.info("%s: %s, run %d of %d; running it again", name, exc, attempt, attempts)
            pause(0.2 * 2 ** (attempt - 1))  # awaited on the loop under the async bridge
    raise AssertionError("unreachable")  # pragma: no cover


ENTITY_GONE = "Neo.ClientError.Statement.EntityNotFound"  # found, then deleted by a concurrent transaction


class EntityGone(errors.TransientError):
    """What a statement read was deleted meanwhile by another call: running it again sees the store as is."""


@contextmanager
def translate_errors() -> Iterator[None]:
    """Turn driver exceptions into graphmem's error tree."""
    try:
        yield
    except nex.AuthError as exc:
        raise errors.ConfigurationError(f"Neo4j rejected the credentials: {exc.message}") from exc
    except (nex.ServiceUnavailable, nex.SessionExpired) as exc:
        said = " ".join(str(exc).split())  # the driver's message spans lines: one, as every error's
        raise errors.ConnectionFailed(f"Neo4j is unreachable: {said}") from exc
    except nex.Neo4jError as exc:
        said = f"{exc.code}: {exc.message}"
        if exc.code and "TransactionTimedOut" in exc.code:
            raise errors.QueryTimeout(f"the query ran past its time limit ({said})") from exc
        if isinstance(exc, nex.TransientError):
            raise errors.TransientError(said) from exc
        if exc.code == ENTITY_GONE:
            raise EntityGone(f"{said} (a concurrent call deleted what this one read)") from exc
        raise errors.StoreError(said) from exc
    except nex.DriverError as exc:
        if str(exc) == "Driver closed":  # the neo4j driver's words for a call after close()
            raise errors.StoreError(
                "this memory is closed (close() was called, or its `with` block ended): connect again"
            ) from exc
        raise errors.StoreError(str(exc)) from exc
