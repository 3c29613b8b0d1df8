"""Assembling the server once: Java and Maven found, Neo4j, Browser, APOC Core and OpenGDS fetched from Maven
Central by the bundled poms into ``neo4j/lib`` and ``neo4j/plugins``, and what an assembled home holds."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import string
import subprocess
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from graphmem.errors import DownloadFailed, PrerequisiteMissing, ServerError
from graphmem.server import policy

__all__ = [
    "Versions",
    "assemble",
    "find_java",
    "find_mvn",
    "installed_plugins",
    "installed_version",
    "resource_bytes",
    "versions",
    "write_config",
]

logger = logging.getLogger("graphmem.server.local")

NEO4J_LINE = "2026.01"
MIN_JAVA = 21
SUPPORTED_JAVA = (21, 25)  # Neo4j 2026.01
_JVM_FOLDERS = (("/usr/lib/jvm", "bin/java"), ("/Library/Java/JavaVirtualMachines", "Contents/Home/bin/java"))
_POMS = ("neo4j-pom.xml", "apoc-pom.xml", "gds-pom.xml")
_POM_NS = "{http://maven.apache.org/POM/4.0.0}"
_MARKER = ".graphmem-assembled.json"
_MVN_TIMEOUT = 3600.0
_ANSI_RE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_LIB_VERSION_RE = re.compile(r"^neo4j-(\d+\.\d+\.\d+)\.jar$")


@dataclass(frozen=True)
class Versions:
    neo4j: str
    browser: str
    apoc: str
    gds: str


def resource_bytes(*parts: str) -> bytes:
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


def _java_candidates() -> list[Path]:
    """``$JAVA_HOME/bin/java``, ``java`` on the PATH, then the JDKs in the usual install folders, newest
    name first (``/usr/lib/jvm`` on Debian and Ubuntu, ``/Library/Java/JavaVirtualMachines`` on macOS)."""
    candidates: list[Path] = []
    java_home = os.environ.get("JAVA_HOME", "").strip()
    if java_home:
        candidates.append(Path(java_home) / "bin" / "java")
    found = shutil.which("java")
    if found:
        candidates.append(Path(found))
    for folder, inner in _JVM_FOLDERS:
        root = Path(folder)
        if root.is_dir():
            candidates.extend(sorted((jdk / inner for jdk in root.iterdir()), reverse=True))
    return [c for c in candidates if c.is_file() and os.access(c, os.X_OK)]


def java_major(java: Path) -> int | None:
    """The major version ``java -version`` reports, None when it cannot be run or read."""
    try:
        result = subprocess.run(
            [str(java), "-version"], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r'version "(\d+)(?:\.(\d+))?', result.stderr + result.stdout)
    if match is None:
        return None
    major = int(match.group(1))
    return int(match.group(2)) if major == 1 and match.group(2) else major


def find_java() -> Path:
    """A Java that runs the pinned Neo4j (21 or newer): ``$JAVA_HOME`` first, then ``java`` on the PATH,
    then the JDKs installed in the usual folders. A machine whose default Java is 17 (Debian 12) but which
    has a newer JDK beside it needs no setting."""
    seen: list[str] = []
    for java in _java_candidates():
        major = java_major(java)
        seen.append(f"{java} (Java {major if major is not None else '?'})")
        if major is not None and major >= MIN_JAVA:
            if major not in SUPPORTED_JAVA:
                logger.warning(
                    "Neo4j %s is tested with Java 21 and 25; %s is Java %d", NEO4J_LINE, java, major
                )
            return java.resolve()
    found = "; found " + ", ".join(seen) if seen else "; no 'java' was found"
    raise PrerequisiteMissing(
        f"Neo4j {NEO4J_LINE} needs Java {MIN_JAVA} or newer{found}. Install a JDK 21 or 25 (Debian 13: "
        "apt install openjdk-21-jre-headless; elsewhere Temurin from adoptium.net) or set JAVA_HOME to one"
    )


def find_mvn() -> str:
    mvn = shutil.which("mvn")
    if mvn is None:
        raise PrerequisiteMissing("Maven ('mvn') is needed once to download Neo4j, but was not found")
    return mvn


def _poms() -> dict[str, bytes]:
    return {name: resource_bytes("maven", name) for name in _POMS}


def versions() -> Versions:
    """The versions the bundled poms pin."""
    poms = _poms()
    return Versions(
        neo4j=_pom_property(poms["neo4j-pom.xml"], "neo4j.version"),
        browser=_pom_property(poms["neo4j-pom.xml"], "neo4j-browser.version"),
        apoc=_pom_property(poms["apoc-pom.xml"], "apoc.version"),
        gds=_pom_property(poms["gds-pom.xml"], "gds.version"),
    )


def _expected_jars(neo4j_home: Path, versions: Versions) -> list[Path]:
    lib, plugins = neo4j_home / "lib", neo4j_home / "plugins"
    return [
        lib / f"neo4j-{versions.neo4j}.jar",
        lib / f"neo4j-browser-{versions.browser}.jar",
        plugins / f"apoc-{versions.apoc}-core.jar",
        plugins / f"open-gds-{versions.gds}.jar",
    ]


def assemble(
    neo4j_home: Path,
    build_dir: Path,
    say: Callable[[str], None],
    *,
    running: Callable[[], bool],
    java: Callable[[], Path],
) -> None:
    """Build ``neo4j_home``'s lib/ and plugins/ with Maven in ``build_dir``; a no-op when already done."""
    poms = _poms()
    digest = hashlib.sha256()
    for name in _POMS:
        digest.update(name.encode() + b"\0" + poms[name] + b"\0")
    pinned = versions()
    marker = neo4j_home / _MARKER
    expected = _expected_jars(neo4j_home, pinned)
    try:
        recorded = json.loads(marker.read_text(encoding="utf-8")).get("digest")
    except (OSError, ValueError, AttributeError):
        recorded = None
    if recorded == digest.hexdigest() and all(jar.is_file() for jar in expected):
        return
    if running():
        raise ServerError("the server must be stopped before it can be re-assembled")
    java_bin = java()
    mvn = find_mvn()
    started = time.monotonic()
    build_dir.mkdir(parents=True, exist_ok=True)
    for name, data in poms.items():
        (build_dir / name).write_bytes(data)
    marker.unlink(missing_ok=True)
    shutil.rmtree(neo4j_home / "lib", ignore_errors=True)
    shutil.rmtree(build_dir / "target", ignore_errors=True)
    plugins = neo4j_home / "plugins"
    plugins.mkdir(parents=True, exist_ok=True)
    for old in [*plugins.glob("apoc-*-core.jar"), *plugins.glob("open-gds-*.jar")]:
        old.unlink()
    steps = [
        (
            "neo4j-pom.xml",
            f"downloading Neo4j {pinned.neo4j} and Browser {pinned.browser} with Maven (once)",
        ),
        ("apoc-pom.xml", f"building the APOC Core {pinned.apoc} plugin with Maven (once)"),
        ("gds-pom.xml", f"building the OpenGDS {pinned.gds} plugin with Maven (once)"),
    ]
    env = dict(os.environ)
    env["JAVA_HOME"] = str(java_bin.parent.parent)
    for pom, message in steps:
        say(message)
        _run_maven(mvn, pom, env, build_dir, neo4j_home)
    missing = [str(jar) for jar in expected if not jar.is_file()]
    if missing:
        raise DownloadFailed(f"Maven finished but did not produce {', '.join(missing)}")
    marker.write_text(
        json.dumps({"digest": digest.hexdigest(), "versions": pinned.__dict__}, indent=2) + "\n",
        encoding="utf-8",
    )
    logger.info("assembled Neo4j in %s in %.0fs", neo4j_home, time.monotonic() - started)


