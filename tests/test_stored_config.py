"""Stored configuration never makes a read fail (a downgrade, or a hand edit), on the real server.

A configuration written by a newer graphmem (keys this version does not know) or edited by hand (values
that no longer validate) is written directly with Cypher; then every read path (Python, REST, CLI, the
worker's poll, recall for the tuning) still answers: unknown keys ignored, bad values at their defaults,
one WARNING naming the keys and never their values. Input at the boundary stays strict.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from graphmem import GraphMemory, ValidationError
from graphmem.adapters.rest import create_app
from graphmem.automation.config import DEFAULT_SCHEDULES, JOB_NAMES, AutomationConfig, read_config
from graphmem.cli.main import app
from graphmem.model.dynamics import PRESETS

KEY = "stored-config-test-key"
SECRET = "user-text-never-logged"


@pytest.fixture()
def client(auto: GraphMemory) -> Iterator[TestClient]:
    with TestClient(create_app(auto, KEY), headers={"X-API-Key": KEY}, raise_server_exceptions=False) as c:
        yield c


def newer_body(cfg: AutomationConfig) -> str:
    """``cfg`` as a newer (or hand-edited) graphmem would have stored it."""
    body = cfg.model_dump(mode="json", exclude={"version"})
    body["dynamics"]["recall_rollup_days_v2"] = 3  # a key a newer version knows
    body["dynamics"]["forget_retention"] = 1.5  # out of range
    body["jobs"]["forget"]["schedule"] = "0 25 * * *"  # no 25th hour
    body["jobs"]["rollup"] = {"enabled": True, "schedule": "every 1d"}  # a job a newer version runs
    body["jobs"]["review"]["jitter"] = SECRET
    body["context_budget"] = SECRET
    body["ui"] = {"theme": SECRET}
    return json.dumps(body)


def overwrite(mem: GraphMemory, config_id: str, body: str) -> None:
    mem.runtime.store.run_statement(
        "MATCH (c:AutomationConfig {id: $id}) SET c.body = $body", {"id": config_id, "body": body}
    )


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


def test_a_stored_config_from_a_newer_version_still_reads(
    auto: GraphMemory, client: TestClient, config_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    stored = auto.automation.set_config(
        AutomationConfig.from_preset("aggressive").with_job("decay", schedule="every 30m")
    )
    overwrite(auto, config_id, newer_body(stored))
    caplog.set_level(logging.WARNING)

    cfg = auto.automation.get_config()
    assert cfg.version == stored.version == 1
    assert cfg.jobs["decay"].schedule == "every 30m" and cfg.dynamics.preset == "aggressive"
    aggressive = PRESETS["aggressive"]
    assert cfg.dynamics.forget_retention == aggressive.forget_retention  # the stored preset's default
    assert cfg.dynamics.forget_strength == aggressive.forget_strength  # readable values kept
    assert cfg.jobs["forget"].schedule == DEFAULT_SCHEDULES["forget"] and set(cfg.jobs) == set(JOB_NAMES)
    assert cfg.context_budget == 2000
    lines = [m for m in warnings(caplog) if config_id in m]
    assert len(lines) == 1, lines
    for key in ["dynamics.recall_rollup_days_v2", "jobs.rollup", "jobs.review.jitter", "ui"]:
        assert key in lines[0]
    for key in ["dynamics.forget_retention", "jobs.forget.schedule", "context_budget"]:
        assert key in lines[0]
    assert SECRET not in lines[0] and "1.5" not in lines[0]

    response = client.get("/automation")
    assert response.status_code == 200, response.text[:300]
    assert response.json()["config"]["jobs"]["decay"]["schedule"] == "every 30m"

    env = {"GRAPHMEM_AUTOMATION_CONFIG_ID": config_id}
    listed = CliRunner().invoke(app, ["jobs", "list", "--json"], env=env)
    assert listed.exit_code == 0, listed.output
    assert {s["name"]: s["schedule"] for s in json.loads(listed.stdout)}["decay"] == "every 30m"

    assert poll_once(auto)["decay"] == "every 30m"


def test_values_stored_before_their_bound_read_as_the_bound_not_the_default(
    auto: GraphMemory, config_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Round 53 bounded day counts (36,500), counts (2^31 - 1) and interval schedules (ten years). A value
    stored above its bound before then meant 'never' or 'no limit': it reads as the bound (one WARNING names
    it), not as the preset's default (30 days of hard-delete grace, decay every hour)."""
    stored = auto.automation.set_config(AutomationConfig())
    old = stored.model_dump(mode="json", exclude={"version"})
    old["dynamics"].update(
        hard_delete_grace_days=100_000, forget_min_age_days=50_000, capacity_per_user=2**70
    )
    old["dynamics"]["edge_decay"] = 1.5  # bounded before: out of range, it reads as the default, not as 1
    old["jobs"]["decay"]["schedule"] = "every 5000d"
    old["jobs"]["review"]["schedule"] = "every " + "9" * 5000 + "d"  # more digits than int() reads
    overwrite(auto, config_id, json.dumps(old))
    caplog.set_level(logging.WARNING)
    cfg = auto.automation.get_config()
    assert (cfg.dynamics.hard_delete_grace_days, cfg.dynamics.forget_min_age_days) == (36_500, 36_500)
    assert cfg.dynamics.capacity_per_user == 2**31 - 1 and cfg.jobs["decay"].schedule == "every 3650d"
    assert cfg.jobs["review"].schedule == "every 3650d"
    assert cfg.dynamics.edge_decay == PRESETS["balanced"].edge_decay
    [line] = [m for m in warnings(caplog) if config_id in m]
    assert (
        "as the bound" in line and "dynamics.hard_delete_grace_days" in line and "jobs.decay.schedule" in line
    )


