"""Current state and valid time on the real server: a move supersedes the old location (facts and the
memories that stated them), recall prefers the current statement for present-tense questions and keeps
the old one for past-tense and as_of questions, context lists current facts only, as_of over imported
history, as_of + known_at audit reads, and the occurred_at migration."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from graphmem import GraphMemory
from graphmem.temporal import migrate

DAY1 = datetime(2026, 3, 2, 9, tzinfo=UTC)
APRIL = datetime(2026, 4, 1, tzinfo=UTC)  # "next month" said on day 8


def day(n: int, hour: int = 0) -> datetime:
    return DAY1 + timedelta(days=n - 1, hours=hour)


def _say(mem: GraphMemory, user_id: str, n: int, *lines: str) -> list[str]:
    turns = [{"role": "user", "content": t, "timestamp": day(n, i)} for i, t in enumerate(lines)]
    return [m.id for m in mem.add_messages(turns, user_id=user_id, session_id=f"day-{n}")]


def _move(mem: GraphMemory, user_id: str) -> tuple[list[str], list[str], list[str]]:
    first = _say(mem, user_id, 1, "I live in Leeds, near the university.", "My sister visited on Sunday.")
    second = _say(
        mem, user_id, 8, "Big news: I'm moving from Leeds to Manchester next month.", "I adopted a cat."
    )
    third = _say(mem, user_id, 15, "I've settled into my flat in Ancoats, Manchester.", "The cat loves it.")
    return first, second, third


def _node(mem: GraphMemory, memory_id: str) -> dict[str, object]:
    return mem.query("MATCH (m:Memory {id: $id}) RETURN m {.*, embedding: null} AS m", {"id": memory_id})[0][
        "m"
    ]


def test_a_move_supersedes_the_old_place(mem: GraphMemory, user_id: str) -> None:
    (leeds, _), (moving, _), (settled, _) = _move(mem, user_id)
    # One key for extracted facts and set_fact aliases: city / lives_in / location.
    now = mem.facts.get(user_id, "city")
    assert now is not None and now.value == "Ancoats, Manchester" and now.key == "location"
    assert [f.value for f in mem.facts.history(user_id, "lives_in")] == [
        "Leeds",
        "Manchester",
        "Ancoats, Manchester",
    ]
    # "moving ... next month" (day 8) was a plan from April 1; day 15's statement replaced it before then.
    plan = mem.facts.history(user_id, "location")[1]
    assert (plan.valid_from, plan.planned_at, plan.valid_to, plan.status) == (
        APRIL,
        day(8),
        APRIL,
        "superseded",
    )
    was = mem.facts.get(user_id, "location", as_of=day(10))
    assert was is not None and was.value == "Leeds" and was.valid_to == APRIL  # the plan's end, as recorded
    assert mem.facts.get(user_id, "location", as_of=day(16)).value == "Ancoats, Manchester"  # type: ignore[union-attr]
    # The memories that stated the old values are marked, bi-temporally, and linked from their successors.
    old = _node(mem, leeds)
    assert old["outdated_from"] == day(15) and old["outdated_keys"] == ["location"]
    assert old["content"] == "I live in Leeds, near the university." and old["status"] == "active"
    assert _node(mem, moving)["outdated_from"] == day(15)
    assert "outdated_from" not in _node(mem, settled) or _node(mem, settled)["outdated_from"] is None
    edges = mem.query(
        "MATCH (a:Memory)-[s:SUPERSEDES]->(b:Memory) WHERE a.user_id = $u "
        "RETURN a.id AS a, b.id AS b, s.key AS k",
        {"u": user_id},
    )
    # the plan had superseded Leeds from April; what replaced the plan supersedes both
    assert sorted((e["a"], e["b"]) for e in edges) == sorted(
        [(moving, leeds), (settled, moving), (settled, leeds)]
    )


def test_where_do_i_live_now_ranks_manchester_first(mem: GraphMemory, user_id: str) -> None:
    (leeds, _), (moving, _), (settled, _) = _move(mem, user_id)
    hits = mem.recall("Where do I live now?", user_id=user_id, k=3, reinforce=False)
    assert "Manchester" in hits[0].memory.content, [h.memory.content for h in hits]
    assert hits[0].memory.id in (moving, settled)
    # A past-tense question, or one asked as of an earlier time, still finds Leeds.
    before = mem.recall("Where did I live before I moved?", user_id=user_id, k=3, reinforce=False)
    assert leeds in [h.memory.id for h in before]
    then = mem.recall("Where do I live now?", user_id=user_id, k=3, as_of=day(5))
    assert then[0].memory.id == leeds and {moving, settled}.isdisjoint(h.memory.id for h in then)


def test_context_under_a_small_budget_keeps_the_current_place(mem: GraphMemory, user_id: str) -> None:
    _move(mem, user_id)
    mem.facts.set(user_id, "favourite_colour", "green", fact_type="preference")
    mem.facts.set(user_id, "pet", "a cat called Miso")
    ctx = mem.context("Where do I live now?", user_id=user_id, token_budget=25, reinforce=False)
    facts = [i.text for i in ctx.items if i.kind == "fact"]
    assert facts[0] == "location: Ancoats, Manchester"  # most relevant first, before anything else
    assert sorted(facts) == sorted(
        ["location: Ancoats, Manchester", "favourite_colour: green", "pet: a cat called Miso"]
    )
    assert ctx.kept[0].text == "location: Ancoats, Manchester" and "Leeds" not in ctx.text.split("##")[1]
    # As of day 5 the context's facts are those of day 5.
    early = mem.context("Where do I live?", user_id=user_id, as_of=day(5), reinforce=False)
    assert [i.text for i in early.items if i.kind == "fact"] == ["location: Leeds"]


def test_a_chain_of_three_values_and_an_ending(mem: GraphMemory, user_id: str) -> None:
    jan, feb, mar, apr = (datetime(2026, m, 1, tzinfo=UTC) for m in (1, 2, 3, 4))
    mem.facts.set(user_id, "location", "Leeds", valid_from=jan, fact_type="profile")
    mem.facts.set(user_id, "city", "York", valid_from=feb)  # alias, other fact type: the same key
    mem.facts.set(user_id, "lives in", "Bristol", valid_from=mar, fact_type="preference")
    history = mem.facts.history(user_id, "location")
    assert [(f.value, f.status, f.valid_from, f.valid_to) for f in history] == [
        ("Leeds", "superseded", jan, feb),
        ("York", "superseded", feb, mar),
        ("Bristol", "current", mar, None),
    ]
    for at, value in ((jan, "Leeds"), (feb + timedelta(days=3), "York"), (apr, "Bristol")):
        assert mem.facts.get(user_id, "city", as_of=at).value == value  # type: ignore[union-attr]
    ctx = mem.context("where?", user_id=user_id, reinforce=False)
    assert [i.text for i in ctx.items if i.kind == "fact"] == ["location: Bristol"]
    # "I no longer live in Bristol": the value ends at the statement's time; nothing is deleted.
    gone = _say(mem, user_id, 60, "I no longer live in Bristol.")[0]
    assert mem.facts.get(user_id, "location") is None
    assert mem.facts.get(user_id, "location", as_of=day(59)).value == "Bristol"  # type: ignore[union-attr]
    assert [f.status for f in mem.facts.history(user_id, "location")][-1] == "ended"
    assert not [i for i in mem.context("where?", user_id=user_id, reinforce=False).items if i.kind == "fact"]
    assert _node(mem, gone)["content"] == "I no longer live in Bristol."


def test_as_of_over_imported_history(mem: GraphMemory, user_id: str) -> None:
    """Messages imported today with 2025 timestamps: as_of reads their valid time, not the import's."""
    old = datetime(2025, 5, 1, tzinfo=UTC)
    turns = [
        {
            "role": "user",
            "content": f"Week {i}: I trained for the marathon",
            "timestamp": old + timedelta(weeks=i),
        }
        for i in range(6)
    ]
    ids = [m.id for m in mem.add_messages(turns, user_id=user_id, session_id="import")]
    got = mem.recall("marathon training", user_id=user_id, k=10, as_of=old + timedelta(weeks=2, days=1))
    assert sorted(h.memory.id for h in got) == sorted(ids[:3])
    assert mem.recall("marathon training", user_id=user_id, as_of=old - timedelta(days=1)) == []
    assert len(mem.recall("marathon training", user_id=user_id, k=10, reinforce=False)) == 6
    events = mem.temporal.timeline(user_id, end=old + timedelta(weeks=1))
    assert [e.id for e in events] == ids[:2]


