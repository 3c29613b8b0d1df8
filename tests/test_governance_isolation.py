"""Multi-scope isolation, property-tested on the real server: random interleaved operations for several
users, then no recall, context, snapshot, export, timeline, history or audit read returns another user's
data. Every stored text carries its owner's marker, so a leak is visible in any read."""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import asdict
from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from graphmem import GraphMemory
from graphmem.governance import users as governance
from graphmem.model.scopes import Caller, Scope, scope_of_tenant, session_prefix

USERS = 3
WORDS = ["dog", "Paris", "coffee", "meeting", "guitar", "Rex"]

operation = st.tuples(
    st.integers(min_value=0, max_value=USERS - 1),
    st.sampled_from(["remember", "messages", "fact", "update", "link", "anonymize"]),
    st.sampled_from(WORDS),
    st.sampled_from([None, "agent-a", "agent-b"]),
)


def marker(user: str) -> str:
    return f"mk{user[-8:]}"


@settings(
    max_examples=4,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.lists(operation, min_size=3, max_size=9))
def test_no_read_returns_another_users_data(
    mem: GraphMemory, ops: list[tuple[int, str, str, str | None]]
) -> None:
    users = [f"test-iso-{uuid.uuid4()}" for _ in range(USERS)]
    owned: dict[str, list[str]] = {u: [] for u in users}
    try:
        for index, kind, word, agent in ops:
            user = users[index]
            text = f"{marker(user)} I like the {word} number {len(owned[user])}"
            if kind == "remember":
                owned[user].append(mem.remember(text, user_id=user, agent_id=agent, session_id="shared").id)
            elif kind == "messages":
                ms = mem.add_messages([text, f"{marker(user)} and {word}"], user_id=user, session_id="shared")
                owned[user].extend(m.id for m in ms)
            elif kind == "fact":
                mem.facts.set(user, "favourite", f"{marker(user)} {word}", agent_id=agent)
            elif kind == "update" and owned[user]:
                current = mem.memories.history(owned[user][-1], user_id=user)[-1]
                mem.memories.update(current.id, user_id=user, expected_version=current.version, content=text)
            elif kind == "link" and len(owned[user]) >= 2:
                mem.memories.link(owned[user][0], owned[user][-1], "RELATED_TO", weight=0.5)
            elif kind == "anonymize":
                mem.users.anonymize(user)

        now = datetime.now(UTC) + timedelta(seconds=1)
        for user in users:
            others = [marker(u) for u in users if u != user]

            def clean(payload: object, user: str = user, others: list[str] = others) -> None:
                text = json.dumps(payload, default=str)
                assert not any(o in text for o in others), (user, text[:500])
                assert not any(u in text for u in users if u != user)

            for word in WORDS:
                hits = mem.recall(f"I like the {word}", user_id=user, reinforce=False)
                assert all(h.memory.user_id == user for h in hits)
                clean([h.memory.model_dump() for h in hits])
            context = mem.context(f"what about {WORDS[0]}?", user_id=user, reinforce=False)
            clean(context.model_dump())
            snapshot = mem.temporal.snapshot(user, as_of=now)
            assert all(n.properties.get("user_id") in (None, user) for n in snapshot.nodes)
            clean(snapshot.model_dump())
            exported = mem.users.export(user)
            clean(exported)
            clean([e.model_dump() for e in mem.temporal.timeline(user)])
            clean([f.model_dump() for f in mem.facts.history(user, "favourite")])
            clean([f.model_dump() for f in mem.temporal.audit_log(user_id=user)])
            for memory_id in owned[user]:
                clean([m.model_dump() for m in mem.memories.history(memory_id, user_id=user)])
    finally:
        for user in users:
            mem.users.delete(user)


# --- scopes beyond the user (docs/scopes.md) ---------------------------------------------------------
AGENTS, ORGS, SESSIONS = 2, 2, 2
scoped_write = st.tuples(
    st.integers(min_value=0, max_value=USERS - 1),
    st.sampled_from(["session", "user", "agent", "org"]),
    st.sampled_from(["remember", "messages", "fact"]),
    st.integers(min_value=0, max_value=AGENTS - 1),
    st.integers(min_value=0, max_value=ORGS - 1),
    st.integers(min_value=0, max_value=SESSIONS - 1),
    st.sampled_from(WORDS),
)
reader = st.tuples(
    st.integers(min_value=0, max_value=USERS - 1),
    st.one_of(st.none(), st.integers(min_value=0, max_value=SESSIONS - 1)),
    st.one_of(st.none(), st.integers(min_value=0, max_value=AGENTS - 1)),
    st.one_of(st.none(), st.integers(min_value=0, max_value=ORGS - 1)),
)