def test_a_stored_config_from_before_the_topics_and_adapt_jobs_reads_with_their_defaults(
    auto: GraphMemory, client: TestClient, config_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    stored = auto.automation.set_config(AutomationConfig().with_job("decay", schedule="every 30m"))
    old = stored.model_dump(mode="json", exclude={"version"})
    for job in ("topics", "adapt"):  # as graphmem stored it before the two jobs existed
        del old["jobs"][job]
    overwrite(auto, config_id, json.dumps(old))
    caplog.set_level(logging.WARNING)

    cfg = auto.automation.get_config()
    assert cfg.version == 1 and list(cfg.jobs) == list(JOB_NAMES)
    assert cfg.jobs["decay"].schedule == "every 30m"  # the stored jobs kept
    for job in ("topics", "adapt"):
        assert cfg.jobs[job].enabled and cfg.jobs[job].schedule == DEFAULT_SCHEDULES[job]
    assert not [m for m in warnings(caplog) if config_id in m]  # nothing unreadable: no warning
    listed = client.get("/automation")
    assert listed.status_code == 200, listed.text[:300]
    assert {j["name"] for j in listed.json()["jobs"]} == set(JOB_NAMES)
    seen = poll_once(auto)  # the worker's poll schedules the two jobs
    assert (seen["topics"], seen["adapt"]) == (DEFAULT_SCHEDULES["topics"], DEFAULT_SCHEDULES["adapt"])
    assert not auto.jobs.disable("topics").enabled  # and they are configured like the others
    written = auto.automation.get_config()
    assert written.version == 2 and not written.jobs["topics"].enabled and written.jobs["adapt"].enabled
    # input written for the old six jobs is still accepted: the missing two get their defaults
    again = auto.automation.set_config(
        {**old, "jobs": {"decay": {"schedule": "every 2h"}}}, expected_version=2
    )
    assert again.jobs["decay"].schedule == "every 2h" and again.jobs["topics"].enabled
    with pytest.raises(ValidationError, match="unknown jobs"):
        auto.automation.set_config({**old, "jobs": {"rollup": {"schedule": "every 1d"}}})


def poll_once(mem: GraphMemory) -> dict[str, str]:
    """Run the worker loop (``mem.jobs.work``) on a paused scheduler (nothing fires) until its first poll
    has reconciled the scheduler with the stored config; returns what it scheduled."""
    stop = threading.Event()
    failed: list[BaseException] = []
    seen: dict[str, str] = {}

    def loop() -> None:
        try:
            mem.jobs.work(stop)
        except BaseException as exc:  # reported below
            failed.append(exc)

    mem.scheduler.start(paused=True)
    worker = threading.Thread(target=loop, daemon=True)
    worker.start()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not failed and len(seen) < len(JOB_NAMES):
        seen = dict(mem.scheduler.scheduled() or {})
        time.sleep(0.1)
    stop.set()
    worker.join(10)
    assert not failed, failed
    assert set(seen) == set(JOB_NAMES), seen
    return seen


def test_input_at_the_boundary_stays_strict(auto: GraphMemory, client: TestClient, config_id: str) -> None:
    stored = auto.automation.set_config(AutomationConfig())
    newer = stored.model_dump()
    newer["dynamics"]["recall_rollup_days_v2"] = 3
    with pytest.raises(ValidationError, match="recall_rollup_days_v2"):
        auto.automation.set_config(newer)
    with pytest.raises(ValidationError):
        auto.automation.set_config({**stored.model_dump(), "ui": {}})
    with pytest.raises(ValidationError):
        stored.with_job("decay", jitter=5)
    for bad in [float("inf"), float("nan")]:
        with pytest.raises(ValidationError, match="max_stability_days"):
            auto.automation.set_config(
                {
                    **stored.model_dump(),
                    "dynamics": {**stored.dynamics.model_dump(), "max_stability_days": bad},
                }
            )
    posted = client.post("/automation/config", json={"config": {**stored.model_dump(mode="json"), "ui": {}}})
    assert posted.status_code == 422, posted.text[:300]
    assert auto.automation.get_config() == stored  # nothing written


def test_a_stored_tuning_from_a_newer_version_still_reads(
    auto: GraphMemory, client: TestClient, user_id: str, config_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    ev = auto.automation.evolution
    ev.set(user_id, {"vector_weight": 0.6})
    body = {"params": {"vector_weight": 0.7, "graph_weight": SECRET, "rerank_weight": 0.3}, "schema": 2}
    params = {"user_id": user_id, "cid": f"{config_id}/user/{user_id}", "body": json.dumps(body)}
    auto.runtime.store.run_statement(  # the tuning in force and its version 1
        "MATCH (n:UserTuning {user_id: $user_id}) WHERE n.id = $cid OR n.config_id = $cid "
        "SET n.body = $body, n.evidence = 'not json {'",
        params,
    )
    auto.runtime.store.run_statement(  # a version 2 in the history that reads as nothing at all
        "CREATE (:AutomationConfigVersion:UserTuning {config_id: $cid, user_id: $user_id, version: 2, "
        "body: '[1]', evidence: '{\"score\": NaN}', recorded_at: 'yesterday', recorded_by: 7})",
        params,
    )
    caplog.set_level(logging.WARNING)

    tuning = ev.tuning(user_id)
    assert tuning.version == 1 and tuning.params == {"vector_weight": 0.7}
    history = ev.history(user_id)
    assert [t.version for t in history] == [1, 2] and history[1].params == {}
    assert history[1].evidence == {"score": None} and history[1].updated_at is None
    for version in [tuning, *history]:
        json.loads(version.model_dump_json())  # serialisable: no NaN left
    lines = [m for m in warnings(caplog) if "tuning" in m]
    assert lines and all(SECRET not in m and user_id not in m for m in lines)
    assert "params.rerank_weight" in lines[0] and "schema" in lines[0] and "params.graph_weight" in lines[0]

    auto.add_messages(["I like hiking in the Alps"], user_id=user_id, session_id="s")
    assert auto.recall("hiking", user_id=user_id)  # recall ranks with the (readable) tuned weights
    response = client.get(f"/users/{user_id}/tuning")
    assert response.status_code == 200, response.text[:300]
    assert response.json()["tuning"]["params"] == {"vector_weight": 0.7}
    env = {"GRAPHMEM_AUTOMATION_CONFIG_ID": config_id}
    shown = CliRunner().invoke(app, ["tuning", "show", "--user", user_id], env=env)
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["tuning"]["params"] == {"vector_weight": 0.7}
    with pytest.raises(ValidationError, match="rerank_weight"):
        ev.set(user_id, {"rerank_weight": 0.3})  # input stays strict
    assert ev.tuning(user_id).version == 1


def test_unreadable_or_inconsistent_stored_configs_read_as_defaults(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    for body in ["not json {", "[1, 2]", '{"dynamics": [1], "jobs": 5}', '{"dynamics": {"preset": ["x"]}}']:
        cfg = read_config(body, "seven", config_id=f"unit-{uuid.uuid4()}", preset="conservative")
        assert (
            cfg.version == 0 and cfg.dynamics == PRESETS["conservative"] and set(cfg.jobs) == set(JOB_NAMES)
        )
    body = AutomationConfig.from_preset("aggressive").model_dump(mode="json", exclude={"version"})
    body["dynamics"]["dormant_retention"] = (
        0.3  # valid alone, above weak_retention (0.25): a rule across keys
    )
    body["dynamics"]["max_stability_days"] = "Infinity"
    cfg = read_config(json.dumps(body), 3, config_id="unit-rule", preset="balanced")
    assert cfg.version == 3 and cfg.dynamics == PRESETS["aggressive"]
    line = next(m for m in warnings(caplog) if "unit-rule" in m)
    assert "dynamics.dormant_retention" in line and "dynamics.max_stability_days" in line


def test_parameters_that_would_break_the_jobs_are_refused_and_the_largest_allowed_run(
    auto: GraphMemory, client: TestClient, user_id: str
) -> None:
    """Counts of 2^63 and more, day counts beyond a Neo4j duration and an interval beyond the scheduler's
    arithmetic were stored, and every later run of decay, forget, consolidate, associate, promote and review
    failed (OverflowError, 'long overflow'); an interval of 9999999999999 days escaped as an OverflowError
    (a 500 over REST). Now each is a ValidationError (422) and nothing is stored; a configuration holding
    every largest value allowed runs every job."""
    from graphmem.model.dynamics import COUNT_MAX, DAYS_MAX, FACTOR_MAX

    stored = auto.automation.set_config(AutomationConfig())
    body = stored.model_dump()
    for field, value in [
        ("capacity_per_user", 2**70),
        ("associate_in_process_max", 2**63),
        ("forget_min_age_days", 1e308),
        ("recall_rollup_days", DAYS_MAX + 1),
        ("stability_gain", 1e300),
    ]:
        with pytest.raises(ValidationError, match=field):
            auto.automation.set_config({**body, "dynamics": {**body["dynamics"], field: value}})
    with pytest.raises(ValidationError, match="schedule"):
        auto.automation.set_config(
            {**body, "jobs": {**body["jobs"], "decay": {"enabled": True, "schedule": "every 9999999999999d"}}}
        )
    posted = client.post(
        "/automation/config", json={"config": {"jobs": {"decay": {"schedule": "every 9999999999999d"}}}}
    )
    assert posted.status_code == 422 and "schedule" in posted.json()["detail"], posted.text[:300]
    assert auto.automation.get_config() == stored  # nothing written

    days = {k: DAYS_MAX for k in stored.dynamics.initial_stability}
    largest = {
        **{f: DAYS_MAX for f in ("forget_min_age_days", "hard_delete_grace_days", "summary_min_age_days")},
        **{f: DAYS_MAX for f in ("recall_rollup_days", "promote_window_days", "max_stability_days")},
        **{f: COUNT_MAX for f in ("capacity_per_user", "summary_min_members", "summary_max_sentences")},
        **{
            f: COUNT_MAX for f in ("associate_in_process_max", "promote_min_sessions", "promote_min_contexts")
        },
        "initial_stability": days,
        **{f: FACTOR_MAX for f in ("association_slowdown", "stability_gain")},
        "time_decay": {k: FACTOR_MAX for k in stored.dynamics.time_decay},
        "factor_weights": {k: FACTOR_MAX for k in stored.dynamics.factor_weights},
    }
    auto.automation.set_config({**body, "dynamics": {**body["dynamics"], **largest}})
    auto.add_messages(
        [{"role": "user", "content": f"I planted {n} tomato seedlings in the greenhouse"} for n in range(3)],
        user_id=user_id,
        session_id="s1",
    )
    for job in ("decay", "forget", "consolidate", "associate", "promote", "review"):
        run = auto.jobs.run(job, user_id=user_id)
        assert run.status == "success", (job, run)
