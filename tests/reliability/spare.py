"""A second managed server, on its own home and ports, that the reliability tests may reconfigure or kill.

It is seeded from the shared server's assembled jars (the Maven build is not repeated) and never touches the
shared server at 7687.

Why a start takes minutes on a loaded box (measured on the shared 2-core machine, load 2 to 18): the JVM
scans every class of the APOC and GDS plugin jars (~45 s of CPU, 60-100 s of wall time under load) and a
database killed with SIGKILL first replays its transaction log; a start took 110 s (fresh store) and 165 s
(after kill -9), above the default 240 s budget once ~7 other sessions compete for the two cores. Hence
``START_TIMEOUT``. And right after SIGKILL the kernel is still tearing the JVM down: the pid is gone from
``status()`` while Bolt's port is still bound, so an immediate ``start()`` raised ``PortInUse``;
:func:`kill9` waits for the ports to be free.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import time
from pathlib import Path

from graphmem.server import LocalServer
from graphmem.server.local import default_home

SPARE_HOME = Path(os.environ.get("GRAPHMEM_SPARE_HOME", Path(__file__).parents[2] / "benchmarks/cache/spare"))
SPARE_BOLT = int(os.environ.get("GRAPHMEM_SPARE_BOLT", "7697"))
SPARE_HTTP = int(os.environ.get("GRAPHMEM_SPARE_HTTP", "7484"))
START_TIMEOUT = float(os.environ.get("GRAPHMEM_SPARE_START_TIMEOUT", "900"))
"""Seconds a spare start may take (see the module docstring for why not the default 240)."""


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


def _bound(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def _gone(pid: int) -> bool:
    """No such process, or only its zombie (which holds no socket)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[-1].split()[0] == "Z"


def kill9(server: LocalServer, *, settle: float = 120.0) -> int:
    """SIGKILL the spare server's JVM (never the shared one: refuses any other port) and wait until the
    process and its ports are gone. Returns the pid killed."""
    if server.bolt_port == 7687 or server.home == default_home():
        raise RuntimeError("kill9 is for the spare server only")
    pid = server.status().pid
    if pid is None:
        raise RuntimeError("the spare server is not running")
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + settle
    while time.monotonic() < deadline:
        if _gone(pid) and not any(_bound(p) for p in (server.bolt_port, server.http_port)):
            return pid
        time.sleep(0.2)
    raise RuntimeError(f"the killed server (pid {pid}) still holds its ports after {settle:.0f}s")


def start(server: LocalServer) -> float:
    """Start (or restart) the spare server with the generous budget; returns the seconds it took."""
    began = time.monotonic()
    server.start(timeout=START_TIMEOUT)
    return time.monotonic() - began
