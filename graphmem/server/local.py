"""A local Neo4j Community server assembled from Maven Central and run as a detached Java process.

Layout under ``home`` (default :func:`default_home`)::

    build/            the pom files and Maven's target/ and logs
    neo4j/            NEO4J_HOME: lib/ (Maven copy-dependencies), plugins/ (APOC Core, OpenGDS),
                      conf/ (rewritten on every start), data/, logs/, run/, import/
    password          the generated password of user "neo4j" (mode 0600)
    server.json       pid and ports of the running server
    server.log        stdout/stderr of the server process
    .lock             serialises assemble/start/stop between processes

The server is started exactly as ``bin/neo4j console`` would start it: the real launcher
(``org.neo4j.server.startup.Neo4jCommand console --dry-run``) computes the JVM command line from
``neo4j.conf``, and graphmem runs that command itself, detached in its own session, so the pid it
records is the server's JVM and the server outlives the Python process that started it.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import re
import secrets
import shlex
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from graphmem.errors import (
    PortInUse,
    ServerError,
    ValidationError,
)
from graphmem.server import assembly, process
from graphmem.server.process import HOST, USERNAME

logger = logging.getLogger(__name__)


_LAUNCHER = "org.neo4j.server.startup.Neo4jCommand"
_ADMIN = "org.neo4j.server.startup.Neo4jAdminCommand"
_ENTRY_POINT_PREFIX = "org.neo4j.server."
_LAUNCHER_JVM_OPTS = ("-Xmx256m", "-XX:+UseSerialGC")
_SIZE_RE = re.compile(r"^(\d+)([kmgKMG])$")
# Environment variables the Neo4j launcher honours that would override graphmem's settings.
_DROPPED_ENV = ("JAVA_OPTS", "HEAP_SIZE", "NEO4J_DEBUG", "NEO4J_HOME", "NEO4J_CONF")

Progress = Callable[[str], None]


def default_home() -> Path:
    """``$GRAPHMEM_HOME`` if set, else ``~/.local/share/graphmem``."""
    env = os.environ.get("GRAPHMEM_HOME", "").strip()
    if env:
        return Path(env).expanduser()
    return Path.home() / ".local" / "share" / "graphmem"


@dataclass(frozen=True)
class ServerStatus:
    running: bool
    pid: int | None
    home: Path
    bolt_uri: str
    browser_url: str
    username: str
    password_file: Path
    neo4j_version: str
    plugins: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "running": self.running,
            "pid": self.pid,
            "home": str(self.home),
            "bolt_uri": self.bolt_uri,
            "browser_url": self.browser_url,
            "username": self.username,
            "password_file": str(self.password_file),
            "neo4j_version": self.neo4j_version,
            "plugins": list(self.plugins),
        }


def _size_bytes(name: str, value: str) -> int:
    match = _SIZE_RE.match(value.strip())
    if match is None:
        raise ValidationError(name, f"expected a size such as '512m' or '4g', got {value!r}")
    factor = {"k": 1024, "m": 1024**2, "g": 1024**3}[match.group(2).lower()]
    return int(match.group(1)) * factor


class LocalServer:
    """Assemble, start, stop and inspect the local Neo4j server living under ``home``."""

    def __init__(
        self,
        home: Path | None = None,
        *,
        bolt_port: int = 7687,
        http_port: int = 7474,
        heap: str = "4g",
        pagecache: str = "4g",
    ) -> None:
        for name, port in (("bolt_port", bolt_port), ("http_port", http_port)):
            if not 1 <= port <= 65535:
                raise ValidationError(name, f"port out of range: {port}")
        if bolt_port == http_port:
            raise ValidationError("http_port", "must differ from bolt_port")
        self._heap_bytes = _size_bytes("heap", heap)
        _size_bytes("pagecache", pagecache)
        self.home = (home if home is not None else default_home()).expanduser().absolute()
        self.bolt_port = bolt_port
        self.http_port = http_port
        self.heap = heap.strip()
        self.pagecache = pagecache.strip()
        self._java_bin: Path | None = None

    # --- paths ---------------------------------------------------------------------------------
    @property
    def neo4j_home(self) -> Path:
        return self.home / "neo4j"

    @property
    def password_file(self) -> Path:
        return self.home / "password"

    @property
    def log_file(self) -> Path:
        return self.home / "server.log"

    @property
    def _build_dir(self) -> Path:
        return self.home / "build"

    @property
    def _state_file(self) -> Path:
        return self.home / "server.json"

    # --- public API ----------------------------------------------------------------------------
    def assemble(self, progress: Progress | None = None) -> None:
        """Build ``neo4j/lib`` and ``neo4j/plugins`` with Maven once; a no-op when already done."""
        with self._locked():
            self._assemble(self._reporter(progress))

    def start(self, *, timeout: float = 240, progress: Progress | None = None) -> ServerStatus:
        """Start the server (assembling it first if needed); return at once if it already runs."""
        say = self._reporter(progress)
        with self._locked():
            current = self.status()
            if current.running:
                if current.bolt_uri != f"bolt://{HOST}:{self.bolt_port}":
                    logger.warning("server in %s already runs at %s", self.home, current.bolt_uri)
                return current
            self._clear_state()
            for port in (self.bolt_port, self.http_port):
                if process.port_in_use(port):
                    raise PortInUse(port, HOST)
            self._java()
            self._assemble(say)
            self._write_config()
            password = self._ensure_password(say)
            self._clear_stale_pid_file()
            argv = self._server_command()
            versions = assembly.versions()
            say(f"starting Neo4j {versions.neo4j} on bolt://{HOST}:{self.bolt_port}")
            started = time.monotonic()
            pid = self._spawn(argv)
            self._write_state(pid)
            try:
                process.wait_ready(
                    (self.bolt_port, self.http_port), pid, password, started + timeout, say, self.logs
                )
            except BaseException:
                if process.pid_alive(pid):
                    process.terminate(pid, 60.0)
                self._clear_state()
                raise
            say(f"Neo4j is ready ({time.monotonic() - started:.0f}s)")
            return self.status()

    def stop(self, *, timeout: float = 120) -> None:
        """SIGTERM the server, wait up to ``timeout`` seconds, then SIGKILL; a no-op if not running."""
        with self._locked():
            pid = self._our_pid()
            if pid is not None:
                logger.info("stopping Neo4j (pid %d)", pid)
                process.terminate(pid, timeout)
            self._clear_state()

    def status(self) -> ServerStatus:
        pid = self._our_pid()
        bolt_port, http_port = self.bolt_port, self.http_port
        state = self._read_state()
        if pid is not None and state is not None:
            recorded_bolt, recorded_http = state.get("bolt_port"), state.get("http_port")
            bolt_port = recorded_bolt if isinstance(recorded_bolt, int) else bolt_port
            http_port = recorded_http if isinstance(recorded_http, int) else http_port
        return ServerStatus(
            running=pid is not None,
            pid=pid,
            home=self.home,
            bolt_uri=f"bolt://{HOST}:{bolt_port}",
            browser_url=f"http://{HOST}:{http_port}/browser/",
            username=USERNAME,
            password_file=self.password_file,
            neo4j_version=assembly.installed_version(self.neo4j_home),
            plugins=assembly.installed_plugins(self.neo4j_home),
        )

    def logs(self, lines: int = 100) -> str:
        """The last ``lines`` lines of the server's console log (falls back to logs/neo4j.log)."""
        for path in (self.log_file, self.neo4j_home / "logs" / "neo4j.log"):
            if path.is_file():
                return process.tail(path, lines)
        return ""

    def credentials(self) -> tuple[str, str]:
        try:
            password = self.password_file.read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            raise ServerError(
                f"no password file at {self.password_file}: start the server once (LocalServer().start())"
            ) from None
        return USERNAME, password

    # --- prerequisites and assembly (graphmem.server.assembly) --------------------------------------
    def _java(self) -> Path:
        if self._java_bin is None:
            self._java_bin = assembly.find_java()
        return self._java_bin

    def _assemble(self, say: Progress) -> None:
        assembly.assemble(
            self.neo4j_home,
            self._build_dir,
            say,
            running=lambda: self._our_pid() is not None,
            java=self._java,
        )

    # --- configuration and password ------------------------------------------------------------
    def _write_config(self) -> None:
        assembly.write_config(
            self.neo4j_home, self.bolt_port, self.http_port, self.heap, self.pagecache, self._heap_bytes
        )

    def _ensure_password(self, say: Progress) -> str:
        system_db = self.neo4j_home / "data" / "databases" / "system"
        if self.password_file.is_file():
            os.chmod(self.password_file, 0o600)
            password = self.password_file.read_text(encoding="utf-8").strip()
        else:
            if system_db.exists():
                raise ServerError(
                    f"{self.password_file} is missing but the database in {self.neo4j_home / 'data'} "
                    "already has a password; restore the file or delete the data directory"
                )
            password = secrets.token_urlsafe(24)
            while password.startswith("-"):  # would be read as an option by neo4j-admin
                password = secrets.token_urlsafe(24)
            self.home.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.password_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(password + "\n")
        if not system_db.exists():
            say("setting the initial password")
            result = self._run_launcher(_ADMIN, "dbms", "set-initial-password", password)
            if result.returncode != 0:
                raise ServerError(f"neo4j-admin dbms set-initial-password failed:\n{result.stdout[-2000:]}")
        return password

    # --- processes -----------------------------------------------------------------------------
    def _launcher_env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in _DROPPED_ENV}
        env["NEO4J_HOME"] = str(self.neo4j_home)
        env["NEO4J_CONF"] = str(self.neo4j_home / "conf")
        return env

    def _run_launcher(self, main_class: str, *args: str) -> subprocess.CompletedProcess[str]:
        argv = [
            str(self._java()),
            *_LAUNCHER_JVM_OPTS,
            "-cp",
            str(self.neo4j_home / "lib" / "*"),
            f"-Dbasedir={self.neo4j_home}",
            main_class,
            *args,
        ]
        return subprocess.run(
            argv,
            cwd=self.neo4j_home,
            env=self._launcher_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=300,
            check=False,
        )

    def _server_command(self) -> list[str]:
        """The server's JVM command line, as computed by ``neo4j console --dry-run``."""
        result = self._run_launcher(_LAUNCHER, "console", "--dry-run")
        lines = [line for line in result.stdout.splitlines() if line.strip()]
        if result.returncode != 0 or not lines:
            raise ServerError(f"neo4j console --dry-run failed (exit {result.returncode}):\n{result.stdout}")
        argv = shlex.split(lines[-1])
        if (
            not argv
            or not Path(argv[0]).name.startswith("java")
            or not any(arg.startswith(_ENTRY_POINT_PREFIX) for arg in argv)
        ):
            raise ServerError(f"unexpected output of neo4j console --dry-run:\n{result.stdout}")
        return argv

    def _clear_stale_pid_file(self) -> None:
        """Remove Neo4j's own pid file when it names no server of this home (a process gone, another program,
        or a zombie: a JVM killed where nothing reaps it at once, as in a container without an init), which
        Neo4j's launcher counts as running ("Neo4j is already running"). A server of this home that graphmem
        did not start keeps its file, and the launcher refuses rightly."""
        path = self.neo4j_home / "run" / "neo4j.pid"
        try:
            pid = int(path.read_text(encoding="utf-8").strip())
        except (OSError, ValueError):
            return
        if not self._is_ours(pid):
            logger.info("removing Neo4j's stale pid file (pid %d is no server of %s)", pid, self.home)
            path.unlink(missing_ok=True)

    def _spawn(self, argv: list[str]) -> int:
        self.home.mkdir(parents=True, exist_ok=True)
        return process.spawn(argv, self.log_file, cwd=self.neo4j_home, env=self._launcher_env())

    def _is_ours(self, pid: int) -> bool:
        if not process.pid_alive(pid):
            return False
        args = process.process_args(pid)
        if not args or not Path(args[0]).name.startswith("java"):
            return False
        if not any(arg.startswith(_ENTRY_POINT_PREFIX) for arg in args):
            return False
        for arg in args:
            if arg.startswith("--home-dir="):
                with contextlib.suppress(OSError):
                    return Path(arg.removeprefix("--home-dir=")).resolve() == self.neo4j_home.resolve()
        return False

    def _our_pid(self) -> int | None:
        state = self._read_state()
        if state is None:
            return None
        pid = state.get("pid")
        if isinstance(pid, int) and self._is_ours(pid):
            return pid
        return None

    # --- state files ---------------------------------------------------------------------------
    def _read_state(self) -> dict[str, object] | None:
        try:
            data = json.loads(self._state_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def _write_state(self, pid: int) -> None:
        state = {"pid": pid, "bolt_port": self.bolt_port, "http_port": self.http_port, "started": time.time()}
        tmp = self._state_file.with_suffix(".tmp")
        tmp.write_text(json.dumps(state) + "\n", encoding="utf-8")
        tmp.replace(self._state_file)

    def _clear_state(self) -> None:
        self._state_file.unlink(missing_ok=True)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        self.home.mkdir(parents=True, exist_ok=True)
        with (self.home / ".lock").open("a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    @staticmethod
    def _reporter(progress: Progress | None) -> Progress:
        def say(message: str) -> None:
            logger.info("%s", message)
            if progress is not None:
                progress(message)

        return say


__all__ = ["LocalServer", "ServerStatus", "default_home"]
