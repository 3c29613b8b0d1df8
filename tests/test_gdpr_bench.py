"""The GDPR benchmark's graph (benchmarks/gdpr_delete.py) is written through formation's own statements, so a
change of their parameters must fail here, not first in a benchmark run (round 47's change of
formation_write left the script failing until round 48 ran it)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from graphmem import GraphMemory

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
import gdpr_delete

COUNTS = """
MATCH (m:Memory {user_id: $u})
RETURN count(m) AS memories, count { MATCH (:Memory {user_id: $u})-[:FOLLOWS]->(:Memory) } AS follows,
       count { MATCH (f:Fact {user_id: $u}) } AS facts, count { MATCH (s:Session {user_id: $u}) } AS sessions,
       count { MATCH (x:Memory {user_id: $u}) WHERE x.context_embedding IS NULL } AS without_context
"""


def test_the_benchmark_builds_a_users_graph_and_delete_user_removes_it(
    mem: GraphMemory, user_id: str
) -> None:
    gdpr_delete.build(mem, user_id, 60, random.Random(7))  # sessions of 50: two sessions, a fact per 20
    (row,) = mem.query(COUNTS, {"u": user_id})
    # 49 + 9 within the two sessions (written in one call: formation_write links a session only to what
    # was stored before the call)
    assert row == {"memories": 60, "follows": 58, "facts": 3, "sessions": 2, "without_context": 0}
    mem.users.delete(user_id)
    assert mem.query("MATCH (n {user_id: $u}) RETURN count(n) AS n", {"u": user_id}) == [{"n": 0}]
