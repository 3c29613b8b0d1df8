"""The streamed GDPR export (JSON Lines) on the real server: the same content as the one-document export,
each edge once whatever the page size, all or nothing at a path, and the CLI and REST ways to ask for it."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from graphmem import AsyncGraphMemory, GraphMemory, OnnxEmbedder, StoreError, ValidationError
from graphmem.adapters.rest import create_app
from graphmem.cli.main import app
from graphmem.governance import export
from tests.test_governance import build

KEY = "test-key"


def _build(mem: GraphMemory, user_id: str) -> None:
    build(mem, user_id)
    mem.add_messages(["We walked Rex by the river", "Rex chased a heron"], user_id=user_id, session_id="s2")
    mem.recall("what is my dog called?", user_id=user_id, session_id="s9")  # a session scope's record
    mem.flush()


def _grouped(records: list[dict[str, Any]]) -> dict[str, dict[str, list[Any]]]:
    """Records by scope, then collection, in stream order (a stream that lacks its end fails)."""
    assert records[-1]["end"] is True
    out: dict[str, dict[str, list[Any]]] = {}
    for r in records[1:-1]:
        out.setdefault(r["scope"], {}).setdefault(r["collection"], []).append(r["item"])
    return out


def _as_document(doc: dict[str, Any]) -> dict[str, list[Any]]:
    """A one-document export's lists (the non-empty ones), relationships as a sorted list."""
    return {k: v for k, v in doc.items() if isinstance(v, list) and v and k != "session_scopes"}


def _key(rel: dict[str, Any]) -> str:
    return json.dumps(rel, sort_keys=True)


def _same(stream: dict[str, list[Any]], doc: dict[str, Any]) -> None:
    lists = _as_document(doc)
    assert set(stream) == set(lists)
    for name, items in lists.items():
        if name == "relationships":  # streamed page by page; each edge once
            got = sorted(map(_key, stream[name]))
            assert len(got) == len(set(got)), "an edge was streamed twice"
            assert got == sorted(map(_key, items))
        else:
            assert stream[name] == items, name


