"""Checks at the public boundary. Each raises :class:`graphmem.errors.ValidationError` naming the field."""

from __future__ import annotations

import json
import math
import re
import unicodedata
from datetime import UTC, date, datetime, time, timedelta, timezone
from typing import Any, TypeVar
from uuid import UUID

from graphmem.config import MAX_K
from graphmem.errors import ValidationError
from graphmem.model import scopes

E = TypeVar("E")

MAX_ID_CHARS = 256
MAX_METADATA_BYTES = 65_536  # Settings.max_metadata_bytes is the configurable default
MAX_METADATA_DEPTH = 16
MAX_TAGS = 64
MAX_TAG_CHARS = 100
MIN_YEAR, MAX_YEAR = 1900, 2200
MAX_UTC_OFFSET = timedelta(hours=18)  # Neo4j's limit; Bolt also takes whole minutes only
_REFUSED = re.compile("[\ud800-\udfff\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # one C scan, not a loop
_REFUSED_LINES = re.compile("[\ud800-\udfff\x00-\x1f\x7f-\x9f]")  # newline, tab and CR refused too


def clean_string(value: str, field: str, *, allow_newlines: bool = True) -> str:
    """NFC-normalised ``value``; refuses lone surrogates (not encodable as UTF-8, so not storable) and
    control characters (NUL, C0 but newline/tab/carriage return, DEL, C1), the first one it holds named."""
    if (bad := (_REFUSED if allow_newlines else _REFUSED_LINES).search(value)) is not None:
        code = ord(bad.group())
        if 0xD800 <= code <= 0xDFFF:
            raise ValidationError(field, f"contains a lone surrogate (U+{code:04X}), which is not valid text")
        raise ValidationError(field, f"contains the control character U+{code:04X}")
    return unicodedata.normalize("NFC", value)


def text(value: object, field: str, *, max_chars: int) -> str:
    if not isinstance(value, str):
        raise ValidationError(field, f"must be a string, not {type(value).__name__}")
    if len(value) > max_chars:
        raise ValidationError(field, f"is {len(value)} characters long; the maximum is {max_chars}")
    value = _within(clean_string(value, field), field, max_chars)
    if all(c.isspace() or unicodedata.category(c) == "Cf" for c in value):  # "\u200b\ufeff" shows nothing
        raise ValidationError(field, "must not be empty, whitespace or invisible format characters")
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
    return _within(clean_string(value, field, allow_newlines=False), field, MAX_ID_CHARS)


def _within(value: str, field: str, max_chars: int) -> str:
    """``value`` once NFC-normalised, still within ``max_chars`` (NFC may lengthen: "\U0001d160" is three
    characters once normalised, so 256 of them were stored as 768, and a session scope's key passed the
    index's size limit: the write failed with a StoreError, REST a 500)."""
    if len(value) > max_chars:
        raise ValidationError(
            field, f"is {len(value)} characters long once normalised; the maximum is {max_chars}"
        )
    return value


def fact_key(value: object, user: str | None) -> str:
    """A fact key to write: an id (no control characters: a key is a line of ``context()``) that names a
    relation once canonical (``me/``, ``user/`` and ``<user id>/`` name the user, and nothing after them is
    the key '', which no read can name). Reads take any stored key (:func:`text`), so an older one stays
    reachable."""
    from graphmem.model.fact_keys import canonical_key

    key = clean_string(text(value, "key", max_chars=MAX_ID_CHARS), "key", allow_newlines=False)
    if not canonical_key(key, user).rpartition("/")[2].strip():
        raise ValidationError("key", f"names no relation after its subject: {key!r}")
    return key


def user_id(value: object) -> str:
    uid = identifier(value, "user_id")
    assert uid is not None
    return scopes.check_not_reserved(uid)


def caller(
    user: object, session_id: object = None, agent_id: object = None, org_id: object = None
) -> scopes.Caller:
    """A validated caller: a user and the session, agent and organisation it acts in. The user may be
    left out (None) only by a caller that names an agent or organisation (it then reaches only those)."""
    who = scopes.Caller(
        user_id=None if user is None else user_id(user),
        session_id=identifier(session_id, "session_id", required=False),
        agent_id=identifier(agent_id, "agent_id", required=False),
        org_id=identifier(org_id, "org_id", required=False),
    )
    if not who.readable():
        raise ValidationError("user_id", "is required")
    return who


def scope(value: object) -> scopes.Scope:
    """A scope name (``session``, ``user``, ``agent``, ``org``) or a :class:`~graphmem.model.scopes.Scope`."""
    return enum(value, scopes.Scope, "scope")


def owner(
    user: object, scope_name: object, session_id: object, agent_id: object, org_id: object
) -> tuple[str, str | None]:
    """The tenant key of the one scope a call names (``scope_name`` and the id it needs; docs/scopes.md)
    and the validated agent id: whose facts ``mem.facts`` reads or writes, whose memories ``mem.memories``
    lists."""
    who = caller(user, session_id, agent_id, org_id)
    return who.tenant(scope(scope_name)), who.agent_id


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
    if not math.isfinite(value) or not 0.0 <= float(value) <= 1.0:
        raise ValidationError(field, f"must be within [0, 1], got {value}")
    return float(value)


def aware_datetime(value: object, field: str) -> datetime | None:
    """Datetimes must carry a time zone; naive ones are read as UTC (documented in the README); a zone is
    kept as its fixed offset (:func:`fixed_offset`), the same instant."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            raise ValidationError(field, f"is not an ISO-8601 datetime: {value!r}") from None
    if not isinstance(value, datetime):
        raise ValidationError(field, f"must be a datetime, not {type(value).__name__}")
    if not MIN_YEAR <= value.year <= MAX_YEAR:
        raise ValidationError(field, f"must fall within the years {MIN_YEAR}-{MAX_YEAR}, got {value.year}")
    out = value.replace(tzinfo=UTC) if value.tzinfo is None else fixed_offset(value, field)
    return _within_years(out, field)


def _within_years(value: datetime, field: str) -> datetime:
    """``value`` when its instant, in UTC, falls within the accepted years: a wall time in them at an offset
    can lie outside (1900-01-01T00:00+00:30 is 1899 in UTC), and is stored and compared in UTC."""
    instant = value.astimezone(UTC)  # no overflow: the wall time's year was checked
    if not MIN_YEAR <= instant.year <= MAX_YEAR:
        raise ValidationError(
            field, f"must fall within the years {MIN_YEAR}-{MAX_YEAR} in UTC, got {instant.isoformat()}"
        )
    return value


def fixed_offset(value: datetime, field: str) -> datetime:
    """An aware ``value`` at its fixed UTC offset, or in UTC when Neo4j cannot store the offset (not whole
    minutes, or beyond 18 hours): the driver calls other zones (zoneinfo, pytz) with its own datetime type,
    which zoneinfo misreads (a random offset, or a crash of the process)."""
    offset = value.utcoffset()
    if offset is None:
        raise ValidationError(field, "has a time zone without a UTC offset")
    if offset % timedelta(minutes=1) or abs(offset) > MAX_UTC_OFFSET:
        try:
            return value.astimezone(UTC)
        except OverflowError:  # year 1 or 9999 moved past the calendar's end by its offset
            raise ValidationError(field, "is too close to the calendar's first or last day") from None
    return value if type(value.tzinfo) is timezone else value.replace(tzinfo=timezone(offset))


def epoch_seconds(value: float, field: str) -> datetime:
    """A POSIX timestamp (seconds) as an aware datetime within the accepted years."""
    try:
        return datetime.fromtimestamp(value, UTC)
    except (OverflowError, OSError, ValueError):
        raise ValidationError(field, f"is not a timestamp within the years {MIN_YEAR}-{MAX_YEAR}") from None


def _json_value(value: object, field: str, depth: int, seen: set[int]) -> Any:
    if depth > MAX_METADATA_DEPTH:
        raise ValidationError(field, f"is nested deeper than {MAX_METADATA_DEPTH} levels")
    if value is None or isinstance(value, bool) or (isinstance(value, int) and -INT64 <= value < INT64):
        return value
    if isinstance(value, int):  # json.dumps refuses over 4,300 digits with a ValueError of its own
        raise ValidationError(field, "is an integer beyond 64 bits")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValidationError(field, f"must hold finite numbers, got {value}")
        return value
    if isinstance(value, str):
        return clean_string(value, field)
    if isinstance(value, list | tuple | dict):
        if id(value) in seen:
            raise ValidationError(field, "refers to itself")
        seen = seen | {id(value)}
        if isinstance(value, dict):
            if not all(isinstance(key, str) for key in value):
                raise ValidationError(field, "must have string keys")
            checked = {
                clean_string(k, field): _json_value(v, f"{field}.{k}", depth + 1, seen)
                for k, v in value.items()
            }
            if len(checked) < len(value):  # "e\u0301" and "\u00e9": one key once normalised, one value lost
                raise ValidationError(field, "has keys that are the same text once normalised (NFC)")
            return checked
        return [_json_value(v, f"{field}[{i}]", depth + 1, seen) for i, v in enumerate(value)]
    raise ValidationError(
        field, f"must be JSON (str, int, float, bool, None, list, dict), not {type(value).__name__}"
    )


def metadata(
    value: object, field: str = "metadata", *, max_bytes: int = MAX_METADATA_BYTES
) -> dict[str, Any]:
    """JSON-only metadata: string keys, finite numbers, valid text, at most ``MAX_METADATA_DEPTH`` levels and
    ``max_bytes`` as compact UTF-8 JSON. Returns a checked copy."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValidationError(field, f"must be a dict with string keys, not {type(value).__name__}")
    checked: dict[str, Any] = _json_value(value, field, 0, set())
    size = len(json.dumps(checked, ensure_ascii=False, separators=(",", ":")).encode())
    if size > max_bytes:
        raise ValidationError(field, f"is {size} bytes as JSON; the maximum is {max_bytes}")
    return checked


def stored_metadata(
    value: object, field: str = "metadata", *, max_bytes: int = MAX_METADATA_BYTES
) -> dict[str, Any]:
    """:func:`metadata` a memory stores: also no key a recall filter reads as an operator
    (:func:`operator_key`), since a stored ``{"$tier": 1}`` could never be filtered on."""
    checked = metadata(value, field, max_bytes=max_bytes)
    for key, item in checked.items():
        if (operator := operator_key(key, item)) is not None:
            where = field if operator == key else f"{field}.{key}"
            raise ValidationError(
                where, f"has the key {operator!r}: a filter reads keys starting with '$' as operators"
            )
    return checked


def operator_key(key: str, value: Any) -> str | None:
    """The key a metadata filter ``{key: value}`` reads as an operator (it matches by equality only): ``key``
    itself, or a key of ``value`` when it is a dict, that starts with ``$``; None when there is none. Deeper
    keys are part of a value compared whole."""
    return next((k for k in (key, *(value if isinstance(value, dict) else ())) if k.startswith("$")), None)


def tags(value: object, field: str = "tags") -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list | tuple):
        raise ValidationError(field, f"must be a list of strings, not {type(value).__name__}")
    if len(value) > MAX_TAGS:
        raise ValidationError(field, f"has {len(value)} tags; the maximum is {MAX_TAGS}")
    out = []
    for i, tag in enumerate(value):
        if not isinstance(tag, str) or not tag.strip():
            raise ValidationError(f"{field}[{i}]", "must be a non-empty string")
        if len(tag) > MAX_TAG_CHARS:
            raise ValidationError(f"{field}[{i}]", f"is longer than {MAX_TAG_CHARS} characters")
        where = f"{field}[{i}]"
        out.append(_within(clean_string(tag, where, allow_newlines=False).strip(), where, MAX_TAG_CHARS))
    return out


