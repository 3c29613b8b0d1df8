"""Changes a turn states beside its values (pure; called by :func:`graphmem.model.fact_patterns.extract`):
someone else's place or work, plans stated ahead, called off or put off, a stay at home, a value given
"instead", a value corrected or a plan's changed, an ending, and the household's move to a place."""

from __future__ import annotations

import re

from graphmem.model.calloff_patterns import PUT_OFF, PUT_OFF_UNTIL, WITHDRAWN, WORDS
from graphmem.model.correction_patterns import said_corrections
from graphmem.model.ending_patterns import ENDING_CUES, ENDINGS, ENDINGS_CHECK
from graphmem.model.extracted import VAGUE, ExtractedFact, clean, fits
from graphmem.model.move_patterns import lower_calloffs, more_moves
from graphmem.model.pattern_pieces import NOT_SOMEONE
from graphmem.model.places import is_place
from graphmem.model.plan_checks import PLAN_CHECKS
from graphmem.model.plan_patterns import (
    AFTER_ALL,
    CORRECTED,
    HOUSEHOLD_MOVED,
    INSTEAD,
    PLANNABLE,
    PLANNED,
    PROGRESSIVE,
    REPLANNED,
    STAY_CUE,
    STAYED,
    THIRD,
    THIRD_PLANNED,
    THIRD_PUT_OFF,
    THIRD_WITHDRAWN,
)
from graphmem.model.planned import clause
from graphmem.model.stay_patterns import still_here
from graphmem.models import FactType

__all__ = ["about_others", "corrections", "endings", "household_moves", "plans", "withdrawals"]

Found = dict[tuple[FactType, str], ExtractedFact]
# words every pattern of about_others / withdrawals holds (lower case): a turn without one is not searched
_ABOUT_OTHERS_WORDS = re.compile(r"liv|mov|relocat|works")
# (withdrawals: any word of a pattern's own gate, calloff_patterns.WORDS, or of STAYED)
_PLAN_WORDS = re.compile("|".join(f"(?:{w.pattern})" for w in WORDS.values()) + "|stay|remain")
_PLANNED_WORDS = re.compile(  # plans (PLANNED)
    r"mov|relocat|liv|start|join|job|offer|role|position|post|signed|bought|closed on|completed on|"
    r"exchanged on|accepted|got|found|secured|landed|took|taken|be at"
)
_MOVE_WORDS = re.compile(
    r"mov|relocat|upped|emigrat|shift"
)  # household_moves (as written: "We moved", "Emma and I are moving")
_CORRECTION_WORDS = re.compile(r" not |meant|instead|rather than|[Nn]ot \w")  # corrections
# words of a clause whose "we" is a team, not a household; what says a move is to a product or for a meeting
_TEAM = re.compile(
    r"\b(?:at work|team|office|sprint|project|meeting|client|company|provider|platform|app)\b", re.I
)
_AS_OR_FOR_A_MEETING = re.compile(r"\s+(?:as|for (?:the|a|our) (?:meeting|call|launch|demo|standup|event))\b")
# a put-off says its new date after this ("pushed back to June", "is now January 8th", "moving on the 15th")
_WE = re.compile(r"[Ww]e\b")
_FOR = re.compile(r"\s+for\b")
_DATE_SAID = re.compile(r"(?: back| forward)? (?:to|until|till)\b| now\b| (?:on|in)\b")


def about_others(text: str, out: Found) -> None:
    """The place or work of someone the speaker names, keyed under them: stated (``THIRD``), planned
    (``THIRD_PLANNED``: a fact only with a date) or called off (``THIRD_WITHDRAWN``: no value needed)."""
    if _ABOUT_OTHERS_WORDS.search(text.lower()) is None:  # every pattern holds one (3/4 of turns none)
        return
    kinds = (
        (THIRD, ""),
        (THIRD_PLANNED, "@planned"),
        (THIRD_WITHDRAWN, "@withdrawn"),
        (THIRD_PUT_OFF, "@put_off"),
    )
    for patterns, kind in kinds:
        for pattern, relation in patterns:
            for m in pattern.finditer(text):
                who = m.group("kin_name") or m.group("name") or m.group("kin")
                obj = AFTER_ALL.sub("", clean(m.group("obj") or ""))
                named = bool(obj) and fits(relation, obj)
                # someone's plan put off, named, is a plan from the date after "until" (see withdrawals)
                withdraws = kind == "@withdrawn" or (kind == "@put_off" and not named)
                if who in NOT_SOMEONE or who.endswith("ing") or not (named or (withdraws and not obj)):
                    continue  # a withdrawal names a place, or none ("Having moved to ..." is no one)
                fact = ExtractedFact(
                    relation, obj if named else "", FactType.PROFILE, subject=who, span=m.span(),
                    ahead=PROGRESSIVE.search(m.group()) is not None,
                    withdraws=withdraws, put_off=kind == "@put_off", planned=kind in ("@planned", "@put_off"),
                )  # fmt: skip
                out[(fact.fact_type, f"{who}/{relation}{kind}")] = fact


