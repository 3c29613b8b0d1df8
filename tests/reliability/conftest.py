"""The spare server (second managed Neo4j on its own home and ports) for the tests marked ``reliability``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graphmem.server import LocalServer
from tests.reliability import spare as spare_mod


@pytest.fixture(scope="session")
def spare() -> Iterator[LocalServer]:
    """Started once per run (a start takes minutes on a loaded box, see tests/reliability/spare.py), reused by
    every test that needs it (the kill tests restart it), stopped at the end."""
    server = spare_mod.spare_server()
    spare_mod.start(server)
    yield server
    server.stop()
