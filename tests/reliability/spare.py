"""A second managed server, on its own home and ports, that the reliability tests may reconfigure or kill.

It is seeded from the shared server's assembled jars (the Maven build is not repeated) and never touches the
shared server at 7687.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from graphmem.server import LocalServer
from graphmem.server.local import default_home

SPARE_HOME = Path(os.environ.get("GRAPHMEM_SPARE_HOME", Path(__file__).parents[2] / "benchmarks/cache/spare"))
SPARE_BOLT = int(os.environ.get("GRAPHMEM_SPARE_BOLT", "7697"))
SPARE_HTTP = int(os.environ.get("GRAPHMEM_SPARE_HTTP", "7484"))


def _seed(home: Path) -> None:
    """Copy the assembled lib/, plugins/ and marker from the default home (hard links where possible)."""
    source = default_home() / "neo4j"
    target = home / "neo4j"
    for sub in ("lib", "plugins"):
        if not (target / sub).is_dir():
            shutil.copytree(source / sub, target / sub, copy_function=_link_or_copy)
    marker = ".graphmem-assembled.json"
    if not (target / marker).is_file() and (source / marker).is_file():
        shutil.copy2(source / marker, target / marker)


def _link_or_copy(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def spare_server(
    home: Path = SPARE_HOME, bolt_port: int = SPARE_BOLT, http_port: int = SPARE_HTTP
) -> LocalServer:
    """A LocalServer on the spare home and ports (not started)."""
    home.mkdir(parents=True, exist_ok=True)
    _seed(home)
    return LocalServer(home, bolt_port=bolt_port, http_port=http_port, heap="1g", pagecache="512m")
