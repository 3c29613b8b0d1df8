"""Multi-scope isolation, property-tested on the real server: random interleaved operations for several
users, then no recall, context, snapshot, export, timeline, history or audit read returns another user's
data. Every stored text carries its owner's marker, so a leak is visible in any read."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from graphmem import GraphMemory

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
