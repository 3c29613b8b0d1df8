"""Reading memories without a query: one by id (`memories.get`) and a page of them, newest first, filtered
(`memories.list`), through Python, async, REST and the CLI."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from graphmem import AsyncGraphMemory, GraphMemory, MemoryNotFound, ValidationError
from graphmem.adapters.rest import create_app
from graphmem.cli.main import app

DAY = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
KEY = "test-key"


@pytest.fixture()
def client(mem: GraphMemory) -> Iterator[TestClient]:
    with TestClient(create_app(mem, KEY), headers={"X-API-Key": KEY}, raise_server_exceptions=False) as c:
        yield c


def _store(mem: GraphMemory, user_id: str) -> dict[str, str]:
    """Four memories: two turns of a session on day 5, one on day 1 (written later), a tagged note now."""
    late = mem.add_messages(
        [
            {"role": "user", "content": "We hiked up Ben Nevis today", "timestamp": DAY + timedelta(days=5)},
            {
                "role": "user",
                "content": "The summit was in the clouds",
                "timestamp": DAY + timedelta(days=5, minutes=1),
            },
        ],
        user_id=user_id,
        session_id="trip",
    )
    early = mem.add_messages(
        [{"role": "user", "content": "I booked a train to Fort William", "timestamp": DAY}],
        user_id=user_id,
        session_id="plan",
    )
    note = mem.remember(
        "Always pack a waterproof jacket", user_id=user_id, memory_type="procedural", tags=["kit", "rain"]
    )
    return {"hike": late[0].id, "summit": late[1].id, "train": early[0].id, "note": note.id}


def test_list_pages_newest_first_and_filters(mem: GraphMemory, user_id: str) -> None:
    ids = _store(mem, user_id)
    newest = [m.id for m in mem.memories.list(user_id)]
    assert newest == [ids["note"], ids["summit"], ids["hike"], ids["train"]]  # by their own time, not writing
    assert [m.id for m in mem.memories.list(user_id, limit=2, offset=1)] == newest[1:3]
    assert [m.id for m in mem.memories.list(user_id, session_id="trip")] == [ids["summit"], ids["hike"]]
    assert [m.id for m in mem.memories.list(user_id, memory_type="procedural")] == [ids["note"]]
    assert [m.id for m in mem.memories.list(user_id, tags=["rain", "kit"])] == [ids["note"]]
    assert mem.memories.list(user_id, tags=["kit", "snow"]) == []
    mem.forget(ids["train"], user_id=user_id)
    assert ids["train"] not in {m.id for m in mem.memories.list(user_id)}  # live ones by default
    assert [m.id for m in mem.memories.list(user_id, status="forgotten")] == [ids["train"]]
    assert mem.memories.list(f"{user_id}-other") == []
    for bad in ({"limit": 0}, {"limit": 1001}, {"offset": -1}, {"status": ["lost"]}, {"memory_type": "x"}):
        with pytest.raises(ValidationError):
            mem.memories.list(user_id, **bad)  # type: ignore[arg-type]


def test_get_reads_one_memory_of_its_user_whatever_its_status(mem: GraphMemory, user_id: str) -> None:
    ids = _store(mem, user_id)
    got = mem.memories.get(ids["note"], user_id=user_id)
    assert got.content == "Always pack a waterproof jacket" and got.tags == ("kit", "rain")
    mem.forget(ids["note"], user_id=user_id)
    assert mem.memories.get(ids["note"], user_id=user_id).status == "forgotten"
    with pytest.raises(MemoryNotFound):
        mem.memories.get(ids["note"], user_id=f"{user_id}-other")

    async def read() -> tuple[str, int]:
        async with AsyncGraphMemory.connect(embedder=mem.embedder) as amem:
            one = await amem.memories.get(ids["hike"], user_id=user_id)
            return one.id, len(await amem.memories.list(user_id))

    assert asyncio.run(read()) == (ids["hike"], 3)


def test_rest_and_cli_read_memories(mem: GraphMemory, client: TestClient, user_id: str) -> None:
    ids = _store(mem, user_id)
    page = client.get(f"/users/{user_id}/memories", params={"limit": 2})
    assert page.status_code == 200 and [m["id"] for m in page.json()] == [ids["note"], ids["summit"]]
    tagged = client.get(f"/users/{user_id}/memories", params=[("tag", "kit"), ("tag", "rain")])
    assert [m["id"] for m in tagged.json()] == [ids["note"]]
    one = client.get(f"/users/{user_id}/memories/{ids['train']}")
    assert one.status_code == 200 and one.json()["content"] == "I booked a train to Fort William"
    assert client.get(f"/users/{user_id}-other/memories/{ids['train']}").status_code == 404
    assert client.get(f"/users/{user_id}/memories", params={"status": "lost"}).status_code == 422
    runner = CliRunner()
    listed = runner.invoke(app, ["memory", "list", "-u", user_id, "--session", "trip", "--json"])
    assert listed.exit_code == 0, listed.output
    assert [m["id"] for m in json.loads(listed.output)] == [ids["summit"], ids["hike"]]
    none = runner.invoke(app, ["memory", "list", "-u", user_id, "--tag", "nothing"])
    assert none.exit_code == 0 and "no memories of" in none.output, none.output
    shown = runner.invoke(app, ["memory", "get", ids["hike"], "-u", user_id], env={"COLUMNS": "200"})
    assert shown.exit_code == 0 and "We hiked up Ben Nevis today" in shown.output, shown.output
