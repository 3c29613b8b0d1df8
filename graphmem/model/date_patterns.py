"""The words and patterns :mod:`graphmem.model.dates` reads dates with (pure data, no logic): month, weekday,
holiday and season names, the number words of "a few days ago", the future words of a sentence, the
regular expression of each kind of expression (most specific first) and the quick test for a text that
holds none. What each match means is :func:`graphmem.model.dates.resolve_dates`'s."""

from __future__ import annotations

import re

__all__ = [
    "FUTURE", "HOLIDAYS", "MONTHS", "MONTH_ABBR", "NUMBERS", "PATTERNS", "SEASONS", "TRIGGER",
    "TRIGGER_FOLDED", "WEEKDAYS",
]  # fmt: skip

MONTHS = [
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
]  # fmt: skip
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MONTH_ABBR = {m[:3]: i + 1 for i, m in enumerate(MONTHS)}
# holidays on a fixed day of the year (month, day); longest name first
HOLIDAYS = {
    "christmas eve": (12, 24), "christmas day": (12, 25), "christmas": (12, 25), "boxing day": (12, 26),
    "new year's eve": (12, 31), "new year's day": (1, 1), "new year": (1, 1), "halloween": (10, 31),
    "valentine's day": (2, 14),
}  # fmt: skip
SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}  # first month (northern)
NUMBERS = {
    "a": (1, 1), "an": (1, 1), "one": (1, 1), "two": (2, 2), "three": (3, 3), "four": (4, 4),
    "five": (5, 5), "six": (6, 6), "seven": (7, 7), "eight": (8, 8), "nine": (9, 9), "ten": (10, 10),
    "eleven": (11, 11), "twelve": (12, 12), "a couple of": (2, 2), "a couple": (2, 2),
    "a few": (2, 4), "few": (2, 4), "several": (3, 7),
}  # fmt: skip
FUTURE = re.compile(
    r"\b(will|'ll|going to|gonna|plan(?:ning|s|ned)?|next|soon|upcoming|hope to|wants? to|would like to)\b",
    re.I,
)

_NUM = (
    r"(\d{1,2}|a couple(?: of)?|a few|few|several|an?|"
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
)
_UNIT = r"(day|week|month|year)s?"
_MONTH_RE = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_MODS = r"(last|this|next|past|coming)"

# a word a holiday's date is said after (outside the phrase: "until Christmas" stays a bound of the statement)
_AFTER_A_PREPOSITION = "|".join(
    f"(?<=\\b{w} )"
    for w in ("at", "on", "for", "over", "before", "since", "until", "till", "by", "from", "around", "during",
              "in", "last", "next")
)  # fmt: skip
PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("iso", re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")),
    ("day_before", re.compile(r"\bthe day before yesterday\b", re.I)),
    ("day_after", re.compile(r"\bthe day after tomorrow\b", re.I)),
    ("ago", re.compile(rf"\b{_NUM} {_UNIT} ago\b", re.I)),
    ("in_n", re.compile(rf"\bin {_NUM} {_UNIT}\b", re.I)),
    ("yesterday", re.compile(r"\b(yesterday|last night)\b", re.I)),
    ("today", re.compile(r"\b(today|tonight|this (?:morning|afternoon|evening))\b", re.I)),
    ("tomorrow", re.compile(r"\btomorrow\b", re.I)),
    ("weekend", re.compile(rf"\b{_MODS} weekend\b", re.I)),
    (
        "part",
        re.compile(r"\bthe (end|start|beginning|middle) of (this|next|last|the) (week|month|year)\b", re.I),
    ),
    (  # "the end of January", "the start of March 2027": a quarter of a named month
        "part_month",
        re.compile(rf"\bthe (end|start|beginning|middle) of {_MONTH_RE}(?:,? (\d{{4}}))?\b", re.I),
    ),
    ("period", re.compile(rf"\b{_MODS} (week|month|year)\b", re.I)),
    (  # not a range: "from Monday to Friday"
        "weekday",
        re.compile(
            rf"\b(?:{_MODS} |on |from )({'|'.join(WEEKDAYS)})\b(?!\s*(?:to|till|until|-)\s*\w+day\b)", re.I
        ),
    ),
    ("season", re.compile(rf"\b(?:{_MODS} |in (?:the )?)({'|'.join(SEASONS)})(?: of (\d{{4}}))?\b", re.I)),
    ("month_day", re.compile(rf"\b{_MONTH_RE}\.? (\d{{1,2}})(?:st|nd|rd|th)?(?:,? (\d{{4}}))?\b", re.I)),
    ("day_month", re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)? (?:of )?{_MONTH_RE}(?:,? (\d{{4}}))?\b", re.I)),
    ("month_year", re.compile(rf"\b{_MONTH_RE} (\d{{4}})\b", re.I)),
    (
        "ordinal_day",
        re.compile(r"\b(?:on|from|until|till|by) the (\d{1,2})(?:st|nd|rd|th)\b(?! (?:century|floor))", re.I),
    ),
    (
        "mod_month",
        re.compile(
            rf"\b(last|this|next|past|coming|in|during|since|early|late|mid|by|until|from) {_MONTH_RE}\b"
            rf"(?!\s*(?:to|till|until|-)\s*{_MONTH_RE}\b)",
            re.I,
        ),
    ),
    ("year", re.compile(r"\b(?:in|since|during|of|back in) ((?:19|20)\d{2})\b", re.I)),
    # a holiday on a fixed day after a preposition ("at Christmas"; "after Christmas": the day after; not "a
    # Christmas tree", "the Christmas magic")
    (
        "holiday",
        re.compile(
            rf"(?:\b(after) |{_AFTER_A_PREPOSITION})(?:the )?({'|'.join(HOLIDAYS)})\b"
            r"(?! (?:tree|magic|present|gift|card|movie|film|song|party|dinner))",
            re.I,
        ),
    ),
]

# Every pattern above holds a digit or, at a word start, one of these words: a text without any is not
# searched (three quarters of LoCoMo turns; ~145 µs a turn against ~6 µs, a quarter of the Python time of a
# 500-message formation call). ``tests/test_dates.py`` checks the two paths agree.
_TRIGGER_WORDS = "|".join(
    [
        "ago", "yesterday", "night", "today", "tonight", "morning", "afternoon", "evening", "tomorrow",
        "day", "week", "month", "year", *WEEKDAYS, *SEASONS, _MONTH_RE, "christmas", "new year", "halloween",
        "valentine",
    ]
)  # fmt: skip
TRIGGER = re.compile(rf"\d|\b(?:{_TRIGGER_WORDS})")  # on lower-cased ASCII text (no case folding: faster)
TRIGGER_FOLDED = re.compile(rf"\d|\b(?:{_TRIGGER_WORDS})", re.I)  # other text: the patterns' own folding
