"""The pure dynamics model against its closed forms (no database)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.automation.config import AutomationConfig, validate_config
from graphmem.automation.scheduler import Planned, job_states, parse_schedule
from graphmem.errors import ValidationError
from graphmem.model import dynamics as d

P = d.DynamicsParams()


def test_retention_closed_form() -> None:
    # episodic, 10 days since access, 20 since creation, 3 uses, 2 related memories
    expected = math.exp(-0.05 * 10) * (1 + math.log(4)) * 1.0 * 1.2 / 5 + 0.1 * (1 - 20 / 365)
    got = d.retention(
        memory_type="episodic",
        days_since_access=10,
        days_since_creation=20,
        access_count=3,
        related_count=2,
        params=P,
    )
    assert got == pytest.approx(expected)


def test_retention_caps_and_bonus() -> None:
    assert d.semantic_importance(0) == 1.0 and d.semantic_importance(9) == 1.5
    assert d.recency_bonus(0) == pytest.approx(0.1) and d.recency_bonus(400) == 0.0
    fresh = d.retention(
        memory_type="preference",
        days_since_access=0,
        days_since_creation=0,
        access_count=1000,
        related_count=50,
        params=P,
    )
    assert fresh == 1.0


@given(
    st.sampled_from(["episodic", "semantic", "procedural", "preference"]),
    st.floats(0, 3650),
    st.floats(0, 3650),
    st.integers(0, 10_000),
    st.integers(0, 100),
)
def test_retention_is_in_unit_interval(kind: str, ta: float, tc: float, n: int, rel: int) -> None:
    r = d.retention(
        memory_type=kind,
        days_since_access=ta,
        days_since_creation=tc,
        access_count=n,
        related_count=rel,
        params=P,
    )
    assert 0.0 <= r <= 1.0


def test_retention_falls_with_time_and_rises_with_use() -> None:
    kw = {"memory_type": "semantic", "days_since_creation": 30, "related_count": 0, "params": P}
    assert d.retention(days_since_access=1, access_count=0, **kw) > d.retention(
        days_since_access=30, access_count=0, **kw
    )
    assert d.retention(days_since_access=10, access_count=5, **kw) > d.retention(
        days_since_access=10, access_count=0, **kw
    )


def test_strength_decay_closed_form_and_floor() -> None:
    assert d.decay_strength(1.0, 10, 0.10, 0.0) == pytest.approx(0.9**10)
    assert d.decay_strength(2.0, 100, 0.02, 0.5) == pytest.approx(0.5 + 1.5 * 0.98**100)
    assert d.decay_strength(0.3, 100, 0.02, 0.5) == 0.3  # below the floor: never raised, never lowered
    assert d.decay_strength(1.0, 365, 0.0, 1.0) == 1.0  # P0 / common knowledge
    assert d.effective_rate(0.05, 1.0) == pytest.approx(0.05 / 1.5)


@given(st.floats(0, 4), st.floats(0, 200), st.floats(0, 200), st.sampled_from(["P1", "P2", "P3"]))
def test_strength_decay_composes(s: float, a: float, b: float, prio: str) -> None:
    """Decaying a days then b days equals a + b days: why the decay job is idempotent and resumable."""
    rate, floor = P.strength_decay[prio], P.strength_floor[prio]
    twice = d.decay_strength(d.decay_strength(s, a, rate, floor), b, rate, floor)
    assert twice == pytest.approx(d.decay_strength(s, a + b, rate, floor), abs=1e-9)
    assert twice >= min(s, floor) - 1e-12


def test_status_thresholds() -> None:
    assert d.status_for(0.5, 1.0, P) == "active"
    assert d.status_for(0.2, 1.0, P) == "weak"
    assert d.status_for(0.5, 0.3, P) == "weak"
    assert d.status_for(0.1, 1.0, P) == "dormant"
    assert d.status_for(0.5, 0.1, P) == "dormant"


def test_forgetting_rule() -> None:
    kw = {"retention_value": 0.05, "strength": 0.05, "age_days": 30, "params": P}
    assert d.should_forget(priority="P3", **kw)
    assert not d.should_forget(priority="P0", **kw)
    assert not d.should_forget(priority="common", **kw)
    assert not d.should_forget(priority="P3", retention_value=0.05, strength=0.05, age_days=1, params=P)


def test_actr_base_level() -> None:
    assert d.actr_base_level([1.0, 4.0]) == pytest.approx(math.log(1 + 0.5))
    assert d.actr_base_level([]) == -math.inf
    assert d.actr_base_level_approx(10, 100) == pytest.approx(math.log(20) - 0.5 * math.log(100))
    # the approximation tracks the exact sum for evenly spread uses
    ages = [100 * (i + 0.5) / 50 for i in range(50)]
    assert d.actr_base_level(ages) == pytest.approx(d.actr_base_level_approx(50, 100), abs=0.15)


def test_spaced_repetition() -> None:
    assert d.review_interval(10, 0.9) == pytest.approx(-10 * math.log(0.9))
    assert d.updated_stability(3, 2, P) == pytest.approx(3 * (1 + 3 * (1 - math.exp(-2 / 3))))
    assert d.updated_stability(3, 0, P) == pytest.approx(3)  # massed practice: no gain
    assert d.updated_stability(3000, 3000, P) == P.max_stability_days


@given(st.floats(0.1, 1000), st.floats(0, 1000), st.floats(0, 1000))
def test_spaced_recall_grows_stability_more(s: float, early: float, extra: float) -> None:
    assert d.updated_stability(s, early + extra, P) >= d.updated_stability(s, early, P) - 1e-9


def test_presets_and_validation() -> None:
    assert set(d.PRESETS) == {"balanced", "conservative", "aggressive"}
    with pytest.raises(ValueError):
        d.DynamicsParams(strength_decay={"common": 0, "P0": 0, "P1": -0.1, "P2": 0.05, "P3": 0.1})
    with pytest.raises(ValueError):
        d.DynamicsParams(forget_retention=1.5)
    with pytest.raises(ValidationError, match="schedule"):
        validate_config(
            {"jobs": {**AutomationConfig().model_dump()["jobs"], "decay": {"schedule": "61 * * * *"}}}
        )
    with pytest.raises(ValidationError):
        validate_config({"dynamics": {"weak_retention": -0.2}})


def test_schedules_and_job_states() -> None:
    assert parse_schedule("every 15m").interval.total_seconds() == 900
    parse_schedule("0 3 * * *")
    assert parse_schedule("every 3650d").interval.days == 3650
    # an interval beyond ten years overflowed the scheduler (an escaped OverflowError, a 500 over REST);
    # digits of another script are no interval
    for bad in [
        "every 0x",
        "* * *",
        "99 3 * * *",
        "",
        "every 9999999999999d",
        "every 3651d",
        "every \u0663h",
    ]:
        with pytest.raises(ValueError):
            parse_schedule(bad)
    planned = {
        "a": Planned(True, "every 1h"),
        "b": Planned(False, "every 1h"),
        "c": Planned(True, "0 3 * * *"),
    }
    assert job_states(planned, None) == {"a": "missing", "b": "disabled", "c": "missing"}
    assert job_states(planned, {"a": "every  1h", "b": "every 1h", "c": "0 4 * * *"}) == {
        "a": "scheduled",
        "b": "drifted",
        "c": "drifted",
    }
