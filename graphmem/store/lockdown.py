"""The lockdown of ``query()``, the read-only escape hatch: the user's Cypher may not call GDS (it builds
in-memory graphs on the heap even in a read transaction). The check reads the server's plan, where names are
normalised, so comments, backticks and spacing cannot hide a call."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import neo4j.exceptions as nex

from graphmem import errors

__all__ = ["DENIED_IN_QUERY", "check_readonly_plan", "refuse_unloaded_gds"]


DENIED_IN_QUERY = re.compile(r"\bgds\.", re.IGNORECASE)
"""Calls ``query()`` refuses: GDS builds in-memory graphs (heap) even in a read transaction."""


def _plan_details(plan: Mapping[str, Any] | None) -> Iterator[str]:
    if not plan:
        return
    yield str(plan.get("args", {}).get("Details", ""))
    for child in plan.get("children", []):
        yield from _plan_details(child)


def check_readonly_plan(plan: Mapping[str, Any] | None) -> None:
    """Refuse a ``query()`` statement whose plan (names normalised by the server, so comments, backticks
    and spacing cannot hide them) calls a denied procedure or function."""
    for details in _plan_details(plan):
        found = DENIED_IN_QUERY.search(details)
        if found:
            raise errors.ValidationError(
                "cypher", f"query() may not call GDS procedures or functions (found in: {details[:120]})"
            )


_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


def refuse_unloaded_gds(cypher: str, exc: nex.ClientError) -> None:
    """The locked-down server does not load most GDS procedures, so EXPLAIN of a call to one fails as
    unknown: that is the same refusal (names normalised: comments, backticks and spaces removed)."""
    code = exc.code or ""
    if "ProcedureNotFound" in code or "UnknownFunction" in code:
        flat = re.sub(r"[\s`]", "", _COMMENTS.sub("", cypher))
        if "gds." in flat.lower():
            raise errors.ValidationError(
                "cypher", "query() may not call GDS procedures or functions (not loaded on this server)"
            ) from exc
