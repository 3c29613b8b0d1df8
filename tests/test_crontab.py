"""Crontab schedules mean what they mean to cron (graphmem.automation.crontab): APScheduler's own
``from_crontab`` counts weekdays from Monday = 0, so ``0 3 * * 0`` ran on Mondays and ``1-5`` from Tuesday
to Saturday."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem.automation.config import AutomationConfig
from graphmem.automation.scheduler import parse_schedule
from graphmem.errors import ValidationError

SUNDAY = datetime(2026, 12, 6, tzinfo=UTC)
WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri"]


def fire_days(spec: str, days: int = 7) -> list[str]:
    """When a schedule fires over ``days`` days from Sunday 6 December 2026 00:00 UTC ("Sun 06", ...)."""
    trigger, fired, at = parse_schedule(spec), [], SUNDAY - timedelta(seconds=1)
    while (at := trigger.get_next_fire_time(None, at + timedelta(seconds=1))) < SUNDAY + timedelta(days):
        fired.append(at.strftime("%a %d"))
    return fired


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("0 3 * * 0", ["Sun"]),
        ("0 3 * * 7", ["Sun"]),
        ("0 3 * * sun", ["Sun"]),
        ("0 3 * * 1", ["Mon"]),
        ("0 3 * * 1-5", WEEKDAYS),
        ("0 3 * * MON-FRI", WEEKDAYS),
        ("0 3 * * 6,0", ["Sun", "Sat"]),
        ("0 3 * * 5-7", ["Sun", "Fri", "Sat"]),
        ("0 3 * * fri-sun", ["Sun", "Fri", "Sat"]),
        ("0 3 * * */3", ["Sun", "Wed", "Sat"]),
        ("0 3 * * *", ["Sun", *WEEKDAYS, "Sat"]),
    ],
)
def test_day_of_week_counts_from_sunday_as_in_cron(spec: str, expected: list[str]) -> None:
    assert [day[:3] for day in fire_days(spec)] == expected


def test_day_of_month_or_day_of_week_when_both_are_given() -> None:
    """Cron runs ``0 3 10 * 1`` on the 10th and on every Monday; APScheduler alone only on a Monday 10th."""
    assert fire_days("0 3 10 * 1", 14) == ["Mon 07", "Thu 10", "Mon 14"]
    assert fire_days("0 3 10 * *", 14) == ["Thu 10"]  # a day of the month alone: as before
    assert fire_days("0 3 */2 * 1", 14) == [
        "Mon 07"
    ]  # a field starting with '*': both must match, as in cron


@pytest.mark.parametrize("spec", ["0 3 * * 8", "0 3 * * 6-1", "0 3 * * mon/0", "0 3 * * funday"])
def test_a_crontab_cron_would_refuse_is_refused(spec: str) -> None:
    with pytest.raises(ValueError, match="malformed crontab"):
        parse_schedule(spec)
    with pytest.raises(ValidationError, match=r"jobs\.decay\.schedule"):  # what set_config checks first
        AutomationConfig().with_job("decay", schedule=spec)


def test_a_crontab_naming_no_date_is_kept_and_never_fires() -> None:
    """``0 0 31 2 *`` is cron's way to park a job: it was stored and never fired; refusing it made a stored
    one read back as the preset's default schedule (decay every hour). A dead arm of an either-day crontab is
    left out (it walked to year 9999 at each computation)."""
    never = parse_schedule("0 0 31 2 *")
    assert never.get_next_fire_time(None, datetime.now(UTC)) is None
    assert AutomationConfig().with_job("decay", schedule="0 0 31 2 *").jobs["decay"].schedule == "0 0 31 2 *"
    mondays = parse_schedule("0 3 30 2 1")  # February's Mondays: it has no 30th
    assert type(mondays).__name__ == "CronTrigger"  # one arm, not an OrTrigger with a dead one
    first = mondays.get_next_fire_time(None, datetime(2027, 1, 1, tzinfo=UTC))
    assert (first.month, first.weekday(), first.hour) == (2, 0, 3)