def _fail_on(mem: GraphMemory, query: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store's reads of ``query`` fail as a server gone away would."""
    read = mem.runtime.store.read

    def failing(name: str, /, **params: Any) -> Any:
        if name == query:
            raise StoreError("the server went away")
        return read(name, **params)

    monkeypatch.setattr(mem.runtime.store, "read", failing)


def _read(mem: GraphMemory, user_id: str) -> list[dict[str, Any]]:
    out = io.StringIO()
    counts = mem.users.export_to(user_id, out)
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert sum(counts.values()) == len(records) - 2 and counts == records[-1]["counts"]
    return records


@pytest.mark.parametrize("page", [export.STREAM_PAGE, 2])
def test_the_stream_holds_what_the_document_holds(
    mem: GraphMemory, user_id: str, page: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    _build(mem, user_id)
    doc = mem.users.export(user_id)
    monkeypatch.setattr(export, "STREAM_PAGE", page)
    records = _read(mem, user_id)
    head = records[0]
    assert head["format"] == export.FORMAT and head["user_id"] == user_id
    grouped = _grouped(records)
    assert next(iter(grouped)) == user_id  # the user first, then its session scopes
    _same(grouped[user_id], doc)
    scopes = {s["user_id"]: s for s in doc["session_scopes"]}
    assert scopes and set(grouped) - {user_id} == set(scopes)
    for tenant, scoped in scopes.items():
        _same(grouped[tenant], scoped)
    assert any(r["type"] == "FOLLOWS" for r in grouped[user_id]["relationships"])


def test_the_one_document_export_reads_each_edge_once(mem: GraphMemory, user_id: str) -> None:
    """user_relationships returns an edge with the page of its start node only (else of its end): with
    pages of two nodes no edge comes back twice, so the stream needs no memory of the edges it sent."""
    _build(mem, user_id)
    rels: list[str] = []
    for _, linked in export.scope_pages(mem.runtime, user_id, 2):
        rels += [r["rel"] for r in linked]
    assert rels and len(rels) == len(set(rels))
    assert len(rels) == len(mem.users.export(user_id)["relationships"])


def test_a_path_is_written_in_full_or_not_at_all(
    mem: GraphMemory, user_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _build(mem, user_id)
    target = tmp_path / "out.jsonl"
    counts = mem.users.export_to(user_id, target)
    written = target.read_text(encoding="utf-8").splitlines()
    assert len(written) == sum(counts.values()) + 2 and counts["memories"] == 5
    assert not (tmp_path / "out.jsonl.part").exists()

    _fail_on(mem, "user_relationships", monkeypatch)
    again = tmp_path / "again.jsonl"
    with pytest.raises(StoreError):
        mem.users.export_to(user_id, again)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl"]


def test_cli_and_rest_stream_json_lines(mem: GraphMemory, user_id: str, tmp_path: Path) -> None:
    _build(mem, user_id)
    doc = mem.users.export(user_id)
    out = tmp_path / "cli.jsonl"
    result = CliRunner().invoke(app, ["export", user_id, "--format", "jsonl", "-o", str(out)])
    assert result.exit_code == 0, result.output
    _same(_grouped([json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()])[user_id], doc)
    printed = CliRunner().invoke(app, ["export", user_id, "--format", "jsonl"])
    assert printed.exit_code == 0, printed.output
    lines = [json.loads(x) for x in printed.stdout.splitlines()]
    _same(_grouped(lines)[user_id], doc)

    with TestClient(create_app(mem, KEY), headers={"X-API-Key": KEY}) as client:
        response = client.get(f"/users/{user_id}/export", params={"format": "jsonl"})
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("application/x-ndjson")
        streamed = [json.loads(x) for x in response.text.splitlines()]
        _same(_grouped(streamed)[user_id], doc)
        assert client.get(f"/users/{user_id}/export", params={"format": "xml"}).status_code == 422


def test_async_export_to(mem: GraphMemory, user_id: str, embedder: OnnxEmbedder) -> None:
    _build(mem, user_id)

    async def run() -> dict[str, int]:
        amem = await AsyncGraphMemory.connect(embedder=embedder)
        try:
            return await amem.users.export_to(user_id, io.StringIO())
        finally:
            await amem.close()

    counts = asyncio.run(run())
    assert counts["memories"] == 5 and counts["relationships"] > 0


def test_a_path_that_names_no_file_is_refused_and_a_part_file_is_left_alone(
    mem: GraphMemory, user_id: str, tmp_path: Path
) -> None:
    mem.remember("I adopted a dog named Rex", user_id=user_id)
    for bad in ("", ".", str(tmp_path / "missing" / "out.jsonl")):
        with pytest.raises(ValidationError, match="out"):
            mem.users.export_to(user_id, bad)
    mine = tmp_path / "out.jsonl.part"  # the user's own file, named as the first version named its own
    mine.write_text("keep me", encoding="utf-8")
    mem.users.export_to(user_id, tmp_path / "out.jsonl")
    assert mine.read_text(encoding="utf-8") == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl", "out.jsonl.part"]


def test_the_cli_streams_utf8_to_any_console(mem: GraphMemory, user_id: str) -> None:
    """An ASCII console could not encode a memory's words: the stream failed with a traceback."""
    mem.remember("Our café serves ☕ at dawn", user_id=user_id)
    result = CliRunner(charset="ascii").invoke(app, ["export", user_id, "--format", "jsonl"])
    assert result.exit_code == 0, result.output
    records = [json.loads(x) for x in result.stdout_bytes.decode("utf-8").splitlines()]
    assert any(r.get("item", {}).get("content") == "Our café serves ☕ at dawn" for r in records)


def test_rest_answers_an_error_status_when_the_first_read_fails(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stream's first read is made before the response starts: a failure there is a status, not a
    200 with one line and a cut connection."""
    mem.remember("I adopted a dog named Rex", user_id=user_id)
    _fail_on(mem, "user_nodes", monkeypatch)
    with TestClient(create_app(mem, KEY), headers={"X-API-Key": KEY}, raise_server_exceptions=False) as c:
        response = c.get(f"/users/{user_id}/export", params={"format": "jsonl"})
    assert response.status_code == 500 and "StoreError" in response.text
