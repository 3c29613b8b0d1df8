"""The spare server (second managed Neo4j on its own home and ports) for the tests marked ``reliability``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graphmem.server import LocalServer
from tests.reliability.spare import spare_server


@pytest.fixture(scope="session")
def spare() -> Iterator[LocalServer]:
    """Started once per run (this box needs minutes), stopped at the end."""
    server = spare_server()
    server.start(timeout=900)
    yield server
    server.stop()
