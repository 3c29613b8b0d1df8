"""Google ADK long-term memory in graphmem: `python examples/adk_agent.py [USER_ID]`.

Ingests an ADK session into graphmem and searches it the way ADK's `load_memory` tool does. With a model
configured, pass the service to `Runner(agent=..., session_service=..., memory_service=service)`.
Needs the local server (`graphmem server start`) and `pip install 'graphmem[adk]'`.
"""

from __future__ import annotations

import asyncio
import sys

from google.adk.events.event import Event
from google.adk.sessions import InMemorySessionService
from google.genai import types

from graphmem import GraphMemory
from graphmem.adapters.adk import GraphMemMemoryService


async def main(user_id: str) -> None:
    sessions = InMemorySessionService()
    with GraphMemory.connect() as mem:
        mem.init()
        service = GraphMemMemoryService(mem)
        session = await sessions.create_session(app_name="cycling", user_id=user_id)
        said = types.Content(role="user", parts=[types.Part(text="My bike is a red Cannondale")])
        await sessions.append_event(session, Event(author="user", invocation_id="i1", content=said))
        await service.add_session_to_memory(session)
        found = await service.search_memory(app_name="cycling", user_id=user_id, query="what bike do I ride?")
    best = found.memories[0]
    text = best.content.parts[0].text if best.content.parts else ""
    print(f"{text} (score {best.custom_metadata['score']:.3f})")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "adk-example"))
