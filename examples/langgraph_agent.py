"""A LangGraph graph with long-term memory in graphmem: `python examples/langgraph_agent.py [USER_ID]`.

Needs the local server (`graphmem server start`) and `pip install 'graphmem[langgraph]'`.
"""

from __future__ import annotations

import hashlib
import sys
from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore

from graphmem import GraphMemory
from graphmem.adapters.langgraph import GraphMemStore


class State(TypedDict):
    message: str
    recalled: list[str]


def note_key(note: str) -> str:
    """The same key for the same note in every run (``hash()`` of a str changes per process), so re-running
    the example updates its note instead of adding another."""
    return hashlib.sha256(note.strip().lower().encode()).hexdigest()[:16]


def remember(state: State, *, store: BaseStore) -> dict[str, Any]:
    if state["message"].lower().startswith("remember "):
        note = state["message"][len("remember ") :]
        store.put(("notes",), note_key(note), {"text": note})
    return {}


def recall(state: State, *, store: BaseStore) -> dict[str, Any]:
    return {
        "recalled": [item.value["text"] for item in store.search(("notes",), query=state["message"], limit=3)]
    }


def main(user_id: str) -> None:
    builder = StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_node("recall", recall)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "recall")
    builder.add_edge("recall", END)
    with GraphMemory.connect() as mem:
        mem.init()
        graph = builder.compile(store=GraphMemStore(mem, user_id=user_id))
        graph.invoke({"message": "remember my bike is a red Cannondale", "recalled": []})
        result = graph.invoke({"message": "what bike do I ride?", "recalled": []})
    print(result["recalled"][0])


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "langgraph-example")
