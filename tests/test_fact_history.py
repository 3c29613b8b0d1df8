"""History arriving late (graphmem.model.fact_history), on the real server: sessions imported in any order
give the in-order answers, the statements of the values are outdated from when they stopped holding, an
audit read known before still sees what was recorded then, and the cases kept as contradictions stay so."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

import pytest
from conftest import disposable

from graphmem import GraphMemory, ValidationError

SESSIONS = [
    (datetime(2021, 3, 1, tzinfo=UTC), "I live in York, near the minster."),
    (datetime(2022, 6, 1, tzinfo=UTC), "I just moved to Leeds for a new job."),
    (datetime(2023, 9, 1, tzinfo=UTC), "I just moved to Manchester."),
]
PROBES = [
    datetime(2021, 6, 1, tzinfo=UTC),
    datetime(2022, 9, 1, tzinfo=UTC),
    datetime(2024, 1, 1, tzinfo=UTC),
]


def d(year: int, month: int = 1, day: int = 1) -> datetime:
    return datetime(year, month, day, tzinfo=UTC)


def _import(mem: GraphMemory, user: str, order: tuple[int, ...]) -> dict[int, str]:
    ids = {}
    for i in order:
        when, text = SESSIONS[i]
        turn = {"role": "user", "content": text, "timestamp": when}
        ids[i] = mem.add_messages([turn], user_id=user, session_id=f"s{i}")[0].id
    return ids


def _answers(mem: GraphMemory, user: str) -> list[tuple[str, datetime, datetime | None] | None]:
    out = []
    for probe in PROBES:
        f = mem.facts.get(user, "location", as_of=probe)
        out.append(f and (f.value, f.valid_from, f.valid_to))
    return out


@pytest.mark.parametrize("order", [(2, 1, 0), (0, 2, 1), (1, 2, 0)])
def test_sessions_in_any_order_read_as_in_order(
    mem: GraphMemory, user_id: str, order: tuple[int, ...]
) -> None:
    """Before round 56, newest first gave nothing before 2023 (Leeds and York kept as conflicts) and
    (0, 2, 1) gave York for late 2022."""
    expected = [
        ("York", d(2021, 3), d(2022, 6)),
        ("Leeds", d(2022, 6), d(2023, 9)),
        ("Manchester", d(2023, 9), None),
    ]
    in_order = disposable(f"{user_id}-in-order")
    _import(mem, in_order, (0, 1, 2))
    assert _answers(mem, in_order) == expected
    _import(mem, user_id, order)
    assert _answers(mem, user_id) == expected
    assert mem.facts.get(user_id, "location").value == "Manchester"  # type: ignore[union-attr]
    assert "conflicted" not in {f.status for f in mem.facts.history(user_id, "location")}


def test_statements_are_outdated_from_when_their_value_stopped(mem: GraphMemory, user_id: str) -> None:
    ids = _import(mem, user_id, (0, 2, 1))  # Leeds arrives last, inside York's recorded interval
    marks = {
        i: mem.query(
            "MATCH (m:Memory {id: $id}) RETURN m.outdated_from AS at, m.outdated_keys AS keys", {"id": ids[i]}
        )[0]
        for i in ids
    }
    assert (marks[0]["at"], marks[0]["keys"]) == (d(2022, 6), ["location"])  # York: from Leeds's date
    assert (marks[1]["at"], marks[1]["keys"]) == (d(2023, 9), ["location"])  # Leeds: from Manchester's
    assert marks[2]["at"] is None


def test_an_audit_read_known_before_sees_the_old_record(mem: GraphMemory, user_id: str) -> None:
    """York was recorded as holding until Manchester; Leeds, recorded later, ends it at its own date: the
    old record is revoked from then, not rewritten."""
    _import(mem, user_id, (0, 2))
    before = datetime.now(UTC)
    _import(mem, user_id, (1,))
    then = mem.facts.get(user_id, "location", as_of=PROBES[1], known_at=before)
    assert then is not None and (then.value, then.valid_to) == ("York", d(2023, 9))
    now = mem.facts.get(user_id, "location", as_of=PROBES[1])
    assert now is not None and now.value == "Leeds"
    york = [f for f in mem.facts.history(user_id, "location") if f.value == "York"]
    assert sorted((f.valid_to, f.revoked_at is not None) for f in york) == [
        (d(2022, 6), False),
        (d(2023, 9), True),
    ]


def test_what_stays_a_contradiction(mem: GraphMemory, user_id: str) -> None:
    """A less trusted source than the value it would displace, and a date inside an interval that was ended
    with nothing known after it, are kept aside, as before; the same value as the one holding confirms it."""
    mem.facts.set(user_id, "employer", "Acme", valid_from=d(2020))
    mem.facts.set(user_id, "employer", "Initech", valid_from=d(2022))
    agent = mem.facts.set(user_id, "employer", "Globex", valid_from=d(2021), source="agent")
    assert agent.status == "conflicted"
    same = mem.facts.set(user_id, "employer", "Acme", valid_from=d(2021))
    assert (same.value, same.valid_from) == ("Acme", d(2020))  # a confirmation: no new version
    mem.facts.retract(user_id, "employer", valid_to=d(2023))
    inside = mem.facts.set(user_id, "employer", "Hooli", valid_from=d(2022, 6))
    assert inside.status == "conflicted"
    placed = mem.facts.set(user_id, "employer", "Umbrella", valid_from=d(2019))
    assert (placed.status, placed.valid_to) == ("superseded", d(2020))
    assert [mem.facts.get(user_id, "employer", as_of=d(y, 6)).value for y in (2019, 2020, 2021, 2022)] == [  # type: ignore[union-attr]
        "Umbrella",
        "Acme",
        "Acme",
        "Initech",
    ]


def test_every_order_of_four_values_agrees(mem: GraphMemory, user_id: str) -> None:
    """Four dated values through facts.set in all 24 orders: every as_of read agrees with the in-order one."""
    values = [(d(2020), "Porto"), (d(2021), "Lisbon"), (d(2022), "Braga"), (d(2023), "Faro")]
    probes = [d(2019, 6), d(2020, 6), d(2021, 6), d(2022, 6), d(2023, 6)]
    expected = ["", "Porto", "Lisbon", "Braga", "Faro"]
    for n, order in enumerate(itertools.permutations(range(4))):
        user = disposable(f"{user_id}-{n}")
        for i in order:
            mem.facts.set(user, "city", values[i][1], valid_from=values[i][0])
        got = [(f.value if (f := mem.facts.get(user, "city", as_of=p)) else "") for p in probes]
        assert got == expected, order


def test_late_values_of_one_key_in_one_batch(mem: GraphMemory, user_id: str) -> None:
    """Several values of one key in one call, the later dated first: each late one is placed among the
    batch's own versions, the displaced one recorded again whole (before the review of round 56 a copy of a
    version made in the same batch had no user, key or value, and 2021 read nothing)."""
    said = datetime(2024, 1, 10, tzinfo=UTC)
    lines = ["I moved to Manchester in 2023.", "I moved to York in 2021.", "I moved to Leeds in 2022."]
    turns = [{"role": "user", "content": t, "timestamp": said} for t in lines]
    mem.add_messages(turns, user_id=user_id, session_id="s")
    got = [
        (f.value if (f := mem.facts.get(user_id, "location", as_of=d(y, 6))) else None)
        for y in (2021, 2022, 2024)
    ]  # Manchester "in 2023", said ten days after it: news, from when it was said
    assert got == ["York", "Leeds", "Manchester"]
    orphans = mem.query(
        "MATCH (f:Fact) WHERE f.user_id = $u AND (f.key IS NULL OR f.value IS NULL) RETURN count(f) AS n",
        {"u": user_id},
    )
    assert orphans[0]["n"] == 0
    versions = [f.version for f in mem.facts.history(user_id, "location")]
    assert sorted(versions) == list(range(1, len(versions) + 1))


def test_a_late_value_kept_aside_says_why(mem: GraphMemory, user_id: str) -> None:
    mem.facts.set(user_id, "employer", "Acme", valid_from=d(2020))
    mem.facts.retract(user_id, "employer", valid_to=d(2023))
    mem.facts.set(user_id, "employer", "Hooli", valid_from=d(2022, 6))
    reasons = mem.query(
        "MATCH (c:Conflict) WHERE c.user_id = $u AND c.new_value = 'Hooli' RETURN c.reason AS why",
        {"u": user_id},
    )
    assert [r["why"] for r in reasons] == ["dated inside a value that ended with nothing known after it"]


def test_history_can_be_limited_to_the_latest_versions(mem: GraphMemory, user_id: str) -> None:
    """A key that changes often keeps every version; a reader (an MCP tool's result goes into a model's
    context: 2.8 MB for 2,330 versions in round 56's volume probe) asks for the latest few."""
    for i in range(6):
        mem.facts.set(user_id, "mood", f"mood {i}")
    assert [f.value for f in mem.facts.history(user_id, "mood", limit=2)] == ["mood 4", "mood 5"]
    _import(mem, user_id, (2, 1, 0))  # newest first: the current value is recorded first, and still listed
    assert "Manchester" in [f.value for f in mem.facts.history(user_id, "location", limit=1)]
    assert len(mem.facts.history(user_id, "mood")) == 6
    with pytest.raises(ValidationError):
        mem.facts.history(user_id, "mood", limit=0)


def test_consolidation_treats_any_import_order_alike(mem: GraphMemory, user_id: str) -> None:
    """consolidate forgets the statements of values that stopped holding as outdated, the older by when they
    were said: before round 56 by when they were stored, so a conversation imported newest first kept them.
    It marks the same conflicts whatever the order: before round 57 it also followed the SUPERSEDES edges of
    records a late value revoked, so a shuffled import marked York against Manchester too."""
    statuses, conflicts = [], []
    for n, order in enumerate([(0, 1, 2), (2, 1, 0), (0, 2, 1)]):
        user = disposable(f"{user_id}-{n}")
        ids = _import(mem, user, order)
        mem.jobs.run("consolidate", user_id=user)
        statuses.append([mem.memories.get(ids[i], user_id=user).status for i in range(3)])
        session = {v: k for k, v in ids.items()}
        pairs = mem.runtime.store.run_statement(
            "MATCH (a:Memory)-[:CONFLICTS_WITH]->(b:Memory) WHERE a.user_id = $u RETURN a.id AS a, b.id AS b",
            {"u": user},
        )
        conflicts.append(sorted((session[r["a"]], session[r["b"]]) for r in pairs))
    assert statuses[0] == statuses[1] == statuses[2] == ["forgotten", "forgotten", "active"]
    assert conflicts[0] == conflicts[1] == conflicts[2] == [(0, 1), (1, 2)]


def test_the_timeline_dates_values_when_they_held(mem: GraphMemory, user_id: str) -> None:
    """A timeline's fact events are in valid time, as its memories are, and a record revoked by a late value
    is not one of them: before round 57 they were dated when recorded (history imported today showed every
    value on the import's day) and a shuffled import also listed York's revoked record and its end."""
    timelines = []
    for n, order in enumerate([(0, 1, 2), (0, 2, 1), (2, 1, 0)]):
        user = disposable(f"{user_id}-{n}")
        _import(mem, user, order)
        events = mem.temporal.timeline(user)
        timelines.append([(e.kind, e.at, e.text) for e in events if e.kind.startswith("fact")])
        assert [e.at for e in events] == sorted(e.at for e in events)
        assert [e.kind for e in mem.temporal.timeline(user, known_at=d(2024))] == []  # recorded today
    assert (
        timelines[0]
        == timelines[1]
        == timelines[2]
        == [
            ("fact_set", d(2021, 3), "location = York"),
            ("fact_ended", d(2022, 6), "location = York"),
            ("fact_set", d(2022, 6), "location = Leeds"),
            ("fact_ended", d(2023, 9), "location = Leeds"),
            ("fact_set", d(2023, 9), "location = Manchester"),
        ]
    )
