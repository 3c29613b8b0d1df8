"""The words and patterns :mod:`graphmem.model.dates` reads dates with (pure data, no logic): month, weekday,
holiday and season names, the number words of "a few days ago", the future words of a sentence, the past and
present forms and the clause ends a bare weekday is read by, the
regular expression of each kind of expression (most specific first) and the quick test for a text that
holds none. What each match means is :func:`graphmem.model.dates.resolve_dates`'s."""

from __future__ import annotations

import re

__all__ = [
    "ARRANGED",
    "CLAUSE_END",
    "CLOCK",
    "FUTURE",
    "HOLIDAYS",
    "IRREGULAR_PAST",
    "MONTHS",
    "MONTH_ABBR",
    "MOVED",
    "NOT_ED",
    "NUMBERS",
    "OPENS_PAST",
    "OPENS_PROGRESSIVE",
    "ORDINAL_LEADS",
    "PAST_TENSE",
    "PATTERNS",
    "PRESENT_TENSE",
    "SEASONS",
    "SENTENCE_END",
    "TOMORROW",
    "TRIGGER",
    "TRIGGER_FOLDED",
    "WEEKDAYS",
    "WEEKDAYS_SHORT",
    "WEEKDAY_SHORT",
]  # fmt: skip

MONTHS = [
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
]  # fmt: skip
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MONTH_ABBR = {m[:3]: i + 1 for i, m in enumerate(MONTHS)}
# weekdays written short as people type them: "next tue", "thurs 7pm", "dentist thu 22nd"; "mon", "wed",
# "sat" and "sun" are words too ("I sat down", "the sun", "they were wed"), so they are read only where a
# weekday's place says so (after last/this/next/coming or "on", before a day or a clock time)
_CLEAR_SHORT = ("thurs", "thur", "tues", "weds", "tue", "thu", "fri")  # longest first, for the alternation
_WORD_SHORT = ("mon", "wed", "sat", "sun")
WEEKDAYS_SHORT = frozenset(_CLEAR_SHORT + _WORD_SHORT)
"""Every weekday written short that the patterns read (graphmem.retrieval.restated names no one by them)."""
_WEEKDAY_CLEAR = "|".join(_CLEAR_SHORT)
_WEEKDAY_WORDS = "|".join(_WORD_SHORT)
WEEKDAY_SHORT = rf"(?:{_WEEKDAY_CLEAR}|{_WEEKDAY_WORDS})"
TOMORROW = ("tomorrow", "tmrw", "tmw", "tomoz", "tomorow", "tommorow", "tommorrow", "2moro", "2morow")
"""How "tomorrow" is typed; and "tmr" in lower case ("TMR" is a medical scan)."""
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

