"""Five-field crontabs read as cron reads them, on APScheduler's ``CronTrigger``.

APScheduler 3's ``CronTrigger.from_crontab`` takes the fields as they are, and its weekdays count from
Monday = 0: cron's ``0 3 * * 0`` (Sundays) ran on Mondays, ``1-5`` (weekdays) from Tuesday to Saturday, and
``7`` (Sunday again) was refused. Here the day-of-week field is read with cron's numbering (0 and 7 Sunday,
names ``sun``-``sat``) and handed to APScheduler as day names; and when both the day of the month and the day
of the week are restricted, the job runs on either, as in cron (APScheduler requires both). A crontab naming
no date that exists (``0 0 31 2 *``, cron's way to park a job) is kept and never fires, as in cron.
"""

from __future__ import annotations

from datetime import UTC, datetime

from apscheduler.triggers.base import BaseTrigger
from apscheduler.triggers.combining import OrTrigger
from apscheduler.triggers.cron import CronTrigger

_DAYS = ("sun", "mon", "tue", "wed", "thu", "fri", "sat")
"""Cron's day numbers 0-6 (7 is Sunday too), as names APScheduler reads unambiguously."""


def _day(token: str) -> int:
    """One day of a day-of-week field: 0-7 or a name (``sun``..``sat``, any case)."""
    name = token.lower()
    if name in _DAYS:
        return _DAYS.index(name)
    if token.isascii() and token.isdigit() and int(token) <= 7:
        return int(token)
    raise ValueError(f"day of week {token!r}: 0-7 (0 and 7 are Sunday) or sun..sat")


def weekdays(field: str) -> str:
    """Cron's day-of-week ``field`` (``*``, lists, ranges, steps) as APScheduler's: ``*`` as it is, else the
    days it names, by name (``1-5`` -> ``mon,tue,wed,thu,fri``)."""
    if field == "*":
        return field
    days: set[int] = set()
    for item in field.split(","):
        part, slash, step_text = item.partition("/")
        if slash and not (step_text.isascii() and step_text.isdigit() and int(step_text) > 0):
            raise ValueError(f"day of week {item!r}: the step must be a positive number")
        step = int(step_text) if slash else 1
        if part == "*":
            first, last = 0, 6
        elif "-" in part:
            low, high = part.split("-", 1)
            first, last = _day(low), _day(high)
            last = 7 if last == 0 and first > 0 else last  # fri-sun, 5-0: to the week's end
        else:
            first = _day(part)
            last = 7 if slash else first  # n/step: from n to the end of the week
        if first > last:
            raise ValueError(f"day of week {item!r}: a range must not run backwards")
        days.update(day % 7 for day in range(first, last + 1, step))
    return ",".join(_DAYS[day] for day in sorted(days))


class Never(BaseTrigger):  # type: ignore[misc]  # APScheduler 3 is untyped
    """The trigger of a crontab naming no date that exists: APScheduler keeps its job paused."""

    def get_next_fire_time(self, previous_fire_time: datetime | None, now: datetime) -> datetime | None:
        return None

    def __str__(self) -> str:
        return "never"


def cron_trigger(text: str) -> BaseTrigger:
    """The trigger of a five-field crontab (UTC); ``ValueError`` when it is malformed. When the day of the
    month and the day of the week are both restricted, either matches (an :class:`OrTrigger` of the arms
    that can fire: a dead arm, ``30`` of ``0 0 30 2 1``, would walk to year 9999 at each computation)."""
    minute, hour, day, month, day_of_week = text.split(" ")
    week = weekdays(day_of_week)
    if day.startswith("*") or day_of_week.startswith("*"):
        arms = [CronTrigger(minute=minute, hour=hour, day=day, month=month, day_of_week=week, timezone=UTC)]
    else:  # both restricted: either matches (cron's rule)
        arms = [
            CronTrigger(minute=minute, hour=hour, day=day, month=month, timezone=UTC),
            CronTrigger(minute=minute, hour=hour, month=month, day_of_week=week, timezone=UTC),
        ]
    now = datetime.now(UTC)
    live = [arm for arm in arms if arm.get_next_fire_time(None, now) is not None]
    if not live:
        return Never()
    return live[0] if len(live) == 1 else OrTrigger(live)
