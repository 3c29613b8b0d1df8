"""What the managed server loads and how long anything may run on it (written into ``neo4j.conf``).

The allow-list holds exactly the plugin procedures and functions graphmem and the Browser kit (``cypher/kit``)
call, plus APOC's pure function namespaces for ``query()``. Everything else the plugins ship (APOC's load,
export, periodic, trigger and refactor procedures; GDS algorithms) is not loaded at all. Built-in ``db.*`` and
``dbms.*`` procedures are not governed by this list.
"""

from __future__ import annotations

GDS_USED = (
    "gds.version",  # health probe (Settings.gds_probe)
    "gds.graph.project",  # associate: project one tenant's memories
    "gds.graph.drop",  # associate: drop the projection
    "gds.knn.stream",  # associate: similar pairs
    "gds.util.asNode",  # associate: back from node ids
)
APOC_USED = (
    "apoc.help",  # health probe (Settings.apoc_probe)
    "apoc.version",
    # pure functions only: no side effects, useful in query() and the Browser
    "apoc.text.*",
    "apoc.coll.*",
    "apoc.map.*",
    "apoc.convert.to*",  # not apoc.convert.setJsonProperty (a write)
    "apoc.convert.from*",
    "apoc.convert.getJsonProperty*",
    "apoc.math.*",
)
PROCEDURE_ALLOWLIST = ",".join((*GDS_USED, *APOC_USED))
"""``dbms.security.procedures.allowlist``: nothing outside it is loaded."""

PROCEDURE_UNRESTRICTED = ",".join(GDS_USED)
"""``dbms.security.procedures.unrestricted``: GDS needs the internal API; APOC's functions do not."""

TRANSACTION_TIMEOUT = "15m"
"""``db.transaction.timeout``: the server's backstop for a client that sets none (graphmem sets its own,
``Settings.transaction_timeout``; the maintenance jobs run batched ``CALL {} IN TRANSACTIONS``)."""

LOCK_TIMEOUT = "60s"
"""``db.lock.acquisition.timeout``: a transaction waiting longer for a lock fails (and is retried)."""