# The tense of a bare weekday's clause ("on Saturday": the coming one or the last; dates._tense_ahead). Past
# first: a past form of be, have or do, "'d" before a participle ("I'd finished"), a verb in -ed right after a
# subject ("Leo scored", "we finally finished"; not "I need", and "I'm excited" is present) or a common
# irregular past ("ran", "won"; "got" but not "'ve got"). Then present: a form of be ("is", "'re", "there's";
# "Leo's" is a possessive), have or do as a main verb ("I have a dentist appointment", "I've got", not "I have
# finished"), a modal or "'d" before a verb ("can", "I'd love to"), or a verb a timetable is read with
# ("Our flight leaves", "I start my new job"; not after "the", "a", "my": "the end", "a play").
IRREGULAR_PAST = (
    "went|saw|ran|came|made|took|met|ate|bought|brought|caught|drove|flew|found|gave|heard|kept|left|lost|"
    "paid|said|sat|sent|spent|spoke|told|thought|won|wrote|began|felt|held|taught|swam|sang|slept|wore|woke|"
    "rode|became|broke|chose|drank|fell|forgot|grew|knew|shook|stood|threw|understood|sold|fought|built|"
    "dug|hid|lent|meant|stole|stuck|froze|hung|forgave|overslept"
)
_PARTICIPLE = (
    rf"(?:[a-z]{{2,}}ed|been|done|seen|gone|had|taken|given|written|eaten|known|gotten|{IRREGULAR_PAST})\b"
)
NOT_ED = r"(?!(?:need|feed|speed|seed|bleed|breed|weed|heed|proceed|succeed|exceed|shred|embed)\b)"
_SUBJECT = (  # a subject pronoun or a name, and maybe an adverb: "I", "Leo", "we finally"
    r"(?:\b(?i:i|we|you|he|she|they|it)|\b[A-Z][a-z]+)\s+"
    r"(?:(?:[a-z]+ly|just|also|then|all|both|even|never|already|only|first|once)\s+)?"
)
# a clock time: "8:15", "10am", "6 pm", "17h30", "10 oclock", "noon", and "at 2" (not "3.50", "2 kids")
_CLOCK_SAID = (
    r"\b\d{1,2}(?:[:.][0-5]\d)?\s*(?:am|pm|a\.m\.|p\.m\.)(?!\w)|\b\d{1,2}[:h][0-5]\d\b"
    r"|\b\d{1,2}\s*o['’]?clock\b|\bnoon\b"
)
_CLOCK_DOTTED = r"(?<![$£€¥\d.,])\b\d{1,2}\.[0-5]\d\b(?!\.\d)"  # "8.30" (not "£3.50", "1.25.3")
_NOT_A_DAY = "".join(f"(?<!\\b{w} )" for w in ("on", "last", "this", "next", "coming"))  # "see you on sat"
_NOT_AFTER_BE = "".join(f"(?<!{w} )" for w in ("'m", "’m", "\\bam", "\\bis", "\\bare", "'re", "’re"))
PAST_TENSE = re.compile(
    r"(?i:\b(?:was|were|had|did)(?:n['’]t)?\b)"
    rf"|['’]d\s+{_PARTICIPLE}"
    rf"|{_SUBJECT}{NOT_ED}[a-z]{{2,}}ed\b"
    # "I got", not "I've got", "What have I got on Friday?"
    r"|(?<!['’]ve )(?<!\bhave )(?<!\bhas )(?<!['’]s )(?<!['’]ve [Ii] )(?<!\b[Hh]ave [Ii] )(?<!\b[Hh]ave we )"
    r"(?<!\b[Hh]ave you )(?i:\bgot\b)"
    # "I won", not "I'm lost", "on sat", "sat 10am"
    rf"|{_NOT_AFTER_BE}{_NOT_A_DAY}"
    rf"(?i:\b(?!sat\b)(?:{IRREGULAR_PAST})\b|\bsat\b(?!,? (?:at |@ ?)?(?:{_CLOCK_SAID})))"
)
_TIMETABLE = (
    "start|starts|begin|begins|leave|leaves|arrive|arrives|fly|flies|land|lands|depart|departs|open|opens|"
    "close|closes|end|ends|finish|finishes|play|plays|meet|meets|return|returns|go|goes|come|comes|"
    "head|heads|move|moves"
)
_NO_DETERMINER = "".join(
    f"(?<!\\b{w} )"
    for w in ("a", "an", "the", "my", "our", "your", "his", "her", "their", "its", "this", "that")
)
PRESENT_TENSE = re.compile(
    r"\b(?:am|is|isn['’]t|are|aren['’]t|do|does|don['’]t|doesn['’]t|can|can['’]t|cannot|must|should|"
    r"would|need to|needs to|have to|has to|see you)\b|['’](?:m|re|d)\b"
    r"|\b(?:it|that|what|there|here|he|she|who|where|when|let)['’]s\b|['’]s got\b|['’]ve got\b"
    r"|(?:['’]ve|\bhave) (?:i|we|you) got\b"  # "What have I got on Friday?"
    r"|\b(?:have|has)\b(?!\s+(?:(?:just|already|never|not|also|finally)\s+)?"  # "I have finished": no
    rf"{_PARTICIPLE})"
    rf"|{_NO_DETERMINER}\b(?:{_TIMETABLE})\b",
    re.I,
)
# a clause opening with a verb of what one does next in -ing, its subject and "be" left out as people type
# ("starting at Mercy General on the 26th", "flying out fri", "seeing the dentist on the 5th"): the present
# progressive, which says what comes; not one of a feeling about what was ("loving the photos from
# saturday", "still thinking about the concert on saturday", "recovering from the surgery on the 3rd")
OPENS_PROGRESSIVE = re.compile(
    r"\W*(?:(?:and|but|so|then|now|just|finally|officially|also)\s+)?"
    r"(?:start|mov|leav|fly|head|go|com|arriv|travel|visit|meet|driv|return|beginn|join|switch|tak|pick|"
    r"drop|collect|catch|see|hav|do|get|play|host|throw|fly|ship|sign)ing\b",
    re.I,
)
# a clause opening with a past form, its subject left out ("missed yoga on wednesday", "Loved the concert
# on saturday"): the past; not a word in -ed that is none ("shed", "hundred", "Fred")
OPENS_PAST = re.compile(
    r"\W*(?:(?:and|but|so|then|just|finally|also|already)\s+)?"
    rf"(?:{NOT_ED}(?!(?:shed|sled|fred|naked|wicked|sacred|hundred|kindred)\b)[a-z]{{2,}}ed|{IRREGULAR_PAST})\b",
    re.I,
)
ORDINAL_LEADS = ("is", "are", "was", "were", "to", "of", "for")
"""The words before a day of the month that only a tense reading takes ("bday is the 30th", "pushed to the
21st"; graphmem.model.date_tense); "on", "from", "until", "by" the 15th were read before round 63."""
# a time's first word after "to"/"until": a weekday or a month, whole or cut ("moved to Thursday", "pushed to
# nov 9"; not "moved to Paris", "changed to a new school", "changed jobs to be closer")
_TIME_WORD = rf"(?:{'|'.join(w[:3] for w in WEEKDAYS)}|{'|'.join(m[:3] for m in MONTHS)})[a-z]*\b"
MOVED = r"(?:moved|rescheduled|pushed|bumped|postponed|delayed|put back|brought forward|changed|shifted)"
"""The verbs that move a time ("got bumped to the 19th", "postponed until October"): the time moved to lies
ahead (:data:`ARRANGED`), and a statement that says so changes what was said of the event
(graphmem.retrieval.change_patterns.CHANGE)."""
# a past verb that arranges what happens later: "booked the car for an oil change on wednesday" (the
# booking is past, the oil change is not), "scheduled", "moved it to", "pushed back to", "postponed until"
ARRANGED = re.compile(
    r"\b(?:booked|scheduled|rescheduled|arranged|reserved|confirmed|organi[sz]ed|registered|"
    r"signed (?:up|me up)|set up|made an appointment|got (?:an appointment|tickets|a table)|"
    rf"{MOVED}\b[^.!?;]{{0,30}}?\b(?:to|until) (?=the \d|\d|next\b|this\b|{_TIME_WORD}))\b",
    re.I,
)
# where a clause ends (the words of planned.clause, with "then"), and where a sentence does ("3.30pm" goes on)
CLAUSE_END = re.compile(
    r"[.!?]+(?=\s|$)|[;\n]|(?:,|(?<![\s,]))\s+(?:and|but|so|because|while|although|though|whereas|then)\s+",
    re.I,
)
SENTENCE_END = re.compile(r"[.!?]+(?=\s|$)|\n")
CLOCK = re.compile(rf"{_CLOCK_SAID}|{_CLOCK_DOTTED}|\bat \d{{1,2}}\b(?![.,:]?\d)", re.I)

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
# what follows a date in its clause ("bday is the 30th.", "the 19th at 3", "sat the 7th and"), not a thing
# counted ("the 3rd time", "sat the 3rd paper")
_GOES_ON_AS_A_DATE = (
    r"\s*(?:$|[.,;:!?)\n]|(?:at|and|but|so|or|then|in|for|with|when|because|if|until|till|from|"
    r"instead|now|lol|haha|too|as well|same time|\d{1,2}(?::\d\d)?\s*(?:am|pm|h)?)\b|-)"
)
_AFTER_A_MOD = "|".join(f"(?<={w} )" for w in ("last", "this", "next", "past", "coming", "on"))
# not a weekday that is a word too where a subject, a verb or an article comes before it ("we sat at 2pm",
# "the sun at noon", "they were wed at 3pm", "I sat 2nd")
_NOT_A_WORDS_PLACE = "".join(
    f"(?<!\\b{w} )"
    for w in ("i", "we", "you", "they", "he", "she", "who", "was", "were", "the", "a", "in", "hot")
)

