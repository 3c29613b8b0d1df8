"""Words as the full-text index cuts them (pure, no database).

The memory index's english analyzer cuts text with Lucene's StandardTokenizer (Unicode word boundaries,
UAX #29), which keeps an identifier, a file name, an address or a version whole: ``parse_config``,
``parser.py``, ``app.acme.io``, ``10.0.3.17``, ``1.26.4``, ``TokenExpiredError`` are one term each, and a
word with letters beyond ASCII (``Zürich``, ``São``) is one word. Recall used to cut a query into ASCII letter
and digit runs, so it asked the index for terms the index never holds: "parse_config" asked for ``parse`` and
``config``, "Zürich" for ``rich``. :func:`index_tokens` cuts as the index does; :func:`compound_parts` names
the words inside a compound term, which formation adds to a memory's ``search_text``
(:func:`graphmem.model.keys.search_text`) so that "the parse config function" or "the token expired error"
finds ``parse_config`` and ``TokenExpiredError`` too (code search engines split identifiers the same way).

The cut follows UAX #29's rules for the characters people type: letters, digits and ``_`` run together
(``v2``, ``__init__``); ``.`` and an apostrophe join a letter to a letter and a digit to a digit
(``parser.py``, ``o'brien``, ``3.5``; not ``base64.b64encode`` or ``90's``), ``:`` letters to letters
(``a:b``, not ``5:30``), ``,`` digits to digits (``3,000``); a CJK ideograph or Hiragana character is a term
alone; everything else (space, ``-``, ``/``, ``@``, brackets) cuts. Checked against the server's index
in ``tests/test_tokens.py``.
"""

from __future__ import annotations

import itertools
import re

__all__ = ["WORD", "compound_parts", "fold", "index_tokens"]

_LETTERS = r"[^\W\d_]"  # a letter of any script
WORD = re.compile(rf"{_LETTERS}+(?:'{_LETTERS}+)*")
"""A word of letters of any script, apostrophes inside it ("Zürich", "don't"): what the rules that read words
(topics' keywords, linking's textual rules, reconstruction's names) take as one; ``[A-Za-z]`` cut "Zürich" to
"rich"."""
_IDEOGRAPHS = "\u3040-\u309f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # Hiragana and the CJK ideographs
_RUN = rf"[^\W{_IDEOGRAPHS}]+"  # letters, digits and "_" together, ideographs aside (each is a term alone)
_JOINT = rf"(?<={_LETTERS})[.':](?={_LETTERS})|(?<=\d)[.',](?=\d)"  # ":" only between letters, "," digits
_TOKEN = re.compile(rf"[{_IDEOGRAPHS}]|{_RUN}(?:(?:{_JOINT}){_RUN})*")
_JOINS = re.compile(r"[_.:]+")  # what joins the parts of a compound term
# what a compound term holds somewhere (a cheap test that lets most text skip the cut): a joint, a capital
# after a small letter or two capitals before a small letter in ASCII, or any character beyond ASCII
_MAYBE = re.compile(r"_|\w[.:]\w|[a-z][A-Z]|[A-Z]{2}[a-z]|[^\x00-\x7f]")


def fold(text: str) -> str:
    """``text`` lower-cased as the index lower-cases it (Java lower-cases "İ" to "i", Python to "i" and a
    combining dot, which cut "İstanbul" in two), a right single quotation mark read as an apostrophe (the
    analyzer drops a possessive in either)."""
    return text.replace("\u0130", "I").lower().replace("\u2019", "'")


def index_tokens(text: str) -> list[str]:
    """``text``'s terms as the index's tokenizer cuts them, lower-cased (:func:`fold`)."""
    return _TOKEN.findall(fold(text))


def compound_parts(text: str) -> list[str]:
    """The words inside ``text``'s compound terms (lower-cased, in order, each once, none of one character):
    the parts of a term joined by ``_``, ``.`` or ``:`` or written in camel case (letters next to digits
    are one part: "sha256", "3pm"; a possessive's "'s" aside). A number with a thousands separator, a word
    with an apostrophe ("O'Brien", "don't") and a plain word have none. A part that is also a term of
    ``text`` on its own is left out (the index has it)."""
    if _MAYBE.search(text) is None:
        return []
    whole = set(index_tokens(text))
    parts: dict[str, None] = {}
    for found in _TOKEN.findall(text.replace("\u2019", "'")):
        token = found.removesuffix("'s")  # "parse_config's": the analyzer drops the possessive
        if "'" in token or _MAYBE.search(token) is None:
            continue
        pieces = [p for run in _JOINS.split(token) for p in _camel(run)]
        if len(pieces) < 2:
            continue
        for piece in (p.lower() for p in pieces):
            if len(piece) > 1 and piece not in whole:
                parts.setdefault(piece, None)
    return list(parts)


def _camel(run: str) -> list[str]:
    """A run of letters and digits cut where camel case starts a word ("parseConfig": parse, Config;
    "HTTPServer": HTTP, Server); letters next to digits stay together ("sha256", "3pm"), as does a plural
    acronym's "s" ("APIs", "GPUs")."""
    cuts = [0]
    for i in range(1, len(run)):
        plural = run[i + 1 :] == "s"
        starts = run[i].isupper() and (run[i - 1].islower() or (run[i + 1 : i + 2].islower() and not plural))
        if starts and run[i - 1].isalpha():
            cuts.append(i)
    return [run[a:b] for a, b in itertools.pairwise([*cuts, len(run)])]
