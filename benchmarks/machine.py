"""The stamp every benchmark result carries: the machine, the software versions and the exact command."""

from __future__ import annotations

import os
import platform
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any


def _ram_gib() -> float | None:
    try:
        pages = os.sysconf("SC_PHYS_PAGES")
        size = os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None
    return round(pages * size / 2**30, 1)


def _cpu_model() -> str | None:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        return None
    return None


LOAD_AT_START = round(os.getloadavg()[0], 2)
"""The 1-minute load when the benchmark started (this module is imported at its top): a result is stamped
when it is written, at the end of its run, when the run's own work has raised the load."""


def stamp(neo4j_version: str | None = None, **extra: Any) -> dict[str, Any]:
    """Machine info + command + time, for the top of a result file: the load when the run started and when
    the result was written.

    ``neo4j_version`` comes from the server the run used (``CALL dbms.components()``).
    """
    return {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {
            "cpus": os.cpu_count(),
            "cpu_model": _cpu_model(),
            "ram_gib": _ram_gib(),
            "load_1m_at_start": LOAD_AT_START,
            "load_1m_at_end": round(os.getloadavg()[0], 2),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "neo4j": neo4j_version,
        },
        **extra,
    }


def neo4j_version(run_query: Any) -> str | None:
    """The server's version through any callable that runs Cypher and returns rows (e.g. ``mem.query``)."""
    rows = run_query("CALL dbms.components() YIELD versions RETURN versions[0] AS v")
    return str(rows[0]["v"]) if rows else None
