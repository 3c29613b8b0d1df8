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

import collections
import contextlib
import fcntl
import hashlib
import json
import logging
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import string
import subprocess
import time
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, DriverError, Neo4jError

from graphmem.errors import (
    DownloadFailed,
    PortInUse,
    PrerequisiteMissing,
    ServerError,
    ServerStartTimeout,
    ValidationError,
)
from graphmem.server import policy

logger = logging.getLogger(__name__)

USERNAME = "neo4j"
HOST = "127.0.0.1"
MIN_JAVA = 17
SUPPORTED_JAVA = (17, 21)  # Neo4j 5.26 LTS

_LAUNCHER = "org.neo4j.server.startup.Neo4jCommand"
_ADMIN = "org.neo4j.server.startup.Neo4jAdminCommand"
_ENTRY_POINT_PREFIX = "org.neo4j.server."
_LAUNCHER_JVM_OPTS = ("-Xmx256m", "-XX:+UseSerialGC")
_POMS = ("neo4j-pom.xml", "apoc-pom.xml", "gds-pom.xml")
_POM_NS = "{http://maven.apache.org/POM/4.0.0}"
_MARKER = ".graphmem-assembled.json"
_MVN_TIMEOUT = 3600.0
_LOG_ROTATE_BYTES = 20 * 1024 * 1024
_SIZE_RE = re.compile(r"^(\d+)([kmgKMG])$")
_ANSI_RE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_LIB_VERSION_RE = re.compile(r"^neo4j-(\d+\.\d+\.\d+)\.jar$")
# Environment variables the Neo4j launcher honours that would override graphmem's settings.
_DROPPED_ENV = ("JAVA_OPTS", "HEAP_SIZE", "NEO4J_DEBUG", "NEO4J_HOME", "NEO4J_CONF")
# Detach the server: the shell starts it in the background (in the new session created by
# start_new_session) and exits, so the JVM is re-parented and survives this Python process.
_SPAWN_SCRIPT = 'log="$1"; shift; "$@" >>"$log" 2>&1 </dev/null & echo $!'

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


@dataclass(frozen=True)
class _Versions:
    neo4j: str
    browser: str
    apoc: str
    gds: str


def _size_bytes(name: str, value: str) -> int:
    match = _SIZE_RE.match(value.strip())
    if match is None:
        raise ValidationError(name, f"expected a size such as '512m' or '4g', got {value!r}")
    factor = {"k": 1024, "m": 1024**2, "g": 1024**3}[match.group(2).lower()]
    return int(match.group(1)) * factor


def _tail(path: Path, lines: int) -> str:
    if lines <= 0:
        return ""
    try:
        with path.open("r", encoding="utf-8", errors="replace") as handle:
            return "".join(collections.deque(handle, maxlen=lines))
    except OSError:
        return ""


