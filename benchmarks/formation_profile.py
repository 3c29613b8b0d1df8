"""Where a formation call spends its time, and what each nearest-neighbour plan costs (issue 14, item 2).

    .venv/bin/python benchmarks/formation_profile.py calls --messages 500 --batch 10
    .venv/bin/python benchmarks/formation_profile.py paths --sizes 200 1000 4000 --batch 10

``calls``: ``--messages`` LoCoMo turns (synthetic text when the file is absent) go through ``add_messages`` in
calls of ``--batch`` into a fresh tenant, with every embedding precomputed, next to the same rows written by
a bare ``UNWIND ... CREATE`` (``benchmarks/ingest.py``'s floor); each named query's client-side time is
summed per call (reads, the statements of the write transaction, and the whole unit of work, whose remainder
is BEGIN, COMMIT and the Python between the statements).

``paths``: one tenant grown to each of ``--sizes`` memories (bare writes of real vectors); at each size, the
same ``--batch`` probe vectors through each plan ``graphmem.formation.neighbours`` can take: the in-process
read of the tenant (its vectors as lists, and as packed Cypher 25 vectors where the server has them), the
database's exact scan and the index (filtered by tenant where the server can).

``entities``: one user's entities grown to each of ``--sizes`` (bare writes of real name embeddings); at each
size, the closest stored entities of ``--batch`` new names by the scan (``entity_similar``) and through the
entity vector index (``entity_similar_index``), and one ``add_messages`` call of ``--batch`` messages naming
new people with either path (``graphmem.formation.gather.ENTITY_SCAN_MAX`` raised to force the scan).

    .venv/bin/python benchmarks/formation_profile.py entities --sizes 100 1000 10000 --batch 10 --repeat 5

Runs against the configured server (``GRAPHMEM_*`` / ``.env``, the managed one by default); its tenants are
deleted afterwards. Prints a table and writes JSON (``--out``) with the load at start and end. Run it alone:
the figures are milliseconds of a shared two-core machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from ingest import PrecomputedEmbedder, batches, contexts_of, run_bare, texts_from, wipe
from machine import neo4j_version, stamp

import graphmem.store.driver as driver
from graphmem import GraphMemory, Settings
from graphmem.formation import gather as entity_gather
from graphmem.formation import neighbours as nearest
from graphmem.formation.writer import MemoryDraft, embedding_text
from graphmem.memory import default_embedder
from graphmem.model import fact_patterns
from graphmem.model.extraction import PatternExtractor
from graphmem.store.queries import variant


@contextmanager
def timed_queries() -> Iterator[tuple[defaultdict[str, float], Counter[str]]]:
    """Seconds and calls per named query (``read:``/``tx:`` prefixed) and per unit of work, while open."""
    seconds: defaultdict[str, float] = defaultdict(float)
    calls: Counter[str] = Counter()
    execute, run, unit = driver.Store._execute, driver._DriverTx.run, driver.Store.unit_of_work

    def wrap(label: str, fn: Callable[[], Any]) -> Any:
        started = time.perf_counter()
        try:
            return fn()
        finally:
            seconds[label] += time.perf_counter() - started
            calls[label] += 1

    def timed_execute(self: Any, routing: Any, cypher: str, params: Any, label: str) -> Any:
        return wrap("read:" + label, lambda: execute(self, routing, cypher, params, label))

    def timed_run(self: Any, name: str, /, **params: Any) -> Any:
        return wrap("tx:" + name, lambda: run(self, name, **params))

    def timed_unit(self: Any, work: Any) -> Any:
        return wrap("unit of work (all)", lambda: unit(self, work))

    driver.Store._execute, driver._DriverTx.run = timed_execute, timed_run  # type: ignore[method-assign]
    driver.Store.unit_of_work = timed_unit  # type: ignore[method-assign]
    try:
        yield seconds, calls
    finally:
        driver.Store._execute, driver._DriverTx.run, driver.Store.unit_of_work = execute, run, unit


def embedder_for(texts: list[str], batch: int) -> tuple[PrecomputedEmbedder, list[str]]:
    """An embedder holding every vector formation asks for ``texts`` in calls of ``batch``, and each text's
    embedding key (the text formation embeds for it)."""
    names = [m.name for ex in PatternExtractor().extract(texts) for m in ex.entities]
    keys = [
        embedding_text(
            MemoryDraft(content=t, user_id="u", role="user", speaker="Sam"), fact_patterns.extract(t)
        )
        for t in texts
    ]
    return PrecomputedEmbedder(default_embedder(Settings()), keys + names + contexts_of(texts, batch)), keys


def mean_ms(fn: Callable[[], Any], repeat: int, *, warm: int) -> float:
    """Mean milliseconds of ``repeat`` calls of ``fn`` after ``warm`` untimed ones."""
    for _ in range(warm):
        fn()
    started = time.perf_counter()
    for _ in range(repeat):
        fn()
    return round((time.perf_counter() - started) * 1000 / repeat, 1)


def profile_calls(args: argparse.Namespace) -> dict[str, Any]:
    texts = texts_from(args.data, args.messages)
    pre, _ = embedder_for(texts, args.batch)
    run = uuid.uuid4().hex[:8]
    users = {k: f"bench-profile-{k}-{run}" for k in ("warm", "bare", "formation")}
    parts = batches(texts, args.batch)
    with GraphMemory.connect(embedder=pre) as mem:
        mem.init()
        version = neo4j_version(mem.query)
        for n, part in enumerate(parts[:3]):  # plans cached, connections open
            mem.add_messages(part, user_id=users["warm"], session_id=f"w{n}")
        try:
            bare_s = run_bare(mem, parts, pre, users["bare"])
            with timed_queries() as (seconds, calls):
                started = time.perf_counter()
                for n, part in enumerate(parts):
                    mem.add_messages(part, user_id=users["formation"], session_id=f"s{n}")
                formation_s = time.perf_counter() - started
        finally:
            wipe(mem, list(users.values()))
    per_call = {
        k: {"ms_per_call": round(v * 1000 / len(parts), 2), "times_per_call": round(calls[k] / len(parts), 2)}
        for k, v in sorted(seconds.items(), key=lambda kv: -kv[1])
    }
    return {
        "neo4j": version,
        "messages": args.messages,
        "batch": args.batch,
        "formation_ms_per_message": round(formation_s * 1000 / args.messages, 2),
        "bare_ms_per_message": round(bare_s * 1000 / args.messages, 2),
        "ratio_bare_to_formation": round(bare_s / formation_s, 3),
        "queries": per_call,
    }


def profile_paths(args: argparse.Namespace) -> dict[str, Any]:
    sizes = sorted(args.sizes)
    texts = texts_from(args.data, sizes[-1] + args.batch)
    pre, keys = embedder_for(texts, 500)
    probes = [pre.cache[k] for k in keys[-args.batch :]]  # turns the tenant does not hold
    user, k, rows = f"bench-paths-{uuid.uuid4().hex[:8]}", 15, []

    def ms(fn: Callable[[], Any]) -> float:
        return mean_ms(fn, args.repeat, warm=3)

    with GraphMemory.connect(embedder=pre) as mem:
        mem.init()
        version = neo4j_version(mem.query)
        rt = mem.runtime
        filtered = rt.vector_filter.ready(rt.store)
        name = variant("formation_neighbours_index", filtered=filtered)
        payload = [{"i": i, "embedding": v} for i, v in enumerate(probes)]
        fetch = (nearest.FILTERED_FETCH if filtered else nearest.FIRST_FETCH) * k
        done = 0
        try:
            for size in sizes:
                run_bare(mem, batches(texts[done:size], 500), pre, user)
                done = size
                time.sleep(2)  # let the index settle
                row = {
                    "tenant": size,
                    "in_process_ms": ms(lambda: nearest._in_process(rt, user, probes, k, 10**6)),
                    "in_process_packed_ms": ms(
                        lambda: nearest._in_process(rt, user, probes, k, 10**6, packed=filtered)
                    ),
                    "exact_scan_ms": ms(lambda: nearest.exact(rt, user, probes, k)),
                    "index_ms": ms(
                        lambda: rt.store.read(name, user_id=user, vectors=payload, k=k, fetch=fetch)
                    ),
                }
                rows.append(row)
                print(row, flush=True)
        finally:
            wipe(mem, [user])
    return {
        "neo4j": version,
        "batch": args.batch,
        "index_filters_by_tenant": filtered,
        "k": k,
        "fetch": fetch,
        "sizes": rows,
    }


FIRST = [
    "Ada", "Boris", "Cleo", "Dmitri", "Elif", "Femi", "Greta", "Hugo", "Ines", "Joao",
    "Kiri", "Lars", "Mina", "Nils", "Olga", "Pia", "Rafe", "Sven", "Tove", "Uma",
]  # fmt: skip
LAST = [
    "Abbott", "Brandt", "Castillo", "Duval", "Eriksen", "Fontaine", "Gallo", "Haas", "Ivanova", "Jansen",
    "Kowalski", "Lindqvist", "Moreau",
]  # fmt: skip


NEW_LAST = [
    "Nakamura", "Okafor", "Petrov", "Quispe", "Rossi", "Schmidt", "Tanaka", "Ueda", "Vargas", "Weber",
    "Xu", "Yilmaz", "Zapata", "Achebe", "Bjork", "Chen", "Dahl", "Esposito", "Ferreira", "Gupta",
]  # fmt: skip
"""Surnames of the people the timed ``add_messages`` calls name: first name and surname, as the extractor keys
them, never stored before (the stored names carry a number, which the extractor leaves out of a key)."""


def entity_names(n: int) -> list[str]:
    """``n`` distinct person-like names (first, last and a number: the pool repeats past 260)."""
    return [f"{FIRST[i % 20]} {LAST[(i // 20) % 13]} {i // 260}" for i in range(n)]


def profile_entities(args: argparse.Namespace) -> dict[str, Any]:
    """One user's entities grown to each of ``--sizes`` (bare writes of real name embeddings); at each size
    the closest stored entities of ``--batch`` new names through the scan and through the entity index, and
    one ``add_messages`` call of ``--batch`` messages naming new people with either path (alternated)."""
    sizes = sorted(args.sizes)
    inner = default_embedder(Settings())
    names = entity_names(sizes[-1] + len(sizes) * 2 * (args.repeat + 1) * args.batch)  # stored, then probes
    vectors = inner.embed(names)
    user, rows = f"bench-entities-{uuid.uuid4().hex[:8]}", []
    stored = [
        {"id": uuid.uuid4().hex, "key": n.lower(), "name": n, "embedding": v}
        for n, v in zip(names, vectors, strict=True)
    ]
    fresh = iter(range(sizes[-1], len(names)))
    people = iter([f"{first} {last}" for last in NEW_LAST for first in FIRST])
    if len(sizes) * args.repeat * 2 * args.batch > len(FIRST) * len(NEW_LAST):
        raise SystemExit(f"at most {len(FIRST) * len(NEW_LAST)} new people: lower --repeat or --batch")

    def probes() -> list[dict[str, Any]]:
        return [
            {"key": names[i].lower(), "embedding": vectors[i]}
            for i in (next(fresh) for _ in range(args.batch))
        ]

    def ms(fn: Callable[[], Any]) -> float:
        return mean_ms(fn, args.repeat, warm=1)

    with GraphMemory.connect(embedder=inner) as mem:
        mem.init()
        version = neo4j_version(mem.query)
        rt, done = mem.runtime, 0
        indexed = rt.entity_index.ready(rt.store)
        index = variant("entity_similar_index", filtered=True)
        write = (
            "UNWIND $rows AS r CREATE (e:Entity {id: r.id, user_id: $u, key: r.key, name: r.name,"
            " embedding: r.embedding})"
        )
        common = {"user_id": user, "min_score": 0.9, "k": entity_gather.ENTITY_MATCHES}
        try:
            for size in sizes:
                for i in range(done, size, 2_000):
                    rt.store.run_statement(write, {"rows": stored[i : min(size, i + 2_000)], "u": user})
                done = size
                time.sleep(2)  # let the index settle
                row: dict[str, Any] = {
                    "entities": size,
                    "scan_ms": ms(lambda: rt.store.read("entity_similar", names=probes(), **common)),
                }
                if indexed:
                    row["index_ms"] = ms(lambda: rt.store.read(index, names=probes(), **common))
                row |= formation_call(mem, user, people, args, indexed)
                rows.append(row)
                print(row, flush=True)
        finally:
            wipe(mem, [user])
    return {"neo4j": version, "names_per_call": args.batch, "index_filters_by_tenant": indexed, "sizes": rows}


def formation_call(
    mem: GraphMemory, user: str, people: Any, args: argparse.Namespace, indexed: bool
) -> dict[str, Any]:
    """ms of one ``add_messages`` call of ``--batch`` messages each naming a person the user has no entity
    for (``people``: an iterator of such names), scan vs index alternated."""
    times: dict[str, list[float]] = {"formation_scan_ms": [], "formation_index_ms": []}
    for n in range(args.repeat):
        for label, limit in (
            ("formation_scan_ms", 10**9),
            ("formation_index_ms", entity_gather.ENTITY_SCAN_MAX),
        ):
            if label == "formation_index_ms" and not indexed:
                continue
            msgs = [
                {"role": "user", "content": f"I met {next(people)} at the station."}
                for _ in range(args.batch)
            ]
            entity_gather.ENTITY_SCAN_MAX, saved = limit, entity_gather.ENTITY_SCAN_MAX
            try:
                started = time.perf_counter()
                mem.add_messages(msgs, user_id=user, session_id=f"p{n}")
                times[label].append((time.perf_counter() - started) * 1000)
            finally:
                entity_gather.ENTITY_SCAN_MAX = saved
    return {k: round(statistics.median(v), 1) for k, v in times.items() if v}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("mode", choices=["calls", "paths", "entities"])
    parser.add_argument("--messages", type=int, default=500, help="calls: messages formed")
    parser.add_argument("--batch", type=int, default=10, help="messages per call / probe vectors per plan")
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=[200, 1_000, 4_000], help="paths: tenants; entities: entities"
    )
    parser.add_argument("--repeat", type=int, default=15, help="paths: timed repetitions per plan")
    parser.add_argument("--data", type=Path, default=Path("../shared/data/locomo/locomo-dev.json"))
    parser.add_argument(
        "--out", type=Path, default=None, help="JSON (default: results/formation_<mode>.json)"
    )
    args = parser.parse_args(argv)
    modes = {"calls": profile_calls, "paths": profile_paths, "entities": profile_entities}
    result = modes[args.mode](args)
    report = {**stamp(result.pop("neo4j")), **result}
    out = args.out or Path(__file__).parent / "results" / f"formation_{args.mode}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
