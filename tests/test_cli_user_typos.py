"""A mistyped user, a clock in the future and a reversed time window (probe of the CLI's first hour):
`delete-user`, `anonymize-user` and `jobs run -u` of a user of whom nothing is stored exit 4 and write no
audit event or JobRun (they exited 0, so a typo read as a successful GDPR deletion), as REST answers 404; the
Python API's deletion stays an idempotent no-op that writes nothing. `jobs run --now <future>` asks before it
writes; a timeline or audit window whose start is after its end is refused on every surface."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from graphmem import GraphMemory, ValidationError
from graphmem.adapters.rest import create_app
from graphmem.store.audit import user_hash

runner = CliRunner()
KEY = "test-key"


@pytest.fixture(scope="module")
def client(mem: GraphMemory) -> Iterator[TestClient]:
    with TestClient(create_app(mem, KEY), headers={"X-API-Key": KEY}, raise_server_exceptions=False) as c:
        yield c


def _traces(mem: GraphMemory, user: str) -> dict[str, int]:
    """What a command could have written about ``user``: audit events, job runs, a pending deletion."""
    row = mem.query(
        "RETURN COUNT { MATCH (a:AuditEvent) WHERE a.user_hash = $h } AS audit, "
        "COUNT { MATCH (r:JobRun) WHERE r.user_id = $u } AS runs, "
        "COUNT { MATCH (d:UserDeletion) WHERE d.user_hash = $h } AS pending",
        {"u": user, "h": user_hash(user)},
    )
    return dict(row[0])


def _invoke(args: list[str], **kwargs: object) -> tuple[int, str]:
    from graphmem.cli.main import app

    result = runner.invoke(app, args, **kwargs)  # type: ignore[arg-type]
    return result.exit_code, " ".join(result.output.split())


NOTHING = {"audit": 0, "runs": 0, "pending": 0}


def test_a_mistyped_user_is_not_deleted_anonymized_or_run(
    mem: GraphMemory, client: TestClient, user_id: str
) -> None:
    mem.remember("I adopted a dog named Rex", user_id=user_id)
    typo = f"{user_id}-typo"
    for args in (
        ["delete-user", typo, "--yes"],
        ["delete-user", typo],  # told before being asked
        ["anonymize-user", typo, "--yes", "--json"],
        ["jobs", "run", "decay", "-u", typo],
        ["jobs", "run", "forget", "-u", typo, "--dry-run"],
    ):
        code, out = _invoke(args)
        assert code == 4, (args, out)
        assert f"nothing is stored for user '{typo}'" in out and "error" not in out.lower(), out
        assert "Delete every" not in out and "Traceback" not in out
    assert _traces(mem, typo) == NOTHING

    assert mem.users.delete(typo).deleted == 0 and mem.users.anonymize(typo) == 0  # idempotent, silent
    for response in (client.delete(f"/users/{typo}"), client.post(f"/users/{typo}/anonymize")):
        assert response.status_code == 404 and response.json()["error"] == "UserNotFound"
    job = client.post("/automation/jobs/decay/run", params={"user_id": typo})
    assert job.status_code == 404 and job.json()["error"] == "UserNotFound"
    assert _traces(mem, typo) == NOTHING  # no tombstone, no JobRun, on any surface

    code, out = _invoke(["jobs", "run", "decay", "-u", user_id])  # a real user still runs
    assert code == 0 and "success" in out
    assert _invoke(["delete-user", user_id, "--yes"])[0] == 0
    code, out = _invoke(["delete-user", user_id, "--yes"])  # a second deletion: nothing stored, no crash
    assert code == 4 and "nothing is stored" in out
    assert client.delete(f"/users/{user_id}").status_code == 404
    assert [e.action for e in mem.temporal.audit_log(user_id=user_id)].count("delete_user") == 1


def test_a_user_with_only_facts_core_blocks_or_a_session_scope_is_stored(
    mem: GraphMemory, user_id: str
) -> None:
    """ "Nothing stored" means nothing under any label or scope of the user, not "no memories"."""
    facts, core, session = f"{user_id}-facts", f"{user_id}-core", f"{user_id}-session"
    mem.facts.set(facts, "city", "Paris")
    mem.core.set(core, "persona", "Speaks French")
    mem.facts.set(session, "scratch", "4411", scope="session", session_id="s9")
    for user in (facts, core, session):
        code, out = _invoke(["delete-user", user, "--yes", "--json"])
        assert code == 0 and sum(json.loads(out)["nodes"].values()) > 0, (user, out)
        code, out = _invoke(["delete-user", user, "--yes"])  # now nothing is
        assert code == 4 and "nothing is stored" in out, (user, out)
    assert mem.facts.get(facts, "city") is None


def test_a_future_clock_asks_before_it_writes(mem: GraphMemory, user_id: str) -> None:
    mem.remember("I adopted a dog named Rex", user_id=user_id)
    future = (datetime.now(UTC) + timedelta(days=400)).isoformat()
    code, out = _invoke(["jobs", "run", "decay", "-u", user_id, "--now", future], input="n\n")
    assert code == 1 and "aborted: nothing changed" in out
    assert re.search(r"is 39\d days in the future: `decay` will change the data of", out), out
    assert "cannot be undone" in out and _traces(mem, user_id)["runs"] == 0

    code, out = _invoke(["jobs", "run", "decay", "-u", user_id, "--now", future, "--dry-run"])
    assert code == 0 and "dry_run" in out and "future" not in out  # writes nothing: not asked
    assert _traces(mem, user_id)["runs"] == 0
    code, out = _invoke(["jobs", "run", "decay", "-u", user_id, "--now", future], input="y\n")
    assert code == 0 and "success" in out and _traces(mem, user_id)["runs"] == 1
    past = (datetime.now(UTC) - timedelta(days=1)).isoformat()
    code, out = _invoke(["jobs", "run", "decay", "-u", user_id, "--now", past])  # not asked
    assert code == 0 and "success" in out
    code, out = _invoke(["jobs", "run", "decay", "-u", user_id, "--now", future, "--yes"])
    assert code == 0 and "success" in out
    code, out = _invoke(["jobs", "run", "forget", "-u", user_id, "--now", future, "--dry-run"])
    assert code == 0 and "does not decay them itself" in out  # its dry run alone counts no decay
    code, out = _invoke(["jobs", "run", "--help"], env={"COLUMNS": "200"})
    assert "changes the stored data" in out and "--yes" in out


def test_a_window_that_ends_before_it_starts_is_refused(
    mem: GraphMemory, client: TestClient, user_id: str
) -> None:
    mem.remember("I adopted a dog named Rex", user_id=user_id)
    start, end = datetime(2025, 3, 1, tzinfo=UTC), datetime(2025, 1, 1, tzinfo=UTC)
    with pytest.raises(ValidationError, match=r"end: 2025-01-01T00:00:00\+00:00 is before start"):
        mem.temporal.timeline(user_id, start=start, end=end)
    with pytest.raises(ValidationError, match=r"until: .* is before since"):
        mem.temporal.audit_log(user_id=user_id, since=start, until=end)
    assert mem.temporal.timeline(user_id, start=end, end=end) == []  # an empty window is not reversed
    code, out = _invoke(["timeline", "-u", user_id, "--start", "2025-03-01", "--end", "2025-01-01"])
    assert code == 1 and out.startswith("error: end: 2025-01-01") and "is before start" in out, out
    response = client.get(
        f"/users/{user_id}/timeline", params={"start": start.isoformat(), "end": end.isoformat()}
    )
    assert response.status_code == 422 and "is before start" in response.json()["detail"]


def test_a_python_job_run_for_a_mistyped_user_writes_nothing_and_says_so(
    mem: GraphMemory, user_id: str
) -> None:
    """mem.jobs.run(job, user_id=<typo>) recorded a JobRun (and its audit event) for the typo, while the CLI
    exits 4 and REST answers 404: like mem.users.delete/anonymize of such a user, it is a no-op that writes
    nothing, and the JobRun it returns says so (status ``skipped``, not recorded)."""
    mem.remember("I adopted a dog named Rex", user_id=user_id)
    typo = f"{user_id}-typo"
    for job in ("decay", "forget", "consolidate"):
        for dry_run in (False, True):
            run = mem.jobs.run(job, user_id=typo, dry_run=dry_run)
            assert run.status == "skipped" and run.user_id == typo and run.job == job, run
            assert run.counts == {} and f"nothing is stored for user '{typo}'" in (run.error or "")
    assert _traces(mem, typo) == NOTHING
    assert mem.automation.runs(50, user_id=typo) == []
    assert mem.query("MATCH (n) WHERE n.user_id = $u RETURN count(n) AS n", {"u": typo})[0]["n"] == 0

    real = mem.jobs.run("decay", user_id=user_id)  # a user with data still runs, and is recorded
    assert real.status == "success" and _traces(mem, user_id)["runs"] == 1
