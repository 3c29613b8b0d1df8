"""Multi-scope isolation, property-tested on the real server: random interleaved operations for several
users, then no recall, context, snapshot, export, timeline, history or audit read returns another user's
data. Every stored text carries its owner's marker, so a leak is visible in any read."""

from __future__ import annotations

import hashlib
import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from conftest import disposable
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from graphmem import GraphMemory
from graphmem.governance import users as governance

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
    users = [disposable(f"test-iso-{uuid.uuid4()}") for _ in range(USERS)]
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


Write = tuple[int, str, str, int, int, int, str]
Reader = tuple[int, int | None, int | None, int | None]


def owner(write: Write) -> tuple[str, int, ...]:
    """Whose a write is, by the rules alone (no graphmem code): the oracle the store is checked against."""
    u, scope, _, a, o, s, _ = write
    return {"session": ("session", u, s), "user": ("user", u), "agent": ("agent", a), "org": ("org", o)}[
        scope
    ]


def may_read(reader: Reader, label: tuple[str, int, ...]) -> bool:
    u, s, a, o = reader
    if label[0] == "session":
        return label[1:] == (u, s)
    if label[0] == "user":
        return label[1] == u
    return label[1] == (a if label[0] == "agent" else o)


def label_marker(run: str, label: tuple[str, int, ...]) -> str:
    return "mk" + hashlib.blake2b(f"{run}{label}".encode(), digest_size=5).hexdigest()


@settings(
    max_examples=4,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.lists(scoped_write, min_size=4, max_size=10), st.lists(reader, min_size=2, max_size=4))
@example(  # every boundary at once: another session, agent, organisation and user than the one written
    writes=[
        (0, "session", "remember", 0, 0, 1, "dog"),
        (0, "agent", "messages", 0, 0, 0, "dog"),
        (1, "org", "remember", 0, 0, 0, "dog"),
        (1, "user", "fact", 0, 0, 0, "dog"),
        (2, "user", "remember", 1, 1, 0, "dog"),
    ],
    readers=[(0, 0, 1, 1), (1, 1, 0, 0), (2, None, None, None), (0, 1, 0, 0)],
)
def test_no_read_crosses_a_scope_boundary(
    mem: GraphMemory, writes: list[Write], readers: list[Reader]
) -> None:
    """Random writes into every scope by several users of several agents and organisations; then each
    reader (a user with an optional session, agent and organisation) sees exactly the scopes the rules
    give it (computed here, independently of graphmem) in recall, and nothing else in recall, context or
    facts; a user's export holds only its own and its sessions' data; deleting the users leaves the shared
    scopes whole."""
    run = disposable(f"test-iso-scope-{uuid.uuid4().hex[:8]}")
    users = [f"{run}-u{i}" for i in range(USERS)]
    agents = [f"{run}-a{i}" for i in range(AGENTS)]
    orgs = [f"{run}-o{i}" for i in range(ORGS)]
    sessions = [f"s{i}" for i in range(SESSIONS)]
    labels = [("session", u, s) for u in range(USERS) for s in range(SESSIONS)]
    labels += [("user", u) for u in range(USERS)] + [("agent", a) for a in range(AGENTS)]
    labels += [("org", o) for o in range(ORGS)]
    written: dict[str, tuple[str, int, ...]] = {}  # stored tenant key -> the owner the rules give it
    try:
        for write in writes:
            u, scope, kind, a, o, s, word = write
            mark = label_marker(run, owner(write))
            text = f"{mark} I like the {word}"
            ids = {"session_id": sessions[s], "agent_id": agents[a], "org_id": orgs[o], "scope": scope}
            if kind == "remember":
                written[mem.remember(text, user_id=users[u], **ids).user_id] = owner(write)
            elif kind == "messages":
                stored = mem.add_messages([text, f"{mark} and {word}"], user_id=users[u], **ids)
                assert len({m.user_id for m in stored}) == 1
                written[stored[0].user_id] = owner(write)
            else:
                written[mem.facts.set(users[u], f"favourite_{word}", text, **ids).user_id] = owner(write)
        assert len(set(written.values())) == len(written)  # one tenant key per owner, and back

        remembered = {owner(w) for w in writes if w[2] != "fact"}
        for r in readers:
            u, s, a, o = r
            who: dict[str, Any] = {
                "user_id": users[u],
                "session_id": None if s is None else sessions[s],
                "agent_id": None if a is None else agents[a],
                "org_id": None if o is None else orgs[o],
            }
            forbidden = {label_marker(run, lb) for lb in labels if not may_read(r, lb)}

            def clean(payload: object, forbidden: set[str] = forbidden, r: Reader = r) -> None:
                text = json.dumps(payload, default=str)
                assert not any(f in text for f in forbidden), (r, text[:500])

            found: set[tuple[str, int, ...]] = set()
            for word in WORDS:
                hits = mem.recall(f"I like the {word}", reinforce=False, k=50, **who)
                clean([h.memory.model_dump() for h in hits])
                found |= {written[h.memory.user_id] for h in hits}
            assert found == {lb for lb in remembered if may_read(r, lb)}, r  # every readable scope merged in
            clean(mem.context("what do I like?", reinforce=False, **who).model_dump())

        for u, user in enumerate(users):
            own = {lb for lb in labels if lb[0] in ("session", "user") and lb[1] == u}
            forbidden = {label_marker(run, lb) for lb in labels if lb not in own}
            text = json.dumps(mem.users.export(user), default=str)
            assert not any(f in text for f in forbidden), text[:500]
        for user in users:
            mem.users.delete(user)
        rows = mem.query(
            "MATCH (m:Memory) WHERE m.user_id IN $t RETURN DISTINCT m.user_id AS tenant",
            {"t": sorted(written)},
        )
        assert {written[r["tenant"]] for r in rows} == {lb for lb in remembered if lb[0] in ("agent", "org")}
    finally:
        for user in users:
            mem.users.delete(user)
        for key in written:
            governance.delete_user(mem.runtime, key)