def withdrawals(text: str, out: Found) -> None:
    """Plans called off (``WITHDRAWN``), and the pending plan of a key given a new value "instead"."""
    still_here(text, out)  # "still in Geneva till then": the value held while a plan waits
    lower_calloffs(text, out)  # "berlin's off", "nah scrap cardiff"
    lower = text.lower()
    if _PLAN_WORDS.search(lower) is None:  # every pattern below holds one (filters per pattern: WORDS)
        _instead(text, out)
        return
    for patterns, kind in ((WITHDRAWN, "@withdrawn"), (PUT_OFF, "@put_off"), (PUT_OFF_UNTIL, "@put_off")):
        for pattern, key in patterns:
            for m in pattern.finditer(text) if WORDS[id(pattern)].search(lower) else ():
                named = AFTER_ALL.sub("", clean(m.groupdict().get("obj") or ""))
                if named and not fits(key, named):  # not a place or employer: "with that", "Python 3"
                    continue
                said = out.get((FactType.PROFILE, f"{key}{kind}"))
                if said is not None and said.span is not None and said.span[0] > m.start():
                    continue  # the last one said stands ("pushed back to June. No, not until July.")
                # a put-off dated after its verb (a call-off is one whatever follows: "I'm not moving now")
                dated = kind == "@put_off" and _DATE_SAID.match(text, m.end()) is not None
                out[(FactType.PROFILE, f"{key}{kind}")] = ExtractedFact(
                    # "I'm not moving to Leeds until June" names a plan from June (re-dating a pending one of
                    # Leeds); unnamed, or "the move to X was postponed", it only puts a pending plan off
                    key, named, FactType.PROFILE, withdraws=not (named and patterns is PUT_OFF_UNTIL),
                    put_off=kind == "@put_off", span=m.span(), planned=patterns is PUT_OFF_UNTIL or dated,
                    # a put-off only with its date: "not until ...", "pushed back to the end of June" (unread)
                )  # fmt: skip
    for m in STAYED.finditer(text):  # where the speaker stays, when the sentence says it ended so
        start, end = clause(text, m.span())
        if STAY_CUE.search(text, start, end) and fits("location", place := clean(m.group("obj"))):
            out[(FactType.PROFILE, "location@stays")] = ExtractedFact(
                "location", place, FactType.PROFILE, withdraws=True, stays=True, span=m.span()
            )
    _instead(text, out)


def _instead(text: str, out: Found) -> None:
    """The pending plan of a key given a new value "instead" ("I'm moving to Oslo in May instead") is off
    first (of the one named "instead of" only)."""
    for f in list(out.values()):  # "I'm moving to Oslo in May instead": the pending plan is off first
        if f.key in PLANNABLE and not (f.ends or f.withdraws) and f.span is not None:
            start, end = clause(text, f.span)
            instead = INSTEAD.search(text, start, end)
            if instead is not None:  # "instead of Manchester": only a plan it names
                key = f"{f.subject}/{f.key}" if f.subject else f.key
                named = clean(instead.group("obj") or "")
                off = ExtractedFact(
                    f.key, named, FactType.PROFILE, withdraws=True, subject=f.subject, span=f.span
                )
                out.setdefault((FactType.PROFILE, f"{key}@withdrawn"), off)


