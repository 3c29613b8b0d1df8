"""The REST API with FastAPI's TestClient against the real server."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient

from graphmem import GraphMemory
from graphmem.adapters.dashboard import stats_from_rows
from graphmem.adapters.rest import create_app
from graphmem.adapters.rest.admission import Admission, default_slots

KEY = "test-key"


@pytest.fixture(scope="module")
def client(mem: GraphMemory) -> Iterator[TestClient]:
    with TestClient(create_app(mem, KEY), headers={"X-API-Key": KEY}, raise_server_exceptions=False) as c:
        yield c


def test_auth_and_openapi(client: TestClient, user_id: str) -> None:
    assert client.get("/health").status_code == 200
    anonymous = client.post(f"/users/{user_id}/recall", json={"query": "x"}, headers={"X-API-Key": ""})
    assert anonymous.status_code == 401
    wrong = client.post(f"/users/{user_id}/recall", json={"query": "x"}, headers={"X-API-Key": "nope"})
    assert wrong.status_code == 401
    schema = client.get("/openapi.json").json()
    assert "/users/{user_id}/memories" in schema["paths"]
    assert "/automation/jobs/{job}/run" in schema["paths"]


def test_memories_round_trip(client: TestClient, mem: GraphMemory, user_id: str) -> None:
    created = client.post(f"/users/{user_id}/memories", json={"content": "I adopted a dog named Rex"})
    assert created.status_code == 201, created.text
    rex = created.json()
    turns = client.post(
        f"/users/{user_id}/messages",
        json={"session_id": "s1", "messages": [{"role": "user", "content": "My sister lives in Lisbon"}]},
    )
    assert turns.status_code == 201 and turns.json()[0]["session_id"] == "s1"
    hits = client.post(f"/users/{user_id}/recall", json={"query": "what is my dog called?", "k": 2}).json()
    assert hits[0]["memory"]["id"] == rex["id"]
    client.put(f"/users/{user_id}/core/human", json={"value": "Alice, a dog owner", "limit": 100})
    ctx = client.post(f"/users/{user_id}/context", json={"query": "my dog", "token_budget": 300}).json()
    assert ctx["text"].startswith("## Core memory") and "Rex" in ctx["text"]
    edit = {"content": "My dog is called Max", "expected_version": rex["version"]}
    updated = client.put(f"/users/{user_id}/memories/{rex['id']}", json=edit)
    assert updated.status_code == 200 and updated.json()["version"] == rex["version"] + 1
    assert client.put(f"/users/{user_id}/memories/{rex['id']}", json=edit).status_code == 409
    history = client.get(f"/users/{user_id}/memories/{rex['id']}/history").json()
    assert [m["content"] for m in history] == ["I adopted a dog named Rex", "My dog is called Max"]
    # feedback: the question becomes a full-text key of the memory (its asked key); errors in the API's terms
    judged = {"useful": True, "query": "Which pet did I adopt?"}
    rated = client.post(f"/users/{user_id}/memories/{rex['id']}/feedback", json=judged)
    assert rated.status_code == 200 and rated.json() == {"memory_id": rex["id"], "useful": True}
    stored = mem.query("MATCH (m:Memory {id: $id}) RETURN m.asked AS asked", {"id": rex["id"]})
    assert stored[0]["asked"] == "Which pet did I adopt?"
    assert client.post(f"/users/{user_id}/memories/nope/feedback", json=judged).status_code == 404
    assert client.post(f"/users/{user_id}/memories/{rex['id']}/feedback", json={}).status_code == 422
    assert client.delete(f"/users/{user_id}/memories/{rex['id']}").json() == {"forgotten": rex["id"]}
    hits = client.post(f"/users/{user_id}/recall", json={"query": "dog", "reinforce": False}).json()
    assert rex["id"] not in {h["memory"]["id"] for h in hits}
    # another tenant cannot forget it
    other = client.delete(f"/users/{user_id}-other/memories/{rex['id']}")
    assert other.status_code == 404 and other.json()["error"] == "MemoryNotFound"


def test_facts_and_core(client: TestClient, user_id: str) -> None:
    fact = client.put(f"/users/{user_id}/facts", json={"key": "favorite:color", "value": "green"}).json()
    assert fact["value"] == "green" and fact["status"] == "current"
    got = client.get(f"/users/{user_id}/facts", params={"key": "favorite:color"})
    assert got.json()["id"] == fact["id"]
    assert client.get(f"/users/{user_id}/facts", params={"key": "nothing"}).status_code == 404
    client.put(f"/users/{user_id}/facts", json={"key": "city", "value": "Porto"})
    listed = client.get(f"/users/{user_id}/facts/current").json()
    assert [(f["key"], f["value"]) for f in listed] == [("favorite:color", "green"), ("location", "Porto")]
    assert (
        client.get(f"/users/{user_id}/facts/current", params={"as_of": "2000-01-01T00:00:00Z"}).json() == []
    )
    client.put(f"/users/{user_id}/core/rules", json={"value": "Be brief.", "read_only": True})
    refused = client.post(f"/users/{user_id}/core/rules/append", json={"text": "x"})
    assert refused.status_code == 403 and refused.json()["error"] == "CoreBlockReadOnly"
    client.put(f"/users/{user_id}/core/notes", json={"value": "abc", "limit": 5})
    too_long = client.post(f"/users/{user_id}/core/notes/append", json={"text": "defgh"})
    assert too_long.status_code == 422 and too_long.json()["error"] == "CoreBlockLimitExceeded"
    missing = client.post(f"/users/{user_id}/core/notes/replace", json={"old": "zzz", "new": "y"})
    assert missing.status_code == 422
    assert [b["label"] for b in client.get(f"/users/{user_id}/core").json()] == ["notes", "rules"]
    client.put(f"/users/{user_id}/core/notes", json={"value": "abcd", "limit": 5})
    assert client.get(f"/users/{user_id}/core/notes").json()["value"] == "abcd"
    versions = client.get(f"/users/{user_id}/core/notes/history").json()
    assert [b["value"] for b in versions] == ["abc", "abcd"]  # oldest first, like the other histories
    absent = client.get(f"/users/{user_id}/core/nothing")
    assert absent.status_code == 404 and absent.json()["error"] == "CoreBlockNotFound"

    retracted = client.post(f"/users/{user_id}/facts/retract", json={"key": "favorite:color"})
    assert retracted.status_code == 200 and retracted.json()["status"] == "retracted"
    assert client.get(f"/users/{user_id}/facts", params={"key": "favorite:color"}).status_code == 404
    again = client.post(f"/users/{user_id}/facts/retract", json={"key": "favorite:color"})
    assert again.status_code == 404 and again.json()["error"] == "FactNotFound"
    history = client.get(f"/users/{user_id}/facts/history", params={"key": "favorite:color"}).json()
    assert [f["value"] for f in history] == ["green"]


def test_validation_errors_are_4xx_json(client: TestClient, user_id: str) -> None:
    for response in [
        client.post(f"/users/{user_id}/memories", json={"content": "   "}),
        client.post(f"/users/{user_id}/memories", json={"content": "x", "memory_type": "nonsense"}),
        client.post(f"/users/{user_id}/memories", json={"text": "wrong field"}),
        client.post(f"/users/{user_id}/recall", json={"query": "x", "k": 0}),
        client.post(f"/users/{user_id}/recall", json={"query": "x", "k": "many"}),
        client.post(f"/users/{user_id}/context", json={"query": "x", "token_budget": -1}),
        client.post("/automation/jobs/nonsense/run"),
        client.post("/automation/config", json={"config": {"jobs": {"decay": {"schedule": "whenever"}}}}),
        client.post("/automation/config", json={"config": []}),
        client.post(f"/users/{'x' * 600}/memories", json={"content": "x"}),
        client.post("/users/a%01b/memories", json={"content": "x"}),
        client.post(
            f"/users/{user_id}/memories", content=b"{not json", headers={"content-type": "application/json"}
        ),
        client.post(f"/users/{user_id}/memories", json=[1, 2]),
        client.post(f"/users/{user_id}/messages", json={"session_id": "s", "messages": [{"role": "robot"}]}),
        client.post(f"/users/{user_id}/messages", json={"session_id": "s", "messages": ["x"] * 1001}),
        client.post(f"/users/{user_id}/recall", json={"query": "x", "views": {"nonsense": 1.0}}),
        client.post(f"/users/{user_id}/recall", json={"query": "x", "hops": 99}),
        client.put(f"/users/{user_id}/memories/nope", json={"content": "y", "expected_version": 1}),
        client.put(f"/users/{user_id}/facts", json={"key": "k", "value": "v", "fact_type": "weird"}),
        client.get(f"/users/{user_id}/facts", params={"key": "k", "known_at": "garbage"}),
        client.get(f"/users/{user_id}/facts"),
        client.put(f"/users/{user_id}/core/ok", json={"value": "x", "limit": -3}),
        client.post(f"/users/{user_id}/core/missing/append", json={"text": "x"}),
        client.get(f"/users/{user_id}/timeline", params={"start": "bad"}),
        client.get("/automation/logs", params={"limit": 0}),
        client.get("/automation/logs", params={"job": "nonsense"}),
        client.get("/stats", params={"user_id": ""}),
        client.post(f"/users/{'x' * 600}/anonymize"),
        client.get("/no/such/route"),
    ]:
        assert 400 <= response.status_code < 500, response.text
        body = response.json()
        assert isinstance(body, dict) and body["error"] and body["detail"], response.text
        assert "Traceback" not in response.text
    schema = client.post(f"/users/{user_id}/recall", json={"query": "x", "k": "many"}).json()
    assert schema["error"] == "ValidationError" and "body.k" in schema["detail"]
    assert schema["errors"][0]["loc"] == ["body", "k"]
    assert client.get(f"/users/{user_id}/memories/nope/history").json()["error"] == "MemoryNotFound"


def test_unexpected_failure_is_a_json_500(mem: GraphMemory) -> None:
    app = create_app(mem, KEY)

    def broken() -> None:
        raise RuntimeError("a bug with private details")

    app.add_api_route("/broken", broken)
    with TestClient(app, raise_server_exceptions=False) as c:
        response = c.get("/broken")
    assert response.status_code == 500
    assert response.json() == {"error": "InternalError", "detail": "the server failed the request"}
    assert "private details" not in response.text


def test_automation(client: TestClient, user_id: str) -> None:
    overview = client.get("/automation").json()
    assert {"config", "jobs", "health"} <= set(overview)
    version = overview["config"]["version"]
    stale = client.post(
        "/automation/config", json={"config": overview["config"], "expected_version": version + 7}
    )
    assert stale.status_code == 409 and stale.json()["error"] == "VersionConflict"
    client.post(f"/users/{user_id}/memories", json={"content": "Decay me gently"})
    run = client.post("/automation/jobs/decay/run", params={"user_id": user_id}).json()
    assert run["status"] == "success" and run["job"] == "decay"
    logs = client.get("/automation/logs", params={"job": "decay", "user_id": user_id}).json()
    assert logs[0]["id"] == run["id"]
    assert client.post("/automation/jobs/decay/reconcile").json()["name"] == "decay"


def test_fact_time_travel_history_export_delete(client: TestClient, user_id: str) -> None:
    facts = f"/users/{user_id}/facts"
    client.put(facts, json={"key": "location", "value": "Paris", "valid_from": "2024-01-01T00:00:00Z"})
    client.put(facts, json={"key": "location", "value": "Lisbon", "valid_from": "2025-01-01T00:00:00Z"})
    assert client.get(facts, params={"key": "location"}).json()["value"] == "Lisbon"
    then = client.get(facts, params={"key": "location", "as_of": "2024-06-01T00:00:00Z"})
    assert then.json()["value"] == "Paris"
    assert client.get(facts, params={"key": "location", "as_of": "yesterday"}).status_code == 422
    before = client.get(facts, params={"key": "location", "as_of": "2023-06-01T00:00:00Z"})
    assert before.status_code == 404  # the key has a value now: the answer says "not then", not "no fact"
    assert before.json()["detail"] == "no value of 'location' as of 2023-06-01 00:00 UTC"
    history = client.get(f"{facts}/history", params={"key": "location"}).json()
    assert [f["value"] for f in history] == ["Paris", "Lisbon"]
    exported = client.get(f"/users/{user_id}/export")
    assert exported.status_code == 200 and "Lisbon" in exported.text
    client.post(f"/users/{user_id}/memories", json={"content": "My passport number is in the drawer"})
    anonymized = client.post(f"/users/{user_id}/anonymize").json()
    assert anonymized["user_id"] == user_id and anonymized["anonymized"] >= 3
    assert "Lisbon" not in client.get(f"/users/{user_id}/export").text
    assert "drawer" not in client.get(f"/users/{user_id}/export").text
    report = client.delete(f"/users/{user_id}").json()
    assert report["user_id"] == user_id and sum(report["nodes"].values()) > 0
    gone = client.get(facts, params={"key": "location"})
    assert gone.status_code == 404 and gone.json() == {
        "error": "NotFound",
        "detail": "no current value of 'location'",
    }
    assert client.get(f"/users/{user_id}/export").json()["memories"] == []


def test_dashboard_routes(client: TestClient, user_id: str) -> None:
    page = client.get("/dashboard", headers={"X-API-Key": ""})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    for element in (
        'id="health"',
        'id="jobs"',
        'id="runs"',
        'id="counts"',
        'id="retention"',
        'id="timeline"',
    ):
        assert element in page.text
    client.post(f"/users/{user_id}/memories", json={"content": "I adopted a dog named Rex"})
    between = datetime.now(UTC).isoformat()
    client.post(
        f"/users/{user_id}/memories", json={"content": "How to bake bread", "memory_type": "procedural"}
    )
    stats = client.get("/stats", params={"user_id": user_id}).json()
    assert stats["total"] == 2 and stats["by_status"] == {"active": 2}
    assert stats["by_type"]["procedural"] == 1 and sum(stats["retention_histogram"]) == 2
    assert client.get("/stats", headers={"X-API-Key": ""}).status_code == 401
    events = client.get(f"/users/{user_id}/timeline").json()
    assert [e["kind"] for e in events] == ["memory", "memory"]
    assert events[0]["text"] == "I adopted a dog named Rex"
    known = client.get(f"/users/{user_id}/timeline", params={"known_at": between}).json()
    assert [e["text"] for e in known] == ["I adopted a dog named Rex"]  # the second was recorded later
    # the dashboard's read: the latest events first, as many as it shows
    latest = client.get(f"/users/{user_id}/timeline", params={"newest_first": "true", "limit": 1}).json()
    assert [e["text"] for e in latest] == ["How to bake bread"]
    assert client.get(f"/users/{user_id}/timeline", params={"limit": 0}).status_code == 422


def test_stats_fold() -> None:
    rows = [
        {"status": "active", "type": "episodic", "bucket": 9, "n": 3},
        {"status": "weak", "type": "episodic", "bucket": 2, "n": 1},
        {"status": "active", "type": "semantic", "bucket": 12, "n": 2},
    ]
    stats = stats_from_rows(rows)
    assert stats.total == 6 and stats.by_status == {"active": 5, "weak": 1}
    assert stats.by_type == {"episodic": 4, "semantic": 2}
    assert stats.retention_histogram == [0, 0, 1, 0, 0, 0, 0, 0, 0, 5]


def test_admission_wraps_the_app_by_default(mem: GraphMemory, user_id: str) -> None:
    """Recalls are admitted ahead of writes (graphmem.adapters.rest.admission; the queue itself is tested in
    test_rest_admission.py): on by default with half the slots for writes, and every route still answers
    through it."""
    app = create_app(mem, KEY)
    [admission] = [m for m in app.user_middleware if m.cls is Admission]
    assert admission.kwargs["slots"] is app.state.admission
    assert app.state.admission.slots == default_slots()
    assert app.state.admission.write_slots == default_slots() // 2
    with TestClient(app, headers={"X-API-Key": KEY}) as c:
        assert c.post(f"/users/{user_id}/memories", json={"content": "I keep bees"}).status_code == 201
        hits = c.post(f"/users/{user_id}/recall", json={"query": "bees", "k": 1}).json()
        assert hits[0]["memory"]["content"] == "I keep bees"
        shown = c.get("/health").json()["details"]["admission"]
        assert shown["slots"] == default_slots()
        assert shown["running"] == {"read": 0, "write": 0}  # the two requests above gave their slots back
        assert shown["refused"] == 0
