"""Three of the six strength factors, each a pure function of a memory's text or neighbourhood, in [0, 1].

- **emotion**: the intensity of the text's sentiment, ``|compound|`` of VADER (Hutto & Gilbert 2014; the
  ``vaderSentiment`` package ships its maintained lexicon, so it works offline). Valence is kept too.
- **presentation**: how the content was presented: an explicit request to remember, code blocks, lists,
  tables, headings and emphasis each add a fixed share (saturating at 1).
- **coherence**: how well the memory fits what is already known: the mean of its (up to three) strongest
  similarities to existing memories at formation (the RELATED_TO edges formation made), below zero as 0.

The other three factors (time, meaning/importance, association) are the decay rates, the priority and the
RELATED_TO weights in :mod:`graphmem.model.dynamics`. The decay job combines the three here as the salience
``Σ weight_f · f`` (weights in ``DynamicsParams.factor_weights``), which divides every decay rate.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Any

_EXPLICIT = re.compile(
    r"\b(remember (this|that)|don'?t forget|do not forget|keep in mind|note (this|that)|important:|"
    r"never forget|make sure (you|to) remember)\b",
    re.IGNORECASE,
)
_CODE = re.compile(r"```|^(    |\t)\S", re.MULTILINE)
_LIST = re.compile(r"^\s*([-*+•]|\d+[.)])\s+\S", re.MULTILINE)
_TABLE = re.compile(r"^\s*\|.*\|.*\|\s*$", re.MULTILINE)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+\S", re.MULTILINE)
_EMPHASIS = re.compile(r"\*\*[^*\n]+\*\*|__[^_\n]+__|\b[A-Z]{4,}\b|!{2,}")

PRESENTATION_SHARES = {
    "explicit": 0.6,
    "code": 0.3,
    "table": 0.3,
    "list": 0.2,
    "heading": 0.2,
    "emphasis": 0.2,
}
"""What each presentation cue adds (an explicit "remember this" alone makes a memory clearly salient)."""


@functools.cache
def _analyzer() -> Any:
    from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer  # type: ignore[import-untyped]

    return SentimentIntensityAnalyzer()


def sentiment(text: str) -> tuple[float, float]:
    """(intensity in [0, 1], valence in [-1, 1]) of ``text`` by VADER's compound score."""
    compound = float(_analyzer().polarity_scores(text)["compound"])
    return abs(compound), compound


def emotion(text: str) -> float:
    return sentiment(text)[0]


def presentation_cues(text: str) -> set[str]:
    cues = {
        name
        for name, pattern in (
            ("explicit", _EXPLICIT),
            ("code", _CODE),
            ("list", _LIST),
            ("table", _TABLE),
            ("heading", _HEADING),
            ("emphasis", _EMPHASIS),
        )
        if pattern.search(text)
    }
    if "list" in cues and len(_LIST.findall(text)) < 2:  # one dash is punctuation, not a list
        cues.discard("list")
    return cues


def presentation(text: str) -> float:
    return min(1.0, sum(PRESENTATION_SHARES[c] for c in presentation_cues(text)))


def coherence(similarities: Iterable[float]) -> float:
    top = sorted((s for s in similarities if s is not None), reverse=True)[:3]
    if not top:
        return 0.0
    return min(1.0, max(0.0, sum(top) / len(top)))


def factors(text: str, similarities: Iterable[float]) -> dict[str, float]:
    """The three factors of one memory, plus its valence."""
    intensity, valence = sentiment(text)
    return {
        "emotion": intensity,
        "valence": valence,
        "presentation": presentation(text),
        "coherence": coherence(similarities),
    }
