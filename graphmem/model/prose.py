"""The prose of a text: its code and structured data blanked out (pure).

Agents and developers store code: a fenced block (```` ``` ```` or ``~~~``), an inline span in backticks, a
line indented as Markdown's code blocks are (four spaces or a tab, not a list item, not continuing a
paragraph), or a whole JSON document. Read as prose, its capitalised words became people: ``Config``,
``False``, ``None``, ``UserSessionManager.get`` and a JSON ``"Internal Server Error"`` were Entity nodes of
type person, and ``None`` linked every code memory to every other in the entity view, and a string in a code
block ("I live in Berlin" as test data) stated the speaker's home. Entity extraction and the fact rules read
:func:`prose` instead; the memory's content, search keys and vectors keep the code (full text finds
``parse_config`` in it: graphmem.model.tokens). Blanking keeps every character's position and every line
break, so what is found in the prose is where it is in the text.
"""

from __future__ import annotations

import json
import re

__all__ = ["prose"]

# a fence opens a line (a backtick fence's info string holds no backtick: "```npm install```" is inline code)
# and runs to its closing fence or the end; possessive runs keep a long run of backticks linear
_FENCED = re.compile(
    r"^[ \t]*+(?:(`{3,}+)[^`\n]*+|(~{3,}+)[^\n]*+)\n.*?(?:^[ \t]*+(?:\1|\2)[^\n]*+$|\Z)", re.S | re.M
)
_INLINE = re.compile(r"`[^`\n]+`")
_INDENTED = re.compile(r"(?: {4}|\t)(?![ \t]*(?:[-*+]|\d{1,3}[.)])[ \t])")  # not a list item
_NOT_SPACE = re.compile(r"\S")


def prose(text: str) -> str:
    """``text`` with its code blanked (spaces in place of every other character): fenced blocks, inline
    code, indented code lines, or all of it when the whole text is a JSON object or array."""
    if text.lstrip()[:1] in ("{", "[") and _is_json(text):
        return _blank(text)
    for pattern, sign in ((_FENCED, ("```", "~~~")), (_INLINE, ("`",))):
        if any(s in text for s in sign):  # most text holds no code: one substring test each
            text = pattern.sub(lambda m: _blank(m.group(0)), text)
    return _unindented(text) if "    " in text or "\t" in text else text


def _unindented(text: str) -> str:
    """``text`` with its indented code lines blanked: an indented line (not a list item) that opens the text
    or follows a blank line or another code line, as Markdown reads them (an indented line after prose
    continues the paragraph)."""
    lines, code = text.split("\n"), False
    for i, line in enumerate(lines):
        after = i == 0 or not lines[i - 1].strip() or code
        code = bool(line.strip()) and after and _INDENTED.match(line) is not None
        if code:
            lines[i] = _blank(line)
    return "\n".join(lines)


def _blank(code: str) -> str:
    return _NOT_SPACE.sub(" ", code)


def _is_json(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict | list)
    except ValueError:
        return False
