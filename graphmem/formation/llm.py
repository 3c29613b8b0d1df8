"""An optional LLM extractor behind the :class:`graphmem.model.extraction.Extractor` seam.

:class:`OpenAICompatibleExtractor` posts batches of at most 10 turns to an OpenAI-compatible
``/chat/completions`` endpoint, validates the JSON answer with pydantic, retries with exponential backoff,
and falls back to the pattern extractor when the endpoint keeps failing. Nothing is called unless the
caller constructs one and hands it to ``GraphMemory(..., extractor=...)``.
"""

from __future__ import annotations

import json
import logging
import time
import urllib.error
import urllib.request
from collections.abc import Collection, Sequence

from pydantic import BaseModel, Field, ValidationError

from graphmem.errors import ExtractionError
from graphmem.errors import ValidationError as Refused
from graphmem.model import validation as check
from graphmem.model.entities import Mention, normalize_key
from graphmem.model.extraction import PatternExtractor, TurnExtraction
from graphmem.model.fact_patterns import ExtractedFact
from graphmem.models import FactType

logger = logging.getLogger(__name__)

MAX_TURNS_PER_CALL = 10

PROMPT = """Extract from each numbered turn: entities (name, type: person|place|organization|animal|other),
facts the speaker states about themself (key, value, fact_type: preference|profile|rule|custom), and
caused_by: the number of an earlier turn that caused this one, or null.
Answer with JSON only: {"turns": [{"index": 0, "entities": [...], "facts": [...], "caused_by": null}, ...]}"""


class _Entity(BaseModel):
    name: str = Field(min_length=1, max_length=200)
    type: str = "other"


class _Fact(BaseModel):
    key: str = Field(min_length=1, max_length=200)
    value: str = Field(min_length=1, max_length=2000)
    fact_type: FactType = FactType.CUSTOM


class _Turn(BaseModel):
    index: int = Field(ge=0)
    entities: list[_Entity] = Field(default_factory=list)
    facts: list[_Fact] = Field(default_factory=list)
    caused_by: int | None = None


class _Answer(BaseModel):
    turns: list[_Turn]


class OpenAICompatibleExtractor:
    """Entities, facts and causal links from an OpenAI-compatible chat endpoint (no SDK, stdlib HTTP)."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout: float = 30.0,
        retries: int = 3,
        backoff: float = 0.5,
    ) -> None:
        self._url = base_url.rstrip("/") + "/chat/completions"
        self._model = model
        self._api_key = api_key
        self._timeout = timeout
        self._retries = retries
        self._backoff = backoff
        self._fallback = PatternExtractor()

    def extract(self, texts: Sequence[str], *, known: Collection[str] = ()) -> list[TurnExtraction]:
        out: list[TurnExtraction] = []
        for start in range(0, len(texts), MAX_TURNS_PER_CALL):
            chunk = list(texts[start : start + MAX_TURNS_PER_CALL])
            try:
                answer = self._call(chunk)
            except ExtractionError as exc:
                logger.warning("LLM extractor failed (%s); using the pattern extractor", type(exc).__name__)
                out.extend(self._fallback.extract(chunk, known=known))
                continue
            out.extend(_to_extractions(answer, len(chunk), offset=start))
        return out

    def _call(self, turns: list[str]) -> _Answer:
        numbered = "\n".join(f"{i}: {t}" for i, t in enumerate(turns))
        body = json.dumps(
            {
                "model": self._model,
                "messages": [{"role": "system", "content": PROMPT}, {"role": "user", "content": numbered}],
                "response_format": {"type": "json_object"},
                "temperature": 0,
            }
        ).encode()
        headers = {"Content-Type": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        last: Exception | None = None
        for attempt in range(self._retries + 1):
            if attempt:
                time.sleep(self._backoff * 2 ** (attempt - 1))
            request = urllib.request.Request(self._url, data=body, headers=headers, method="POST")  # noqa: S310
            try:
                with urllib.request.urlopen(request, timeout=self._timeout) as response:  # noqa: S310
                    payload = json.loads(response.read())
                content = payload["choices"][0]["message"]["content"]
                return _Answer.model_validate_json(content)
            except urllib.error.HTTPError as exc:
                exc.close()
                last = exc
            except (urllib.error.URLError, TimeoutError, OSError, KeyError, IndexError, TypeError) as exc:
                last = exc
            except (json.JSONDecodeError, ValidationError) as exc:
                last = exc
            logger.debug("LLM extractor attempt %d failed: %s", attempt + 1, type(last).__name__)
        raise ExtractionError(f"LLM extraction failed after {self._retries + 1} attempts") from last


def _writable(key: str) -> bool:
    """Whether a model's fact key is one ``facts.set`` takes (no control characters, names a relation)."""
    try:
        check.fact_key(key, None)
    except Refused:
        return False
    return True


def _to_extractions(answer: _Answer, n: int, *, offset: int) -> list[TurnExtraction]:
    by_index = {t.index: t for t in answer.turns if t.index < n}
    out: list[TurnExtraction] = []
    for i in range(n):
        t = by_index.get(i)
        if t is None:
            out.append(TurnExtraction())
            continue
        mentions = tuple(
            Mention(name=e.name, type=e.type, key=normalize_key(e.name))
            for e in t.entities
            if normalize_key(e.name)
        )
        facts = tuple(
            ExtractedFact(key=f.key, value=f.value, fact_type=f.fact_type)
            for f in t.facts
            if _writable(f.key)
        )
        caused_by = t.caused_by + offset if t.caused_by is not None and 0 <= t.caused_by < i else None
        out.append(TurnExtraction(entities=mentions, facts=facts, caused_by=caused_by))
    return out