def tenant_marker(key: str) -> str:
    return "mk" + hashlib.blake2b(key.encode(), digest_size=5).hexdigest()


@settings(
    max_examples=4,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.lists(scoped_write, min_size=4, max_size=10), st.lists(reader, min_size=2, max_size=4))
def test_no_read_crosses_a_scope_boundary(
    mem: GraphMemory,
    writes: list[tuple[int, str, str, int, int, int, str]],
    readers: list[tuple[int, int | None, int | None, int | None]],
) -> None:
    """Random writes into every scope by several users of several agents and organisations; then each
    reader (a user with an optional session, agent and organisation) sees only the scopes it may read, in
    recall, context and facts; a user's export holds only its own and its sessions' data; deleting the users
    leaves the shared scopes whole."""
    run = uuid.uuid4().hex[:8]
    users = [f"test-iso-scope-{run}-u{i}" for i in range(USERS)]
    agents = [f"test-iso-scope-{run}-a{i}" for i in range(AGENTS)]
    orgs = [f"test-iso-scope-{run}-o{i}" for i in range(ORGS)]
    sessions = [f"s{i}" for i in range(SESSIONS)]
    tenants: set[str] = set()
    try:
        for u, scope, kind, a, o, s, word in writes:
            who = Caller(users[u], sessions[s], agents[a], orgs[o])
            key = who.tenant(Scope(scope))
            tenants.add(key)
            text = f"{tenant_marker(key)} I like the {word}"
            ids = {"session_id": sessions[s], "agent_id": agents[a], "org_id": orgs[o], "scope": scope}
            if kind == "remember":
                assert mem.remember(text, user_id=users[u], **ids).user_id == key
            elif kind == "messages":
                stored = mem.add_messages([text, f"{tenant_marker(key)} and {word}"], user_id=users[u], **ids)
                assert {m.user_id for m in stored} == {key}
            else:
                assert mem.facts.set(users[u], f"favourite_{word}", text, **ids).user_id == key

        all_markers = {tenant_marker(t) for t in tenants} | {
            tenant_marker(Caller(u, s, a, o).tenant(sc))
            for u in users
            for s in sessions
            for a in agents
            for o in orgs
            for sc in Scope
        }
        for u, s, a, o in readers:
            who = Caller(
                users[u],
                None if s is None else sessions[s],
                None if a is None else agents[a],
                None if o is None else orgs[o],
            )
            readable = {t for _, t in who.readable()}
            forbidden = all_markers - {tenant_marker(t) for t in readable}

            def clean(payload: object, forbidden: set[str] = forbidden, who: Caller = who) -> None:
                text = json.dumps(payload, default=str)
                assert not any(f in text for f in forbidden), (who, text[:500])

            for word in WORDS:
                hits = mem.recall(f"I like the {word}", reinforce=False, k=50, **asdict(who))
                assert {h.memory.user_id for h in hits} <= readable
                clean([h.memory.model_dump() for h in hits])
            written = {t for t in tenants if t in readable}
            found = {
                h.memory.user_id for w in WORDS for h in mem.recall(w, k=50, reinforce=False, **asdict(who))
            }
            memory_tenants = memory_tenants_of(writes, users, agents, orgs, sessions)
            assert found == written & memory_tenants  # every readable scope is merged in, none left out
            clean(mem.context("what do I like?", reinforce=False, **asdict(who)).model_dump())

        for user in users:
            own = {user} | {t for t in tenants if t.startswith(session_prefix(user))}
            forbidden = all_markers - {tenant_marker(t) for t in own}
            text = json.dumps(mem.users.export(user), default=str)
            assert not any(f in text for f in forbidden), text[:500]
        for user in users:
            mem.users.delete(user)
        shared = {t for t in tenants if scope_of_tenant(t) in (Scope.AGENT, Scope.ORG)}
        rows = mem.query(
            "MATCH (m:Memory) WHERE m.user_id IN $t RETURN DISTINCT m.user_id AS tenant",
            {"t": sorted(tenants)},
        )
        left = {r["tenant"] for r in rows}
        assert left == shared & memory_tenants_of(writes, users, agents, orgs, sessions)
    finally:
        for user in users:
            mem.users.delete(user)
        for key in tenants:
            governance.delete_user(mem.runtime, key)


def memory_tenants_of(
    writes: list[tuple[int, str, str, int, int, int, str]],
    users: list[str],
    agents: list[str],
    orgs: list[str],
    sessions: list[str],
) -> set[str]:
    return {
        Caller(users[u], sessions[s], agents[a], orgs[o]).tenant(Scope(scope))
        for u, scope, kind, a, o, s, _ in writes
        if kind != "fact"
    }