def _proc_state(pid: int) -> str | None:
    """The one-letter state of a live process ('Z' for a zombie), None if there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[-1].split()[0]


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return _proc_state(pid) != "Z"


def _process_args(pid: int) -> list[str] | None:
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


def _port_in_use(port: int) -> bool:
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


def _resource_bytes(*parts: str) -> bytes:
    node = resources.files("graphmem.server")
    for part in parts:
        node = node.joinpath(part)
    return node.read_bytes()


def _pom_property(pom: bytes, name: str) -> str:
    root = ET.fromstring(pom)  # noqa: S314 - our own bundled pom, not untrusted input
    value = root.findtext(f"{_POM_NS}properties/{_POM_NS}{name}")
    if not value:
        raise ServerError(f"bundled pom has no <{name}> property")
    return value.strip()


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
                if _port_in_use(port):
                    raise PortInUse(port, HOST)
            self._java()
            self._assemble(say)
            self._write_config()
            password = self._ensure_password(say)
            argv = self._server_command()
            versions = self._versions()
            say(f"starting Neo4j {versions.neo4j} on bolt://{HOST}:{self.bolt_port}")
            started = time.monotonic()
            pid = self._spawn(argv)
            self._write_state(pid)
            try:
                self._wait_ready(pid, password, started + timeout, say)
            except BaseException:
                if _pid_alive(pid):
                    self._terminate(pid, 60.0)
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
                self._terminate(pid, timeout)
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
            neo4j_version=self._installed_version(),
            plugins=self._installed_plugins(),
        )

    def logs(self, lines: int = 100) -> str:
        """The last ``lines`` lines of the server's console log (falls back to logs/neo4j.log)."""
        for path in (self.log_file, self.neo4j_home / "logs" / "neo4j.log"):
            if path.is_file():
                return _tail(path, lines)
        return ""

    def credentials(self) -> tuple[str, str]:
        try:
            password = self.password_file.read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            raise ServerError(
                f"no password file at {self.password_file}: start the server once (LocalServer().start())"
            ) from None
        return USERNAME, password

    # --- prerequisites -------------------------------------------------------------------------
    def _java(self) -> Path:
        if self._java_bin is not None:
            return self._java_bin
        candidates: list[Path] = []
        java_home = os.environ.get("JAVA_HOME", "").strip()
        if java_home:
            candidates.append(Path(java_home) / "bin" / "java")
        found = shutil.which("java")
        if found:
            candidates.append(Path(found))
        java = next((c for c in candidates if c.is_file() and os.access(c, os.X_OK)), None)
        if java is None:
            raise PrerequisiteMissing("Java 17 or 21 is needed to run Neo4j, but no 'java' was found")
        try:
            result = subprocess.run(
                [str(java), "-version"], capture_output=True, text=True, timeout=60, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise PrerequisiteMissing(f"could not run {java} -version: {exc}") from exc
        match = re.search(r'version "(\d+)(?:\.(\d+))?', result.stderr + result.stdout)
        if match is None:
            raise PrerequisiteMissing(f"could not read the Java version from {java} -version")
        major = int(match.group(1))
        if major == 1 and match.group(2):
            major = int(match.group(2))
        if major < MIN_JAVA:
            raise PrerequisiteMissing(f"Neo4j 5.26 needs Java 17 or 21; {java} is Java {major}")
        if major not in SUPPORTED_JAVA:
            logger.warning("Neo4j 5.26 supports Java 17 and 21; %s is Java %d", java, major)
        self._java_bin = java.resolve()
        return self._java_bin

    @staticmethod
    def _mvn() -> str:
        mvn = shutil.which("mvn")
        if mvn is None:
            raise PrerequisiteMissing("Maven ('mvn') is needed once to download Neo4j, but was not found")
        return mvn

    # --- assembling ----------------------------------------------------------------------------
    def _poms(self) -> dict[str, bytes]:
        return {name: _resource_bytes("maven", name) for name in _POMS}

    def _versions(self) -> _Versions:
        poms = self._poms()
        return _Versions(
            neo4j=_pom_property(poms["neo4j-pom.xml"], "neo4j.version"),
            browser=_pom_property(poms["neo4j-pom.xml"], "neo4j-browser.version"),
            apoc=_pom_property(poms["apoc-pom.xml"], "apoc.version"),
            gds=_pom_property(poms["gds-pom.xml"], "gds.version"),
        )

    def _expected_jars(self, versions: _Versions) -> list[Path]:
        lib, plugins = self.neo4j_home / "lib", self.neo4j_home / "plugins"
        return [
            lib / f"neo4j-{versions.neo4j}.jar",
            lib / f"neo4j-browser-{versions.browser}.jar",
            plugins / f"apoc-{versions.apoc}-core.jar",
            plugins / f"open-gds-{versions.gds}.jar",
        ]

    def _assemble(self, say: Progress) -> None:
        poms = self._poms()
        digest = hashlib.sha256()
        for name in _POMS:
            digest.update(name.encode() + b"\0" + poms[name] + b"\0")
        versions = self._versions()
        marker = self.neo4j_home / _MARKER
        expected = self._expected_jars(versions)
        try:
            recorded = json.loads(marker.read_text(encoding="utf-8")).get("digest")
        except (OSError, ValueError, AttributeError):
            recorded = None
        if recorded == digest.hexdigest() and all(jar.is_file() for jar in expected):
            return
        if self._our_pid() is not None:
            raise ServerError("the server must be stopped before it can be re-assembled")
        java = self._java()
        mvn = self._mvn()
        started = time.monotonic()
        self._build_dir.mkdir(parents=True, exist_ok=True)
        for name, data in poms.items():
            (self._build_dir / name).write_bytes(data)
        marker.unlink(missing_ok=True)
        shutil.rmtree(self.neo4j_home / "lib", ignore_errors=True)
        shutil.rmtree(self._build_dir / "target", ignore_errors=True)
        plugins = self.neo4j_home / "plugins"
        plugins.mkdir(parents=True, exist_ok=True)
        for old in [*plugins.glob("apoc-*-core.jar"), *plugins.glob("open-gds-*.jar")]:
            old.unlink()
        steps = [
            (
                "neo4j-pom.xml",
                f"downloading Neo4j {versions.neo4j} and Browser {versions.browser} with Maven (once)",
            ),
            ("apoc-pom.xml", f"building the APOC Core {versions.apoc} plugin with Maven (once)"),
            ("gds-pom.xml", f"building the OpenGDS {versions.gds} plugin with Maven (once)"),
        ]
        env = dict(os.environ)
        env["JAVA_HOME"] = str(java.parent.parent)
        for pom, message in steps:
            say(message)
            self._run_maven(mvn, pom, env)
        missing = [str(jar) for jar in expected if not jar.is_file()]
        if missing:
            raise DownloadFailed(f"Maven finished but did not produce {', '.join(missing)}")
        marker.write_text(
            json.dumps({"digest": digest.hexdigest(), "versions": versions.__dict__}, indent=2) + "\n",
            encoding="utf-8",
        )
        logger.info("assembled Neo4j in %s in %.0fs", self.neo4j_home, time.monotonic() - started)

    def _run_maven(self, mvn: str, pom: str, env: dict[str, str]) -> None:
        argv = [
            mvn,
            "-B",
            "-q",
            "-Dstyle.color=never",
            "-f",
            str(self._build_dir / pom),
            "package",
            f"-Dgraphmem.neo4j.home={self.neo4j_home}",
        ]
        log = self._build_dir / (pom.removesuffix(".xml") + ".log")
        try:
            result = subprocess.run(
                argv,
                cwd=self._build_dir,
                env=env,
                capture_output=True,
                text=True,
                timeout=_MVN_TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise DownloadFailed(f"mvn -f {pom} did not finish within {_MVN_TIMEOUT:.0f}s") from exc
        except OSError as exc:
            raise DownloadFailed(f"could not run {mvn}: {exc}") from exc
        output = _ANSI_RE.sub("", result.stdout + result.stderr)
        log.write_text(output, encoding="utf-8")
        if result.returncode != 0:
            tail = "\n".join(output.strip().splitlines()[-40:])
            raise DownloadFailed(f"mvn -f {pom} failed (exit {result.returncode}; full log {log}):\n{tail}")

    # --- configuration and password ------------------------------------------------------------
    def _write_config(self) -> None:
        conf = self.neo4j_home / "conf"
        for sub in ("conf", "data", "logs", "plugins", "import", "run"):
            (self.neo4j_home / sub).mkdir(parents=True, exist_ok=True)
        tx_max_mib = max(256, self._heap_bytes // (2 * 1024**2))
        template = string.Template(_resource_bytes("neo4j.conf.template").decode("utf-8"))
        text = template.substitute(
            bolt_port=self.bolt_port,
            http_port=self.http_port,
            heap=self.heap,
            pagecache=self.pagecache,
            tx_total_max=f"{tx_max_mib}m",
            procedure_allowlist=policy.PROCEDURE_ALLOWLIST,
            procedure_unrestricted=policy.PROCEDURE_UNRESTRICTED,
            transaction_timeout=policy.TRANSACTION_TIMEOUT,
            lock_timeout=policy.LOCK_TIMEOUT,
        )
        (conf / "neo4j.conf").write_text(text, encoding="utf-8")
        (conf / "apoc.conf").write_bytes(_resource_bytes("apoc.conf"))

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

    def _spawn(self, argv: list[str]) -> int:
        self.home.mkdir(parents=True, exist_ok=True)
        if self.log_file.is_file() and self.log_file.stat().st_size > _LOG_ROTATE_BYTES:
            self.log_file.replace(self.log_file.with_name(self.log_file.name + ".1"))
        with self.log_file.open("a", encoding="utf-8") as log:
            log.write(f"\n===== graphmem: starting Neo4j at {time.strftime('%Y-%m-%d %H:%M:%S')} =====\n")
            log.write(shlex.join(argv) + "\n")
        result = subprocess.run(
            ["/bin/sh", "-c", _SPAWN_SCRIPT, "sh", str(self.log_file), *argv],
            cwd=self.neo4j_home,
            env=self._launcher_env(),
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
        logger.info("started Neo4j (pid %d), console log %s", pid, self.log_file)
        return pid

    def _wait_ready(self, pid: int, password: str, deadline: float, say: Progress) -> None:
        uri = f"bolt://{HOST}:{self.bolt_port}"
        say(f"waiting for Bolt at {uri}")
        last_error = "no answer yet"
        while True:
            if not _pid_alive(pid):
                raise ServerError(f"the server process exited during startup; log tail:\n{self.logs(40)}")
            if time.monotonic() >= deadline:
                raise ServerStartTimeout(
                    f"Bolt at {uri} did not answer in time (last error: {last_error}); "
                    f"log tail:\n{self.logs(40)}"
                )
            try:
                with GraphDatabase.driver(uri, auth=(USERNAME, password), connection_timeout=3.0) as driver:
                    driver.verify_connectivity()
                break
            except AuthError as exc:
                raise ServerError(f"the server rejected the password in {self.password_file}: {exc}") from exc
            except (DriverError, Neo4jError, OSError) as exc:
                last_error = f"{type(exc).__name__}: {exc}"
            time.sleep(1.0)
        url = f"http://{HOST}:{self.http_port}/"
        while True:
            try:
                with urllib.request.urlopen(url, timeout=3.0) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, OSError) as exc:
                last_error = f"{type(exc).__name__}: {exc}"
            if time.monotonic() >= deadline or not _pid_alive(pid):
                raise ServerStartTimeout(
                    f"HTTP at {url} did not answer in time (last error: {last_error}); "
                    f"log tail:\n{self.logs(40)}"
                )
            time.sleep(0.5)

    @staticmethod
    def _terminate(pid: int, timeout: float) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while _pid_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        if _pid_alive(pid):
            logger.warning("Neo4j (pid %d) did not stop within %.0fs; killing it", pid, timeout)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            deadline = time.monotonic() + 30.0
            while _pid_alive(pid) and time.monotonic() < deadline:
                time.sleep(0.2)
            if _pid_alive(pid):
                raise ServerError(f"Neo4j (pid {pid}) survived SIGKILL")

    def _is_ours(self, pid: int) -> bool:
        if not _pid_alive(pid):
            return False
        args = _process_args(pid)
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

    def _installed_version(self) -> str:
        lib = self.neo4j_home / "lib"
        if lib.is_dir():
            for jar in lib.iterdir():
                match = _LIB_VERSION_RE.match(jar.name)
                if match:
                    return match.group(1)
        return ""

    def _installed_plugins(self) -> list[str]:
        plugins = self.neo4j_home / "plugins"
        if not plugins.is_dir():
            return []
        found: set[str] = set()
        for jar in plugins.glob("*.jar"):
            name = jar.name.lower()
            if name.startswith("apoc"):
                found.add("apoc")
            elif "gds" in name or "graph-data-science" in name:
                found.add("gds")
            else:
                found.add(jar.stem)
        return sorted(found)

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
