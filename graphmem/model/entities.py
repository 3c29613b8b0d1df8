"""Deterministic entity extraction and name normalization (pure, no database, no model).

Rules, in order of trust:

1. relation patterns: ``my dog Rex``, ``a cat named Misty``, ``my sister Anna`` give a typed entity;
2. capitalized spans inside a sentence (``went to Paris with Jon Snow``), with org/place cues for the type;
3. a sentence-initial capitalized word only when it is known (seen mid-sentence, or a known entity), so
   ordinary sentence starts (``Went``, ``Yesterday``) are not taken for names;
4. known entity keys (the user's existing entities) found in lower case (``rex``).

Code is read as no source of names: the rules read the text's prose (:func:`graphmem.model.prose.prose`:
fenced, inline and indented code and a whole JSON document blanked), and a code value such as ``None`` or
``True`` is never a name.

Entity keys are normalized names: lower case, no determiners/possessives/titles, no relation prefix, so
``Rex``, ``rex`` and ``my dog Rex`` share the key ``rex``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass

from graphmem.model.entity_words import ANIMALS, DETERMINERS, KIN, ORG_CUES, PLACE_PREPOSITIONS, STOP, TITLES
from graphmem.model.pattern_pieces import CAPITALS_BEYOND_ASCII
from graphmem.model.prose import prose

# A capital letter of any script ("Élodie", "Łukasz", "Örebro"; `[A-Z]` missed them): the basic
# multilingual plane's upper-case letters (Python's re has no \p{Lu}), "A-Z" first
_UPPER = f"[A-Z{CAPITALS_BEYOND_ASCII}]"
# A capitalised word: initials ("J.", "U.S."), a title with its dot ("Dr.", "St."), or a word whose dots are
# inside it; a word's closing full stop ends the sentence, so a span never runs on into the next sentence
# ("Thanks, Caroline. We've" names Caroline, not "Caroline. We've").
_WORD = rf"(?:(?:{_UPPER}\.)+(?![\w'])|(?:Mr|Mrs|Ms|Dr|Prof|St|Mt)\.|{_UPPER}[\w'&-]*(?:\.[\w'&-]+)*)"
_CAP_SPAN = re.compile(rf"\b{_WORD}(?:\s+(?:of\s+|de\s+|the\s+)?{_WORD})*")
_RELATION = re.compile(
    r"\b(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir)\s+(?:(?:little|big|older|younger|new|old|best|pet)\s+)?"
    rf"(?P<rel>[a-z]+)(?:\s*,)?\s+(?:(?:is\s+)?(?:named|called)\s+)?(?P<name>{_UPPER}[\w'-]+)"
)
_NAMED = re.compile(
    r"\b(?:[Aa]n?|[Tt]he|[Mm]y|[Oo]ur)\s+(?P<rel>[a-z]+)\s+(?:named|called)\s+"
    rf"(?P<name>{_UPPER}[\w'-]+(?:\s+{_UPPER}[\w'-]+)?)"
)
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+|\n+|[\"“(]\s*)$")


def _at_sentence_start(text: str, pos: int) -> bool:
    """Whether ``text[:pos]`` ends as a sentence does before its first word (``_SENTENCE_START``), read from
    the last character before the trailing whitespace only: every way the pattern matches starts there, and
    searching the whole prefix for each capitalised word made a long turn's extraction quadratic (9 s of
    re.search for 200 turns of 20,000 characters)."""
    end = pos
    while end > 0 and text[end - 1].isspace():
        end -= 1
    return _SENTENCE_START.search(text, max(end - 1, 0), pos) is not None


CODE_LITERALS = frozenset({"None", "True", "False", "NULL", "NaN", "Null", "nil"})
"""Values of code written in prose ("it returns None"), never a name; as written ("Nan" is a name)."""
_POSSESSIVE = re.compile(r"['’]s$")
_NON_KEY = re.compile(r"[^\w\s&-]")


@dataclass(frozen=True)
class Mention:
    """An entity mention: its surface name, a coarse type, and the normalized key."""

    name: str
    type: str
    key: str


def normalize_key(name: str) -> str:
    """The resolution key of a name: ``"My dog Rex's"`` -> ``"rex"``."""
    text = _POSSESSIVE.sub("", name.strip())
    words = _NON_KEY.sub(" ", text.lower()).split()
    while words and (words[0] in DETERMINERS or words[0] in TITLES):
        words = words[1:]
    if len(words) > 1 and (words[0] in ANIMALS or words[0] in KIN):
        words = words[1:]
    return " ".join(words)


def _type_of(rel: str | None, words: list[str], before: str) -> str:
    if rel in ANIMALS:
        return "animal"
    if rel in KIN:
        return "person"
    if any(w.lower().strip(".") in ORG_CUES for w in words):
        return "organization"
    prev = before.rstrip().rsplit(" ", 1)[-1].lower() if before.strip() else ""
    if prev in PLACE_PREPOSITIONS:
        return "place"
    return "person" if len(words) <= 3 else "other"


def _trim(words: list[str]) -> list[str]:
    while words and words[0].lower().strip(".,'") in STOP:
        words = words[1:]
    while words and words[-1].lower().strip(".,'") in STOP | {"of", "de", "the"}:
        words = words[:-1]
    return words


def extract(text: str, *, known: Iterable[str] = ()) -> list[Mention]:
    """Entity mentions in ``text``, deduplicated by key, in order of first appearance.

    ``known`` holds keys already known for this user (or batch): a sentence-initial or lower-case
    occurrence of one of them counts as a mention.
    """
    known_keys = {k for k in known if k}
    text = prose(text)  # code is no source of names (graphmem.model.prose)
    found: dict[str, Mention] = {}
    taken: list[tuple[int, int]] = []

    def add(name: str, type_: str, start: int, end: int) -> None:
        key = normalize_key(name)
        if not key or key in STOP or name.strip() in CODE_LITERALS or len(key) < 2 or key.isdigit():
            return
        taken.append((start, end))
        found.setdefault(key, Mention(name=name.strip(), type=type_, key=key))

    for pattern in (_NAMED, _RELATION):
        for m in pattern.finditer(text):
            rel = m.group("rel").lower()
            if rel in ANIMALS or rel in KIN or pattern is _NAMED:
                name = m.group("name")
                if name.lower() not in STOP:
                    add(name, _type_of(rel, name.split(), ""), m.start("name"), m.end("name"))
    for m in _CAP_SPAN.finditer(text):
        if any(s <= m.start() < e for s, e in taken):
            continue
        raw = m.group(0).split()
        at_start = _at_sentence_start(text, m.start())
        words = _trim(raw)
        if not words:
            continue
        dropped_first = words[0] != raw[0]
        name = " ".join(words).rstrip(".,")
        key = normalize_key(name)
        initial = at_start and not dropped_first
        if initial and len(words) == 1 and key not in known_keys:
            continue  # "Went", "Honestly": a capital only because a sentence starts here
        if name.isupper() and len(name) <= 5 and key not in known_keys:
            type_ = "organization"  # an acronym such as LGBTQ, NASA
        else:
            type_ = _type_of(None, words, text[: m.start()])
        add(name, type_, m.start(), m.end())
    if known_keys:
        lowered = text.lower()
        for start, end in known_spans(lowered, known_keys):
            if lowered[start:end] not in found and not any(s <= start < e for s, e in taken):
                add(text[start:end], "other", start, end)
    return list(found.values())


_NOT_WORD_CHAR = re.compile(r"[^\w-]")


def known_spans(text: str, keys: Collection[str]) -> Iterator[tuple[int, int]]:
    """Where ``keys`` occur in ``text`` as whole words (neither neighbour a word character or hyphen), left to
    right, the longest key first at each position, without overlaps: what one regex alternation of the keys,
    longest first, finds with ``finditer``, in time that grows with the text, not with how many keys there are
    (a user may know 5,000: compiling their alternation took 130 ms a call). Only word boundaries are tried:
    a match starts where no word character precedes and ends where none follows, so each boundary is paired
    with the boundaries within the longest key's reach."""
    lengths = {len(k) for k in keys if k}
    if not lengths:
        return
    reach = max(lengths)
    bounds = [m.start() for m in _NOT_WORD_CHAR.finditer(text)]
    ends = [*bounds, len(text)]  # followed by no word character
    taken = 0  # the end of the last match: matches do not overlap
    for start in (0, *(b + 1 for b in bounds)):  # preceded by no word character
        if start < taken:
            continue
        first, last = bisect_right(ends, start), bisect_right(ends, start + reach)
        end = next(
            (e for e in reversed(ends[first:last]) if e - start in lengths and text[start:e] in keys), None
        )
        if end is not None:
            yield start, end
            taken = end


def mid_sentence_keys(texts: Iterable[str]) -> set[str]:
    """Keys of capitalized words seen inside sentences: they make a sentence-initial occurrence credible."""
    keys: set[str] = set()
    for text in map(prose, texts):
        for m in _CAP_SPAN.finditer(text):
            if not _at_sentence_start(text, m.start()):
                words = _trim(m.group(0).split())
                if words:
                    keys.add(normalize_key(" ".join(words)))
    return keys