def household_moves(text: str, out: Found) -> None:
    """ "We moved to Harrogate", "Emma and I are moving to Bath in March": the household's move, to a place
    it names (not "we moved to Slack"), where the turn states no other home."""
    if _MOVE_WORDS.search(text) is None:
        return
    for m in HOUSEHOLD_MOVED.finditer(text):
        we = _WE.match(m.group()) is not None  # not "my wife and I" nor "Wendy and I", who are no team
        if (we and _TEAM.search(text, *clause(text, m.span()))) or _AS_OR_FOR_A_MEETING.match(text, m.end()):
            continue  # a team's or a product's "we": "At work we moved to Phoenix", "... to Orange as ..."
        # "we're moving" or "we move to Galway on the 9th" read a bare date ahead; "we'll be moving" is a plan
        # only with a date; either stands beside a home the turn states ("We live in Houston, but ...")
        ahead = PROGRESSIVE.search(m.group()) is not None or (m["now"] is not None and not m["will"])
        slot = (FactType.PROFILE, "location" + ("@planned" if m["will"] else "@ahead" if ahead else ""))
        if slot not in out and is_place(place := clean(m["obj"])):
            out[slot] = ExtractedFact(
                "location", place, FactType.PROFILE, ahead=ahead, planned=m["will"] is not None, span=m.span()
            )


def corrections(text: str, out: Found) -> None:
    """ "Sorry, I meant Liverpool, not Manchester": the right value for each key a plan can hold; the
    planner applies it to the key whose value or plan the wrong one names (FactInput.corrects); then those
    said in other words (:mod:`graphmem.model.correction_patterns`)."""
    found: list[tuple[re.Match[str], bool]] = []
    if _CORRECTION_WORDS.search(text) is not None:
        found = [(m, False) for p in CORRECTED for m in p.finditer(text)]
        found += [(m, True) for p in REPLANNED for m in p.finditer(text)]
    for m, replans in found:
        for key in PLANNABLE:
            fixed = ExtractedFact(
                key, m["obj"], FactType.PROFILE, corrects=m["wrong"], replans=replans, span=m.span()
            )
            out.setdefault((FactType.PROFILE, f"{key}@corrects"), fixed)
    said_corrections(text, out)  # (a slot taken above stands: the wrong value it names)
    for key in PLANNABLE:  # the right value is stated once, as the correction ("... I actually work at X")
        right, plain = out.get((FactType.PROFILE, f"{key}@corrects")), out.get((FactType.PROFILE, key))
        if right is not None and plain is not None and right.value == plain.value:
            del out[(FactType.PROFILE, key)]


def plans(text: str, out: Found) -> None:
    """Changes stated ahead (``PLANNED``): a fact only with a date, kept beside a present value of the key
    ("I live in Leeds but I'll ..."); the same words read as present too are dropped (it starts later);
    then moves for good or by one's employer (:func:`graphmem.model.move_patterns.more_moves`)."""
    more_moves(text, out)
    if _PLANNED_WORDS.search(text.lower()) is None:  # every pattern holds one (4/5 of turns none)
        return
    for pattern, key in PLANNED:
        for m in pattern.finditer(text):
            obj = clean(m.group("obj"))
            check = PLAN_CHECKS.get(id(pattern))
            if obj and fits(key, obj) and (check is None or check(obj, m)):
                plan = ExtractedFact(key, obj, FactType.PROFILE, span=m.span(), planned=True)
                out[(FactType.PROFILE, f"{key}@planned")] = plan
                now = out.get((FactType.PROFILE, key))
                if now is not None and now.value == obj and m.start() <= (now.span or (-1, 0))[0] < m.end():
                    del out[(FactType.PROFILE, key)]


def endings(text: str, out: Found) -> None:
    """ "I no longer live in Leeds", "I quit my job": the value named ends (none named: the current one),
    unless the turn states a value of the key."""
    if not ENDINGS_CHECK.search(text):
        return
    for pattern, key in ENDINGS:
        if (cue := ENDING_CUES.get(id(pattern))) is not None and cue.search(text) is None:
            continue  # "Last day was Friday, the beach was lovely": no job's words
        for m in pattern.finditer(text):
            named = m.groupdict()  # none: the current value, whatever it is
            obj = clean(named.get("obj") or named.get("firm") or named.get("town") or "")
            if key == "employer":  # "I left Deloitte for Monzo": Deloitte ends
                obj, *then = _FOR.split(obj)
                if then and is_place(obj) and is_place(clean(then[0])):
                    continue  # "I left Leeds for Bath": a home left, no employer (not "I left Nokia")
                if obj and not (obj[0].isupper() or obj.startswith("the ")):
                    continue  # a firm's name: not "Quit smoking last year!", "Left at the lights"
            if key == "location" and obj[:1].islower() and not is_place(obj):
                continue  # a town typed in lower case: "moved out of brighton" (not "moved out of bed")
            if obj.lower() not in VAGUE and (FactType.PROFILE, key) not in out:
                out[(FactType.PROFILE, key)] = ExtractedFact(
                    key, obj, FactType.PROFILE, ends=True, span=m.span()
                )
