"""A user's graph as it was (snapshot), what changed between two times (diff) and who changed what (the
audit log, a page at a time), through Python, REST and the CLI, on the real server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from graphmem import GraphMemory, ValidationError
from graphmem.adapters.rest import create_app
from graphmem.cli.main import app
from graphmem.store.queries import query

KEY = "test-key"
WIDE = {"COLUMNS": "220"}
MARCH = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
runner = CliRunner()


@pytest.fixture()
def client(mem: GraphMemory) -> Iterator[TestClient]:
    with TestClient(create_app(mem, KEY), headers={"X-API-Key": KEY}, raise_server_exceptions=False) as c:
        yield c


def _history(mem: GraphMemory, user_id: str) -> dict[str, str]:
    """Leeds from 1 March, Manchester from 1 April (set_fact), a memory said on 10 March and one on 10
    April: five audit events."""
    mem.facts.set(user_id, "city", "Leeds", valid_from=MARCH)
    early = mem.remember(
        "Booked the boiler repair for the Leeds flat", user_id=user_id, occurred_at=MARCH + timedelta(days=9)
    )
    mem.facts.set(user_id, "city", "Manchester", valid_from=MARCH + timedelta(days=31))
    late = mem.remember(
        "Unpacked the last boxes in Ancoats", user_id=user_id, occurred_at=MARCH + timedelta(days=40)
    )
    mem.remember("Bought a plant for the new flat", user_id=user_id, occurred_at=MARCH + timedelta(days=41))
    return {"early": early.id, "late": late.id}


def test_the_audit_log_reads_a_page_at_a_time(mem: GraphMemory, user_id: str) -> None:
    _history(mem, user_id)
    whole = mem.temporal.audit_log(user_id=user_id)
    assert [e.action for e in whole] == ["set_fact", "remember", "set_fact", "remember", "remember"]
    pages, after = [], None
    while True:
        page = mem.temporal.audit_log(user_id=user_id, after=after, limit=2)
        pages.append(page)
        if len(page) < 2:
            break
        after = page[-1].id
    assert [len(p) for p in pages] == [2, 2, 1]
    assert [e.id for p in pages for e in p] == [e.id for e in whole]
    assert mem.temporal.audit_log(user_id=user_id, after=whole[-1].id, limit=2) == []
    middle = mem.temporal.audit_log(user_id=user_id, since=whole[1].at, until=whole[3].at)
    assert [e.id for e in middle] == [e.id for e in whole[1:4]]
    with pytest.raises(ValidationError, match="after"):
        mem.temporal.audit_log(user_id=user_id, after="no-such-event")
    mem.remember("Someone else's note", user_id=f"{user_id}-other")
    theirs = mem.temporal.audit_log(user_id=f"{user_id}-other")[0].id
    with pytest.raises(ValidationError, match="after"):  # a cursor from another user's log is refused
        mem.temporal.audit_log(user_id=user_id, after=theirs)
    for bad in (0, 1001, True):
        with pytest.raises(ValidationError, match="limit"):
            mem.temporal.audit_log(user_id=user_id, limit=bad)  # type: ignore[arg-type]


def test_the_audit_log_reads_newest_first_a_page_at_a_time(mem: GraphMemory, user_id: str) -> None:
    """ "What happened lately": the same events latest first, paged by the same cursor (the page after an
    event is the older one), bounded by time as in the other order; an operator's read of every user too."""
    _history(mem, user_id)
    whole = mem.temporal.audit_log(user_id=user_id)
    latest = mem.temporal.audit_log(user_id=user_id, newest_first=True)
    assert [e.id for e in latest] == [e.id for e in reversed(whole)]
    pages, after = [], None
    while True:
        page = mem.temporal.audit_log(user_id=user_id, after=after, limit=2, newest_first=True)
        pages.append([e.id for e in page])
        if len(page) < 2:
            break
        after = page[-1].id
    assert pages == [[e.id for e in latest[:2]], [e.id for e in latest[2:4]], [latest[4].id]]
    middle = mem.temporal.audit_log(user_id=user_id, since=whole[1].at, until=whole[3].at, newest_first=True)
    assert [e.id for e in middle] == [e.id for e in reversed(whole[1:4])]
    mine = {e.id for e in whole}
    everyone = mem.temporal.audit_log(since=whole[0].at, newest_first=True, limit=1000)
    assert [e.id for e in everyone if e.id in mine] == [e.id for e in latest]
    with pytest.raises(ValidationError, match="newest_first"):
        mem.temporal.audit_log(user_id=user_id, newest_first="yes")  # type: ignore[arg-type]


