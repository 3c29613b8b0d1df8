"""Pure text rules used at formation: causal cues and PII redaction (no database, no model)."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from graphmem.model import entities, fact_patterns
from graphmem.model.entities import Mention
from graphmem.model.fact_patterns import ExtractedFact
from graphmem.model.pattern_pieces import MONTH_NAME


class CueDirection(StrEnum):
    """Which side of a causal cue the new memory is on."""

    EFFECT = "effect"  # "so I stayed home": an earlier memory caused this one
    CAUSE = "cause"  # "Because it rained.": this memory caused an earlier one


@dataclass(frozen=True)
class CausalCue:
    cue: str
    direction: CueDirection


_EFFECT_CUES = (
    "as a result",
    "as a consequence",
    "that's why",
    "that is why",
    "which is why",
    "this is why",
    "therefore",
    "consequently",
    "hence",
    "thus",
    "so",
    "because of that",
    "because of this",
    "due to that",
    "thanks to that",
    "ended up",
    "led to",
    "because",  # mid-sentence: "I'm learning German because I moved to Berlin" explains this memory
    "since",
    "due to",
)
_CAUSE_OPENERS = ("because", "since", "due to", "the reason is", "the reason was", "it's because")
_EFFECT_RE = re.compile(
    r"(?:^|[\s,;:(—-])(" + "|".join(re.escape(c) for c in _EFFECT_CUES) + r")(?=[\s,])", re.IGNORECASE
)
_OPENER_RE = re.compile(r"^\W*(" + "|".join(re.escape(c) for c in _CAUSE_OPENERS) + r")\b", re.IGNORECASE)
_SO_ADJ = re.compile(
    r"\bso\s+(?:much|many|good|great|happy|sad|glad|proud|cool|nice|fun|\w+ly|\w+ful)\b", re.I
)
_SINCE_TIME = re.compile(
    rf"\bsince\s+(?:\d+|last|then|yesterday|childhood|{MONTH_NAME}|\w+day)\b",
    re.I,
)


def causal_cue(text: str) -> CausalCue | None:
    """The causal cue in ``text``, if any, and which side of it this memory is on.

    A memory that *opens* with "Because ..." is the cause of something said before; any other cue
    ("so", "therefore", "that's why", "... because ...") makes it the effect of something said before.
    Intensifier "so" ("so happy") and temporal "since" ("since May") are not cues.
    """
    opener = _OPENER_RE.match(text)
    if opener:
        return CausalCue(opener.group(1).lower(), CueDirection.CAUSE)
    for m in _EFFECT_RE.finditer(text):
        cue = m.group(1).lower()
        tail = text[m.start(1) :]
        if cue == "so" and (_SO_ADJ.match(tail) or re.match(r"so\s*[.!?]", tail, re.I)):
            continue
        if cue == "since" and _SINCE_TIME.match(tail):
            continue
        return CausalCue(cue, CueDirection.EFFECT)
    return None


# --- PII -------------------------------------------------------------------------------------------
_EMAIL = re.compile(r"\b[\w.%+-]+@[\w-]+(?:\.[\w-]+)+\b")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,7}(?:\s?[A-Z0-9]{1,4})?\b")
_CARD = re.compile(r"\b\d(?:[ -]?\d){12,18}\b")
_ACCOUNT = re.compile(
    r"(?i)\b(account|acct|a/c|routing|sort code)(\s*(?:number|no\.?|#)?\s*[:#]?\s*)([\d -]{6,20}\d)"
)
_PHONE = re.compile(
    r"(?<![\w.])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)[\s.-]?)?\d{2,5}(?:[\s.-]\d{2,6}){1,4}(?![\w-]|\.\d)"
)
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$|^\d{2}[./-]\d{2}[./-]\d{4}$")


def luhn_ok(digits: str) -> bool:
    total, parity = 0, len(digits) % 2
    for i, ch in enumerate(digits):
        d = int(ch)
        if i % 2 == parity:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def redact_pii(text: str) -> tuple[str, list[str]]:
    """``text`` with emails, account, card and phone numbers redacted, and the kinds found."""
    kinds: set[str] = set()

    def email(m: re.Match[str]) -> str:
        kinds.add("email")
        return "[EMAIL]"

    def iban(m: re.Match[str]) -> str:
        kinds.add("account")
        return "[ACCOUNT]"

    def account(m: re.Match[str]) -> str:
        kinds.add("account")
        return f"{m.group(1)}{m.group(2)}[ACCOUNT]"

    def card(m: re.Match[str]) -> str:
        if not luhn_ok(re.sub(r"\D", "", m.group(0))):
            return m.group(0)
        kinds.add("card")
        return "[CARD]"

    def phone(m: re.Match[str]) -> str:
        if len(re.sub(r"\D", "", m.group(0))) < 7 or _DATE.match(m.group(0)):
            return m.group(0)
        kinds.add("phone")
        return "[PHONE]"

    for pattern, repl in (
        (_EMAIL, email),
        (_IBAN, iban),
        (_ACCOUNT, account),
        (_CARD, card),
        (_PHONE, phone),
    ):
        text = pattern.sub(repl, text)
    return text, sorted(kinds)


# --- the extractor seam ----------------------------------------------------------------------------
@dataclass(frozen=True)
class TurnExtraction:
    """What one turn states: entity mentions, facts, and maybe the earlier turn that caused it."""

    entities: tuple[Mention, ...] = ()
    facts: tuple[ExtractedFact, ...] = ()
    caused_by: int | None = None


class Extractor(Protocol):
    """Turns to extractions, one per turn. The default is :class:`PatternExtractor` (no LLM)."""

    def extract(self, texts: Sequence[str], *, known: Collection[str] = ()) -> list[TurnExtraction]: ...


class PatternExtractor:
    """Deterministic rules: :func:`~graphmem.model.entities.extract`,
    :func:`~graphmem.model.fact_patterns.extract`"""

    def extract(self, texts: Sequence[str], *, known: Collection[str] = ()) -> list[TurnExtraction]:
        known_keys = frozenset(set(known) | entities.mid_sentence_keys(texts))
        return [
            TurnExtraction(
                entities=tuple(entities.extract(t, known=known_keys)), facts=tuple(fact_patterns.extract(t))
            )
            for t in texts
        ]
