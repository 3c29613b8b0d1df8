"""Configuration read back from storage: tolerant, where input at the boundary is strict.

A stored configuration may have been written by a newer graphmem (keys this version does not know: a
downgrade) or edited by hand (values that no longer validate). Reading it never fails: unknown keys are
ignored and values that do not validate fall back to the defaults, with one WARNING per read naming the keys
(never their values). Input at the boundary (Python setters, REST, CLI) stays strict: graphmem's
``ValidationError`` and nothing written (:func:`graphmem.automation.config.validate_config`).
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass, field
from typing import Any, TypeVar, get_args, get_origin

import pydantic
from pydantic import BaseModel

from graphmem.store.records import clean_text

logger = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)

WHOLE = "(all)"
"""The key named when a whole stored object (not one of its keys) could not be read."""
_MAX_NAMED = 20
_MAX_KEY_CHARS = 60
_warned: set[str] = set()
_warned_lock = threading.Lock()


@dataclass
class Findings:
    """What a tolerant read left out: unknown keys, and keys whose stored value fell back to the default."""

    unknown: list[str] = field(default_factory=list)
    reset: list[str] = field(default_factory=list)
    clamped: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.unknown or self.reset or self.clamped)


def key_name(key: object) -> str:
    """A stored key made safe for a log line: printable, at most 60 characters."""
    text = "".join(c if c.isprintable() else "?" for c in clean_text(str(key)))
    return text if len(text) <= _MAX_KEY_CHARS else text[: _MAX_KEY_CHARS - 1] + "…"


def parse_object(raw: object) -> dict[str, Any] | None:
    """Stored JSON text as a dict, or ``None`` when it is not readable as a JSON object."""
    if not isinstance(raw, str):
        return None
    try:
        loaded = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return loaded if isinstance(loaded, dict) else None


def report(what: str, found: Findings, *, once_key: str | None = None) -> None:
    """One WARNING line naming what a read of ``what`` ignored or reset (once per process and ``once_key``:
    a worker re-reads the configuration every poll)."""
    if not found:
        return
    parts = []
    if found.unknown:
        parts.append(f"ignored unknown keys {_names(found.unknown)}")
    if found.reset:
        parts.append(f"used the defaults for unreadable values of {_names(found.reset)}")
    if found.clamped:
        parts.append(f"read values above their bound as the bound for {_names(found.clamped)}")
    line = f"stored {what}: {'; '.join(parts)}"
    key = f"{once_key or what}\n{line}"
    with _warned_lock:
        if key in _warned:
            return
        if len(_warned) > 10_000:
            _warned.clear()
        _warned.add(key)
    logger.warning("%s", line)


def _names(keys: list[str]) -> str:
    shown = ", ".join(keys[:_MAX_NAMED])
    return shown if len(keys) <= _MAX_NAMED else f"{shown} and {len(keys) - _MAX_NAMED} more"


def load_stored(model: type[M], data: object, fallback: M, found: Findings) -> M:
    """``model`` from stored ``data`` (a dict), never raising: unknown keys are left out, keys whose values
    fail validation take ``fallback``'s value, and anything not readable at all is ``fallback``. Nested
    models are read the same way; in a ``dict[str, Model]`` field the entries are those of ``fallback``
    (an entry it lacks is an unknown key, one the stored data lacks keeps ``fallback``'s). What was left
    out is added to ``found`` (dotted key paths)."""
    return _load(model, data, fallback, "", found)


def _load(model: type[M], data: object, fallback: M, path: str, found: Findings) -> M:
    if not isinstance(data, dict):
        found.reset.append(path.rstrip(".") or WHOLE)
        return fallback
    fields = model.model_fields
    kept: dict[str, Any] = {}
    for key, value in data.items():
        name = f"{path}{key_name(key)}"
        if key not in fields:
            found.unknown.append(name)
            continue
        kept[key] = _nested(fields[key].annotation, value, getattr(fallback, key), f"{name}.", found)
    return _validate(model, kept, fallback, path, found)


def _nested(annotation: Any, value: object, default: Any, path: str, found: Findings) -> Any:
    """A field's stored value, nested models read tolerantly."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel) and isinstance(default, BaseModel):
        return _load(annotation, value, default, path, found)
    item = _value_model(annotation)
    if item is None or not isinstance(default, dict):
        return value
    if not isinstance(value, dict):
        found.reset.append(path.rstrip("."))
        return default
    entries = dict(default)
    for key, entry in value.items():
        if key not in default:
            found.unknown.append(f"{path}{key_name(key)}")
            continue
        entries[key] = _load(item, entry, default[key], f"{path}{key_name(key)}.", found)
    return entries


def _value_model(annotation: Any) -> type[BaseModel] | None:
    """The value model of a ``dict[str, Model]`` annotation, else ``None``."""
    if get_origin(annotation) is not dict:
        return None
    args = get_args(annotation)
    value = args[1] if len(args) == 2 else None
    return value if isinstance(value, type) and issubclass(value, BaseModel) else None


def _validate(model: type[M], kept: dict[str, Any], fallback: M, path: str, found: Findings) -> M:
    """Validate, resetting the fields that fail to ``fallback``'s values one round at a time; a failure of
    the model as a whole (a rule across fields) resets the one stored field whose reset makes it valid."""
    data = {**{name: getattr(fallback, name) for name in model.model_fields}, **kept}
    for _ in range(len(kept) + 2):  # a round of clamping, then a field reset per round at most
        try:
            return model.model_validate(data)
        except pydantic.ValidationError as exc:
            errors = exc.errors()
            bad = {str(e["loc"][0]) for e in errors if e["loc"]} & set(kept)
        if _clamp(getattr(model, "clamp_on_read", frozenset()), errors, data, kept, path, found):
            continue  # a number above a bound a newer version set reads as the bound, not as the default
        if not bad:
            bad = _culprit(model, data, kept, fallback)
        if not bad:
            break
        for name in sorted(bad):
            found.reset.append(f"{path}{key_name(name)}")
            if f"{path}{key_name(name)}" in found.clamped:  # clamped, then failed a rule across fields
                found.clamped.remove(f"{path}{key_name(name)}")
            data[name] = getattr(fallback, name)
            kept.pop(name)
    found.reset.append(path.rstrip(".") or WHOLE)
    return fallback


def _clamp(
    fields: frozenset[str],
    errors: list[Any],
    data: dict[str, Any],
    kept: dict[str, Any],
    path: str,
    found: Findings,
) -> bool:
    """Stored numbers above the upper bound of one of ``fields`` (a model's ``clamp_on_read``) set to the
    bound: an older graphmem had none there, and a grace period of 100,000 days meant 'never', which the
    default, 30 days, would not. Whether any was."""
    done = False
    for error in errors:
        name = str(error["loc"][0]) if len(error["loc"]) == 1 else ""
        bound = (error.get("ctx") or {}).get("le")
        value = data.get(name) if name in kept else None
        if (
            name in fields
            and error["type"] == "less_than_equal"
            and isinstance(value, int | float)
            and not isinstance(value, bool)
            and isinstance(bound, int | float)
        ):
            data[name] = int(bound) if isinstance(value, int) else float(bound)
            found.clamped.append(f"{path}{key_name(name)}")
            done = True
    return done


def _culprit(model: type[BaseModel], data: dict[str, Any], kept: dict[str, Any], fallback: Any) -> set[str]:
    for name in kept:
        try:
            model.model_validate({**data, name: getattr(fallback, name)})
        except pydantic.ValidationError:
            continue
        return {name}
    return set()
