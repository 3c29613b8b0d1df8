"""The LangGraph BaseStore adapter against the real server (sync and async), and inside a real graph."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any, TypedDict

import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore

from graphmem import GraphMemory
from graphmem.adapters.langgraph import GraphMemStore, item_text, matches
from graphmem.errors import ConfigurationError, ValidationError


def test_pure_helpers() -> None:
    assert item_text("k", {"text": "likes tea", "n": 3}) == "k: likes tea"
    assert item_text("k", {"n": 3}) == 'k: {"n": 3}'
    assert matches({"a": 1, "b": 2}, {"a": 1}) and not matches({"a": 1}, {"a": 2})


def test_put_get_search_delete_namespaces(mem: GraphMemory, user_id: str) -> None:
    store = GraphMemStore(mem, user_id=user_id)
    ns = ("memories", "profile")
    store.put(ns, "pet", {"text": "The user has a dog named Rex", "kind": "pet"})
    store.put(ns, "drink", {"text": "The user drinks green tea every morning", "kind": "habit"})
    store.put(("memories", "work"), "job", {"text": "The user works as a nurse", "kind": "job"})
    item = store.get(ns, "pet")
    assert item is not None and item.value["text"] == "The user has a dog named Rex"
    store.put(ns, "pet", {"text": "The user has a dog named Max", "kind": "pet"})
    updated = store.get(ns, "pet")
    assert updated is not None and updated.value["text"].endswith("Max")
    assert updated.created_at == item.created_at and updated.updated_at > item.updated_at
    assert store.get(ns, "nothing") is None

    hits = store.search(("memories",), query="what pet does the user have?", limit=2)
    assert hits[0].key == "pet" and hits[0].score is not None
    assert [i.key for i in store.search(("memories",), filter={"kind": "job"})] == ["job"]
    assert {i.key for i in store.search(ns)} == {"pet", "drink"}
    assert len(store.search(("memories",), limit=1, offset=1)) == 1

    assert store.list_namespaces() == [("memories", "profile"), ("memories", "work")]
    assert store.list_namespaces(prefix=("memories", "work")) == [("memories", "work")]
    assert store.list_namespaces(max_depth=1) == [("memories",)]

    store.delete(ns, "drink")
    assert store.get(ns, "drink") is None
    assert {i.key for i in store.search(ns)} == {"pet"}


def test_async_and_tenant_from_namespace(mem: GraphMemory, user_id: str) -> None:
    store = GraphMemStore(mem, user_from_namespace=lambda ns: ns[1])

    async def run() -> Any:
        await store.aput(("memories", user_id), "city", {"text": "Lives in Lisbon"})
        got = await store.aget(("memories", user_id), "city")
        other = await store.aget(("memories", f"{user_id}-other"), "city")
        found = await store.asearch(("memories", user_id), query="where does the user live?")
        return got, other, found

    got, other, found = asyncio.run(run())
    assert got is not None and got.value == {"text": "Lives in Lisbon"}
    assert other is None
    assert [i.key for i in found] == ["city"]
    with pytest.raises(ValidationError):
        store.search(())
    with pytest.raises(ConfigurationError):
        GraphMemStore(mem)


class State(TypedDict):
    question: str
    answer: str


def test_in_a_langgraph_graph(mem: GraphMemory, user_id: str) -> None:
    def remember(state: State, *, store: BaseStore) -> dict[str, Any]:
        store.put(("notes",), "fav", {"text": "Favourite colour is green"})
        return {}

    def answer(state: State, *, store: BaseStore) -> dict[str, Any]:
        hits = store.search(("notes",), query=state["question"], limit=1)
        return {"answer": hits[0].value["text"] if hits else ""}

    builder = StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_node("answer", answer)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "answer")
    builder.add_edge("answer", END)
    graph = builder.compile(store=GraphMemStore(mem, user_id=user_id))
    result = graph.invoke({"question": "what colour do I like?", "answer": ""})
    assert result["answer"] == "Favourite colour is green"


def test_example_script_runs(mem: GraphMemory, user_id: str) -> None:
    script = Path(__file__).parents[1] / "examples" / "langgraph_agent.py"
    done = subprocess.run([sys.executable, str(script), user_id], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().endswith("my bike is a red Cannondale")


ITEMS = {
    "a": {"text": "one", "n": 3, "kind": "pet", "meta": {"age": 2, "tags": ["x", "y"]}},
    "b": {"text": "two", "n": 5.5, "kind": "job", "meta": {"age": 7, "tags": ["x"]}},
    "c": {"text": "three", "n": -1, "kind": "pet", "meta": {"age": 2}},
    "d": {"text": "four", "n": 10, "kind": "habit", "meta": {"age": 10, "tags": ["x", "y"]}},
}
FILTERS = [
    {"kind": "pet"},
    {"kind": {"$eq": "pet"}},
    {"kind": {"$ne": "pet"}},
    {"n": {"$gt": 3}},
    {"n": {"$gte": 3}},
    {"n": {"$lt": 3, "$gte": -1}},
    {"n": {"$lte": 5.5}, "kind": "job"},
    {"meta": {"age": 2}},
    {"meta": {"age": {"$gte": 7}}},
    {"meta": {"tags": ["x", "y"]}},
    {"kind": "pet", "meta": {"age": {"$ne": 2}}},
]


def test_search_filters_match_langgraphs_own_store(mem: GraphMemory, user_id: str) -> None:
    """Every filter selects the same items as LangGraph's InMemoryStore (its operators and nested fields);
    they used to be read as equality only, so an operator matched nothing."""
    from langgraph.store.memory import InMemoryStore

    ours, theirs = GraphMemStore(mem, user_id=user_id), InMemoryStore()
    for key, value in ITEMS.items():
        ours.put(("items",), key, value)
        theirs.put(("items",), key, value)
    for wanted in FILTERS:
        expected = {i.key for i in theirs.search(("items",), filter=wanted)}
        assert {i.key for i in ours.search(("items",), filter=wanted)} == expected, wanted
    # where LangGraph's own store raises (float("one"), float(None)), a field that is not a number or is
    # missing simply does not match
    assert ours.search(("items",), filter={"text": {"$gt": 1}}) == []
    assert ours.search(("items",), filter={"absent": {"$lte": 1}}) == []
    for bad in ({"n": {"$regex": "3"}}, {"n": {"$gt": 3, "x": 1}}):  # the second was a KeyError
        with pytest.raises(ValidationError):
            ours.search(("items",), filter=bad)


RIDES = ["rode my bike", "cycled", "took the bike", "pedalled my bicycle", "biked"]
PLACES = ["around the lake", "to the office", "up the hill", "along the river", "through the park", "to town"]


def test_search_finds_items_among_hundreds_of_memories(mem: GraphMemory, user_id: str) -> None:
    """A query search ranks the namespace's items, however many ordinary memories the user holds: it used
    to keep the store items among the user's whole top 200 recall hits, so 300 conversation turns about
    bikes crowded out the one item about a bike ([] although a search without a query listed it)."""
    store = GraphMemStore(mem, user_id=user_id)
    store.put(("profile",), "bike", {"text": "rides a yellow Bianchi road bike"})
    store.put(("profile",), "diet", {"text": "vegetarian, allergic to peanuts"})
    store.put(("other",), "car", {"text": "drives an old red bike-rack Volvo"})
    turns = [f"On day {i} I {RIDES[i % 5]} {PLACES[i % 6]} and it took {i + 7} minutes" for i in range(300)]
    mem.add_messages(turns, user_id=user_id, session_id="rides")
    found = store.search(("profile",), query="what bike do I ride?", limit=2)
    assert [i.key for i in found] == ["bike", "diet"]
    assert found[0].score is not None  # ranked by the query
    # every item of the namespace comes back, ranked ones first (as LangGraph's InMemoryStore returns them)
    assert {i.key for i in store.search(("profile",), query="zzz qqq", limit=10)} == {"bike", "diet"}
    assert [i.key for i in store.search(("profile",), query="what bike do I ride?", offset=1)] == ["diet"]


def test_refuses_an_async_graphmemory(embedder: Any) -> None:
    """An AsyncGraphMemory is refused when the store is made; it was taken, and a put went through before
    a search failed with "TypeError: 'coroutine' object is not iterable" (the async methods run the sync
    calls in a thread: the sync GraphMemory is the one to pass)."""
    from graphmem import AsyncGraphMemory

    async def run() -> None:
        async with await AsyncGraphMemory.connect(embedder=embedder) as amem:
            with pytest.raises(ConfigurationError, match=r"GraphMemory\.connect"):
                GraphMemStore(amem, user_id="lab-r57fix-never-written")  # type: ignore[arg-type]

    asyncio.run(run())
    with pytest.raises(ConfigurationError, match="GraphMemory"):
        GraphMemStore(object(), user_id="u")  # type: ignore[arg-type]


def _stored(mem: GraphMemory, user_id: str, key: str) -> dict[str, Any]:
    rows = mem.query(
        "MATCH (m:StoreItem {user_id: $u, store_key: $k}) WHERE m.status <> 'forgotten' "
        "RETURN m.content AS content, m.embedding IS NOT NULL AS vector, m.store_indexed AS indexed",
        {"u": user_id, "k": key},
    )
    assert len(rows) == 1
    return dict(rows[0])


def test_put_index_false_and_fields(mem: GraphMemory, user_id: str) -> None:
    """put(index=False) stores an item a query search does not return (get, listings and filter searches
    do), and put(index=[paths]) searches the item by the text at those paths only, as LangGraph's stores
    read ``index``; both were ignored (every item embedded as a whole)."""
    store = GraphMemStore(mem, user_id=user_id)
    ns = ("docs",)
    store.put(ns, "bike", {"text": "The user rides a red Cannondale bike", "kind": "a"}, index=False)
    store.put(ns, "tea", {"text": "The user drinks green tea", "kind": "b"})
    chapters = {"title": "Cooking pasta", "chapters": [{"content": "bicycle repair"}, {"content": "gears"}]}
    store.put(ns, "book", chapters, index=["chapters[*].content", "missing.path"])
    store.put(ns, "empty", {"text": "The user owns a bicycle pump"}, index=["nothing"])  # no text there

    bike = store.get(ns, "bike")
    assert bike is not None and bike.value["kind"] == "a"
    assert {i.key for i in store.search(ns)} == {"bike", "tea", "book", "empty"}
    assert [i.key for i in store.search(ns, filter={"kind": "a"})] == ["bike"]
    found = store.search(ns, query="what bike does the user ride?", limit=10)
    assert {i.key for i in found} == {"tea", "book"}
    assert _stored(mem, user_id, "bike") == {
        "content": "bike: The user rides a red Cannondale bike a",  # its text, for graphmem's own lists
        "vector": False,
        "indexed": False,
    }
    assert _stored(mem, user_id, "book") == {
        "content": "bicycle repair gears",
        "vector": True,
        "indexed": True,
    }
    assert _stored(mem, user_id, "empty")["vector"] is False

    store.put(ns, "bike", {"text": "The user rides a red Cannondale bike", "kind": "a"})  # indexed now
    assert _stored(mem, user_id, "bike")["vector"] is True
    assert "bike" in {i.key for i in store.search(ns, query="what bike does the user ride?", limit=10)}
    store.put(ns, "tea", {"text": "The user drinks green tea", "kind": "b"}, index=False)  # and back
    assert _stored(mem, user_id, "tea") == {
        "content": "tea: The user drinks green tea b",
        "vector": False,
        "indexed": False,
    }
    assert "tea" not in {i.key for i in store.search(ns, query="green tea", limit=10)}
    for bad in (True, "text", [1], [""]):
        with pytest.raises(ValidationError):
            store.put(ns, "x", {"text": "t"}, index=bad)  # type: ignore[arg-type]


def test_index_paths_read_as_langgraph_reads_them() -> None:
    from graphmem.adapters.langgraph import indexed_text

    value = {"a": {"b": "deep"}, "list": [{"t": "one"}, {"t": "two"}], "n": 3, "s": " "}
    assert indexed_text("k", value, ["a.b"]) == "deep"
    assert indexed_text("k", value, ["list[*].t", "n"]) == "one two 3"
    assert indexed_text("k", value, ["list[-1].t"]) == "two"
    assert indexed_text("k", value, ["s", "absent"]) is None
    assert indexed_text("k", value, False) is None
    assert indexed_text("k", {"text": "x"}, None) == item_text("k", {"text": "x"})


def test_list_namespaces_with_user_from_namespace(mem: GraphMemory, user_id: str) -> None:
    """A store whose namespaces name their users lists the namespaces whose items are stored for the user
    they name, whatever the prefix (it raised "no user in namespace ()" without a prefix naming the user);
    an item a fixed-user store wrote under a namespace naming another user is not listed."""
    root, other = f"r-{user_id}", f"{user_id}-other"
    store = GraphMemStore(mem, user_from_namespace=lambda ns: ns[1])
    store.put((root, user_id, "profile"), "a", {"text": "likes tea"})
    store.put((root, user_id, "work"), "b", {"text": "a nurse"})
    store.put((root, other), "c", {"text": "lives in Leeds"})
    store.put((root, user_id, "gone"), "d", {"text": "deleted"})
    store.delete((root, user_id, "gone"), "d")
    fixed = GraphMemStore(mem, user_id=user_id)
    fixed.put((root, "someone-else"), "e", {"text": "stored for the fixed user"})  # names another user
    fixed.put((root,), "f", {"text": "names no user"})

    listed = [(root, user_id, "profile"), (root, user_id, "work"), (root, other)]
    assert store.list_namespaces(prefix=(root,)) == listed
    assert set(store.list_namespaces(limit=10_000)) >= set(listed)
    assert not {(root, "someone-else"), (root,), (root, user_id, "gone")} & set(
        store.list_namespaces(limit=10_000)
    )
    assert store.list_namespaces(prefix=(root, user_id)) == listed[:2]
    assert store.list_namespaces(prefix=(root, "*"), suffix=("work",)) == [(root, user_id, "work")]
    assert store.list_namespaces(prefix=(root,), max_depth=2) == [(root, user_id), (root, other)]
    assert store.list_namespaces(prefix=(root,), limit=1, offset=1) == [(root, user_id, "work")]
    # the fixed-user store lists its user's namespaces, whatever they name
    assert fixed.list_namespaces(prefix=(root,)) == sorted(
        [(root,), (root, "someone-else"), (root, user_id, "profile"), (root, user_id, "work")]
    )
