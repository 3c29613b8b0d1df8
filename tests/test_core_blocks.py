"""Core memory blocks on the real server: pinned, limited, read-only, versioned, first in context."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest

from graphmem import GraphMemory
from graphmem.errors import (
    CoreBlockLimitExceeded,
    CoreBlockNotFound,
    CoreBlockReadOnly,
    ValidationError,
    VersionConflict,
)
from graphmem.governance.core_blocks import appended, replaced
from graphmem.models import CoreBlock


def test_pure_edits() -> None:
    assert appended("", "a") == "a"
    assert appended("a", "b") == "a\nb"
    block = CoreBlock(label="human", value="likes tea")
    assert replaced(block, "tea", "coffee") == "likes coffee"
    with pytest.raises(ValidationError):
        replaced(block, "juice", "water")


def test_set_append_replace_keep_history(mem: GraphMemory, user_id: str) -> None:
    block = mem.core.set(user_id, "human", "Name: Alice", limit=100, description="about the user")
    assert (block.label, block.value, block.limit, block.version) == ("human", "Name: Alice", 100, 1)
    mem.core.set(user_id, "persona", "I am a helpful assistant.")
    block = mem.core.append(user_id, "human", "Likes tea")
    assert block.value == "Name: Alice\nLikes tea" and block.version == 2
    block = mem.core.replace(user_id, "human", "tea", "green tea")
    assert block.value == "Name: Alice\nLikes green tea" and block.version == 3
    assert block.description == "about the user" and block.limit == 100
    assert [b.label for b in mem.core.list(user_id)] == ["human", "persona"]
    history = mem.core.history(user_id, "human")
    assert [b.value for b in history] == [  # oldest first, like memory and fact histories
        "Name: Alice",
        "Name: Alice\nLikes tea",
        "Name: Alice\nLikes green tea",
    ]
    rows = mem.query(
        "MATCH (m:Memory:CoreBlock {user_id: $u, core_label: 'human'}) "
        "RETURN m.priority AS p, m.status AS s ORDER BY m.version",
        {"u": user_id},
    )
    assert [r["p"] for r in rows] == ["P0"] * 3
    assert [r["s"] for r in rows] == ["superseded", "superseded", "active"]


def test_errors(mem: GraphMemory, user_id: str) -> None:
    mem.core.set(user_id, "notes", "12345", limit=10)
    with pytest.raises(CoreBlockLimitExceeded):
        mem.core.append(user_id, "notes", "123456789")
    with pytest.raises(CoreBlockLimitExceeded):
        mem.core.set(user_id, "notes", "x" * 11, limit=10)
    with pytest.raises(ValidationError):
        mem.core.replace(user_id, "notes", "absent", "x")
    with pytest.raises(CoreBlockNotFound):
        mem.core.append(user_id, "missing", "x")
    mem.core.set(user_id, "rules", "Be brief.", read_only=True)
    with pytest.raises(CoreBlockReadOnly):
        mem.core.append(user_id, "rules", "Be kind.")
    with pytest.raises(CoreBlockReadOnly):
        mem.core.replace(user_id, "rules", "brief", "long")
    with pytest.raises(ValidationError):
        mem.core.set(user_id, "notes", "x", limit=0)
    assert mem.core.list(user_id)[0].value == "12345"


def test_context_puts_core_blocks_first(mem: GraphMemory, user_id: str) -> None:
    mem.remember("I adopted a dog named Rex", user_id=user_id)
    block = mem.core.set(user_id, "human", "The user is called Alice and loves dogs.")
    ctx = mem.context("what is my dog called?", user_id=user_id, token_budget=500)
    assert ctx.text.startswith("## Core memory\n- [human] The user is called Alice")
    assert ctx.kept[0].kind == "core"
    assert sum(1 for i in ctx.items if i.memory_id == block.id) == 1


def test_core_blocks_never_decay(mem: GraphMemory, user_id: str) -> None:
    mem.core.set(user_id, "persona", "A patient tutor.")
    mem.remember("I bought a lamp", user_id=user_id, priority="P3")
    before = mem.query(
        "MATCH (m:CoreBlock {user_id: $u}) RETURN m.strength AS s, m.status AS st, m.retention AS r",
        {"u": user_id},
    )
    later = datetime.now(UTC) + timedelta(days=400)
    for _ in range(2):
        mem.jobs.run("decay", user_id=user_id, now=later)
        mem.jobs.run("forget", user_id=user_id, now=later)
    after = mem.query(
        "MATCH (m:CoreBlock {user_id: $u}) RETURN m.strength AS s, m.status AS st, m.retention AS r",
        {"u": user_id},
    )
    assert after == before
    # the same run did decay the ordinary P3 memory, so the jobs really ran over this user
    lamp = mem.query(
        "MATCH (m:Memory {user_id: $u}) WHERE NOT m:CoreBlock RETURN m.status AS st", {"u": user_id}
    )
    assert lamp and lamp[0]["st"] != "active"


def test_concurrent_edits_never_fork_a_block(mem: GraphMemory, user_id: str) -> None:
    mem.core.set(user_id, "notes", "start")

    def append(i: int) -> bool:
        try:
            mem.core.append(user_id, "notes", f"line {i}")
            return True
        except VersionConflict:
            return False

    with ThreadPoolExecutor(max_workers=4) as pool:
        done = list(pool.map(append, range(4)))
    live = mem.query(
        "MATCH (m:CoreBlock {user_id: $u}) WHERE m.expired_at IS NULL RETURN m.version AS v", {"u": user_id}
    )
    assert len(live) == 1 and live[0]["v"] == 1 + sum(done) and any(done)
