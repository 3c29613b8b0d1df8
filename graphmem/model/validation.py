"""Checks at the public boundary. Each raises :class:`graphmem.errors.ValidationError` naming the field."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, TypeVar

from graphmem.config import MAX_K
from graphmem.errors import ValidationError

E = TypeVar("E")

MAX_ID_CHARS = 256


def text(value: object, field: str, *, max_chars: int) -> str:
    if not isinstance(value, str):
        raise ValidationError(field, f"must be a string, not {type(value).__name__}")
    if not value.strip():
        raise ValidationError(field, "must not be empty or whitespace")
    if len(value) > max_chars:
        raise ValidationError(field, f"is {len(value)} characters long; the maximum is {max_chars}")
    return value


def identifier(value: object, field: str, *, required: bool = True) -> str | None:
    """A tenant or scope id: a non-empty string without control characters."""
    if value is None:
        if required:
            raise ValidationError(field, "is required")
        return None
    if not isinstance(value, str):
        raise ValidationError(field, f"must be a string, not {type(value).__name__}")
    if not value.strip():
        raise ValidationError(field, "must not be empty")
    if len(value) > MAX_ID_CHARS:
        raise ValidationError(field, f"is longer than {MAX_ID_CHARS} characters")
    if any(ord(c) < 32 for c in value):
        raise ValidationError(field, "must not contain control characters")
    return value


def user_id(value: object) -> str:
    uid = identifier(value, "user_id")
    assert uid is not None
    return uid


def k(value: object, *, maximum: int = MAX_K) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError("k", f"must be an integer, not {type(value).__name__}")
    if not 1 <= value <= maximum:
        raise ValidationError("k", f"must be between 1 and {maximum}, got {value}")
    return value


def enum(value: object, enum_type: type[E], field: str) -> E:
    try:
        return enum_type(value)  # type: ignore[call-arg]
    except ValueError:
        allowed = ", ".join(str(getattr(m, "value", m)) for m in enum_type)  # type: ignore[attr-defined]
        raise ValidationError(field, f"must be one of {allowed}; got {value!r}") from None


def unit_interval(value: object, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValidationError(field, f"must be a number, not {type(value).__name__}")
    if not 0.0 <= float(value) <= 1.0:
        raise ValidationError(field, f"must be within [0, 1], got {value}")
    return float(value)


def aware_datetime(value: object, field: str) -> datetime | None:
    """Datetimes must carry a time zone; naive ones are read as UTC (documented in the README)."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            raise ValidationError(field, f"is not an ISO-8601 datetime: {value!r}") from None
    if not isinstance(value, datetime):
        raise ValidationError(field, f"must be a datetime, not {type(value).__name__}")
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value


def metadata(value: object, field: str = "metadata") -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
        raise ValidationError(field, "must be a dict with string keys")
    return dict(value)


def tags(value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str) or not all(isinstance(t, str) and t.strip() for t in value):  # type: ignore[attr-defined]
        raise ValidationError("tags", "must be a list of non-empty strings")
    return [t.strip() for t in value]  # type: ignore[attr-defined]


def bounded_int(value: object, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError(field, f"must be an integer, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValidationError(field, f"must be between {low} and {high}, got {value}")
    return value


def boolean(value: object, field: str) -> bool:
    if not isinstance(value, bool):
        raise ValidationError(field, f"must be True or False, not {value!r}")
    return value


def views(value: object) -> dict[str, float] | None:
    """View-weight overrides: names are checked against the views by graphmem.model.intent.resolve_views."""
    if value is None:
        return None
    if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
        raise ValidationError("views", "must be a dict of view name to weight")
    from graphmem.model.intent import resolve_views

    resolve_views("", value)  # raises ValidationError naming an unknown view or a bad weight
    return dict(value)
