"""What a query on a vector or full-text index that is still populating does (the measurement behind
graphmem's rule never to ask a vector index that is not online: docs/setup.md, upgrading a 5.26 home).

    .venv/bin/python benchmarks/index_populating.py [--rows 150000]

Writes ``--rows`` scratch ``:PopulatingBench`` nodes (random 384-dim vectors and a short text) to the
server graphmem connects to (the managed one by default), creates a vector index and asks it for 10
neighbours at once, then does the same with a full-text index; prints each index's state before and after
and how long the query took and how it ended. Removes its nodes and indexes afterwards.

Round 22, managed Neo4j 2026.01.4, 150,000 rows: the vector query raised ProcedureCallFailed "Expected index
to come online within a reasonable time" after 30.3 s (the index at 0 %, then 60 %); the full-text query
waited 1.6 s and answered.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from graphmem import GraphMemory

LABEL = "PopulatingBench"
STATE = (
    "SHOW INDEXES YIELD name, state, populationPercent WHERE name IN ['populating_vec', 'populating_ft'] "
    "RETURN name, state, round(populationPercent) AS percent"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=150_000)
    args = parser.parse_args()
    with GraphMemory.connect() as mem:
        driver = mem.runtime.store.driver

        def run(statement: str, **params: Any) -> list[dict[str, Any]]:
            with driver.session() as session:
                return [r.data() for r in session.run(statement, params)]

        def clean() -> None:
            run("DROP INDEX populating_vec IF EXISTS")
            run("DROP INDEX populating_ft IF EXISTS")
            run(f"MATCH (n:{LABEL}) CALL (n) {{ DETACH DELETE n }} IN TRANSACTIONS OF 10000 ROWS")

        clean()
        try:
            start = time.perf_counter()
            run(
                f"UNWIND range(1, $n) AS i CALL (i) {{ CREATE (:{LABEL} {{text: 'row ' + i + ' about cats', "
                "v: [j IN range(1, 384) | rand()]}) } IN TRANSACTIONS OF 5000 ROWS",
                n=args.rows,
            )
            print(f"{args.rows} rows written in {time.perf_counter() - start:.1f} s")
            vector = [random.random() for _ in range(384)]
            cases: list[tuple[str, str, Callable[[], list[dict[str, Any]]]]] = [
                (
                    "vector",
                    f"CREATE VECTOR INDEX populating_vec FOR (n:{LABEL}) ON n.v OPTIONS {{indexConfig: "
                    "{`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}",
                    lambda: run(
                        "CALL db.index.vector.queryNodes('populating_vec', 10, $vector) YIELD node "
                        "RETURN count(*) AS found",
                        vector=vector,
                    ),
                ),
                (
                    "full-text",
                    f"CREATE FULLTEXT INDEX populating_ft FOR (n:{LABEL}) ON EACH [n.text]",
                    lambda: run(
                        "CALL db.index.fulltext.queryNodes('populating_ft', 'cats', {limit: 10}) YIELD node "
                        "RETURN count(*) AS found"
                    ),
                ),
            ]
            for kind, create, ask in cases:
                run(create)
                print(f"{kind}: created, {run(STATE)}")
                start = time.perf_counter()
                try:
                    outcome = f"answered {ask()}"
                except Exception as exc:  # the outcome being measured
                    outcome = f"failed: {type(exc).__name__} {str(exc)[:160]}"
                print(f"{kind}: after {time.perf_counter() - start:.1f} s {outcome}; then {run(STATE)}")
        finally:
            clean()


if __name__ == "__main__":
    main()