CONTEXT_BUDGET = 2000
"""Tokens of a context that names no budget, unless the automation configuration stores another
(``context_budget``)."""

MAX_CONTEXT_BUDGET = 200_000
"""The largest token budget a context takes."""


CONVERSATION_TURNS = 2
"""Turns of the caller's conversation that context-dependent recall reads: the latest two, the shape of a
memory's context key (its previous turn with itself)."""


MAX_CONVERSATION_TURNS = 1000
"""Turns a caller may pass (every one is validated; only the latest count)."""


def conversation(value: object, *, max_chars: int) -> tuple[str, ...]:
    """The conversation a question comes from (``recall(..., conversation=)``): one text or a list of turns,
    oldest first, each a non-empty text; its latest :data:`CONVERSATION_TURNS` turns are kept."""
    if value is None:
        return ()
    turns = [value] if isinstance(value, str) else value
    if not isinstance(turns, list | tuple):
        raise ValidationError(
            "conversation", f"must be a string or a list of strings, not {type(value).__name__}"
        )
    if len(turns) > MAX_CONVERSATION_TURNS:
        raise ValidationError(
            "conversation", f"has {len(turns)} turns; the maximum is {MAX_CONVERSATION_TURNS}"
        )
    checked = [text(t, f"conversation[{i}]", max_chars=max_chars) for i, t in enumerate(turns)]
    return tuple(checked[-CONVERSATION_TURNS:])


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
    if not all(
        isinstance(w, int | float) and not isinstance(w, bool) and math.isfinite(w) for w in value.values()
    ):
        raise ValidationError("views", "weights must be finite numbers")
    from graphmem.model.intent import resolve_views

    resolve_views("", value)  # raises ValidationError naming an unknown view or a bad weight
    return dict(value)


