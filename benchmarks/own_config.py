"""A benchmark's own automation configuration, deleted when the benchmark ends.

A benchmark that runs jobs under its own configuration id (``Settings(automation_config_id=...)``, so that
its parameters never touch the shared ``default``) leaves that configuration in the store: every job run
stores its due-date basis on the ``AutomationConfig`` node, ``set_config`` adds an
``AutomationConfigVersion`` and a ``config_change`` audit event, a scheduler its ``JobSlot`` nodes. Deleting
the benchmark's users removes none of them (they belong to no user). :func:`drop_config` does, in the
benchmark's ``finally``.
"""

from __future__ import annotations

import sys

from graphmem import GraphMemError, GraphMemory, Settings

DROP = """
CALL () {
  MATCH (n:AutomationConfig {id: $id}) RETURN n
  UNION
  MATCH (n:AutomationConfigVersion {config_id: $id}) RETURN n
  UNION
  MATCH (n:JobSlot) WHERE n.id STARTS WITH $id + '/' RETURN n
  UNION
  MATCH (n:AuditEvent {action: 'config_change'})
  WHERE CASE WHEN n.target_ids IS :: LIST<ANY> NOT NULL THEN $id IN n.target_ids ELSE false END
  RETURN n
}
DETACH DELETE n
RETURN count(*) AS deleted
"""


def drop_config(mem: GraphMemory, config_id: str) -> int:
    """Delete the automation configuration ``config_id`` with its versions, job slots and change events;
    returns the nodes deleted. The shared configuration (``Settings().automation_config_id``) is refused.
    A store that cannot be reached is reported, not raised: cleaning up never hides the run's own error."""
    if config_id == Settings().automation_config_id:
        raise ValueError(f"{config_id!r} is the shared automation configuration, not a benchmark's own")
    try:
        rows = mem.runtime.store.run_statement(DROP, {"id": config_id})
    except GraphMemError as exc:
        print(f"left the automation config {config_id!r} in the store: {exc}", file=sys.stderr)
        return 0
    return int(rows[0]["deleted"]) if rows else 0
