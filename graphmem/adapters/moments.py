"""A time field of the REST API and the MCP tools: ISO-8601 text or a datetime, or a number of POSIX seconds.

Pydantic reads a number (or numeric text) above 2e10 as milliseconds and below as seconds, while message
timestamps (``add_messages``, ``graphmem import``) are always seconds: ``{"occurred_at": -62135596800}``
(year 1 in seconds) was stored as 1968, and ``as_of=1717200000000`` was 2024 where the same number as a
message's timestamp was refused. Every time field reads numbers as seconds, as the Python API's validation
does."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any

from pydantic import BeforeValidator

from graphmem.errors import ValidationError
from graphmem.model import validation

__all__ = ["Moment"]

_NUMBER = re.compile(r"\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*", re.ASCII)


def _seconds(value: Any) -> Any:
    if isinstance(value, bool):
        raise ValueError("a time is ISO-8601 text or POSIX seconds, not a boolean")
    if isinstance(value, str) and _NUMBER.fullmatch(value):
        value = float(value)
    if isinstance(value, int | float):
        try:
            return validation.epoch_seconds(value, "time")
        except ValidationError as exc:
            raise ValueError(exc.message) from None
    return value


Moment = Annotated[datetime, BeforeValidator(_seconds, json_schema_input_type=datetime | float)]
"""A datetime field that reads a number as POSIX seconds (see the module's text)."""
