"""Markdown tables and plots of benchmarks/scale.py's results (`scale.py --report-only` reruns them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

TARGET_P95_MS = 50.0
VARIANTS = [
    ("bare_vector_index", "bare vector-index query"),
    ("bare_tenant_vector", "bare tenant-filtered vector query"),
    ("recall_no_graph_no_embedding", "recall, no graph"),
    ("recall_graph_no_embedding", "recall with graph"),
    ("recall_no_graph_with_embedding", "no graph + query embedding"),
    ("recall_graph_with_embedding", "graph + query embedding"),
    ("first_pass", "first pass (graph, cold)"),
]


def _ms(p: dict[str, Any]) -> str:
    return f"{p['p50_ms']:.1f} / {p['p95_ms']:.1f} / {p['p99_ms']:.1f}"


def _forgotten(jobs: dict[str, Any]) -> int:
    return int(jobs["forget"]["counts"].get("soft_forgotten", 0))


def _next_day(jobs: dict[str, Any]) -> str:
    nd = jobs.get("decay_next_day")  # absent in results from before it was measured
    return f"{nd['seconds']} ({nd['ratio_to_bare']}x)" if nd else "n/a"


def _trips(tenant: dict[str, Any]) -> str:
    trips = tenant.get("round_trips")  # absent in results from before it was measured
    return f"{trips['recall_graph']} / {trips['recall_no_graph']}" if trips else "n/a"


def _target_lines(rows: list[dict[str, Any]]) -> list[str]:
    """The aim from the README (recall p95 <= 50 ms for a large tenant), met or missed, per size."""
    out = []
    for r in rows:
        p95 = r["recall"]["large"]["recall_graph_no_embedding"]["p95_ms"]
        verdict = "met" if p95 <= TARGET_P95_MS else f"missed by {p95 / TARGET_P95_MS:.1f}x"
        out.append(
            f"- {r['size']:,}: large tenant, recall with graph (no embedding) p95 {p95:.0f} ms; "
            f"target <= {TARGET_P95_MS:.0f} ms: {verdict}"
        )
    return [*out, ""] if out else []


def markdown(report: dict[str, Any], stem: str = "scale") -> str:
    rows = report["sizes"]
    out = [
        "## Scale and speed (`benchmarks/scale.py`)" + ("" if stem == "scale" else f", `{stem}`"),
        "",
        f"Synthetic workload; vectors are {report['synthetic_vectors']} (not embeddings of the stored "
        "texts). "
        "Each size runs in its own store on its own local server (heap and page cache 4 GiB each), one size "
        "at a time; other work shared the 2 CPU cores (load at start in the stamps). Latencies in ms as "
        "p50 / p95 / p99 over the queries, `k=10`, `reinforce=False`, no RecallEvent recorded. Query "
        "embeddings (the default embedder, bge-small INT8 on onnxruntime) run on one thread "
        "(`--embed-threads`): all cores thrash when other processes share them. Round trips: calls that "
        'reached the server during one warm recall (graph / no graph). "first pass": the tenant\'s first '
        "recall of each query (with the graph), timed before the four recall variants, which are then timed "
        "interleaved query by query; results from before round 26 have no first pass and timed the variants "
        "one after another, the first (recall with graph) carrying the cold reads. From round 32 the process "
        "first calls `GraphMemory.warm()`, as the REST API and the MCP server do at start-up (the model "
        "loaded, the start-up frozen out of Python's cyclic collector). From round 35 the two bare vector "
        "queries are timed after the variants, each after an untimed pass over the queries (before, they "
        "were timed ahead of the tenant's first pass after one warm-up call, on the page cache the previous "
        "tenant left: on the 1M store 32 ms p50 where they take 3-4 ms warm).",
        "",
        "### Ingestion (formation slice, memories/s)",
        "<!-- headline -->",
        "| size | memories in store | through formation | bare UNWIND CREATE, same rows | formation / bare "
        "| set_fact/s | background bare write/s |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        i = r["ingestion"]
        out.append(
            f"| {r['size']:,} | {r['memories_in_database']:,} | {i['formation_per_s']} ({i['memories']:,} "
            f"memories, {i['users']} users) | {i['bare_per_s']} | {i['ratio_formation_to_bare']} | "
            f"{i['set_fact_per_s']} | {r['background_bare_write_per_s']} |"
        )
    out += [
        "",
        "Formation (extraction, entity and fact linking, FOLLOWS/RELATED_TO/CAUSES edges, duplicate checks) "
        "is "
        "measured on the slice of users rebuilt every run, while the store already holds the background; "
        "the rest of each store is bare rows, because writing a million memories through formation would "
        "take "
        "hours here. Calls of 50 messages; each path first writes one untimed batch for a throwaway user "
        "(from round 32; before it the timed runs also paid the server's first planning of every statement, "
        "~1-5 s for formation on a fresh server).",
        "",
        "### Recall latency (ms, p50 / p95 / p99)",
        "<!-- headline -->",
        "| size | tenant (memories) | "
        + " | ".join(label for _, label in VARIANTS)
        + " | graph / bare p50 | round trips |",
        "|---|---|" + "---|" * len(VARIANTS) + "---|---|",
    ]
    for r in rows:
        for label, t in r["recall"].items():
            out.append(
                f"| {r['size']:,} | {label} ({t['memories']:,}) | "
                + " | ".join(_ms(t[key]) if key in t else "n/a" for key, _ in VARIANTS)
                + f" | {t['ratio_p50_to_bare']['recall_graph_no_embedding']} | {_trips(t)} |"
            )
    out += [
        "",
        '"small" and "large" are bare-written tenants with session chains only (no entities or facts); '
        '"formed" was written through formation (entities, facts, RELATED_TO, CAUSES). The large tenant '
        "holds a tenth of the store.",
        "",
        *_target_lines(rows),
        "### Point-in-time reads on the fact-history user (ms, p50 / p95 / p99)",
        "| size | fact versions | recall as_of | recall now | get_fact as_of | get_fact current |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        a = r["as_of"]
        out.append(
            f"| {r['size']:,} | {a['fact_versions']} | {_ms(a['recall_as_of'])} | {_ms(a['recall_now'])} | "
            f"{_ms(a['get_fact_as_of'])} | {_ms(a['get_fact_current'])} |"
        )
    out += [
        "",
        "### Jobs (seconds; ratio to one bare SET over the same nodes)",
        "<!-- headline -->",
        "| size | bare SET, all | decay, all | decay, next day | forget, all | bare SET, associate's tenant "
        "| associate (tenant size) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        j, a = r["jobs"], r["jobs"]["associate"]
        out.append(
            f"| {r['size']:,} | {j['bare_set_all_s']} | "
            f"{j['decay']['seconds']} ({j['decay']['ratio_to_bare']}x) | {_next_day(j)} "
            f"| {j['forget']['seconds']} ({j['forget']['ratio_to_bare']}x) | {j['bare_set_big_s']} | "
            f"{a['seconds']} ({a['ratio_to_bare']}x{'' if j.get('bare_set_fresh_value') else ' *'}, "
            f"{a['memories']:,} memories, "
            f"{a['counts'].get('method', '?')}) |"
        )
    clocked = [r for r in rows if "background_written_at" in r["jobs"]]  # runs since round 33
    out += [
        "",
        *(
            [
                "The jobs run on a clock 30 days after each store's background was written (ages are the "
                "same on every run of a kept store); decay's first run evaluates every memory (a reset "
                "before the jobs removes what earlier runs' jobs wrote, decay's anchors included) and the "
                "RELATED_TO edges made since the last run "
                "(the previous run's associate), which the bare SET does not touch. "
                + "; ".join(
                    f"{r['size']:,}: decay evaluated {r['jobs']['decay']['counts'].get('edges', 0):,} edges, "
                    f"forget soft-forgot {_forgotten(r['jobs']):,}"
                    for r in clocked
                )
                + ".",
                "",
            ]
            if clocked
            else []
        ),
        *(
            [
                "\\* in these runs the bare SET over the associate tenant rewrote the value the SET over "
                "all memories had just written, which Neo4j skips: its time is too low and the associate "
                "ratio too high (fixed in later runs).",
                "",
            ]
            if any(not r["jobs"].get("bare_set_fresh_value") for r in rows)
            else []
        ),
        "### Footprint",
        "| size | store on disk (GiB) | GiB per million memories | heap used / max (GiB) | page cache in use "
        "(bound, GiB) | server RSS (GiB) | RSS per million (GiB) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        f = r["footprint"]
        out.append(
            f"| {r['size']:,} | {f['store_bytes'] / 2**30:.2f} | {f['store_gib_per_million']} | "
            f"{f['heap_used_gib']} / {f['heap_max_gib']} | {f['page_cache_used_bound_gib']} of "
            f"{f['page_cache_configured']} | {f['server_rss_gib']} | {f['server_rss_gib_per_million']} |"
        )
    out += [
        "",
        "Page cache in use is bounded by the smaller of the store size and the configured page cache (Neo4j "
        "Community exposes no page-cache bean over JMX); RSS is the server process's resident memory.",
        "",
        "Runs: "
        + "; ".join(
            f"{r['size']:,}: `{r['command']}` at {r['when']}, load {r['machine']['load_1m_at_start']}"
            for r in rows
        ),
        "",
        f"![recall latency]({stem}_latency.png) ![job time]({stem}_jobs.png)",
    ]
    return "\n".join(out) + "\n"


def plot(report: dict[str, Any], out: Path, stem: str = "scale") -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = report["sizes"]
    sizes = [r["memories_in_database"] for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for tenant, style in (("large", "-"), ("small", "--")):
        for key, label in VARIANTS:
            points = [
                (n, r["recall"][tenant][key]["p50_ms"])
                for n, r in zip(sizes, rows, strict=True)
                if key in r["recall"][tenant]
            ]  # a variant measured in some runs only
            ax.plot(
                [n for n, _ in points],
                [ms for _, ms in points],
                style,
                marker="o",
                label=f"{tenant}: {label}",
            )
    ax.set(
        xscale="log",
        yscale="log",
        xlabel="memories in store",
        ylabel="p50 latency (ms)",
        title="recall latency against store size",
    )
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / f"{stem}_latency.png", dpi=110)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for key, label in (
        ("bare_set_all_s", "bare SET, all"),
        ("decay", "decay, all"),
        ("decay_next_day", "decay, next day"),
        ("forget", "forget, all"),
        ("bare_set_big_s", "bare SET, associate's tenant"),
        ("associate", "associate, one tenant"),
    ):
        if not all(key in r["jobs"] for r in rows):
            continue
        ys = [r["jobs"][key]["seconds"] if isinstance(r["jobs"][key], dict) else r["jobs"][key] for r in rows]
        ax.plot(sizes, ys, marker="o", label=label)
    ax.set(
        xscale="log",
        yscale="log",
        xlabel="memories in store",
        ylabel="seconds",
        title="job time against store size",
    )
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / f"{stem}_jobs.png", dpi=110)
    plt.close("all")


def write_report(report: dict[str, Any], json_path: Path) -> None:
    json_path.with_suffix(".md").write_text(markdown(report, json_path.stem))
    plot(report, json_path.parent, json_path.stem)  # scale.json: scale_latency.png, scale_jobs.png
