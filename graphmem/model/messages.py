"""Incoming messages in every accepted shape, normalized to :class:`Turn` (pure, no database).

Accepted shapes: ``{role, content, timestamp?, name?, metadata?, tags?}`` dicts, whose ``content`` is a
string or a list of content parts as OpenAI and Anthropic send them (``[{"type": "text", "text": ...}]``: the
text parts joined by newlines; a part of another type is refused); Google ADK events, i.e. a ``Content``
object (``role`` and ``parts[].text``), the equivalent dict ``{"role", "parts": [{"text"}]}``, or an
object/dict with a ``content`` holding such a ``Content``; and plain strings (a user turn).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graphmem.errors import ValidationError
from graphmem.model import validation as check
from graphmem.models import Source

ROLE_SOURCE: dict[str, Source] = {
    "user": Source.USER,
    "human": Source.USER,
    "assistant": Source.AGENT,
    "agent": Source.AGENT,
    "model": Source.AGENT,
    "ai": Source.AGENT,
    "system": Source.AGENT,
    "tool": Source.TOOL,
    "function": Source.TOOL,
}
"""Known roles and who is speaking; any other role is refused."""


@dataclass(frozen=True)
class Turn:
    """One normalized message."""

    role: str
    content: str
    name: str | None = None
    timestamp: datetime | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    tags: list[str] = field(default_factory=list)

    @property
    def speaker(self) -> str:
        """The message's ``name``, else its role."""
        return self.name or self.role

    @property
    def source(self) -> Source:
        return ROLE_SOURCE[self.role]


def _parts_text(parts: object, where: str) -> str:
    if not isinstance(parts, Sequence) or isinstance(parts, str | bytes):
        raise ValidationError(where, "parts must be a list")
    texts: list[str] = []
    for part in parts:
        text = part.get("text") if isinstance(part, dict) else getattr(part, "text", None)
        if isinstance(text, str) and text.strip():
            texts.append(text)
    if not texts:
        raise ValidationError(where, "has no text part")
    return "\n".join(texts)


TEXT_PARTS = frozenset({"text", "input_text", "output_text"})
"""Content part types that hold text: chat completions and Anthropic (``text``), OpenAI responses (the
others)."""


def _content_parts(parts: Sequence[object], where: str) -> str:
    """A list of typed content parts (``[{"type": "text", "text": ...}]``, or objects with those attributes)
    to its text, parts joined by newlines; a part of another type (an image, audio, a tool call) is refused,
    naming its type."""
    texts: list[str] = []
    for i, part in enumerate(parts):
        kind = _get(part, "type") or "text"
        if kind not in TEXT_PARTS:
            raise ValidationError(
                f"{where}[{i}]",
                f"is a part of type {kind!r}: only text parts ({', '.join(sorted(TEXT_PARTS))}) are stored",
            )
        text = _get(part, "text")
        if not isinstance(text, str):
            raise ValidationError(f"{where}[{i}]", 'must be a text part: {"type": "text", "text": "..."}')
        texts.append(text)
    return "\n".join(t for t in texts if t.strip())


def _get(obj: object, name: str) -> Any:
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


def normalize(message: object, index: int, *, max_chars: int) -> Turn:
    """One message in any accepted shape to a :class:`Turn`; a clear ValidationError otherwise."""
    where = f"messages[{index}]"
    if isinstance(message, str):
        return Turn(role="user", content=check.text(message, where, max_chars=max_chars))
    if not isinstance(message, dict) and not hasattr(message, "parts") and not hasattr(message, "content"):
        raise ValidationError(where, f"must be a dict, a Content or a string, not {type(message).__name__}")
    content: object = _get(message, "content")
    role: object = _get(message, "role")
    if content is None and _get(message, "parts") is not None:
        content = _parts_text(_get(message, "parts"), where)  # an ADK Content (object or dict)
    elif isinstance(content, list | tuple):
        content = _content_parts(content, f"{where}.content")  # OpenAI / Anthropic content parts
    elif content is not None and not isinstance(content, str):
        role = _get(content, "role") or role or ("user" if _get(message, "author") == "user" else "model")
        content = _parts_text(_get(content, "parts"), where)  # an ADK Event: content is a Content
    text = check.text(content, f"{where}.content", max_chars=max_chars)  # the parts' text checked too
    if role is None:
        raise ValidationError(f"{where}.role", "is required")
    if not isinstance(role, str) or role.lower() not in ROLE_SOURCE:
        raise ValidationError(
            f"{where}.role", f"unknown role {role!r}; known: {', '.join(sorted(ROLE_SOURCE))}"
        )
    name = check.identifier(_get(message, "name"), f"{where}.name", required=False)
    stamp = _get(message, "timestamp")
    if isinstance(stamp, int | float) and not isinstance(stamp, bool):
        stamp = check.epoch_seconds(stamp, f"{where}.timestamp")
    timestamp = check.aware_datetime(stamp, f"{where}.timestamp")
    metadata = check.stored_metadata(_get(message, "metadata"), f"{where}.metadata")
    tags = check.tags(_get(message, "tags"), f"{where}.tags")
    return Turn(role=role.lower(), content=text, name=name, timestamp=timestamp, metadata=metadata, tags=tags)


def normalize_all(messages: object, *, max_batch: int, max_chars: int) -> list[Turn]:
    if isinstance(messages, str | bytes | dict) or not isinstance(messages, Sequence):
        raise ValidationError("messages", "must be a list of messages")
    if not messages:
        raise ValidationError("messages", "must not be empty")
    if len(messages) > max_batch:
        raise ValidationError(
            "messages", f"has {len(messages)} messages; the maximum per call is {max_batch}"
        )
    return [normalize(m, i, max_chars=max_chars) for i, m in enumerate(messages)]