def test_rest_reads_snapshot_diff_and_audit(mem: GraphMemory, client: TestClient, user_id: str) -> None:
    ids = _history(mem, user_id)
    mid_march = (MARCH + timedelta(days=14)).isoformat()
    snap = client.get(f"/users/{user_id}/snapshot", params={"as_of": mid_march})
    assert snap.status_code == 200, snap.text
    nodes = {n["id"]: n for n in snap.json()["nodes"]}
    assert ids["early"] in nodes and ids["late"] not in nodes
    assert [n["properties"]["value"] for n in nodes.values() if n["label"] == "Fact"] == ["Leeds"]
    before = client.get(
        f"/users/{user_id}/snapshot", params={"as_of": mid_march, "known_at": "2000-01-01T00:00:00Z"}
    )
    assert before.status_code == 200 and before.json()["nodes"] == []  # nothing was recorded by then
    change = client.get(
        f"/users/{user_id}/diff", params={"t1": mid_march, "t2": (MARCH + timedelta(days=45)).isoformat()}
    )
    assert change.status_code == 200, change.text
    assert change.json()["changed_facts"] == [
        {"key": "location", "before": "Leeds", "after": "Manchester"}  # "city" is a name of the key
    ]
    assert ids["late"] in [n["id"] for n in change.json()["added_nodes"]]
    first = client.get(f"/users/{user_id}/audit", params={"limit": 3}).json()
    assert [e["action"] for e in first["events"]] == ["set_fact", "remember", "set_fact"]
    rest = client.get(f"/users/{user_id}/audit", params={"limit": 3, "after": first["next"]}).json()
    assert [e["action"] for e in rest["events"]] == ["remember", "remember"] and rest["next"] is None
    latest = client.get(f"/users/{user_id}/audit", params={"limit": 3, "newest_first": "true"}).json()
    assert [e["action"] for e in latest["events"]] == ["remember", "remember", "set_fact"]
    older = client.get(f"/users/{user_id}/audit", params={"newest_first": True, "after": latest["next"]})
    assert [e["action"] for e in older.json()["events"]] == ["remember", "set_fact"]
    odd = client.get(f"/users/{user_id}/audit", params={"after": "no-such-event"})
    assert odd.status_code == 422 and odd.json()["error"] == "ValidationError", odd.text
    assert client.get(f"/users/{user_id}/audit", params={"limit": 5000}).status_code == 422
    assert client.get(f"/users/{user_id}/snapshot").status_code == 422  # as_of is required
    assert client.get(f"/users/{user_id}/audit", headers={"X-API-Key": "wrong"}).status_code == 401


def test_the_cli_shows_snapshot_diff_and_audit(mem: GraphMemory, user_id: str, tmp_path: object) -> None:
    ids = _history(mem, user_id)
    mid_march = (MARCH + timedelta(days=14)).isoformat()
    snap = runner.invoke(app, ["snapshot", "-u", user_id, "--as-of", mid_march, "--json"])
    assert snap.exit_code == 0, snap.output
    assert ids["early"] in [n["id"] for n in json.loads(snap.stdout)["nodes"]]
    table = runner.invoke(app, ["snapshot", "-u", user_id, "--as-of", mid_march], env=WIDE)
    assert table.exit_code == 0 and "Memory" in table.output and "Fact" in table.output, table.output
    later = (MARCH + timedelta(days=45)).isoformat()
    change = runner.invoke(app, ["diff", "-u", user_id, mid_march, later], env=WIDE)
    assert change.exit_code == 0, change.output
    assert "Leeds" in change.output and "Manchester" in change.output
    page = runner.invoke(app, ["audit", "-u", user_id, "-n", "2"], env=WIDE)
    assert page.exit_code == 0 and "set_fact" in page.output and "--after" in page.output, page.output
    events = runner.invoke(app, ["audit", "-u", user_id, "--json"])
    assert [e["action"] for e in json.loads(events.stdout)][-1] == "remember"
    latest = runner.invoke(app, ["audit", "-u", user_id, "--newest", "-n", "2"], env=WIDE)
    assert latest.exit_code == 0 and "--newest --after" in latest.output, latest.output
    newest = runner.invoke(app, ["audit", "-u", user_id, "--newest", "--json"])
    actions = [e["action"] for e in json.loads(newest.stdout)]
    assert actions[0] == "remember" and actions[-1] == "set_fact"
    odd = runner.invoke(app, ["audit", "-u", user_id, "--after", "no-such-event"])
    assert odd.exit_code == 1 and "after" in odd.output, odd.output


def test_a_users_audit_log_is_sought_not_scanned(mem: GraphMemory) -> None:
    """A user's page reads that user's events through the hash index, not every user's events (the read
    used to scan all of them: its cost grew with the whole store's audit log)."""
    with mem.runtime.store.driver.session() as session:
        plan = (
            session.run(
                "EXPLAIN " + query("audit_log"),
                user_hash="h",
                target_id=None,
                since=None,
                until=None,
                after=None,
                limit=10,
            )
            .consume()
            .plan
        )
    operators, todo = [], [plan]
    while todo:
        op = todo.pop()
        operators.append(op["operatorType"].split("@")[0])
        todo.extend(op.get("children", []))
    assert "NodeIndexSeek" in operators and "NodeByLabelScan" not in operators, operators
