"""`graphmem jobs schedule` and `graphmem jobs runs` (probe of round 58): a job's schedule could be changed
and the run history read only through Python or REST, so a CLI user had `jobs enable|disable` but no way to
move a job to another hour, nor to see why last night's run failed."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from graphmem import GraphMemory, ValidationError
from graphmem.cli.main import app

runner = CliRunner()


def _invoke(args: list[str], config_id: str) -> tuple[int, str]:
    result = runner.invoke(app, args, env={"GRAPHMEM_AUTOMATION_CONFIG_ID": config_id, "COLUMNS": "200"})
    return result.exit_code, result.output


def test_jobs_schedule_stores_a_schedule_and_refuses_a_bad_one(auto: GraphMemory, config_id: str) -> None:
    code, out = _invoke(["jobs", "schedule", "consolidate", "30 2 * * 1-5"], config_id)
    assert code == 0, out
    assert out.strip() == "consolidate: 30 2 * * 1-5 (missing)"  # no worker of this config runs it yet
    auto.jobs.disable("promote")
    code, out = _invoke(["jobs", "schedule", "promote", "every 12h"], config_id)
    assert (
        code == 0 and out.strip() == "promote: every 12h (disabled: `graphmem jobs enable promote` runs it)"
    )
    stored = auto.automation.get_config()
    assert stored.jobs["consolidate"].schedule == "30 2 * * 1-5" and stored.jobs["consolidate"].enabled
    for args, problem in [
        (["jobs", "schedule", "consolidate", "30 2 * * 9"], "jobs.consolidate.schedule"),
        (["jobs", "schedule", "consolidate", "whenever"], "jobs.consolidate.schedule"),
        (["jobs", "schedule", "consolidat", "every 2h"], "unknown job 'consolidat'"),
    ]:
        code, out = _invoke(args, config_id)
        assert code == 1, out
        assert len(out.strip().splitlines()) == 1 and out.startswith("error: ") and problem in out, out
        assert auto.automation.get_config().version == stored.version  # nothing stored


def test_jobs_runs_shows_the_run_history(auto: GraphMemory, config_id: str, user_id: str) -> None:
    auto.remember("I adopted a dog named Rex", user_id=user_id)
    run = auto.jobs.run("decay", user_id=user_id)
    code, out = _invoke(["jobs", "runs", "decay", "-u", user_id, "--json"], config_id)
    assert code == 0, out
    listed = json.loads(out)
    assert [(r["id"], r["status"], r["counts"]) for r in listed] == [(run.id, "success", run.counts)]
    code, out = _invoke(["jobs", "runs", "-u", user_id], config_id)
    assert code == 0 and "decay" in out and "success" in out and "memories=1" in out, out
    code, out = _invoke(["jobs", "runs", "-u", f"{user_id}-typo"], config_id)
    assert code == 0 and "no runs recorded" in out, out
    code, out = _invoke(["jobs", "runs", "deacy"], config_id)
    assert code == 1 and out.startswith("error: job: unknown job 'deacy'"), out


def test_an_unreachable_server_is_one_error_line(config_id: str) -> None:
    """The driver's "Couldn't connect ..." message spans two lines; the CLI's error is one (exit 1)."""
    for args in (["jobs", "list"], ["jobs", "runs"], ["health"]):
        result = runner.invoke(
            app, args, env={"GRAPHMEM_AUTOMATION_CONFIG_ID": config_id, "NEO4J_URI": "bolt://127.0.0.1:1"}
        )
        assert result.exit_code == 1, result.output
        assert result.output.startswith("error: Neo4j is unreachable: "), result.output
        assert len(result.output.strip().splitlines()) == 1, result.output


def test_the_run_history_of_an_unknown_job_is_refused(auto: GraphMemory) -> None:
    """``mem.automation.runs(job="deacy")`` returned [] (read as "never ran"); REST already answered 422."""
    with pytest.raises(ValidationError, match="unknown job 'deacy'"):
        auto.automation.runs(5, job="deacy")
    assert isinstance(auto.automation.runs(1, job="decay"), list)


def test_a_malformed_clock_is_one_error_line(config_id: str, user_id: str) -> None:
    """`jobs run --now` with an impossible offset: Python's long message was wrapped at the terminal width."""
    result = runner.invoke(
        app,
        ["jobs", "run", "decay", "-u", user_id, "--now", "2026-12-07T10:00:00+99:00"],
        env={"GRAPHMEM_AUTOMATION_CONFIG_ID": config_id, "COLUMNS": "60"},
    )
    assert result.exit_code == 1, result.output
    assert result.output.startswith("error: --now: offset must be"), result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
