"""Memory that changes over time: the maintenance jobs and forgetting on request."""
