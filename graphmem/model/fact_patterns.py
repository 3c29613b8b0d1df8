"""Facts stated in a sentence, without an LLM: the patterns (``I live in Lisbon``, ``I no longer eat meat``)
and what they give (pure). Planning their versions is :mod:`graphmem.model.facts`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from graphmem.model.ending_patterns import ENDINGS, ENDINGS_CHECK
from graphmem.model.facts import normalize_value
from graphmem.model.pattern_pieces import (
    A_TIME,
    AND,
    END,
    I_AND,
    INNER_STOP,
    JOB,
    MOVE_TO,
    MOVED_HOME,
    NAMED,
    NO_EMPLOYER,
    NOT_SOMEONE,
    OBJ,
    PLACE,
    PLACE_END,
    SHIFT,
    SPEAKER,
    STOP,
    THEN_TO,
    TO_CONJUNCTION,
    US,
    shield,
)
from graphmem.model.plan_patterns import (
    AFTER_ALL,
    CORRECTED,
    INSTEAD,
    PLANNABLE,
    PLANNED,
    PROGRESSIVE,
    PUT_OFF,
    PUT_OFF_UNTIL,
    STAY_CUE,
    STAYED,
    THIRD,
    THIRD_PLANNED,
    THIRD_PUT_OFF,
    THIRD_WITHDRAWN,
    WITHDRAWN,
)
from graphmem.model.planned import clause, supposed
from graphmem.models import FactType

# --- extraction ------------------------------------------------------------------------------------
_PATTERNS: list[tuple[FactType, re.Pattern[str], str | None]] = [
    # (fact_type, pattern, key template; None for "preference:<object>" with the verb as value)
    (
        FactType.PROFILE,
        re.compile(r"\b(?:[Mm]y name(?: is|'s)|[Cc]all me)\s+(?P<val>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)"),
        "name",
    ),
    # a greeting's introduction: "Hi! I'm Maya", "Hello, I am John Smith" (not "I'm Italian": no greeting)
    (
        FactType.PROFILE,
        re.compile(
            r"\b(?:[Hh]i|[Hh]ello|[Hh]ey|[Hh]iya)(?: there| all| everyone)?[!,.]*\s+I(?:'m| am)\s+"
            r"(?P<val>[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)?)\b"
        ),
        "name",
    ),
    (
        FactType.PROFILE,
        re.compile(
            rf"(?:\b(?:I live|I'm living|I am living|I now live)|{AND} (?:now )?live|{US} (?:live|living))"
            rf" in\s+{NAMED}{PLACE}{PLACE_END}"
        ),
        "location",
    ),
    # a change of place: "moving from Leeds to Manchester", "I moved to York", "I'm relocating to Oslo"
    (
        FactType.PROFILE,
        re.compile(
            rf"(?:{SPEAKER} (?:moved|moving|relocated|relocating|relocate|move)|{US} {MOVED_HOME}){MOVE_TO}"
            rf"{THEN_TO}?"  # "... to Paris in 2015 and then to Berlin in 2019": the last place
        ),
        "location",
    ),
    # "I've settled into my flat in Ancoats, Manchester", "we settled in Bristol"
    (
        FactType.PROFILE,
        re.compile(
            rf"\b(?:I|[Ww]e)(?:'ve| have)?(?: just| finally| now)? (?:settled (?:in|into)"
            rf"(?: [^.,;!?\n]{{2,40}}? in)?|moved into [^.,;!?\n]{{2,40}}? in)\s+{NAMED}{PLACE}{PLACE_END}"
        ),
        "location",
    ),
    (
        FactType.PROFILE,
        # "I'm working at Google", not a shift: "I'm working at Glastonbury this weekend", "... at Christmas"
        re.compile(
            rf"(?:(?:\bI|{AND}) (?:now |currently )?work|\bI(?:'m| am) (?:now |currently )?working"
            rf"(?= (?:at|for)\s+{NAMED})(?!{TO_CONJUNCTION}\b(?:{SHIFT})\b)) (?:at|for)\s+{OBJ}{END}"
        ),
        "employer",
    ),
    (  # "I left Acme last week to join Spotify", "I left Acme and joined Google"
        FactType.PROFILE,
        re.compile(
            rf"\bI(?:'ve| have)? (?:just )?left (?=[A-Z])[^.,;!?\n]{{2,60}}? (?:to join|and joined)\s+"
            rf"{NAMED}{OBJ}{END}"
        ),
        "employer",
    ),
    (  # "I joined Acme as a designer", "I started at Acme as an intern"
        FactType.PROFILE,
        re.compile(rf"{I_AND} (?:joined|started (?:working )?(?:at|for))\s+(?!{JOB}){OBJ} as an? \w+"),
        "employer",
    ),
    (  # "I moved to Leeds for a new job at the BBC", "I'm relocating for a job with Google" (not "I applied
        # for a job at ...": only a move or a leave is for a job taken)
        FactType.PROFILE,
        re.compile(
            rf"{SPEAKER} (?:moved|moving|relocated|relocating|came|left|quit)\b[^.!?\n]{{0,60}}? for {JOB}"
            rf"(?:at|with)\s+{OBJ}{END}"
        ),
        "employer",
    ),
    (  # "I started a new job at Spotify last week", "I've got a job with the BBC"
        FactType.PROFILE,
        re.compile(rf"{I_AND} (?:started|got|took|accepted|landed) {JOB}(?:at|with)\s+{OBJ}{END}"),
        "employer",
    ),
    (  # "I work as a nurse at St. Mary's hospital": the role, then where
        FactType.PROFILE,
        re.compile(
            rf"(?:(?:\bI|{AND}) (?:now |currently )?work|\bI(?:'m| am) (?:now |currently )?working"
            rf"(?!{TO_CONJUNCTION}\b(?:{SHIFT})\b)) as an?\s+{OBJ}"
            rf"(?=\s+(?:{STOP}|at|while)\b|[.,;!?\n]|$)"
        ),
        "occupation",
    ),
    (
        FactType.PROFILE,
        re.compile(rf"(?:\bI|{AND}) (?:now |currently )?work as an? [^.,;!?\n]{{2,60}}? at\s+{OBJ}{END}"),
        "employer",
    ),
    (  # the role of a job taken or joined: "... started a new job at Spotify as a data engineer"
        FactType.PROFILE,
        re.compile(
            rf"{I_AND} (?:(?:started|got|took|accepted|landed) {JOB}|joined |"
            rf"started (?:working )?(?:at|for) )"
            rf"[^.!?\n]{{0,60}}?\bas an?\s+{OBJ}{END}"
        ),
        "occupation",
    ),
    (FactType.PROFILE, re.compile(r"\bI(?:'m| am) (?P<val>\d{1,3}) years old"), "age"),
    (  # "I'm vegetarian", "I'm a vegan now", "so I'm pescatarian now": one diet at a time
        FactType.PROFILE,
        re.compile(
            r"\bI(?:'m| am)(?: now| currently| still| mostly| strictly)?(?: an?)? (?P<val>vegetarian|vegan|"
            r"pescatarian|pescetarian|flexitarian|carnivore|omnivore)\b"
            r"(?! (?:food|recipes?|restaurants?|options?))",
            re.IGNORECASE,
        ),
        "diet",
    ),
    (FactType.PROFILE, re.compile(rf"\bI(?:'m| am) allergic to\s+{OBJ}{END}"), "allergy:{obj}"),
    (
        FactType.PREFERENCE,
        re.compile(rf"\b[Mm]y fav(?:ou?rite) (?P<what>[a-z ]{{2,30}}?) is\s+{OBJ}{END}"),
        "favorite:{what}",
    ),
    (
        FactType.PREFERENCE,
        re.compile(
            rf"\bI (?:really |absolutely |just |also )?(?P<verb>love|like|enjoy|adore|hate|dislike|prefer|"
            rf"can't stand|don't like|do not like)\s+{OBJ}{END}"
        ),
        None,
    ),
    (
        FactType.RULE,
        re.compile(rf"(?:^|[.!?]\s+|\bplease\s+)(?P<verb>[Aa]lways|[Nn]ever)\s+{OBJ}{END}"),
        None,
    ),
]
# words every pattern of _about_others / _withdrawals holds (lower case): a turn without one is not searched
_ABOUT_OTHERS_WORDS = re.compile(r"liv|mov|relocat|works")
_PLAN_WORDS = re.compile(r"mov|relocat|job|position|role|offer|start|stay|remain|tak|join")
_VERB_VALUE = {"can't stand": "hate", "don't like": "dislike", "do not like": "dislike", "adore": "love"}
_VAGUE = frozenset({"it", "that", "this", "them", "you", "to", "so", "a lot", "the idea", "that idea"})


_DATE_SAID = re.compile(r"(?: back)? (?:to|until|till)\b")  # a put-off says its new date after this


def _fits(key: str, value: str) -> bool:
    """Whether ``value`` can be ``key``'s: not vague ("it"), at most six words, a place without digits
    ("Python 3", "Table 5"), an employer not a time or a where ("9 tomorrow", "home")."""
    if value.lower() in _VAGUE or len(value.split()) > 6:
        return False
    if key == "location":
        return not any(c.isdigit() for c in value)
    return key != "employer" or not (value.lower() in NO_EMPLOYER or A_TIME.fullmatch(value))


@dataclass(frozen=True)
class ExtractedFact:
    key: str
    value: str
    fact_type: FactType
    ends: bool = False  # "no longer": the value stated ends (see FactInput.ends)
    planned: bool = field(default=False, compare=False)  # stated in the future tense: a fact only with a date
    # stated in the progressive ("I'm moving to York in March"): a bare month or weekday of its clause is the
    # coming one (graphmem.model.planned); without a date it holds from when it was said
    ahead: bool = field(default=False, compare=False)
    withdraws: bool = False  # "I'm not moving to Oslo after all": the key's pending plan is off (FactInput)
    # "the move got pushed back to June" (with ``withdraws``): planned again from the date said after the verb
    # (graphmem.model.planned.moved_start; called off when none is said)
    put_off: bool = False
    stays: bool = False  # "I ended up staying in Leeds" (with ``withdraws``): see FactInput.stays
    corrects: str | None = None  # "Sorry, I meant Leeds, not Leicester": the value named wrong (FactInput)
    subject: str | None = None  # someone other than the speaker ("Emma lives in Lisbon"): keyed under them
    # where in the turn it was stated (graphmem.model.planned.fact_start reads its clause); not its identity
    span: tuple[int, int] | None = field(default=None, compare=False)


def _clean(obj: str) -> str:
    obj = re.sub(r"^(?:the|a|an|my)\s+", "", obj.strip(), flags=re.IGNORECASE)
    return re.sub(r"\s+(?:too|as well|a lot|so much|very much)$", "", obj).strip()


def extract(text: str) -> list[ExtractedFact]:
    """Facts a turn states: the speaker's own preferences, profile and rules (first person), and the place
    or work of someone they name (``subject``)."""
    return [
        replace(f, key=f.key.replace(INNER_STOP, "."), value=f.value.replace(INNER_STOP, "."))
        for f in _extract(shield(text))
    ]


def _extract(text: str) -> list[ExtractedFact]:
    out: dict[tuple[FactType, str], ExtractedFact] = {}
    for fact_type, pattern, template in _PATTERNS:
        for m in pattern.finditer(text):
            groups = m.groupdict()
            if template is None:
                verb = groups["verb"].lower()
                obj = _clean(groups["obj"])
                if not obj or obj.lower() in _VAGUE or len(obj.split()) > 6:
                    continue
                kind = "rule" if fact_type is FactType.RULE else "preference"
                fact = ExtractedFact(
                    f"{kind}:{normalize_value(obj)}", _VERB_VALUE.get(verb, verb), fact_type, span=m.span()
                )
            else:
                obj = _clean(groups.get("then") or groups.get("obj") or "")
                what = normalize_value(groups.get("what") or "")
                value = groups.get("val") or obj
                if not value or not _fits(template, value):
                    continue
                key = template.format(obj=normalize_value(obj), what=what)
                ahead = PROGRESSIVE.search(m.group()) is not None
                fact = ExtractedFact(
                    key, "yes" if "{obj}" in template else value, fact_type, ahead=ahead, span=m.span()
                )
            # two values of a key in a turn: the one said last (a move ahead stands beside the present value)
            where = (fact.fact_type, fact.key + ("@ahead" if fact.ahead else ""))
            kept = out.get(where)
            if kept is None or (kept.span or (0, 0))[1] <= (fact.span or (0, 0))[1]:
                out[where] = fact
    _about_others(text, out)
    for pattern, key in PLANNED:  # kept beside a present value of the key: "I live in Leeds but I'll ..."
        for m in pattern.finditer(text):
            obj = _clean(m.group("obj"))
            if obj and _fits(key, obj):
                plan = ExtractedFact(key, obj, FactType.PROFILE, span=m.span(), planned=True)
                out[(FactType.PROFILE, f"{key}@planned")] = plan
                now = out.get((FactType.PROFILE, key))  # its phrase read as present too: it starts later
                if now is not None and now.value == obj and m.start() <= (now.span or (0, 0))[0] < m.end():
                    del out[(FactType.PROFILE, key)]
    if ENDINGS_CHECK.search(text):
        for pattern, key in ENDINGS:
            for m in pattern.finditer(text):
                obj = _clean(m.groupdict().get("obj") or "")  # none: the current value, whatever it is
                if obj.lower() not in _VAGUE and (FactType.PROFILE, key) not in out:
                    out[(FactType.PROFILE, key)] = ExtractedFact(
                        key, obj, FactType.PROFILE, ends=True, span=m.span()
                    )
    _withdrawals(text, out)
    for m in (m for pattern in CORRECTED for m in pattern.finditer(text)):  # for the key it names wrong
        for key in PLANNABLE:
            fixed = ExtractedFact(key, m["obj"], FactType.PROFILE, corrects=m["wrong"], span=m.span())
            out.setdefault((FactType.PROFILE, f"{key}@corrects"), fixed)
    for where, f in list(out.items()):  # "Should I move to Berlin?", "If I moved to Berlin, ...": no state
        if f.fact_type is FactType.PROFILE and f.span is not None and supposed(text, f.span):
            del out[where]
    # in the order said (a plan called off after it is stated is off); a withdrawal before the value "instead"
    return sorted(out.values(), key=lambda f: ((f.span or (0, 0))[0], not f.withdraws))


def _about_others(text: str, out: dict[tuple[FactType, str], ExtractedFact]) -> None:
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
                obj = AFTER_ALL.sub("", _clean(m.group("obj") or ""))
                fits = bool(obj) and _fits(relation, obj)
                # someone's plan put off, named, is a plan from the date after "until" (see _withdrawals)
                withdraws = kind == "@withdrawn" or (kind == "@put_off" and not fits)
                if who in NOT_SOMEONE or not (fits or (withdraws and not obj)):
                    continue  # a withdrawal names a place, or none
                fact = ExtractedFact(
                    relation, obj if fits else "", FactType.PROFILE, subject=who, span=m.span(),
                    ahead=PROGRESSIVE.search(m.group()) is not None,
                    withdraws=withdraws, put_off=kind == "@put_off", planned=kind in ("@planned", "@put_off"),
                )  # fmt: skip
                out[(fact.fact_type, f"{who}/{relation}{kind}")] = fact


def _withdrawals(text: str, out: dict[tuple[FactType, str], ExtractedFact]) -> None:
    """Plans called off (``WITHDRAWN``), and the pending plan of a key given a new value "instead"."""
    if _PLAN_WORDS.search(text.lower()) is None:  # every pattern below holds one
        _instead(text, out)
        return
    for patterns, kind in ((WITHDRAWN, "@withdrawn"), (PUT_OFF, "@put_off"), (PUT_OFF_UNTIL, "@put_off")):
        for pattern, key in patterns:
            for m in pattern.finditer(text):
                named = AFTER_ALL.sub("", _clean(m.groupdict().get("obj") or ""))
                if named and not _fits(key, named):  # not a place or employer: "with that", "Python 3"
                    continue
                said = out.get((FactType.PROFILE, f"{key}{kind}"))
                if said is not None and said.span is not None and said.span[0] > m.start():
                    continue  # the last one said stands ("pushed back to June. No, not until July.")
                out[(FactType.PROFILE, f"{key}{kind}")] = ExtractedFact(
                    # "I'm not moving to Leeds until June" names a plan from June (re-dating a pending one of
                    # Leeds); unnamed, or "the move to X was postponed", it only puts a pending plan off
                    key, named, FactType.PROFILE, withdraws=not (named and patterns is PUT_OFF_UNTIL),
                    put_off=kind == "@put_off", span=m.span(),
                    planned=patterns is PUT_OFF_UNTIL or _DATE_SAID.match(text, m.end()) is not None,
                    # a fact only with its date: "not until ...", "pushed back to the end of June" (unread)
                )  # fmt: skip
    for m in STAYED.finditer(text):  # where the speaker stays, when the sentence says it ended so
        start, end = clause(text, m.span())
        if STAY_CUE.search(text, start, end) and _fits("location", place := _clean(m.group("obj"))):
            out[(FactType.PROFILE, "location@stays")] = ExtractedFact(
                "location", place, FactType.PROFILE, withdraws=True, stays=True, span=m.span()
            )
    _instead(text, out)


def _instead(text: str, out: dict[tuple[FactType, str], ExtractedFact]) -> None:
    """The pending plan of a key given a new value "instead" ("I'm moving to Oslo in May instead") is off
    first (of the one named "instead of" only)."""
    for f in list(out.values()):  # "I'm moving to Oslo in May instead": the pending plan is off first
        if f.key in PLANNABLE and not (f.ends or f.withdraws) and f.span is not None:
            start, end = clause(text, f.span)
            instead = INSTEAD.search(text, start, end)
            if instead is not None:  # "instead of Manchester": only a plan it names
                key = f"{f.subject}/{f.key}" if f.subject else f.key
                named = _clean(instead.group("obj") or "")
                off = ExtractedFact(
                    f.key, named, FactType.PROFILE, withdraws=True, subject=f.subject, span=f.span
                )
                out.setdefault((FactType.PROFILE, f"{key}@withdrawn"), off)


def memory_type_hint(extracted: list[ExtractedFact]) -> str | None:
    """A memory stating a preference is a preference memory; a rule is procedural; a profile fact semantic."""
    kinds = {f.fact_type for f in extracted}
    if FactType.PREFERENCE in kinds:
        return "preference"
    if FactType.RULE in kinds:
        return "procedural"
    if FactType.PROFILE in kinds:
        return "semantic"
    return None


def with_subject(fact: ExtractedFact, subject: str | None) -> ExtractedFact:
    """Key a fact under whom it is about: someone the speaker named (``Emma/location``), else the speaker when
    a conversation names its speakers (``Caroline/location``)."""
    who = fact.subject or subject
    return fact if not who else replace(fact, key=f"{who}/{fact.key}")
