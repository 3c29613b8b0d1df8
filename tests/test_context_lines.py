"""How ``context()`` writes a memory for the agent: when it was said and by whom (real server)."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem import GraphMemory

MIGRAINE = "Yesterday I had a terrible migraine and missed the meeting."


def test_a_recalled_memory_carries_its_day_and_speaker(mem: GraphMemory, user_id: str) -> None:
    said = datetime(2026, 11, 9, 10, 0, tzinfo=UTC)
    mem.add_messages(
        [
            {"role": "user", "name": "Maya", "content": MIGRAINE, "timestamp": said},
            {"role": "user", "name": "Maya", "content": "My dog Rex is a beagle.", "timestamp": said},
        ],
        user_id=user_id,
        session_id="s1",
    )
    ctx = mem.context("When did I have a migraine?", user_id=user_id, reinforce=False)
    lines = [i.text for i in ctx.kept if i.kind in ("memory", "possible", "history")]
    assert f"[2026-11-09T10:00+00:00] Maya: {MIGRAINE}" in lines  # "yesterday" is 2026-11-08
    assert "Maya: My dog Rex is a beagle." in "\n".join(lines)
