"""The Google ADK memory service adapter with the real ADK types against the real server."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from google.adk.events.event import Event
from google.adk.memory.memory_entry import MemoryEntry
from google.adk.sessions import InMemorySessionService
from google.adk.sessions.session import Session
from google.genai import types

from graphmem import GraphMemory
from graphmem.adapters.adk import GraphMemMemoryService, event_message, split_text
from graphmem.errors import ConfigurationError, ValidationError


def _event(author: str, text: str | None, role: str) -> Event:
    parts = [types.Part(text=text)] if text is not None else []
    return Event(author=author, invocation_id="inv-1", content=types.Content(role=role, parts=parts))


def test_event_message() -> None:
    message = event_message(_event("user", "I adopted a dog named Rex", "user"))
    assert (
        message is not None
        and message["role"] == "user"
        and message["content"] == "I adopted a dog named Rex"
    )
    assert event_message(_event("agent", None, "model")) is None
    assert split_text("x" * 45, 20) == ["x" * 20, "x" * 20, "x" * 5]
    assert split_text("aaaa bbbb cccc dddd", 12) == ["aaaa bbbb", "cccc dddd"]


def test_add_session_and_search(mem: GraphMemory, user_id: str) -> None:
    service = GraphMemMemoryService(mem, k=3)
    sessions = InMemorySessionService()

    async def run() -> tuple[object, object, int]:
        session = await sessions.create_session(app_name="pets", user_id=user_id)
        for event in [
            _event("user", "I adopted a dog named Rex last spring", "user"),
            _event("pet_agent", "Congratulations on adopting Rex!", "model"),
            _event("user", "My sister lives in Lisbon", "user"),
        ]:
            await sessions.append_event(session, event)
        session = await sessions.get_session(app_name="pets", user_id=user_id, session_id=session.id)
        assert session is not None
        await service.add_session_to_memory(session)
        await service.add_session_to_memory(session)  # again: nothing new is written
        found = await service.search_memory(app_name="pets", user_id=user_id, query="what is my dog called?")
        other = await service.search_memory(app_name="other-app", user_id=user_id, query="dog")
        count = mem.query("MATCH (m:Memory {user_id: $u}) RETURN count(m) AS n", {"u": f"pets:{user_id}"})
        return found, other, count[0]["n"]

    found, other, count = asyncio.run(run())
    assert count == 3
    entries = found.memories  # type: ignore[attr-defined]
    assert entries[0].content.parts[0].text == "I adopted a dog named Rex last spring"
    assert entries[0].author == "user" and entries[0].timestamp
    assert entries[0].custom_metadata["score"] > 0 and entries[0].custom_metadata["search_level"]
    assert {e.author for e in entries} <= {"user", "pet_agent"}
    assert other.memories == []  # type: ignore[attr-defined]


def test_example_script_runs(mem: GraphMemory, user_id: str) -> None:
    script = Path(__file__).parents[1] / "examples" / "adk_agent.py"
    done = subprocess.run([sys.executable, str(script), user_id], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("My bike is a red Cannondale (score ")


def test_an_oversize_event_is_stored_in_parts(mem: GraphMemory, user_id: str) -> None:
    """An event longer than the content limit is stored in parts of at most the limit; it used to raise a
    ValidationError on every add_session_to_memory, so no later event of the session was ever stored."""
    limit = mem.runtime.settings.max_content_chars
    report = "Here is the full report: " + "lorem ipsum dolor " * (limit // 9)  # about two limits long
    service = GraphMemMemoryService(mem)
    sessions = InMemorySessionService()

    async def run() -> None:
        session = await sessions.create_session(app_name="reports", user_id=user_id)
        for event in [
            _event("user", "I work as a nurse in Bristol", "user"),
            _event("helper", report, "model"),
            _event("user", "My daughter is called Maya", "user"),
        ]:
            await sessions.append_event(session, event)
        await service.add_session_to_memory(session)
        await service.add_session_to_memory(session)  # again: nothing new is written

    asyncio.run(run())
    stored = mem.memories.list(f"reports:{user_id}", limit=100)
    parts = [m for m in stored if m.content.startswith(("Here is", "lorem", "ipsum", "dolor"))]
    assert len(stored) == 2 + len(parts) and len(parts) >= 2
    assert all(len(m.content) <= limit for m in parts)
    assert sum(len(m.content) for m in parts) >= len(report.strip()) - len(parts)
    assert any(m.content == "My daughter is called Maya" for m in stored)
    assert {m.metadata["adk_event_id"] for m in parts} == {parts[0].metadata["adk_event_id"]}


def test_refuses_an_async_graphmemory(embedder: object) -> None:
    """An AsyncGraphMemory is refused when the service is made; it was taken, and failed at the first call
    with "TypeError: 'coroutine' object is not iterable" (the service runs the sync calls in a thread)."""
    from graphmem import AsyncGraphMemory

    async def run() -> None:
        async with await AsyncGraphMemory.connect(embedder=embedder) as amem:  # type: ignore[arg-type]
            with pytest.raises(ConfigurationError, match=r"GraphMemory\.connect"):
                GraphMemMemoryService(amem)  # type: ignore[arg-type]

    asyncio.run(run())


def test_add_and_delete_memory_and_event_metadata(mem: GraphMemory, user_id: str) -> None:
    """add_memory remembers explicit entries and delete_memory forgets one, for the session's tenant (both
    raised NotImplementedError: ADK agents call them through their Context); add_events_to_memory's
    custom_metadata reaches each stored message (it was dropped)."""
    service = GraphMemMemoryService(mem, k=5)
    tenant = f"notes:{user_id}"

    async def run() -> None:
        note = types.Content(
            role="user", parts=[types.Part(text="The user's passport expires in March 2031")]
        )
        entries = [MemoryEntry(content=note, id="note-1", author="helper", timestamp="2026-01-05T10:00:00Z")]
        await service.add_memory(
            app_name="notes", user_id=user_id, memories=entries, custom_metadata={"ttl": 7}
        )
        await service.add_memory(app_name="notes", user_id=user_id, memories=entries)  # again: written once
        events = [_event("user", "I moved to Porto last month", "user")]
        await service.add_events_to_memory(
            app_name="notes", user_id=user_id, events=events, session_id="s1", custom_metadata={"turn": 3}
        )

    asyncio.run(run())
    stored = {m.content: m for m in mem.memories.list(tenant)}
    assert set(stored) == {"The user's passport expires in March 2031", "I moved to Porto last month"}
    passport = stored["The user's passport expires in March 2031"]
    assert passport.metadata["ttl"] == 7 and passport.metadata["adk_memory_id"] == "note-1"
    assert passport.occurred_at is not None and passport.occurred_at.year == 2026
    moved = stored["I moved to Porto last month"]
    assert moved.metadata["turn"] == 3 and moved.metadata["adk_event_id"]

    asyncio.run(service.delete_memory(app_name="notes", user_id=user_id, memory_id=passport.id))
    assert {m.content for m in mem.memories.list(tenant)} == {"I moved to Porto last month"}
    with pytest.raises(ValidationError):
        asyncio.run(service.delete_memory(app_name="notes", user_id=user_id))


def _turns(start: int, count: int) -> list[Event]:
    places = ["Lisbon", "Porto", "Bristol", "Leeds", "York", "Bath"]
    return [
        Event(
            author="user" if i % 2 == 0 else "helper",
            invocation_id=f"inv-{i // 2}",
            timestamp=1_760_000_000.0 + i,
            content=types.Content(
                role="user" if i % 2 == 0 else "model",
                parts=[types.Part(text=f"On trip {i} we visited {places[i % 6]} and stayed {i + 2} nights")],
            ),
        )
        for i in range(start, start + count)
    ]


def test_a_session_is_stored_in_one_call_and_re_added_exactly(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session's new events are stored by one add_messages call (it was one call per event, ~12x slower
    for 100 events); adding it again stores and reinforces nothing, and after it gained events stores those
    only. An event stored by the per-event call of before (its key adk:<session>:<event id>) is not stored
    again."""
    calls: list[int] = []
    add = mem.add_messages

    def counted(messages: list[object], **kwargs: object) -> object:
        calls.append(len(messages))
        return add(messages, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(mem, "add_messages", counted)
    service = GraphMemMemoryService(mem, tenant=lambda _app, user: user)
    events = _turns(0, 30)
    first = event_message(events[0])
    assert first is not None
    add([first], user_id=user_id, session_id="s1", idempotency_key=f"adk:s1:{events[0].id}")  # as before

    def state() -> dict[str, tuple[str, float, int, int]]:
        listed = mem.memories.list(user_id, limit=100)
        return {m.id: (m.content, m.strength, m.access_count, m.version) for m in listed}

    asyncio.run(service.add_session_to_memory(Session(id="s1", app_name="a", user_id=user_id, events=events)))
    assert calls == [29]  # the event stored before is not stored again
    stored = state()
    assert len(stored) == 30 and len({c for c, *_ in stored.values()}) == 30
    asyncio.run(service.add_session_to_memory(Session(id="s1", app_name="a", user_id=user_id, events=events)))
    assert calls == [29] and state() == stored  # nothing stored, nothing reinforced
    grown = Session(id="s1", app_name="a", user_id=user_id, events=[*events, *_turns(30, 3)])
    asyncio.run(service.add_session_to_memory(grown))
    asyncio.run(service.add_session_to_memory(grown))
    assert calls == [29, 3]
    after = state()
    assert len(after) == 33 and {i: after[i] for i in stored} == stored
    other = Session(id="s2", app_name="a", user_id=user_id, events=events[:2])  # another session's events
    asyncio.run(service.add_session_to_memory(other))
    assert calls == [29, 3, 2]


def test_event_batches() -> None:
    from graphmem.adapters.adk import event_batches

    events = [("a", [{}]), ("b", [{}, {}, {}]), ("c", [{}]), ("d", [{}] * 5), ("e", [{}])]
    batches = event_batches(events, 4)  # type: ignore[arg-type]
    assert [[k for k, _ in b] for b in batches] == [["a", "b"], ["c"], ["d"], ["e"]]
    assert event_batches([], 4) == []
