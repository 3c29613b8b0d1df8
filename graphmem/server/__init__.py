"""The locally managed Neo4j server of graphmem.

A real Neo4j Community server (plus APOC Core and OpenGDS) assembled once from Maven Central into
``<home>/neo4j`` and run as a detached Java process on loopback only::

    from graphmem.server import LocalServer

    status = LocalServer().start()          # assembles on first use, idempotent
    user, password = LocalServer().credentials()
"""

from __future__ import annotations

from graphmem.server.local import LocalServer, ServerStatus, default_home

__all__ = ["LocalServer", "ServerStatus", "default_home"]
