"""The one seam to Neo4j: runs named queries, translates driver errors, converts values.

Only this module (and the schema step) talks to the driver. Every value travels as a query parameter.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar

import neo4j
import neo4j.exceptions as nex
from neo4j.time import Date, DateTime

from . import errors
from .queries import query

logger = logging.getLogger(__name__)

T = TypeVar("T")
Row = dict[str, Any]


def to_native(value: Any) -> Any:
    """Neo4j temporal values to Python ones, recursively."""
    if isinstance(value, DateTime | Date):
        return value.to_native()
    if isinstance(value, list):
        return [to_native(v) for v in value]
    if isinstance(value, dict):
        return {k: to_native(v) for k, v in value.items()}
    if isinstance(value, neo4j.graph.Node):
        return {k: to_native(v) for k, v in value.items()}
    return value


@contextmanager
def translate_errors() -> Iterator[None]:
    """Turn driver exceptions into graphmem's error tree."""
    try:
        yield
    except nex.AuthError as exc:
        raise errors.ConfigurationError(f"Neo4j rejected the credentials: {exc.message}") from exc
    except (nex.ServiceUnavailable, nex.SessionExpired) as exc:
        raise errors.ConnectionFailed(f"Neo4j is unreachable: {exc}") from exc
    except nex.TransientError as exc:
        raise errors.TransientError(f"{exc.code}: {exc.message}") from exc
    except nex.Neo4jError as exc:
        raise errors.StoreError(f"{exc.code}: {exc.message}") from exc
    except nex.DriverError as exc:
        raise errors.StoreError(str(exc)) from exc


class Tx:
    """A transaction handed to unit-of-work functions: runs named queries inside it."""

    def __init__(self, tx: neo4j.ManagedTransaction) -> None:
        self._tx = tx

    def run(self, name: str, /, **params: Any) -> list[Row]:
        result = self._tx.run(query(name), params)
        return [to_native(r.data()) for r in result]


class Store:
    """Runs graphmem's named queries against one database."""

    def __init__(self, driver: neo4j.Driver, database: str = "neo4j") -> None:
        self._driver = driver
        self.database = database

    @property
    def driver(self) -> neo4j.Driver:
        return self._driver

    def close(self) -> None:
        self._driver.close()

    def _execute(
        self, routing: neo4j.RoutingControl, cypher: str, params: Mapping[str, Any], label: str
    ) -> list[Row]:
        started = time.perf_counter()
        with translate_errors():
            records, _, _ = self._driver.execute_query(
                cypher,
                dict(params),
                database_=self.database,
                routing_=routing,
            )
        logger.debug("%s: %d rows in %.1f ms", label, len(records), (time.perf_counter() - started) * 1000)
        return [to_native(r.data()) for r in records]

    def read(self, name: str, /, **params: Any) -> list[Row]:
        """Run a named read query (read routing, auto-retried on transient errors)."""
        return self._execute(neo4j.RoutingControl.READ, query(name), params, name)

    def write(self, name: str, /, **params: Any) -> list[Row]:
        """Run a named write query in its own transaction."""
        return self._execute(neo4j.RoutingControl.WRITE, query(name), params, name)

    def unit_of_work(self, work: Callable[[Tx], T]) -> T:
        """Run several named queries in one write transaction: all of them happen, or none."""
        with translate_errors(), self._driver.session(database=self.database) as session:
            return session.execute_write(lambda tx: work(Tx(tx)))

    def run_readonly(self, cypher: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        """The read-only escape hatch: the user's own Cypher in a read transaction."""

        def work(tx: neo4j.ManagedTransaction) -> list[Row]:
            return [to_native(r.data()) for r in tx.run(cypher, dict(params or {}))]

        with (
            translate_errors(),
            self._driver.session(database=self.database, default_access_mode=neo4j.READ_ACCESS) as session,
        ):
            return session.execute_read(work)

    def write_auto(self, name: str, /, **params: Any) -> list[Row]:
        """Run a named write query in an auto-commit transaction (needed by ``CALL { } IN TRANSACTIONS``).

        Not retried: the batched maintenance statements are idempotent, their callers rerun them.
        """
        started = time.perf_counter()
        with translate_errors(), self._driver.session(database=self.database) as session:
            records = list(session.run(query(name), params))
        logger.debug("%s: %d rows in %.1f ms", name, len(records), (time.perf_counter() - started) * 1000)
        return [to_native(r.data()) for r in records]

    def run_statement(self, cypher: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        """Run one statement given as text (schema DDL only)."""
        return self._execute(neo4j.RoutingControl.WRITE, cypher, params or {}, "statement")
