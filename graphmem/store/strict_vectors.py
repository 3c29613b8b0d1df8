"""A stored vector that Neo4j's cosine refuses fails one statement, not its tenant.

``vector.similarity.cosine`` refuses a vector holding a NaN, a coordinate beyond float32's range, or only
zeros, for the whole statement. graphmem never writes one, but a vector written by hand can be any of them,
and checking every coordinate on the read path would cost every recall (docs/operations.md). So the store
runs a refused statement once more in its strict form, whose cosines check their vectors first.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

import neo4j.exceptions as nex

from graphmem import errors
from graphmem.store.queries import STRICT, has_strict_variant

logger = logging.getLogger(__name__)

T = TypeVar("T")


def vector_refused(exc: BaseException) -> bool:
    """Whether the server refused a statement because ``vector.similarity.cosine`` met a stored vector it does
    not take (a coordinate NaN or beyond float32's range, or all zeros, written by hand: GQL status 22N38)."""
    cause = exc.__cause__ if isinstance(exc, errors.StoreError) else exc
    if not isinstance(cause, nex.Neo4jError):
        return False
    return (
        "vector.similarity.cosine" in (cause.message or "") or getattr(cause, "gql_status", None) == "22N38"
    )


def with_strict_vectors(run: Callable[[str], T], name: str) -> T:
    """``run(name)``; when the server refuses it for a stored vector (:func:`vector_refused`) and the
    statement has a strict form (``query("strict:" + name)``, each cosine checking its vectors first), that
    form once: the checks cost as much as the cosines, so only a tenant holding such a vector pays them,
    and nothing it stores can make its reads fail (docs/operations.md)."""
    try:
        return run(name)
    except errors.StoreError as exc:
        if not vector_refused(exc) or not has_strict_variant(name):
            raise
    logger.warning(
        "%s: a stored vector is one vector.similarity.cosine refuses (NaN, beyond float32 or zeros, written "
        "by hand); rerun leaving it out of the cosines (`graphmem reembed` rewrites it)",
        name,
    )
    return run(STRICT + name)
