"""Scopes beyond the user (docs/scopes.md): session, user, agent and organisation memories and facts, the
merge a caller reads (narrowest wins), the boundaries between them, and GDPR over scopes."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import pytest
from conftest import disposable

from graphmem import GraphMemory, Scope, ValidationError
from graphmem.model import validation as check
from graphmem.model.scopes import Caller, scope_of_tenant, tenant


def ids(prefix: str) -> str:
    return disposable(f"test-scope-{prefix}-{uuid.uuid4()}")


# --- pure rules -------------------------------------------------------------------------------------
def test_tenant_keys_are_distinct_per_scope_and_never_a_user_id() -> None:
    keys = {
        Scope.USER: tenant(Scope.USER, "x"),
        Scope.SESSION: tenant(Scope.SESSION, "x", user_id="x"),
        Scope.AGENT: tenant(Scope.AGENT, "x"),
        Scope.ORG: tenant(Scope.ORG, "x"),
    }
    assert len(set(keys.values())) == 4
    assert all(scope_of_tenant(k) is s for s, k in keys.items())
    assert tenant(Scope.SESSION, "b/c", user_id="a") != tenant(Scope.SESSION, "c", user_id="a/b")
    for scope, key in keys.items():
        if scope is not Scope.USER:
            with pytest.raises(ValidationError) as err:
                check.user_id(key)
            assert err.value.field == "user_id"


def test_caller_reads_narrowest_first() -> None:
    who = Caller("u", session_id="s", agent_id="a", org_id="o")
    assert [s for s, _ in who.readable()] == [Scope.SESSION, Scope.USER, Scope.AGENT, Scope.ORG]
    assert [s for s, _ in Caller("u").readable()] == [Scope.USER]
    assert who.personal() == [tenant(Scope.SESSION, "s", user_id="u"), "u"]


# --- validation at the boundary --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("scope", "field"),
    [("session", "session_id"), ("agent", "agent_id"), ("org", "org_id"), ("team", "scope")],
)
def test_a_scope_without_its_id_is_refused_naming_the_field(
    mem: GraphMemory, user_id: str, scope: str, field: str
) -> None:
    with pytest.raises(ValidationError) as err:
        mem.remember("I like tea", user_id=user_id, scope=scope)
    assert err.value.field == field
    with pytest.raises(ValidationError) as err:
        mem.facts.set(user_id, "drink", "tea", scope=scope)
    assert err.value.field == field
    assert mem.recall("tea", user_id=user_id) == []


def test_a_user_id_may_not_name_a_shared_scope(mem: GraphMemory) -> None:
    agent = ids("agent")
    mem.remember("agent secret procedure", user_id=ids("u"), agent_id=agent, scope="agent")
    with pytest.raises(ValidationError) as err:
        mem.recall("procedure", user_id=f"agent::{agent}")
    assert err.value.field == "user_id"


# --- the merge and its boundaries -------------------------------------------------------------------
def test_recall_merges_exactly_the_callers_scopes(mem: GraphMemory) -> None:
    alice, bob, agent, other_agent, org = ids("alice"), ids("bob"), ids("agent"), ids("agent2"), ids("org")
    own = mem.remember("Alice keeps her bicycle in the garage", user_id=alice)
    session = mem.remember(
        "Alice parked the bicycle at the station today", user_id=alice, session_id="s1", scope="session"
    )
    shared = mem.remember(
        "Procedure: a bicycle repair ticket needs the frame number",
        user_id=bob,
        agent_id=agent,
        scope="agent",
    )
    elsewhere = mem.remember(
        "Procedure: bicycle returns go to the back door", user_id=bob, agent_id=other_agent, scope="agent"
    )
    company = mem.remember("The company bicycle scheme pays 50 percent", user_id=bob, org_id=org, scope="org")
    bobs = mem.remember("Bob's bicycle is red", user_id=bob, session_id="s1")
    assert (own.scope, session.scope, shared.scope, company.scope) == (
        Scope.USER,
        Scope.SESSION,
        Scope.AGENT,
        Scope.ORG,
    )
    assert shared.session_id is None and shared.agent_id == agent

    def seen(**caller: str) -> set[str]:
        return {h.memory.id for h in mem.recall("bicycle", k=20, reinforce=False, **caller)}

    assert seen(user_id=alice) == {own.id}
    assert seen(user_id=alice, session_id="s1") == {own.id, session.id}
    assert seen(user_id=alice, session_id="s2") == {own.id}
    assert seen(user_id=alice, agent_id=agent) == {own.id, shared.id}
    assert seen(user_id=alice, org_id=org) == {own.id, company.id}
    assert seen(user_id=alice, session_id="s1", agent_id=agent, org_id=org) == {
        own.id,
        session.id,
        shared.id,
        company.id,
    }
    everything = seen(user_id=bob, session_id="s1", agent_id=agent, org_id=org)
    assert bobs.id in everything and shared.id in everything
    assert own.id not in everything and session.id not in everything and elsewhere.id not in everything


def test_add_messages_in_a_shared_scope_carries_no_session(mem: GraphMemory) -> None:
    user, agent = ids("u"), ids("agent")
    stored = mem.add_messages(
        ["To reset a router hold the button ten seconds"],
        user_id=user,
        session_id="s",
        agent_id=agent,
        scope="agent",
    )
    assert stored[0].scope is Scope.AGENT and stored[0].session_id is None
    assert mem.recall("reset router", user_id=user, reinforce=False) == []
    hits = mem.recall("reset router", user_id=ids("v"), agent_id=agent, reinforce=False)
    assert [h.memory.id for h in hits] == [stored[0].id]


def test_context_narrower_fact_wins(mem: GraphMemory) -> None:
    user, other, agent, org = ids("u"), ids("other"), ids("agent"), ids("org")
    mem.facts.set(user, "office", "Berlin", scope="org", org_id=org)
    mem.facts.set(user, "support_hours", "9 to 5", scope="org", org_id=org)
    mem.facts.set(user, "support_hours", "around the clock", scope="agent", agent_id=agent)
    mem.facts.set(user, "office", "Lisbon")
    mem.facts.set(user, "desk", "window seat", scope="session", session_id="s1")

    def facts(**caller: str) -> dict[str, str]:
        ctx = mem.context("where is the office and when is support?", reinforce=False, **caller)
        return dict(i.text.split(": ", 1) for i in ctx.items if i.kind == "fact")  # type: ignore[misc]

    assert facts(user_id=user, agent_id=agent, org_id=org) == {
        "office": "Lisbon",
        "support_hours": "around the clock",
    }
    assert facts(user_id=user, org_id=org, session_id="s1") == {
        "office": "Lisbon",
        "support_hours": "9 to 5",
        "desk": "window seat",
    }
    assert facts(user_id=other, org_id=org) == {"office": "Berlin", "support_hours": "9 to 5"}
    assert facts(user_id=other) == {}
    assert mem.facts.get(other, "office", scope="org", org_id=org).value == "Berlin"  # type: ignore[union-attr]
    assert mem.facts.get(user, "office").value == "Lisbon"  # type: ignore[union-attr]


def test_deleting_a_user_keeps_shared_scopes_and_covers_its_sessions(mem: GraphMemory) -> None:
    user, agent, org = ids("u"), ids("agent"), ids("org")
    mem.remember("My locker code is 4411", user_id=user)
    mem.remember("My scratch note for this chat: 4411", user_id=user, session_id="s9", scope="session")
    mem.facts.set(user, "scratch", "4411", scope="session", session_id="s9")
    shared = mem.remember("Lockers are emptied on Fridays", user_id=user, agent_id=agent, scope="agent")
    company = mem.remember("Locker keys are at reception", user_id=user, org_id=org, scope="org")

    exported = mem.users.export(user)
    assert len(exported["memories"]) == 1
    assert [len(s["memories"]) for s in exported["session_scopes"]] == [1]
    assert [len(s["facts"]) for s in exported["session_scopes"]] == [1]
    assert "Fridays" not in str(exported) and "reception" not in str(exported)

    report = mem.users.delete(user)
    assert report.nodes["Memory"] == 2 and report.nodes["Fact"] >= 1
    assert mem.recall("locker", user_id=user, session_id="s9", reinforce=False) == []
    assert mem.users.export(user)["session_scopes"] == []
    left = {h.memory.id for h in mem.recall("locker", user_id=ids("v"), agent_id=agent, org_id=org)}
    assert left == {shared.id, company.id}


def test_a_recall_in_a_session_without_memories_is_exported_and_deleted(mem: GraphMemory) -> None:
    """A recall names its session: its RecallEvent (the question's text) is filed under the session scope's
    key. With nothing else stored in that session, export left it out and deletion left it behind."""
    user = ids("u")
    mem.remember("I adopted a dog named Rex", user_id=user)
    mem.recall("what is my dog called? my PIN is 4411", user_id=user, session_id="s1")
    mem.flush()
    assert "4411" in json.dumps(mem.users.export(user)["session_scopes"])
    mem.users.delete(user)
    left = mem.query(
        "MATCH (n) WHERE n.user_id STARTS WITH $p RETURN count(n) AS n",
        {"p": f"session::{len(user)}:{user}/"},
    )
    assert left == [{"n": 0}]


def test_without_a_user_only_shared_scopes_are_in_reach(mem: GraphMemory) -> None:
    agent, user = ids("agent"), ids("u")
    mem.remember("The user's own kettle is blue", user_id=user)
    shared = mem.remember("Procedure: descale the kettle monthly", agent_id=agent, scope="agent")
    assert [h.memory.id for h in mem.recall("kettle", agent_id=agent, reinforce=False)] == [shared.id]
    with pytest.raises(ValidationError) as err:
        mem.recall("kettle")
    assert err.value.field == "user_id"
    with pytest.raises(ValidationError) as err:
        mem.remember("a user memory needs its user", agent_id=agent)
    assert err.value.field == "user_id"


def test_mcp_tools_write_and_merge_the_configured_scopes(mem: GraphMemory) -> None:
    from graphmem.adapters.mcp import build_server

    user, agent, other = ids("u"), ids("agent"), ids("u")

    def call(server: Any, tool: str, **args: Any) -> Any:
        result = asyncio.run(server.call_tool(tool, args))
        return json.loads(result.content[0].text)

    tools = build_server(mem, user, agent_id=agent)
    made = call(
        tools, "memory_remember", content="Procedure: greet returning customers by name", scope="agent"
    )
    assert made["scope"] == "agent"
    call(tools, "memory_remember", content="I am a returning customer who likes names")
    assert {h["scope"] for h in call(tools, "memory_recall", query="returning customers")["hits"]} == {
        "agent",
        "user",
    }
    theirs = call(build_server(mem, other, agent_id=agent), "memory_recall", query="returning customers")
    assert {h["scope"] for h in theirs["hits"]} == {"agent"}
    assert call(build_server(mem, other), "memory_recall", query="returning customers")["hits"] == []


def test_cli_remembers_and_recalls_a_shared_scope(mem: GraphMemory) -> None:
    from typer.testing import CliRunner

    from graphmem.cli.main import app as cli

    org = ids("org")
    runner = CliRunner()
    made = runner.invoke(
        cli, ["remember", "Expense claims close on the 25th", "--org", org, "--scope", "org", "--json"]
    )
    assert made.exit_code == 0, made.output
    assert json.loads(made.stdout)["scope"] == "org"
    found = runner.invoke(cli, ["recall", "expense claims", "--user", ids("u"), "--org", org, "--json"])
    assert found.exit_code == 0, found.output
    assert [h["memory"]["content"] for h in json.loads(found.stdout)] == ["Expense claims close on the 25th"]


def test_a_recall_over_every_scope_keeps_the_two_round_trip_budget(mem: GraphMemory) -> None:
    from test_recall_pipeline import _counting

    user, agent, org = ids("u"), ids("agent"), ids("org")
    mem.remember("I adopted a beagle called Rex", user_id=user)
    mem.remember("Scratch: Rex is at the vet today", user_id=user, session_id="s", scope="session")
    mem.remember("Procedure: ask for the dog's name first", agent_id=agent, scope="agent")
    mem.remember("Dogs are welcome in the office on Fridays", org_id=org, scope="org")
    counted, store = _counting(mem)
    caller = {"user_id": user, "session_id": "s", "agent_id": agent, "org_id": org}
    counted.recall("what is my dog called?", k=4, **caller)  # warms the size cache
    store.calls.clear()
    hits = counted.recall("what is my dog called?", k=4, **caller)
    assert {h.memory.scope for h in hits} == set(Scope)
    assert store.calls[0] == "read:recall_pool" and len(store.calls) <= 2, store.calls
