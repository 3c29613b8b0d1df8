"""Where a GraphMemory connects: explicit arguments, the NEO4J_* settings, or the locally managed server."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar
from urllib.parse import urlsplit

import neo4j
from neo4j.exceptions import ConfigurationError as DriverConfigurationError

from graphmem.config import Settings
from graphmem.errors import ConfigurationError, ConnectionFailed
from graphmem.store.driver import Store
from graphmem.store.failures import driver_options, translate_errors

__all__ = ["open_store", "resolve_connection"]


def resolve_connection(
    uri: str | None, auth: tuple[str, str] | None, settings: Settings
) -> tuple[str, tuple[str, str]]:
    """Explicit arguments, else NEO4J_* settings, else the locally managed server's credentials."""
    uri = uri or settings.neo4j_uri
    if auth is None and settings.neo4j_password is not None:
        auth = (settings.neo4j_username or "neo4j", settings.neo4j_password)
    if uri is not None and auth is not None:
        return uri, auth
    from graphmem.server import LocalServer

    server = LocalServer(settings.home)
    status = server.status()
    if not status.running and uri is None:
        raise ConnectionFailed(
            f"no Neo4j to connect to: the local server in {status.home} is not running "
            "(start it with `graphmem server start`) and NEO4J_URI is not set"
        )
    if auth is None:
        if not status.password_file.exists():
            raise ConfigurationError(
                f"no password: set NEO4J_PASSWORD or start the local server (expected {status.password_file})"
            )
        auth = server.credentials()
    return uri or status.bolt_uri, auth


D = TypeVar("D")
BOLT_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


def checked_driver(
    named: str, uri: str, auth: tuple[str, str], settings: Settings, factory: Callable[..., D]
) -> D:
    """The driver ``factory`` (the sync or the async driver's) makes for ``uri``, or a
    :class:`ConfigurationError` naming ``named`` when the URI is malformed or not a Bolt URI (the driver's
    HTTP preview needs packages graphmem does not install, and graphmem's transactions need Bolt)."""
    scheme = uri.partition("://")[0].lower() if "://" in uri else None
    if scheme not in BOLT_SCHEMES:
        said = "has no scheme" if scheme is None else f"has the scheme {scheme!r}"
        raise ConfigurationError(
            f"{named}: {uri!r} {said}; graphmem connects over Bolt: bolt://HOST:7687 or neo4j://HOST:7687"
        )
    try:
        urlsplit(uri).port  # noqa: B018 (raises ValueError for a port that is no number or out of range)
        return factory(uri, auth=auth, **driver_options(settings))
    except (DriverConfigurationError, ValueError, ImportError) as exc:
        raise ConfigurationError(f"{named}: {uri!r} is not a usable Neo4j URI: {exc}") from exc


def open_store(
    uri: str | None, auth: tuple[str, str] | None, database: str | None, settings: Settings
) -> Store:
    """A connected :class:`Store` (connectivity verified; the driver closed again if it fails)."""
    named = "uri" if uri else "NEO4J_URI"  # which the message names: the argument or the setting
    uri, auth = resolve_connection(uri, auth, settings)
    driver = checked_driver(named, uri, auth, settings, neo4j.GraphDatabase.driver)
    with translate_errors():
        try:
            driver.verify_connectivity()
        except BaseException:  # an interrupt too: the driver and its socket are closed
            driver.close()
            raise
    return Store(
        driver,
        database or settings.neo4j_database,
        transaction_timeout=settings.transaction_timeout,
        query_timeout=settings.query_timeout,
    )
