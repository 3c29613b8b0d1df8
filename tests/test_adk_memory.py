"""The Google ADK memory service adapter with the real ADK types against the real server."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from google.adk.events.event import Event
from google.adk.sessions import InMemorySessionService
from google.genai import types

from graphmem import GraphMemory
from graphmem.adapters.adk import GraphMemMemoryService, event_message


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
