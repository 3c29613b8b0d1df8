"""The built wheel carries every query and schema file: a round trip from a fresh virtualenv."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import textwrap
import uuid
import venv
import zipfile
from pathlib import Path

import pytest
from conftest import disposable

from graphmem.server import LocalServer

ROOT = Path(__file__).parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (path,) = out.glob("graphmem-*.whl")
    return path


def test_wheel_contains_queries_and_schema(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder, package in [("cypher", "graphmem/cypher"), ("schema", "graphmem/schema")]:
        for source in (ROOT / folder).glob("*.cypher"):
            assert f"{package}/{source.name}" in names, source.name
    assert "graphmem/server/neo4j.conf.template" in names or any(
        n.startswith("graphmem/server/maven/") for n in names
    )
    assert "graphmem/data/sample_conversation.json" in names
    assert "graphmem/data/reference_sentences.txt" in names  # a small tenant's confidence reads them
    for asset in (  # offline /docs, /redoc and the dashboard's graph library, with their licences
        "swagger-ui/swagger-ui-bundle.js",
        "swagger-ui/swagger-ui.css",
        "swagger-ui/LICENSE",
        "redoc/redoc.standalone.js",
        "redoc/LICENSE",
        "cytoscape/cytoscape.min.js",
        "cytoscape/LICENSE",
    ):
        assert f"graphmem/data/vendor/{asset}" in names, asset


def test_round_trip_from_a_fresh_virtualenv(wheel: Path, tmp_path: Path, server: LocalServer) -> None:
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    # Dependencies come from the project's environment (a .pth line), graphmem itself only from the wheel.
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(site, "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", str(wheel)], check=True)
    user = disposable(f"wheel-{uuid.uuid4()}")
    script = textwrap.dedent(
        f"""
        import graphmem, pathlib
        where = graphmem.__file__
        assert "site-packages" in where and {str(ROOT)!r} not in where, where
        from graphmem import GraphMemory
        with GraphMemory.connect() as mem:
            mem.init()
            mem.remember("The wheel remembers its queries", user_id={user!r})
            mem.remember("Bananas are yellow", user_id={user!r})
            hits = mem.recall("which queries does the wheel remember?", user_id={user!r}, k=2)
            print(hits[0].memory.content)
        """
    )
    result = subprocess.run(
        [str(python), "-c", script], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().splitlines()[-1] == "The wheel remembers its queries"
