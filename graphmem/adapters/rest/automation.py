"""REST routes of the automation plane: health, config, job states, runs and logs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter, Request
from fastapi.params import Depends
from starlette.concurrency import run_in_threadpool

from graphmem import errors
from graphmem.adapters.rest.bodies import (
    ConfigBody,
)
from graphmem.automation.config import JOB_NAMES
from graphmem.governance import users
from graphmem.memory import GraphMemory
from graphmem.model import validation as check


def health_router(mem: GraphMemory) -> APIRouter:
    api = APIRouter(tags=["automation"])

    @api.get("/health")
    async def health(request: Request) -> dict[str, Any]:
        """Liveness and the automation plane's health (plugins, scheduler or worker, failed runs), and the
        request queue's state (``details.admission``, graphmem.adapters.rest.admission). Async so that the
        queue is read on the event loop that changes it; the store's part runs in the thread pool."""
        body = (await run_in_threadpool(mem.automation.health)).model_dump(mode="json")
        admission = getattr(request.app.state, "admission", None)
        if admission is not None:
            body.setdefault("details", {})["admission"] = admission.snapshot()
        return body

    return api


def router(mem: GraphMemory, auth: Sequence[Depends]) -> APIRouter:
    api = APIRouter(tags=["automation"], dependencies=list(auth))

    @api.get("/automation")
    def automation() -> dict[str, Any]:
        """The stored automation config, every job's state and the health report."""
        return {
            "config": mem.automation.get_config().model_dump(mode="json"),
            "jobs": [s.model_dump(mode="json") for s in mem.jobs.list()],
            "health": mem.automation.health().model_dump(mode="json"),
        }

    @api.get("/automation/logs")
    def automation_logs(limit: int = 20, job: str | None = None, user_id: str | None = None) -> list[Any]:
        """Recent job runs, newest first (422: an unknown job)."""
        if job is not None and job not in JOB_NAMES:
            raise errors.ValidationError("job", f"unknown job {job!r}; known: {', '.join(JOB_NAMES)}")
        uid = None if user_id is None else check.user_id(user_id)
        return [r.model_dump(mode="json") for r in mem.automation.runs(limit, job=job, user_id=uid)]

    @api.post("/automation/config")
    def automation_config(body: ConfigBody) -> dict[str, Any]:
        """Store a new config version (422: invalid, nothing written; 409: the stored version moved)."""
        stored = mem.automation.set_config(body.config, expected_version=body.expected_version)
        return stored.model_dump(mode="json")

    @api.post("/automation/jobs/{job}/enable")
    def job_enable(job: str) -> dict[str, Any]:
        return mem.jobs.enable(job).model_dump(mode="json")

    @api.post("/automation/jobs/{job}/disable")
    def job_disable(job: str) -> dict[str, Any]:
        return mem.jobs.disable(job).model_dump(mode="json")

    @api.post("/automation/jobs/{job}/reconcile")
    def job_reconcile(job: str) -> dict[str, Any]:
        """Reconcile the scheduler with the stored config; returns this job's state."""
        mem.jobs.reconcile()
        return mem.jobs.status(job).model_dump(mode="json")

    @api.post("/automation/jobs/{job}/run")
    def job_run(job: str, user_id: str | None = None, dry_run: bool = False) -> dict[str, Any]:
        """Run a job now (for one user, or all); a failed run is returned with status ``failed``.
        ``dry_run=true``: what the job would change (status ``dry_run``), nothing written. A ``user_id`` of
        whom nothing is stored (a typo) is a 404 ``UserNotFound``: nothing is run or recorded."""
        if user_id is not None:
            users.require_stored(mem.runtime, check.user_id(user_id))
        return mem.jobs.run(job, user_id=user_id, dry_run=dry_run).model_dump(mode="json")

    return api
