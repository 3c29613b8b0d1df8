"""The server's OS processes: is a pid alive (and not a zombie), its arguments, a port's use, a log's tail,
terminating a process, and waiting until a started server answers on Bolt and HTTP."""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import shlex
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, DriverError, Neo4jError

from graphmem.errors import ServerError, ServerStartTimeout
from graphmem.store.owners import process_alive as pid_alive

__all__ = ["pid_alive", "port_in_use", "process_args", "spawn", "tail", "terminate", "wait_ready"]

logger = logging.getLogger("graphmem.server.local")

HOST = "127.0.0.1"
USERNAME = "neo4j"
_LOG_ROTATE_BYTES = 20 * 1024 * 1024
# Detach the server: the shell starts it in the background (in the new session created by
# start_new_session) and exits, so the JVM is re-parented and survives this Python process.
_SPAWN_SCRIPT = 'log="$1"; shift; "$@" >>"$log" 2>&1 </dev/null & echo $!'


def tail(path: Path, lines: int) -> str:
    if lines <= 0:
        return ""
    try:
        with path.open("r", encoding="utf-8", errors="replace") as handle:
            return "".join(collections.deque(handle, maxlen=lines))
    except OSError:
        return ""


def process_args(pid: int) -> list[str] | None:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except FileNotFoundError:
        raw = b""
        if not Path("/proc").is_dir():  # not Linux: ask ps (arguments joined by spaces)
            result = subprocess.run(
                ["ps", "-o", "args=", "-p", str(pid)], capture_output=True, text=True, check=False
            )
            return result.stdout.split() if result.returncode == 0 else None
    except OSError:
        return None
    args = [part.decode(errors="replace") for part in raw.split(b"\0") if part]
    return args or None


def port_in_use(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.settimeout(1.0)
        if probe.connect_ex((HOST, port)) == 0:
            return True
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((HOST, port))
        except OSError:
            return True
    return False


def terminate(pid: int, timeout: float) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while pid_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    if pid_alive(pid):
        logger.warning("Neo4j (pid %d) did not stop within %.0fs; killing it", pid, timeout)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 30.0
        while pid_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        if pid_alive(pid):
            raise ServerError(f"Neo4j (pid {pid}) survived SIGKILL")


def wait_ready(
    ports: tuple[int, int],
    pid: int,
    password: str,
    deadline: float,
    say: Callable[[str], None],
    logs: Callable[[int], str],
) -> None:
    """Until Bolt and then HTTP answer on ``ports`` (bolt, http); the process must stay alive meanwhile."""
    uri = f"bolt://{HOST}:{ports[0]}"
    say(f"waiting for Bolt at {uri}")
    last_error = "no answer yet"
    while True:
        if not pid_alive(pid):
            raise ServerError(f"the server process exited during startup; log tail:\n{logs(40)}")
        if time.monotonic() >= deadline:
            raise ServerStartTimeout(
                f"Bolt at {uri} did not answer in time (last error: {last_error}); log tail:\n{logs(40)}"
            )
        try:
            with GraphDatabase.driver(uri, auth=(USERNAME, password), connection_timeout=3.0) as driver:
                driver.verify_connectivity()
            break
        except AuthError as exc:
            raise ServerError(f"the server rejected the stored password: {exc}") from exc
        except (DriverError, Neo4jError, OSError) as exc:
            last_error = f"{type(exc).__name__}: {exc}"
        time.sleep(1.0)
    url = f"http://{HOST}:{ports[1]}/"
    while True:
        try:
            with urllib.request.urlopen(url, timeout=3.0) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError) as exc:
            last_error = f"{type(exc).__name__}: {exc}"
        if time.monotonic() >= deadline or not pid_alive(pid):
            raise ServerStartTimeout(
                f"HTTP at {url} did not answer in time (last error: {last_error}); log tail:\n{logs(40)}"
            )
        time.sleep(0.5)


def spawn(argv: list[str], log_file: Path, *, cwd: Path, env: dict[str, str]) -> int:
    """Start ``argv`` detached (its own session, output appended to ``log_file``); its pid."""
    if log_file.is_file() and log_file.stat().st_size > _LOG_ROTATE_BYTES:
        log_file.replace(log_file.with_name(log_file.name + ".1"))
    with log_file.open("a", encoding="utf-8") as log:
        log.write(f"\n===== graphmem: starting Neo4j at {time.strftime('%Y-%m-%d %H:%M:%S')} =====\n")
        log.write(shlex.join(argv) + "\n")
    result = subprocess.run(
        ["/bin/sh", "-c", _SPAWN_SCRIPT, "sh", str(log_file), *argv],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        start_new_session=True,
        timeout=60,
        check=False,
    )
    try:
        pid = int(result.stdout.strip())
    except ValueError:
        raise ServerError(f"could not start the server process: {result.stderr.strip()}") from None
    logger.info("started Neo4j (pid %d), console log %s", pid, log_file)
    return pid
