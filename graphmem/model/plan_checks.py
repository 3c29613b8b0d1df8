"""What a plan's value must be where the words of its pattern cannot tell (pure; used by
:func:`graphmem.model.fact_changes.plans`): an employer, not a friend joined ("I'm joining Sarah on Friday"),
a gym or a place of study; a place, not an app moved to ("Moving to Linux on Monday") or a week away ("Moving
to the Gold Coast on 3 March for a week of surfing"); a home got for oneself, not a holiday let or a
parent's."""

from __future__ import annotations

import re
from collections.abc import Callable

from graphmem.model.pattern_pieces import FOR_A_WHILE, MONTH, SEASON, TRIP, WEEKDAY, sentence_end
from graphmem.model.people import is_employer, is_organisation
from graphmem.model.places import is_place
from graphmem.model.plan_patterns import ACCEPTED, BE_AT, BOUGHT, GOT_HOME, JOINING, MOVING_ALONE, SIGNED

__all__ = ["PLAN_CHECKS"]

_TRIP = re.compile(TRIP + r"|\b(?:nights?|weeks?|tour\w*)\b", re.I)  # a holiday let's words, not a home's
_WORK_CUE = re.compile(
    r"\b(?:job|work|role|position|offer|contract|notice|resign\w*|leaving|left|quit\w*|hired|employer|"
    r"career|salary|start date|first day)\b",
    re.I,
)
# what a plan's value must be where its words do not say (graphmem.model.fact_changes.plans)
# (of the value and the match)
_STARTING_AT = re.compile(r"\bstart(?:ing)? at\b", re.I)
# a place of study started at: "I start at Lincoln in September, the course looks fun"
_STUDY = re.compile(
    r"\b(?:uni|university|college|school|course|degree|term|semester|students?|study\w*)\b", re.I
)
_A_JOB = re.compile(r"\b(?:job|position|role|post|contract|as an?)\b")


def _a_job_taken(value: str, match: re.Match[str]) -> bool:
    """An employer, or a place of study where the sentence says a job ("starting at Sheffield Hallam
    University on January 11th as a lecturer", "a position with the International School of Kigali")."""
    said = _A_JOB.search(match.string, match.start(), sentence_end(match.string, match.end()))
    return is_employer(value) or (is_organisation(value) and said is not None)


_FOR_A_WHILE = re.compile(rf"[^.!?\n]*?{FOR_A_WHILE}")
_FOR_SOMEONE = re.compile(
    r",?\s+for (?:my|our|his|her|their) (?:mum|mom|dad|parents|son|daughter|kids?|sister|brother)"
)
# a day said after a job accepted, in its sentence or the next (or the job is taken now: "I've accepted a job
# at Google, starting as a junior engineer")
_DAY_AHEAD = re.compile(
    r"[^.!?\n]*(?:[.!?\n]+[^.!?\n]*)?\b(?:\d|(?i:"
    rf"{MONTH}|{WEEKDAY}|next|tomorrow|{SEASON}|the new year)\b)"
)


PLAN_CHECKS: dict[int, Callable[[str, re.Match[str]], bool]] = {
    # "I'm joining Sarah on Friday", "... PureGym on the 1st"; one starts at a firm, seldom at a person: "I'll
    # be starting at Meta on December 1"
    id(JOINING): lambda v, m: (
        _a_job_taken(v, m)
        or is_employer(  # (a firm named like a person; like a town only in a message about work)
            v,
            first_name=_STARTING_AT.search(m.group()) is not None
            and _STUDY.search(m.string) is None
            and (not is_place(v) or _WORK_CUE.search(m.string) is not None),
        )
    ),
    # "Moving to Linux on Monday", "Moving to the Gold Coast on 3 March for a week of surfing"
    id(MOVING_ALONE): lambda v, m: is_place(v) and _FOR_A_WHILE.match(m.string, m.end()) is None,
    id(SIGNED): lambda v, m: is_employer(v),  # not "Signed with PureGym"
    id(BOUGHT): lambda v, m: is_place(v),
    id(GOT_HOME): lambda v, m: (  # (not "We found a house in Dundee for my mum")
        is_place(v) and _TRIP.search(m.string) is None and _FOR_SOMEONE.match(m.string, m.end()) is None
    ),
    # a job at a place of study is a job ("a position with the International School of Kigali"); an offer
    # alone from one may be a student's ("I accepted my offer from the University of Leeds")
    id(ACCEPTED): lambda v, m: _a_job_taken(v, m) and _DAY_AHEAD.search(m.string, m.end()) is not None,
    id(BE_AT): lambda v, m: is_employer(v) and _WORK_CUE.search(m.string) is not None,
}