def _run_maven(mvn: str, pom: str, env: dict[str, str], build_dir: Path, neo4j_home: Path) -> None:
    argv = [
        mvn,
        "-B",
        "-q",
        "-Dstyle.color=never",
        "-f",
        str(build_dir / pom),
        "package",
        f"-Dgraphmem.neo4j.home={neo4j_home}",
    ]
    log = build_dir / (pom.removesuffix(".xml") + ".log")
    try:
        result = subprocess.run(
            argv,
            cwd=build_dir,
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


def installed_version(neo4j_home: Path) -> str:
    lib = neo4j_home / "lib"
    if lib.is_dir():
        for jar in lib.iterdir():
            match = _LIB_VERSION_RE.match(jar.name)
            if match:
                return match.group(1)
    return ""


def installed_plugins(neo4j_home: Path) -> list[str]:
    plugins = neo4j_home / "plugins"
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


def write_config(
    neo4j_home: Path, bolt_port: int, http_port: int, heap: str, pagecache: str, heap_bytes: int
) -> None:
    """Write ``conf/neo4j.conf`` (bundled template, lockdown policy) and ``conf/apoc.conf``."""
    conf = neo4j_home / "conf"
    for sub in ("conf", "data", "logs", "plugins", "import", "run"):
        (neo4j_home / sub).mkdir(parents=True, exist_ok=True)
    tx_max_mib = max(256, heap_bytes // (2 * 1024**2))
    template = string.Template(resource_bytes("neo4j.conf.template").decode("utf-8"))
    text = template.substitute(
        bolt_port=bolt_port,
        http_port=http_port,
        heap=heap,
        pagecache=pagecache,
        tx_total_max=f"{tx_max_mib}m",
        procedure_allowlist=policy.PROCEDURE_ALLOWLIST,
        procedure_unrestricted=policy.PROCEDURE_UNRESTRICTED,
        transaction_timeout=policy.TRANSACTION_TIMEOUT,
        lock_timeout=policy.LOCK_TIMEOUT,
    )
    (conf / "neo4j.conf").write_text(text, encoding="utf-8")
    (conf / "apoc.conf").write_bytes(resource_bytes("apoc.conf"))