def test_as_of_and_known_at_answer_what_was_known_then(mem: GraphMemory, user_id: str) -> None:
    jan = datetime(2026, 1, 10, tzinfo=UTC)
    first = mem.add_messages(
        [{"role": "user", "content": "I booked a cello lesson for Friday", "timestamp": jan}],
        user_id=user_id,
        session_id="a",
    )[0]
    time.sleep(0.02)
    checkpoint = datetime.now(UTC)
    time.sleep(0.02)
    # Learnt later about January: a late import, and a February message.
    late = mem.add_messages(
        [
            {
                "role": "user",
                "content": "I also booked a cello repair in January",
                "timestamp": jan + timedelta(days=2),
            },
            {
                "role": "user",
                "content": "The cello lesson moved to March",
                "timestamp": jan + timedelta(days=30),
            },
        ],
        user_id=user_id,
        session_id="b",
    )

    def ids(**kw: datetime) -> set[str]:
        return {h.memory.id for h in mem.recall("cello", user_id=user_id, k=10, reinforce=False, **kw)}

    end_jan = datetime(2026, 1, 31, tzinfo=UTC)
    assert ids(as_of=end_jan, known_at=checkpoint) == {first.id}  # what we knew then about January
    assert ids(as_of=end_jan) == {first.id, late[0].id}  # what we know now about January
    assert ids(known_at=checkpoint) == {first.id}  # everything recorded by the checkpoint
    assert ids() == {first.id, late[0].id, late[1].id}
    assert [e.id for e in mem.temporal.timeline(user_id, known_at=checkpoint)] == [first.id]
    snap = mem.temporal.snapshot(user_id, as_of=end_jan, known_at=checkpoint)
    assert {n.id for n in snap.nodes if n.label == "Memory"} == {first.id}
    ctx = mem.context("cello", user_id=user_id, as_of=end_jan, known_at=checkpoint, reinforce=False)
    assert "repair" not in ctx.text and "lesson" in ctx.text


