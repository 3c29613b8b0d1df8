"""Point-in-time fact reads on the real server: the move example, history, bad input, and random write
sequences checked against an independent in-memory model (tests/fact_oracle.py)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from conftest import disposable
from fact_oracle import KeyModel
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import FactType, GraphMemory, Source, ValidationError
from graphmem.model.facts import FactInput
from graphmem.temporal import facts as factbase


def d(month: int, day: int) -> datetime:
    return datetime(2026, month, day, 12, tzinfo=UTC)


def record(mem: GraphMemory, user_id: str, value: str, valid_from: datetime, now: datetime) -> None:
    new = FactInput(user_id, "city", value, FactType.PROFILE, valid_from=valid_from)
    factbase.set_fact(mem.runtime, new, now=now)


def test_the_move_example(mem: GraphMemory, user_id: str) -> None:
    """A fact recorded on March 5 saying the user moved on March 1."""
    record(mem, user_id, "Lyon", d(1, 10), now=d(1, 10))
    record(mem, user_id, "Paris", d(3, 1), now=d(3, 5))

    old = mem.facts.get(user_id, "city", as_of=d(3, 3), known_at=d(3, 4))
    new = mem.facts.get(user_id, "city", as_of=d(3, 3), known_at=d(3, 6))
    assert old is not None and old.value == "Lyon"
    assert old.valid_to is None and old.status == "current"  # as it read on March 4
    assert new is not None and new.value == "Paris"
    assert mem.facts.get(user_id, "city", as_of=d(2, 1), known_at=d(3, 6)).value == "Lyon"  # type: ignore[union-attr]
    assert mem.facts.get(user_id, "city").value == "Paris"  # type: ignore[union-attr]

    history = mem.facts.history(user_id, "city")
    assert [f.value for f in history] == ["Lyon", "Paris"]
    assert history[0].valid_to == d(3, 1) and history[0].expired_at == d(3, 5)
    assert history[1].recorded_at == d(3, 5) and history[1].valid_to is None


def test_bad_input(mem: GraphMemory, user_id: str) -> None:
    record(mem, user_id, "Lyon", d(1, 10), now=d(1, 10))
    # known_at before any record, unknown users and keys: empty, not errors
    assert mem.facts.get(user_id, "city", known_at=d(1, 1)) is None
    assert mem.facts.get(f"nobody-{uuid.uuid4()}", "city", as_of=d(2, 1)) is None
    assert mem.facts.history(f"nobody-{uuid.uuid4()}", "city") == []
    # as_of in the future: the open version, as known now
    assert mem.facts.get(user_id, "city", as_of=datetime.now(UTC) + timedelta(days=3650)).value == "Lyon"  # type: ignore[union-attr]
    # naive datetimes are read as UTC
    naive = mem.facts.get(user_id, "city", as_of=datetime(2026, 2, 1), known_at=datetime(2026, 2, 1))
    assert naive is not None and naive.value == "Lyon"
    assert mem.facts.get(user_id, "city", as_of="2026-02-01T00:00:00+00:00") is not None  # type: ignore[arg-type]
    try:
        mem.facts.get(user_id, "city", as_of="yesterday")  # type: ignore[arg-type]
    except ValidationError as exc:
        assert "as_of" in str(exc)
    else:
        raise AssertionError("a bad as_of was accepted")


def test_kept_contradictions_are_in_history_not_in_reads(mem: GraphMemory, user_id: str) -> None:
    record(mem, user_id, "Lyon", d(1, 10), now=d(1, 10))
    agent = FactInput(user_id, "city", "Nice", FactType.PROFILE, valid_from=d(2, 1), source=Source.AGENT)
    factbase.set_fact(mem.runtime, agent, now=d(2, 2))
    assert [f.status for f in mem.facts.history(user_id, "city")] == ["current", "conflicted"]
    assert mem.facts.get(user_id, "city", as_of=d(2, 5), known_at=d(2, 5)).value == "Lyon"  # type: ignore[union-attr]


ALIASES = ["city", "location", "lives_in", "home"]  # one key, whatever alias each write uses
write = st.tuples(
    st.sampled_from(["Paris", "Berlin", "Rome"]),
    st.integers(min_value=-20, max_value=20),
    st.sampled_from([Source.USER, Source.AGENT]),
    st.integers(min_value=0, max_value=3),
    st.sampled_from(ALIASES),
    st.sampled_from([FactType.PROFILE, FactType.CUSTOM, FactType.PREFERENCE]),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(write, min_size=1, max_size=7))
def test_reads_match_an_independent_model(
    mem: GraphMemory, writes: list[tuple[str, int, Source, int, str, FactType]]
) -> None:
    """Random writes at virtual transaction times, through any alias and fact type; every (as_of, known_at)
    read of the server must give the value, start and (as known then) end that an independent in-memory
    model of the same operations gives (tests/fact_oracle.py), not one computed from what the server
    stored."""
    user_id = disposable(f"test-{uuid.uuid4()}")
    model, now = KeyModel(), d(1, 1)
    for value, offset, source, gap, alias, fact_type in writes:
        now += timedelta(days=gap, seconds=1)
        valid_from = now + timedelta(days=offset)
        factbase.set_fact(
            mem.runtime,
            FactInput(user_id, alias, value, fact_type, valid_from=valid_from, source=source),
            now=now,
        )
        model.set(now, value, valid_from, source.value)
    probes = sorted({t + dt for t in model.times() for dt in (timedelta(seconds=-1), timedelta(0))})
    for known_at in sorted({o.at for o in model.ops} | {o.at - timedelta(seconds=1) for o in model.ops}):
        for as_of in probes:
            got = mem.facts.get(user_id, "city", as_of=as_of, known_at=known_at)
            expected = model.answer(as_of, known_at)
            assert (got and (got.value, got.valid_from, got.valid_to)) == expected, (as_of, known_at)
            listed = mem.facts.list(user_id, as_of=as_of, known_at=known_at)  # the same rule for every key
            assert [(f.value, f.valid_from, f.valid_to) for f in listed] == ([expected] if expected else [])
    current = mem.facts.get(user_id, "location")
    assert (current and current.value) == model.current(datetime.now(UTC))
    assert [f.value for f in mem.facts.list(user_id)] == (
        [model.current(datetime.now(UTC))] if model.current(datetime.now(UTC)) else []
    )


def test_list_gives_each_keys_value_then_and_now(mem: GraphMemory, user_id: str) -> None:
    """One version per key, key order: the current values, or those that held at ``as_of`` as recorded by
    ``known_at``; retracted values and kept contradictions are not listed, an alias lists under its key."""
    record(mem, user_id, "Lyon", d(1, 10), now=d(1, 10))
    record(mem, user_id, "Paris", d(3, 1), now=d(3, 5))
    for key, value, when in (
        ("employer", "Acme", d(1, 10)),
        ("diet", "vegan", d(2, 1)),
        ("pet", "Rex", d(2, 1)),
    ):
        factbase.set_fact(
            mem.runtime, FactInput(user_id, key, value, FactType.PROFILE, valid_from=when), now=when
        )
    mem.facts.retract(user_id, "pet")
    agent = FactInput(user_id, "diet", "omnivore", FactType.PROFILE, valid_from=d(2, 2), source=Source.AGENT)
    factbase.set_fact(mem.runtime, agent, now=d(2, 3))  # kept as a contradiction of the user's own value

    def listed(**when: datetime) -> list[tuple[str, str]]:
        return [(f.key, f.value) for f in mem.facts.list(user_id, **when)]

    assert listed() == [("diet", "vegan"), ("employer", "Acme"), ("location", "Paris")]
    assert listed(as_of=d(2, 15)) == [("diet", "vegan"), ("employer", "Acme"), ("location", "Lyon")]
    assert listed(as_of=d(3, 3), known_at=d(3, 4)) == [  # the pet's retraction came later: still known then
        ("diet", "vegan"),
        ("employer", "Acme"),
        ("location", "Lyon"),
        ("pet", "Rex"),
    ]
    assert ("location", "Paris") in listed(as_of=d(3, 3), known_at=d(3, 6))  # recorded on March 5
    assert listed(as_of=d(1, 5)) == []
    assert mem.facts.list(user_id, scope="agent", agent_id="helper") == []  # another scope's facts
