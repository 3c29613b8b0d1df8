"""Topics: the pure clustering and naming rules, and the topics job on the real server (Topic nodes,
IN_TOPIC edges, browsing, rebuilt whole, deleted with the user)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from graphmem import GraphMemory
from graphmem.dynamics.topics import plan
from graphmem.formation.drafts import session_uid_prefix
from graphmem.model import topics as rules


def test_communities_split_two_dense_groups_and_drop_small_ones() -> None:
    a = [f"a{i}" for i in range(4)]
    b = [f"b{i}" for i in range(4)]
    edges = [(x, y, 0.9) for g in (a, b) for x in g for y in g if x < y] + [
        ("a0", "b0", 0.1),
        ("c0", "c1", 0.9),
    ]
    groups = rules.communities([*a, *b, "c0", "c1"], edges)
    assert groups == [a, b]  # the pair c0-c1 is too small to be a topic
    assert rules.communities(["x", "y"], []) == []


def test_topic_names_come_from_entities_then_distinctive_words() -> None:
    members = ["Rex the beagle chewed my shoes", "Walked Rex to the beagle club", "Rex hates the vacuum"]
    everyone = Counter(
        {"beagle": 2, "chewed": 1, "shoes": 1, "walked": 1, "club": 1, "hates": 1, "vacuum": 1}
    )
    terms = rules.keywords(members, everyone, total=40)
    assert terms == ["beagle"]  # only words said more than once in the topic
    assert rules.name(["Rex", "Rex", "Beagle Club"], terms) == "Rex, Beagle Club: beagle"
    assert rules.name([], []) == "misc"


def test_plan_names_and_sizes_topics_from_rows() -> None:
    rows = [
        {
            "id": f"m{i}",
            "content": f"pottery class clay wheel {i}",
            "entities": ["Pottery"],
            "links": [{"dst": f"m{j}", "weight": 0.8} for j in range(3) if j != i],
        }
        for i in range(3)
    ] + [{"id": "lone", "content": "tax forms", "entities": [], "links": []}]
    [topic] = plan(rows)
    assert topic["members"] == ["m0", "m1", "m2"] and topic["size"] == 3
    assert topic["name"].startswith("Pottery: ") and "clay" in topic["keywords"]


THEMES = {
    "pets": [
        "My beagle Rex loves chasing squirrels in the park",
        "Rex the beagle needs his vaccination at the vet next week",
        "The vet said my beagle Rex is a little overweight",
        "I bought Rex a new beagle-sized dog bed",
    ],
    "work": [
        "The quarterly budget review at the office is on Thursday",
        "My manager wants the budget spreadsheet finished by Thursday",
        "The office budget meeting ran two hours over",
        "I presented the budget numbers to my manager at the office",
    ],
}


def test_topics_job_groups_browses_and_rebuilds(mem: GraphMemory, user_id: str) -> None:
    ids = {theme: [mem.remember(t, user_id=user_id).id for t in texts] for theme, texts in THEMES.items()}
    first = mem.topics.rebuild(user_id)
    assert first["topics"] >= 2 and first["previous_topics"] == 0
    topics = mem.topics.list(user_id)
    by_member = {m.id: t.id for t in topics for m in mem.topics.memories(t.id, user_id=user_id)}
    for theme, members in ids.items():  # each theme lands in one topic, the two themes in different ones
        assert len({by_member.get(m) for m in members}) == 1, theme
    assert by_member[ids["pets"][0]] != by_member[ids["work"][0]]
    names = " ".join(t.name.lower() for t in topics)
    assert "beagle" in names or "rex" in names
    assert "budget" in names or "office" in names
    again = mem.topics.rebuild(user_id)  # rebuilt whole: the previous topics are gone
    assert again["previous_topics"] == first["topics"]
    assert len(mem.topics.list(user_id)) == again["topics"]
    mem.users.delete(user_id)
    assert mem.topics.list(user_id) == []


def test_rest_and_cli_browse_topics_and_tuning(mem: GraphMemory, user_id: str) -> None:
    from fastapi.testclient import TestClient
    from typer.testing import CliRunner

    from graphmem.adapters.rest import create_app
    from graphmem.cli.main import app

    for texts in THEMES.values():
        for t in texts:
            mem.remember(t, user_id=user_id)
    with TestClient(
        create_app(mem, "k"), headers={"X-API-Key": "k"}, raise_server_exceptions=False
    ) as client:
        built = client.post(f"/users/{user_id}/topics/rebuild").json()
        listed = client.get(f"/users/{user_id}/topics").json()
        assert built["topics"] == len(listed) >= 2
        members = client.get(f"/users/{user_id}/topics/{listed[0]['id']}/memories").json()
        assert len(members) == listed[0]["size"]
        assert client.get(f"/users/{user_id}/tuning").json()["tuning"]["version"] == 0
        assert (
            client.post(f"/users/{user_id}/tuning/adapt", params={"dry_run": True}).json()["changed"] is False
        )
        assert client.post(f"/users/{user_id}/tuning/rollback", params={"to_version": 3}).status_code == 422
        rec = client.post(f"/users/{user_id}/recall", json={"query": "beagle", "reconstruct": True})
        assert rec.status_code == 200 and rec.json()
    runner = CliRunner()
    shown = runner.invoke(app, ["topics", "list", "--user", user_id, "--json"])
    assert shown.exit_code == 0 and {t["id"] for t in json.loads(shown.stdout)} == {t["id"] for t in listed}
    tuning = runner.invoke(app, ["tuning", "show", "--user", user_id])
    assert tuning.exit_code == 0 and json.loads(tuning.stdout)["history"] == []


def tenant_snapshot(mem: GraphMemory, user_id: str) -> tuple[list[Any], list[Any], int]:
    """Everything stored of a tenant: its nodes with their properties, their relationships, its audit
    events (a dry run must leave all three as they were)."""
    store = mem.runtime.store
    nodes = store.read("user_nodes", user_id=user_id, session_prefix=session_uid_prefix(user_id), props=True)
    edges = store.read(
        "user_relationships",
        ids=[n["element_id"] for n in nodes],
        user_id=user_id,
        session_prefix=session_uid_prefix(user_id),
    )
    key = repr
    return sorted(nodes, key=key), sorted(edges, key=key), len(mem.temporal.audit_log(user_id=user_id))


def test_topics_job_skips_unchanged_tenants_and_its_dry_run_writes_nothing(
    mem: GraphMemory, user_id: str
) -> None:
    from typer.testing import CliRunner

    from graphmem.cli.main import app

    ids = [mem.remember(t, user_id=user_id).id for texts in THEMES.values() for t in texts]
    before = tenant_snapshot(mem, user_id)
    dry = mem.jobs.run("topics", user_id=user_id, dry_run=True)
    assert dry.status == "dry_run" and dry.counts["rebuilt"] == 1 and dry.counts["topics"] >= 2, dry
    cli = CliRunner().invoke(app, ["jobs", "run", "topics", "--user", user_id, "--dry-run", "--json"])
    assert cli.exit_code == 0, cli.output
    assert json.loads(cli.stdout)["counts"] == dry.counts
    assert tenant_snapshot(mem, user_id) == before  # no topics, no mark on the User node, no run, no audit
    assert mem.automation.runs(5, job="topics", user_id=user_id) == []

    run = mem.jobs.run("topics", user_id=user_id)
    assert run.status == "success" and run.counts["users"] == 1 and run.counts["rebuilt"] == 1, run
    topics = {t.id for t in mem.topics.list(user_id)}
    assert len(topics) == run.counts["topics"] >= 2
    quiet = mem.jobs.run("topics", user_id=user_id)  # nothing changed: skipped, the topics kept
    assert quiet.counts == {**dict.fromkeys(run.counts, 0), "users": 1, "skipped": 1}, quiet.counts
    assert {t.id for t in mem.topics.list(user_id)} == topics
    mem.remember("Rex the beagle chewed through his new lead at the park", user_id=user_id)
    grown = mem.jobs.run("topics", user_id=user_id)
    assert grown.counts["rebuilt"] == 1 and grown.counts["previous_topics"] == len(topics)
    mem.forget(ids[0], user_id=user_id)
    assert mem.jobs.run("topics", user_id=user_id).counts["rebuilt"] == 1
    mem.memories.govern(ids[1], user_id=user_id, decision="anonymize")  # its words must leave the names
    assert mem.jobs.run("topics", user_id=user_id).counts["rebuilt"] == 1
    mem.topics.rebuild(user_id)  # by hand: always rebuilds, and the job then finds nothing new
    assert mem.jobs.run("topics", user_id=user_id).counts["skipped"] == 1
    rebuilt = [r.counts["rebuilt"] for r in mem.automation.runs(10, job="topics", user_id=user_id)]
    assert rebuilt == [0, 1, 1, 1, 0, 1]
