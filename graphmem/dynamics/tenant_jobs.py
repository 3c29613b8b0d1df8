"""The steps of the two per-tenant jobs, ``topics`` and ``adapt``.

Each starts with one read that finds the tenants with something new (``topics``: memories changed since
their topics were built, by a signature of what topics are built from; ``adapt``: feedback given since the
newest one their last adaptation took in) and then works one tenant per step, progress recorded after each.
So a quiet tenant costs that one read, and a rerun after an interruption continues with the tenants not
done yet (each tenant's mark is written with its work). In a dry run every write goes to the dry run's
transaction and is rolled back; ``adapt`` then only decides (``Evolution.adapt(dry_run=True)``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphmem.dynamics import topics

if TYPE_CHECKING:
    from graphmem.dynamics.steps import Context, Step


def _write(ctx: Context, name: str, **params: Any) -> list[dict[str, Any]]:
    return ctx.tx.run(name, **params) if ctx.tx is not None else ctx.rt.store.write(name, **params)


def topics_job(ctx: Context) -> list[Step]:
    """Rebuild the topics of the tenants whose memories changed since their last rebuild."""
    found = topics.pending(ctx.read, ctx.user_id)
    stale = [row for row in found if row["stale"]]
    tally = {"users": len(found), "skipped": len(found) - len(stale), "rebuilt": 0}
    tally.update(topics=0, memberships=0, previous_topics=0)

    def rebuild(row: dict[str, Any]) -> Step:
        def step(c: Context) -> dict[str, Any]:
            counts = topics.rebuild_user(c.rt, row["user_id"], c.now, row["signature"], c.tx)
            tally["rebuilt"] += 1
            for key, value in counts.items():
                tally[key] += value
            return dict(tally)

        return step

    return [lambda c: dict(tally), *(rebuild(row) for row in stale)]


def adapt_job(ctx: Context) -> list[Step]:
    """Adapt the retrieval parameters of the tenants with feedback newer than their last adaptation."""
    found = ctx.read("adapt_pending", user_id=ctx.user_id, now=ctx.now)
    due = [row for row in found if row["pending"]]
    tally = {"users": len(found), "skipped": len(found) - len(due), "adapted": 0, "changed": 0}
    tally.update(judged_queries=0, feedback=0)

    def adapt(row: dict[str, Any]) -> Step:
        def step(c: Context) -> dict[str, Any]:
            uid = row["user_id"]
            result = c.automation.evolution.adapt(uid, now=c.now, dry_run=c.tx is not None)
            _write(c, "adapt_mark", user_id=uid, through=row["latest"], now=c.now)
            tally["adapted"] += 1
            tally["changed"] += int(result.changed)
            tally["judged_queries"] += result.judged_queries
            tally["feedback"] += result.feedback
            return dict(tally)

        return step

    return [lambda c: dict(tally), *(adapt(row) for row in due)]
