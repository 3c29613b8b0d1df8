"""Long turns cost formation time in proportion to their length, not its square (pure; no timing: the work is
counted). A probe of round 58 formed 200 near-identical turns of 20,000 characters in 146 s: the batch's
near-duplicate rule read both texts of every pair again (61 s), and entity extraction searched the whole text
before each capitalised word for a sentence start (19 s). After the fix the same call took 55 s, most of it
the embedding."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pytest

from graphmem.model import entities, linking

T0 = datetime(2026, 1, 1, tzinfo=UTC)


class Counted:
    """A compiled pattern whose calls are counted, with the characters each one was given to read."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.calls = 0
        self.chars = 0

    def _read(self, text: str, pos: int = 0, endpos: int | None = None) -> None:
        self.calls += 1
        self.chars += (len(text) if endpos is None else endpos) - pos

    def findall(self, text: str, *args: Any) -> Any:
        self._read(text, *args)
        return self.pattern.findall(text, *args)

    def search(self, text: str, *args: Any) -> Any:
        self._read(text, *args)
        return self.pattern.search(text, *args)


def test_the_near_duplicate_rule_reads_each_turn_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """60 turns whose vectors are all near-identical: every pair reaches the textual rule, each turn's
    numbers are read once (before: twice per pair, 3,540 reads)."""
    counted = Counted(linking._NUMBER)
    monkeypatch.setattr(linking, "_NUMBER", counted)
    items = [linking.NewItem(f"I walked the dog {i} km by the river " * 20, T0, "s") for i in range(60)]
    vectors = np.ones((60, 4)) + np.random.default_rng(0).normal(0, 1e-4, (60, 4))
    plan = linking.plan_links(
        items,
        [[] for _ in items],
        linking.batch_cosines(vectors),
        duplicate_threshold=0.95,
        related_threshold=0.55,
        related_k=5,
    )
    assert not plan.duplicate_of_batch  # each turn claims another number: none merges
    assert counted.calls <= len(items)


def test_entity_extraction_reads_a_long_turn_in_linear_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """2,000 capitalised words in one turn: the sentence-start test reads a few characters before each
    (before: the whole text up to it, ~ n²/2 characters)."""
    counted = Counted(entities._SENTENCE_START)
    monkeypatch.setattr(entities, "_SENTENCE_START", counted)
    text = " ".join(f"we met Anna{i % 50} in Leeds." for i in range(2000))
    found = entities.extract(text)
    entities.mid_sentence_keys([text])
    assert {"leeds", "anna7"} <= {m.key for m in found}
    assert counted.calls >= 2000
    assert counted.chars <= 10 * counted.calls