def test_the_migration_gives_old_memories_a_valid_time(mem: GraphMemory, user_id: str) -> None:
    m = mem.remember("A memory from before occurred_at existed", user_id=user_id)
    mem.runtime.store.run_statement("MATCH (m:Memory {id: $id}) REMOVE m.occurred_at", {"id": m.id})
    assert mem.recall("memory before occurred_at", user_id=user_id, as_of=datetime.now(UTC)) != []
    migrate.run(mem.runtime)
    node = _node(mem, m.id)
    assert node["occurred_at"] == node["created_at"] and node["content"] == m.content
    migrate.run(mem.runtime)  # idempotent
    assert _node(mem, m.id) == node


def test_every_memory_graphmem_writes_has_a_valid_time(mem: GraphMemory, user_id: str) -> None:
    """A time-scoped recall asks the vector indexes for memories by ``occurred_at`` (docs/temporal.md), so
    the writers that do not take a message time (core blocks, LangGraph store items) set it at writing."""
    from graphmem.adapters.langgraph import GraphMemStore

    mem.remember("I water the plants on Sundays", user_id=user_id)
    mem.core.set(user_id, "human", "Name: Alice")
    GraphMemStore(mem, user_id=user_id).put(("memories",), "pet", {"text": "The user has a dog named Rex"})
    rows = mem.query(
        "MATCH (m:Memory {user_id: $u}) RETURN labels(m) AS labels, m.occurred_at AS occurred, "
        "m.recorded_at AS recorded",
        {"u": user_id},
    )
    assert {label for r in rows for label in r["labels"]} >= {"CoreBlock", "StoreItem"}
    assert rows and all(r["occurred"] is not None and r["recorded"] is not None for r in rows), rows
    now = datetime.now(UTC)
    assert len(mem.recall("Alice", user_id=user_id, k=5, as_of=now)) >= 1