_PARAM_LEAVES = (type(None), bool, int, float, str, bytes, bytearray, date, time, timedelta, UUID)
_DRIVER_MODULES = ("neo4j", "numpy", "pandas")  # types the driver packs itself (times, points, arrays)
INT64 = 2**63
MAX_PARAM_DEPTH = 100


def _cypher_value(value: object, field: str, depth: int = 0) -> Any:
    if depth > MAX_PARAM_DEPTH:
        raise ValidationError(field, f"is nested deeper than {MAX_PARAM_DEPTH} levels")
    if isinstance(value, dict):
        if not all(isinstance(key, str) for key in value):
            raise ValidationError(field, "must have string keys")
        if any(_has_surrogate(key) for key in value):
            raise ValidationError(field, "has a key with a lone surrogate, which is not valid text")
        return {k: _cypher_value(v, f"{field}.{k}", depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_cypher_value(v, f"{field}[{i}]", depth + 1) for i, v in enumerate(value)]
    if isinstance(value, datetime):
        return value if value.tzinfo is None else fixed_offset(value, field)
    if isinstance(value, str) and _has_surrogate(value):
        raise ValidationError(field, "contains a lone surrogate, which is not valid text")
    if isinstance(value, int) and not isinstance(value, bool) and not -INT64 <= value < INT64:
        raise ValidationError(field, "is an integer beyond 64 bits")
    if isinstance(value, _PARAM_LEAVES) or type(value).__module__.partition(".")[0] in _DRIVER_MODULES:
        return value
    raise ValidationError(field, f"is a {type(value).__name__}, which Neo4j does not take")


def _has_surrogate(text: str) -> bool:
    return not text.isascii() and any(0xD800 <= ord(c) <= 0xDFFF for c in text)


def cypher_params(value: object) -> dict[str, Any]:
    """The parameters of the caller's own Cypher (``query()``): a dict with string keys of values the driver
    sends (checked as far as graphmem can: text, 64-bit integers; datetimes at a fixed offset)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValidationError("params", f"must be a dict, not {type(value).__name__}")
    checked: dict[str, Any] = _cypher_value(value, "params")
    return checked
