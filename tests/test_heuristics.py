"""The memory heuristics and metamemory as pure rules (graphmem.model.heuristics, graphmem.model.metamemory):
one test per rule, each able to fail when the rule is removed or inverted."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.model import heuristics as h
from graphmem.model import metamemory as mm
from graphmem.model.dynamics import DynamicsParams, effective_rate, retention

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_primacy_and_recency_within_a_session() -> None:
    curve = [h.serial_position(i, 12) for i in range(12)]
    middle = min(curve)
    assert curve[0] > curve[3] > middle and curve[-1] > curve[-4] > middle  # U-shaped
    assert curve[0] == pytest.approx(1.0) and curve[-1] == pytest.approx(1.0)
    assert h.serial_position(0, 1) == 0.0  # nothing to stand out from


@given(st.floats(0, 30), st.floats(0.01, 30))
def test_spacing_a_longer_gap_strengthens_more(gap: float, extra: float) -> None:
    assert h.reinforce(1.0, 2, gap + extra) >= h.reinforce(1.0, 2, gap)
    assert h.reinforce(1.0, 0, 7.0) - 1.0 > 1.9 * (h.reinforce(1.0, 0, 0.0) - 1.0)  # spaced ≈ 2 × massed


@given(st.floats(0, 3.9), st.integers(0, 50), st.floats(0, 60))
def test_testing_recall_strengthens_more_than_restoring(strength: float, n: int, gap: float) -> None:
    recalled, restored = h.reinforce(strength, n, gap, "recall"), h.reinforce(strength, n, gap, "restore")
    assert strength < restored <= recalled <= 4.0
    if recalled < 4.0:
        assert recalled > restored


def test_depth_of_processing_elaborated_and_connected_content_is_deeper() -> None:
    shallow = h.depth(words=3, entities=0, links=0)
    elaborated = h.depth(words=45, entities=0, links=0)
    connected = h.depth(words=3, entities=3, links=3)
    assert shallow < elaborated and shallow < connected and h.depth(45, 3, 3) == pytest.approx(1.0)


def test_depth_and_serial_position_slow_decay_through_salience() -> None:
    p = DynamicsParams()
    plain = effective_rate(0.1, 0.0, salience=0.0)
    deep = effective_rate(0.1, 0.0, salience=p.factor_weights["depth"] * h.depth(45, 3, 3))
    assert deep < plain


def test_context_dependent_recall_boosts_a_matching_context() -> None:
    assert h.context_boost(0.9) > h.context_boost(0.3) > h.context_boost(0.0) == 1.0
    assert h.context_boost(-0.5) == 1.0


def test_interference_a_stronger_near_duplicate_speeds_decay() -> None:
    p = DynamicsParams()
    assert h.rivalry(0.9, own_strength=1.0, other_strength=2.0, threshold=p.rival_similarity) == 0.9
    assert h.rivalry(0.9, own_strength=2.0, other_strength=1.0, threshold=p.rival_similarity) == 0.0
    assert h.rivalry(0.6, own_strength=1.0, other_strength=2.0, threshold=p.rival_similarity) == 0.0
    assert effective_rate(0.1, 0.0, rivalry=0.9) == pytest.approx(0.19)
    kw = dict(
        memory_type="episodic", days_since_access=20, days_since_creation=20, access_count=0, related_count=0
    )
    assert retention(**kw, params=p, rivalry=0.9) < retention(**kw, params=p)  # type: ignore[arg-type]


def test_synergy_co_recall_strengthens_the_link() -> None:
    assert h.co_recalled_weight(0.5) == pytest.approx(0.55)
    assert h.co_recalled_weight(1.0) == 1.0
    assert h.co_recalled_weight(0.0) > 0.0


# --- metamemory ---------------------------------------------------------------------------------------
def test_competitors_are_the_activated_memories_not_returned() -> None:
    relevance = {"won": 1.0, "close": 0.8, "half": 0.5, "far": 0.3}
    got = dict(mm.competitors(relevance, ["won"]))
    assert got == {"close": pytest.approx(0.8), "half": pytest.approx(0.5)}
    assert mm.competitors(relevance, []) == []


def test_inhibition_grows_with_practice_is_capped_and_recovers() -> None:
    i = 0.0
    for _ in range(9):
        i = mm.inhibited(i, 0.8)
    assert 0.4 < i <= mm.RIF.max_inhibition
    assert mm.inhibited(mm.RIF.max_inhibition, 1.0) == mm.RIF.max_inhibition
    day = NOW - timedelta(days=mm.RIF.recovery_days)
    assert mm.inhibition_now(0.4, day, NOW) == pytest.approx(0.2)
    assert mm.inhibition_now(0.4, NOW - timedelta(days=30), NOW) < 1e-6
    assert mm.ranking_factor({"inhibition": 0.4, "inhibited_at": NOW}, NOW) == pytest.approx(0.6)
    assert mm.ranking_factor({}, NOW) == 1.0


def test_open_conflicts_suppress_until_confirmed() -> None:
    assert mm.ranking_factor({"open_conflicts": 1}, NOW) == pytest.approx(1 - mm.CONFLICT_SUPPRESSION)
    assert mm.ranking_factor({"open_conflicts": 1, "confirmed": 1}, NOW) == 1.0


def test_accessibility_reliability_timeliness() -> None:
    assert mm.accessibility(0, 0) == 0.5
    assert mm.accessibility(5, 0) > mm.accessibility(1, 1) > mm.accessibility(0, 5)
    assert mm.accessibility(5, 0, inhibition=0.5) == pytest.approx(mm.accessibility(5, 0) / 2)
    assert mm.reliability(0.6, 1, 0, 0) > mm.reliability(0.6, 0, 0, 0) > mm.reliability(0.6, 0, 1, 0)
    assert mm.reliability(0.6, 0, 0, 1) == pytest.approx(0.3)
    assert mm.timeliness(0, False) == 1.0 > mm.timeliness(200, False) > mm.timeliness(0, True)
    row = {"recall_hits": 3, "confidence": 0.9, "recorded_at": NOW - timedelta(days=10)}
    meta = mm.of(row, NOW)
    assert meta.accessibility == pytest.approx(0.8) and meta.reliability == pytest.approx(0.9)
    assert mm.confidence(0.8, meta) < 0.8
    assert mm.confidence(0.8, mm.of({"confidence": 1.0, "recorded_at": NOW}, NOW)) == pytest.approx(0.8)


def test_a_config_stored_before_the_heuristic_factors_still_reads() -> None:
    old = DynamicsParams.model_validate(
        {"factor_weights": {"emotion": 1.0, "presentation": 1.0, "coherence": 0.5}}
    )
    assert old.factor_weights["serial"] == 0.25 and old.factor_weights["depth"] == 0.25