def test_context_names_a_plan_beside_the_value_it_will_replace(mem: GraphMemory, user_id: str) -> None:
    """An agent told "I start my new job at Spotify on Monday" sees it in the facts before Monday; an as_of
    read after the date lists it as the value, and a settled plan is never shown."""
    _say(mem, user_id, 1, "I live in Leeds, near the university.")
    _say(mem, user_id, 8, "Big news: I'm moving from Leeds to Manchester next month.")
    _say(mem, user_id, 9, "I start work at the BBC next week.")

    def facts(**when: datetime) -> list[str]:
        ctx = mem.context("Where do I live and work?", user_id=user_id, reinforce=False, **when)
        return sorted(i.text for i in ctx.items if i.kind == "fact")

    assert facts(as_of=day(10)) == [
        "employer: BBC (from 2026-03-16)",
        "location: Leeds (from 2026-04-01: Manchester)",
    ]
    assert facts(as_of=APRIL) == ["employer: BBC", "location: Manchester"]
    _say(mem, user_id, 12, "I've settled into my flat in Ancoats, Manchester.")  # the move came early
    assert facts(as_of=day(13)) == ["employer: BBC (from 2026-03-16)", "location: Ancoats, Manchester"]
    assert facts(as_of=day(10)) == ["employer: BBC (from 2026-03-16)", "location: Leeds"]  # known now


def test_a_version_after_a_conflict_takes_the_next_number(mem: GraphMemory, user_id: str) -> None:
    """A value kept as a conflict (an agent's, dated before the user's current one) has its own version
    number; the next value is numbered after it (before: after the current version, so two versions of one
    key shared a number). A value placed in the key's past (the user's own, dated earlier) likewise."""
    now = datetime.now(UTC)
    mem.facts.set(user_id, "city", "Aveiro", valid_from=now - timedelta(days=1))
    mem.facts.set(user_id, "city", "Braga", valid_from=now - timedelta(days=30), source="agent")
    mem.facts.set(user_id, "city", "Faro", valid_from=now - timedelta(days=20))
    mem.facts.set(user_id, "city", "Coimbra")
    history = {f.value: (f.version, f.status) for f in mem.facts.history(user_id, "city")}
    assert history == {
        "Aveiro": (1, "superseded"),
        "Braga": (2, "conflicted"),
        "Faro": (3, "superseded"),
        "Coimbra": (4, "current"),
    }


def test_an_ended_copy_after_a_conflict_takes_the_next_number(mem: GraphMemory, user_id: str) -> None:
    """The same for the version a retraction with ``valid_to`` records (it was numbered after the retracted
    version, the conflict's number again)."""
    now = datetime.now(UTC)
    mem.facts.set(user_id, "city", "Aveiro", valid_from=now - timedelta(days=10))
    mem.facts.set(user_id, "city", "Braga", valid_from=now - timedelta(days=30))
    ended = mem.facts.retract(user_id, "city", valid_to=now - timedelta(days=1))
    assert ended.version == 3
    assert sorted(f.version for f in mem.facts.history(user_id, "city")) == [1, 2, 3]