# a word a holiday's date is said after (outside the phrase: "until Christmas" stays a bound of the statement)
_AFTER_A_PREPOSITION = "|".join(
    f"(?<=\\b{w} )"
    for w in ("at", "on", "for", "over", "before", "since", "until", "till", "by", "from", "around", "during",
              "in", "last", "next")
)  # fmt: skip
PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("iso", re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")),
    # a weekday with its day of the month, which together name one day: "Tuesday the 10th", "thu 22nd",
    # "Thursday, 12th November", "Sat Oct 24", "wed 11/11" (not "friday 11": eleven o'clock)
    (
        "weekday_day",
        re.compile(
            rf"\b(?:({'|'.join(WEEKDAYS)}|{_WEEKDAY_CLEAR})|{_NOT_A_WORDS_PLACE}({_WEEKDAY_WORDS}))\b\.?,? "
            rf"(?:(the )?(\d{{1,2}})(st|nd|rd|th)?(?:,? (?:of )?{_MONTH_RE}\b\.?)?"
            rf"|{_MONTH_RE}\.? (\d{{1,2}})(?:st|nd|rd|th)?|(\d{{1,2}})/(\d{{1,2}}))"
            # a year said is day_month's ("Thursday, 12th November 2015"); a day of the month goes on as a
            # date does, not as a thing counted ("on Sunday, the 2nd half was awful", "I sat the 3rd
            # paper"), nor a fraction after a weekday that is a word too ("we sat 1/2 an hour")
            rf"(?![\w:/]|\.\d|\s*(?:am|pm|h)\b|,? \d{{4}})"
            rf"(?(7)|(?(9)(?(2)(?={_GOES_ON_AS_A_DATE}))|(?={_GOES_ON_AS_A_DATE})))",
            re.I,
        ),
    ),
    ("day_before", re.compile(r"\bthe day before yesterday\b", re.I)),
    ("day_after", re.compile(r"\bthe day after tomorrow\b", re.I)),
    ("ago", re.compile(rf"\b{_NUM} {_UNIT} ago\b", re.I)),
    ("in_n", re.compile(rf"\bin {_NUM} {_UNIT}\b", re.I)),
    ("yesterday", re.compile(r"\b(yesterday|last night)\b", re.I)),
    ("today", re.compile(r"\b(today|tonight|tonite|this (?:morning|afternoon|evening))\b", re.I)),
    # as people type it too ("tmrw: dentist 9am", "2moro")
    ("tomorrow", re.compile(rf"\b(?:{'|'.join(TOMORROW)}|(?-i:tmr))\b", re.I)),
    ("weekend", re.compile(rf"\b{_MODS} weekend\b", re.I)),
    (
        "part",
        re.compile(
            r"\b(?:the )?(end|start|beginning|middle) of (this|next|last|the) (week|month|year)\b", re.I
        ),
    ),
    (  # "the end of January", "the start of March 2027": a quarter of a named month
        "part_month",
        re.compile(rf"\b(?:the )?(end|start|beginning|middle) of {_MONTH_RE}(?:,? (\d{{4}}))?\b", re.I),
    ),
    ("period", re.compile(rf"\b{_MODS} (week|month|year)\b", re.I)),
    (  # not a range: "from Monday to Friday"; "next tue", "on thurs", "on sat!" (not "was sat", "for sun",
        # "on sun loungers", "this sat nav")
        "weekday",
        re.compile(
            rf"\b(?:{_MODS} |on |from |for |is |are |was |were )({'|'.join(WEEKDAYS)}|{_WEEKDAY_CLEAR}|"
            rf"(?:{_AFTER_A_MOD})(?:{_WEEKDAY_WORDS})(?={_GOES_ON_AS_A_DATE}))\b"
            r"(?!\s*(?:to|till|until|-)\s*\w+day\b)",
            re.I,
        ),
    ),
    (  # a weekday without a word before it, before a clock time ("Mammogram Tuesday at 8:15", "sat 10am";
        # "we sat at 2 tables": a weekday that is a word too needs a time said as one) or opening a sentence
        # before its subject ("Thursday I have the offsite", "Friday: dentist"; not "Sunday school")
        "weekday_bare",
        re.compile(
            rf"(?<!\bevery )(?<!\beach )\b(?:({'|'.join(WEEKDAYS)}|{_WEEKDAY_CLEAR})\b\.?,?"
            rf"(?= (?:at |@ ?)?(?:{_CLOCK_SAID}|{_CLOCK_DOTTED})| at \d{{1,2}}\b(?![.,:]?\d))"
            rf"|{_NOT_A_WORDS_PLACE}({_WEEKDAY_WORDS})\b,?(?= (?:at |@ ?)?(?:{_CLOCK_SAID}))"
            rf"|(?:^|(?<=[.!?]\s)|(?<=\n))({'|'.join(WEEKDAYS)})"  # or opening a sentence, before its subject
            rf"(?=[:,]?\s+(?:i|we|he|she|they|it|my|our|there)\b|:\s|\s[-–]\s(?!\s*(?:{'|'.join(WEEKDAYS)})))"
            r")",
            re.I,
        ),
    ),
    ("season", re.compile(rf"\b(?:{_MODS} |in (?:the )?)({'|'.join(SEASONS)})(?: of (\d{{4}}))?\b", re.I)),
    (  # not a time after a day ("3 Nov 15:30" is the 3rd)
        "month_day",
        re.compile(rf"\b{_MONTH_RE}\.? (\d{{1,2}})(?:st|nd|rd|th)?(?![:.]\d\d)(?:,? (\d{{4}}))?\b", re.I),
    ),
    ("day_month", re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)? (?:of )?{_MONTH_RE}(?:,? (\d{{4}}))?\b", re.I)),
    ("month_year", re.compile(rf"\b{_MONTH_RE} (\d{{4}})\b", re.I)),
    (
        "ordinal_day",
        re.compile(  # "on the 15th" (not "on the 5th floor")
            r"\b(?:on|from|until|till|by) the (\d{1,2})(?:st|nd|rd|th)\b"
            r"(?! (?:century|floor|time|times|grade|place|row|round|attempt|person|one|edition|anniversary|"
            r"birthday|bday|in line|street|st|ave|avenue|amendment|percentile|hole|inning|lap|level)\b)",
            re.I,
        ),
    ),
    (  # "bday is the 30th", "pushed to the 21st", "the weekend of the 19th", "a table for the 22nd": only
        # where the clause goes on as a date's would (not "the 3rd time", "the 2nd fastest", "Mom is the 3rd
        # of 5 kids", "What was the 3rd book?")
        "ordinal_day",
        re.compile(
            rf"\b(?:{'|'.join(ORDINAL_LEADS)}) the (\d{{1,2}})(?:st|nd|rd|th)\b"
            rf"(?={_GOES_ON_AS_A_DATE})",
            re.I,
        ),
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
        "ago", "yesterday", "night", "today", "tonight", "tonite", "morning", "afternoon", "evening",
        "tomorrow", "tmr", "tmw", "tomo", "tommo",
        "day", "week", "month", "year", *WEEKDAYS, *SEASONS, _MONTH_RE, "christmas", "new year", "halloween",
        "valentine",
    ]
)  # fmt: skip
_TRIGGER_WORDS += rf"|{WEEKDAY_SHORT}\b"  # whole words only: "friend", "sunny" would pass most texts
TRIGGER = re.compile(rf"\d|\b(?:{_TRIGGER_WORDS})")  # on lower-cased ASCII text (no case folding: faster)
TRIGGER_FOLDED = re.compile(rf"\d|\b(?:{_TRIGGER_WORDS})", re.I)  # other text: the patterns' own folding
