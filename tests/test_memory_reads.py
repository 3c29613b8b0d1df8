"""Reading memories without a query: one by id (`memories.get`), a page of them, newest first, filtered
(`memories.list`), and how many match (`memories.count`), of any scope, through Python, async, REST, the
CLI and MCP."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from graphmem import AsyncGraphMemory, GraphMemory, MemoryNotFound, ValidationError
from graphmem.adapters import auth
from graphmem.adapters.mcp import build_server
from graphmem.adapters.rest import create_app
from graphmem.cli.main import app

DAY = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
KEY = "test-key"
WIDE = {"COLUMNS": "200"}


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
    for bad in (
        {"limit": 0},
        {"limit": 1001},
        {"offset": -1},
        {"status": ["lost"]},
        {"memory_type": "x"},
        {"after": ids["train"] + "-x"},
        {"after": 5},
    ):
        with pytest.raises(ValidationError):
            mem.memories.list(user_id, **bad)  # type: ignore[arg-type]


def test_list_pages_by_cursor_through_what_offsets_give(
    mem: GraphMemory, client: TestClient, user_id: str
) -> None:
    """``after`` (the previous page's last id) gives the pages ``offset`` gives, in the same order, ties on
    the time included; with a filter, after a memory the filter leaves out (it is a place, not a row);
    another user's memory, or one that is not there, is refused. REST and CLI page the same way."""
    t0 = datetime(2026, 5, 1, tzinfo=UTC)
    turns = [
        {
            "role": "user",
            "content": f"Jar {i} of jam is on the top shelf",
            "timestamp": t0 + timedelta(hours=i // 3),
        }
        for i in range(11)  # three memories a time: ties
    ]
    mem.add_messages(turns, user_id=user_id, session_id="s")
    whole = [m.id for m in mem.memories.list(user_id)]
    assert len(whole) == 11
    pages, after = [], None
    while True:
        page = [m.id for m in mem.memories.list(user_id, limit=4, after=after)]
        pages.append(page)
        if len(page) < 4:
            break
        after = page[-1]
    assert pages == [whole[0:4], whole[4:8], whole[8:11]]
    assert [m.id for m in mem.memories.list(user_id, limit=2, after=whole[2], offset=1)] == whole[4:6]
    mem.forget(whole[5], user_id=user_id)
    assert [m.id for m in mem.memories.list(user_id, after=whole[5])] == whole[6:]
    assert [m.id for m in mem.memories.list(user_id, status="forgotten", after=whole[0])] == [whole[5]]
    other = mem.remember("Someone else's jam", user_id=f"{user_id}-other")
    for bad in (other.id, "no-such-memory"):
        with pytest.raises(ValidationError, match="after"):
            mem.memories.list(user_id, after=bad)
    rest = client.get(f"/users/{user_id}/memories", params={"limit": 3, "after": whole[1]})
    assert [m["id"] for m in rest.json()] == whole[2:5]
    assert "X-Total-Count" not in rest.headers  # a cursor page does not count the scope again
    assert client.get(f"/users/{user_id}/memories", params={"after": other.id}).status_code == 422
    cli = CliRunner().invoke(app, ["memory", "list", "-u", user_id, "-n", "2", "--after", whole[6]], env=WIDE)
    assert cli.exit_code == 0, cli.output
    assert f"showing 2 after {whole[6]}; next page: --after {whole[8]}" in " ".join(cli.output.split())


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


def _shared(mem: GraphMemory, user_id: str) -> dict[str, str]:
    """A memory in each scope: the user's own, a session's, an agent's (two, through ``add_messages``) and
    an organisation's; the agent and organisation ids are built from ``user_id`` (swept with it)."""
    agent, org = f"{user_id}-bot", f"{user_id}-acme"
    own = mem.remember("I prefer window seats", user_id=user_id, session_id="s1")
    note = mem.remember("Scratch: seat 14A held", user_id=user_id, session_id="s1", scope="session")
    turns = mem.add_messages(
        [
            {"role": "assistant", "content": "Refunds need the order number", "timestamp": DAY},
            {"role": "assistant", "content": "Upgrades are sold at the gate", "timestamp": DAY},
        ],
        user_id=user_id,
        session_id="s1",
        agent_id=agent,
        scope="agent",
    )
    policy = mem.remember("Travel is booked in economy", org_id=org, scope="org", memory_type="semantic")
    return {
        "agent": agent,
        "org": org,
        "own": own.id,
        "note": note.id,
        "refunds": turns[0].id,
        "upgrades": turns[1].id,
        "policy": policy.id,
    }


def test_list_get_and_count_read_any_scope(mem: GraphMemory, user_id: str) -> None:
    """An agent's, an organisation's and a session's memories are listed, fetched and counted by naming
    the scope as ``mem.facts`` does; the user's own listing holds only its own."""
    ids = _shared(mem, user_id)
    agent = {"scope": "agent", "agent_id": ids["agent"]}
    org = {"scope": "org", "org_id": ids["org"]}
    session = {"scope": "session", "session_id": "s1"}
    assert {m.id for m in mem.memories.list(None, **agent)} == {ids["refunds"], ids["upgrades"]}
    assert [m.id for m in mem.memories.list(None, **org)] == [ids["policy"]]
    assert [m.id for m in mem.memories.list(user_id, **session)] == [ids["note"]]
    assert [m.id for m in mem.memories.list(user_id)] == [ids["own"]]
    assert [m.id for m in mem.memories.list(user_id, session_id="s1")] == [ids["own"]]  # a filter there
    assert [m.scope for m in mem.memories.list(None, limit=1, **agent)] == ["agent"]
    assert mem.memories.list(None, scope="agent", agent_id=f"{ids['agent']}-other") == []
    assert mem.memories.get(ids["policy"], **org).content == "Travel is booked in economy"
    assert mem.memories.get(ids["refunds"], user_id=user_id, **agent).id == ids["refunds"]
    with pytest.raises(MemoryNotFound):
        mem.memories.get(ids["refunds"], user_id=user_id)  # not the user's own
    with pytest.raises(MemoryNotFound):
        mem.memories.get(ids["policy"], **agent)
    assert (mem.memories.count(None, **agent), mem.memories.count(None, **org)) == (2, 1)
    assert mem.memories.count(user_id, **session) == 1 and mem.memories.count(user_id) == 1
    assert mem.memories.count(None, memory_type="semantic", **org) == 1
    for bad in ({"scope": "agent"}, {"scope": "org"}, {"scope": "team"}, {}):
        with pytest.raises(ValidationError):
            mem.memories.list(None, **bad)  # type: ignore[arg-type]
        with pytest.raises(ValidationError):
            mem.memories.count(None, **bad)  # type: ignore[arg-type]


def test_count_matches_the_filters_of_list(mem: GraphMemory, user_id: str) -> None:
    ids = _store(mem, user_id)
    filters: list[dict[str, Any]] = [
        {},
        {"session_id": "trip"},
        {"memory_type": "procedural"},
        {"tags": ["rain", "kit"]},
        {"tags": ["kit", "snow"]},
        {"status": "forgotten"},
        {"status": ["active", "forgotten"], "session_id": "plan"},
    ]
    expected = [4, 2, 1, 1, 0, 0, 1]
    assert [mem.memories.count(user_id, **f) for f in filters] == expected
    mem.forget(ids["train"], user_id=user_id)
    assert [mem.memories.count(user_id, **f) for f in filters] == [3, 2, 1, 1, 0, 1, 1]
    for f in filters:
        assert mem.memories.count(user_id, **f) == len(mem.memories.list(user_id, limit=1000, **f)), f
    assert mem.memories.count(f"{user_id}-other") == 0
    for bad in ({"status": ["lost"]}, {"memory_type": "x"}, {"tags": "kit"}, {"status": 3}):
        with pytest.raises(ValidationError):
            mem.memories.count(user_id, **bad)

    async def counted() -> int:
        async with AsyncGraphMemory.connect(embedder=mem.embedder) as amem:
            return await amem.memories.count(user_id, session_id="trip")

    assert asyncio.run(counted()) == 2


def test_rest_lists_a_scope_with_its_total(mem: GraphMemory, client: TestClient, user_id: str) -> None:
    """The list routes keep their JSON array and give the total in ``X-Total-Count``; an agent's and an
    organisation's memories have their own routes, and a user route reaches them with ``scope``."""
    ids = _store(mem, user_id)
    page = client.get(f"/users/{user_id}/memories", params={"limit": 2, "offset": 1})
    assert [m["id"] for m in page.json()] == [ids["summit"], ids["hike"]]
    assert page.headers["X-Total-Count"] == "4"
    trip = client.get(f"/users/{user_id}/memories", params={"session_id": "trip", "limit": 1})
    assert len(trip.json()) == 1 and trip.headers["X-Total-Count"] == "2"
    shared = _shared(mem, user_id)
    agent = client.get(f"/agents/{shared['agent']}/memories", params={"limit": 1})
    assert agent.status_code == 200, agent.text
    assert agent.json()[0]["scope"] == "agent" and agent.headers["X-Total-Count"] == "2"
    org = client.get(f"/orgs/{shared['org']}/memories")
    assert [m["id"] for m in org.json()] == [shared["policy"]] and org.headers["X-Total-Count"] == "1"
    by_user = client.get(f"/users/{user_id}/memories", params={"scope": "agent", "agent_id": shared["agent"]})
    assert {m["id"] for m in by_user.json()} == {shared["refunds"], shared["upgrades"]}
    one = client.get(f"/orgs/{shared['org']}/memories/{shared['policy']}")
    assert one.status_code == 200 and one.json()["content"] == "Travel is booked in economy"
    assert client.get(f"/agents/{shared['agent']}/memories/{shared['policy']}").status_code == 404
    note = client.get(
        f"/users/{user_id}/memories/{shared['note']}", params={"scope": "session", "session_id": "s1"}
    )
    assert note.status_code == 200 and note.json()["content"] == "Scratch: seat 14A held"
    assert client.get(f"/users/{user_id}/memories", params={"scope": "agent"}).status_code == 422


def test_rest_key_lists_only_the_scopes_it_reaches(mem: GraphMemory, user_id: str) -> None:
    shared = _shared(mem, user_id)
    agent_key, _ = auth.create_key(mem.runtime.store, "agent", shared["agent"])
    user_key, _ = auth.create_key(mem.runtime.store, "user", user_id)
    with TestClient(create_app(mem, KEY), raise_server_exceptions=False) as c:
        as_agent, as_user = {"X-API-Key": agent_key}, {"X-API-Key": user_key}
        assert c.get(f"/agents/{shared['agent']}/memories", headers=as_agent).headers["X-Total-Count"] == "2"
        for path in (f"/orgs/{shared['org']}/memories", f"/users/{user_id}/memories"):
            assert c.get(path, headers=as_agent).status_code == 403, path
        assert c.get(f"/users/{user_id}/memories", headers=as_user).headers["X-Total-Count"] == "1"
        ungranted = {"scope": "agent", "agent_id": shared["agent"]}
        assert c.get(f"/users/{user_id}/memories", params=ungranted, headers=as_user).status_code == 403


def test_cli_and_mcp_list_a_scope_with_its_total(mem: GraphMemory, user_id: str) -> None:
    ids = _store(mem, user_id)
    runner = CliRunner()
    page = runner.invoke(app, ["memory", "list", "-u", user_id, "-n", "2", "--offset", "1"], env=WIDE)
    assert page.exit_code == 0, page.output
    assert "showing 2–3 of 4" in page.output and "The summit was in the clouds" in page.output
    past = runner.invoke(app, ["memory", "list", "-u", user_id, "--offset", "9"], env=WIDE)
    assert past.exit_code == 0 and "4 match, none from 10" in past.output, past.output
    shared = _shared(mem, user_id)
    agent = runner.invoke(app, ["memory", "list", "--scope", "agent", "--agent", shared["agent"]], env=WIDE)
    assert agent.exit_code == 0, agent.output
    assert "Refunds need the order number" in agent.output and "showing 1–2 of 2" in agent.output
    missing = runner.invoke(app, ["memory", "list", "-u", user_id, "--scope", "org"], env=WIDE)
    assert missing.exit_code != 0 and "org_id" in missing.output, missing.output

    def call(server: Any, tool: str, **args: Any) -> Any:
        result = asyncio.run(server.call_tool(tool, args))
        return json.loads(result.content[0].text)

    tools = build_server(mem, user_id, agent_id=shared["agent"], org_id=shared["org"])
    listed = call(tools, "memory_list", limit=1)
    assert listed["total"] == 5 and [m["id"] for m in listed["memories"]] == [shared["own"]]  # 4 + 1
    assert call(tools, "memory_list", memory_type="procedural")["total"] == 1
    assert ids["note"] in {m["id"] for m in call(tools, "memory_list", limit=5)["memories"]}
    theirs = call(tools, "memory_list", scope="agent")
    assert theirs["total"] == 2 and {m["scope"] for m in theirs["memories"]} == {"agent"}
    assert [m["id"] for m in call(tools, "memory_list", scope="org")["memories"]] == [shared["policy"]]
