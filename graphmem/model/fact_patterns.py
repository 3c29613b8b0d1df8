"""Facts stated in a sentence, without an LLM: the patterns (``I live in Lisbon``, ``I no longer eat meat``)
and what they give (pure). Planning their versions is :mod:`graphmem.model.facts`."""

from __future__ import annotations

import re
from dataclasses import replace

from graphmem.model.elided import restore
from graphmem.model.extracted import ExtractedFact, clean, fits, standing
from graphmem.model.fact_changes import (
    about_others,
    corrections,
    endings,
    household_moves,
    plans,
    withdrawals,
)
from graphmem.model.facts import normalize_value
from graphmem.model.pattern_pieces import (
    AND,
    AND_NAME,
    AS_A_ROLE,
    END,
    FIRM,
    FOR_A_WHILE,
    FOR_AN_EVENT,
    I_AND,
    INNER_STOP,
    JOB,
    MOVE_TO,
    MOVED_HOME,
    NAMED,
    NAMED_PLACE,
    NOT_A_DEPARTMENT,
    NOT_A_JOB_NOW,
    OBJ,
    PLACE,
    PLACE_END,
    SHIFT,
    SPEAKER,
    STOP,
    THEN_TO,
    TO_CONJUNCTION,
    US,
    WHEN,
    compile_rule,
    shield,
)
from graphmem.model.people import firm_and_place, name_only
from graphmem.model.places import is_place, narrower
from graphmem.model.plan_patterns import PROGRESSIVE
from graphmem.model.planned import supposed
from graphmem.model.prose import prose
from graphmem.model.relation_endings import said_of_people
from graphmem.model.state_patterns import CHECKS, GATE, PATTERNS, WORDS
from graphmem.models import FactType

__all__ = ["ExtractedFact", "extract"]

# the words a pattern needs (lower case), by the pattern's id, for those that cost most to search: a turn
# without any is not searched (tests/test_everyday_regressions.py turns the filters off: the same facts)
_WORDS: dict[int, re.Pattern[str]] = {}


def _needs(words: str, pattern: re.Pattern[str]) -> re.Pattern[str]:
    """``pattern``, searched only in a turn holding one of ``words``."""
    _WORDS[id(pattern)] = compile_rule(words)
    return pattern


# where in the employer, not its name: "Unilever in the marketing team", "Bank of America at the branch"
# (a lower-case word follows; not "Theatre in the Park", "Pizza on the Park")
# the speaker's home, then a comma: "I live in Glasgow, work at the BBC", "I'm in Cape Town, working at
# Takealot" (not "I met Tom, working at Google now", "I think so, working at Google sounds fun")
_NOW = r"(?:now |currently |actually |also |still )?"  # "I actually work for Lloydspharmacy"
_HOURS = r"(?: remotely| full[- ]time| part[- ]time| in [A-Z][\w'-]*(?: [A-Z][\w'-]*)?(?= at| for))?"
_I_COMMA = (
    r"\bI(?: live| am living|'m living|'m based| am based|'m| am) in (?=[A-Z])[^.!?,;\n]{2,40},(?: and)?"
)
_EMPLOYER_TAIL = compile_rule(r"\s+(?:in|on|at) (?:the|a|an|my|our|their|its|his|her)\s(?=.*\b[a-z])")
_TIME_TAIL = compile_rule(
    rf"\s+(?:{WHEN}|last|this|next|for (?:\S+ )?(?:\S+ )?(?:years?|months?|weeks?|ages)\b)\b"
)

# --- extraction ------------------------------------------------------------------------------------
_PATTERNS: list[tuple[FactType, re.Pattern[str], str | None]] = [
    # (fact_type, pattern, key template; None for "preference:<object>" with the verb as value)
    (
        FactType.PROFILE,
        compile_rule(r"\b(?:[Mm]y name(?: is|'s)|[Cc]all me)\s+(?P<val>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)"),
        "name",
    ),
    # a greeting's introduction: "Hi! I'm Maya", "Hello, I am John Smith" (not "I'm Italian": no greeting)
    (
        FactType.PROFILE,
        compile_rule(
            r"\b(?:[Hh]i|[Hh]ello|[Hh]ey|[Hh]iya)(?: there| all| everyone)?[!,.]*\s+I(?:'m| am)\s+"
            r"(?P<val>[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)?)\b"
        ),
        "name",
    ),
    (
        FactType.PROFILE,
        _needs(
            r"liv",
            compile_rule(
                rf"(?:\b(?:I live|I(?:'m| am)(?: currently| now| still)? living|I now live)|"
                rf"{AND} (?:now )?live|{US} (?:live|living))"
                rf" in\s+{NAMED}{PLACE}{PLACE_END}"
            ),
        ),
        "location",
    ),
    (  # "I'm based in Denver" (or "out of Denver"), "Living in Glasgow these days", "I'm a teacher at
        # Nairobi Academy, living in Nairobi": a named place only (not "based in marketing", "Living in
        # denial", "Living in London has changed me", "Living in Spain for a month was fun")
        FactType.PROFILE,
        _needs(
            r"based|living|renting",
            compile_rule(
                r"(?:\bI(?:'m| am)(?: currently| now| still)? based|"
                r"(?:^|[.!?]\s+|\bI\b[^.!?\n]{0,80}?(?:,\s+(?:and |but )?|\s+but\s+))(?:Currently |Still )?"
                r"(?:[Ll]iving|[Rr]enting)|"
                r"\bI(?:'m| am) an? [\w-]+(?: [\w-]+)? living)"
                rf" (?:in|out of)\s+{NOT_A_DEPARTMENT}{NAMED_PLACE}{PLACE_END}(?!{FOR_A_WHILE})"
            ),
        ),
        "location",
    ),
    # a change of place: "moving from Leeds to Manchester", "I moved to York", "I'm relocating to Oslo"
    (
        FactType.PROFILE,
        _needs(
            r"mov|relocat|shift",
            compile_rule(
                rf"(?:(?:{SPEAKER}|(?P<and>{AND})) (?:moved|moving|relocated|relocating|relocate|move|"
                rf"shifted|shifting|made the move)|"
                rf"{US} {MOVED_HOME})"
                rf"{MOVE_TO}"
                rf"{THEN_TO}?"  # "... to Paris in 2015 and then to Berlin in 2019": the last place
            ),
        ),
        "location",
    ),
    # "I've settled into my flat in Ancoats, Manchester", "we settled in Bristol", "Settled into Tacoma
    # finally", "We rent a flat in Brighton"
    (
        FactType.PROFILE,
        compile_rule(
            rf"(?:\b(?:I|[Ww]e)(?:'ve| have)?(?: just| finally| now)? |"
            rf"(?:^|[.!?]\s+)(?:(?:[Jj]ust|[Ff]inally) )?)"
            rf"(?:(?-i:[Ss])ettled (?:in|into)"
            rf"(?: [^.,;!?\n]{{2,40}}? in)?|moved into [^.,;!?\n]{{2,40}}? in)\s+"
            # (not a stay: "Settled into Seattle for the conference", "... Rome for the week")
            r"(?![^.!?\n]*\bfor (?:the|a|an|one|two|three|a few) (?:\w+ )?"
            r"(?:conference|week|weekend|night|trip|"
            r"holidays?|days?|month|summer|festival|course)\b)"
            rf"{NAMED}{PLACE}{PLACE_END}"
        ),
        "location",
    ),
    (  # "We rent a flat in Brighton" (a named place; not "a place in Spain every summer", "a house in
        # Cornwall for the holidays", "a house in France that we visit")
        FactType.PROFILE,
        compile_rule(
            r"\b(?:I|[Ww]e)(?: just| now)? (?:rent|own|share) (?:a|an|our|my) (?:[a-z]+ ){0,2}?"
            rf"(?:flat|house|apartment|place|home|room) in\s+{NAMED_PLACE}{PLACE_END}"
            rf"(?!{FOR_A_WHILE}|\s+(?:for (?:the )?(?:holidays?|summer)|as an? (?:holiday|second|summer))\b)"
        ),
        "location",
    ),
    (
        FactType.PROFILE,
        # "I'm working at Google", not a shift: "I'm working at Glastonbury this weekend", "... at Christmas"
        _needs(
            r"work",
            compile_rule(
                rf"(?:(?:\bI|{AND}|{_I_COMMA}) {_NOW}work{_HOURS}|"
                rf"(?:\bI(?:'m| am)|{_I_COMMA}) {_NOW}working{_HOURS}"
                rf"(?= (?:at|for)\s+{NAMED})(?!{TO_CONJUNCTION}\b(?:{SHIFT})\b)) (?:at|for)\s+{OBJ}{END}"
                r"(?!\s+(?:is|sounds|was|seems)\b)"  # the job as a subject: "working at Google sounds fun"
            ),
        ),
        "employer",
    ),
    (  # "I left Acme last week to join Spotify", "I left Acme and joined Google"
        FactType.PROFILE,
        compile_rule(
            rf"\bI(?:'ve| have)? (?:just )?left (?=[A-Z])[^.,;!?\n]{{2,60}}? (?:to join|and joined)\s+"
            rf"{NAMED}{OBJ}{END}"
        ),
        "employer",
    ),
    (  # "I joined Acme as a designer", "I started at Acme as an intern"
        FactType.PROFILE,
        _needs(
            r"join|start",
            compile_rule(rf"{I_AND} (?:joined|started (?:working )?(?:at|for))\s+(?!{JOB}){OBJ} as an? \w+"),
        ),
        "employer",
    ),
    (  # "I started a new job at Spotify last week", "I've got a job with the BBC", "Started a new job at
        # Sainsbury's on Monday"
        FactType.PROFILE,
        _needs(
            r"job|post",
            compile_rule(
                rf"{I_AND} (?:started|got|took|taken|accepted|landed) {JOB}"
                rf"(?:at|with)\s+{OBJ}{END}"
            ),
        ),
        "employer",
    ),
    (  # "My job at Tesco is pretty chill", "my new role with the BBC" (not "my old job at ...", "I lost my
        # job at Door Dash")
        FactType.PROFILE,
        _needs(
            r"job|role|position",
            compile_rule(
                rf"\b(?=[Mm]y ){NOT_A_JOB_NOW}[Mm]y (?:current |new )?(?:job|role|position) (?:at|with)\s+"
                rf"(?:the )?(?!(?:Uni|University|College|School)\b){FIRM}"
                # the job of now: not "My job at Tesco was great", "... ended last week"
                r"(?!\s+(?:was|were|ended|finished|used to|had)\b)"
            ),
        ),
        "employer",
    ),
    (  # "I work as a nurse at St. Mary's hospital": the role, then where
        FactType.PROFILE,
        _needs(
            r"work",
            compile_rule(
                rf"(?:(?:\bI|{AND}) (?:now |currently )?work|\bI(?:'m| am) (?:now |currently )?working"
                rf"(?!{TO_CONJUNCTION}\b(?:{SHIFT})\b)) as an?\s+{OBJ}"
                rf"(?=\s+(?:{STOP}|at|while)\b|[.,;!?\n]|$)"
            ),
        ),
        "occupation",
    ),
    (
        FactType.PROFILE,
        _needs(
            r"work",
            compile_rule(
                rf"(?:\bI|{AND}) (?:now |currently )?work as an? [^.,;!?\n]{{2,60}}? at\s+{OBJ}{END}"
            ),
        ),
        "employer",
    ),
    (  # the role of a job taken or joined: "... started a new job at Spotify as a data engineer"
        FactType.PROFILE,
        _needs(
            r"join|start|job",
            compile_rule(
                rf"{I_AND} (?:(?:started|got|took|taken|accepted|landed) {JOB}|joined |"
                rf"started (?:working )?(?:at|for) )"
                rf"[^.!?\n]{{0,60}}?\bas an?\s+{OBJ}{END}"
            ),
        ),
        "occupation",
    ),
    (FactType.PROFILE, compile_rule(r"\bI(?:'m| am) (?P<val>\d{1,3}) years old"), "age"),
    (  # "I'm vegetarian", "I'm a vegan now", "so I'm pescatarian now": one diet at a time
        FactType.PROFILE,
        compile_rule(
            r"\bI(?:'m| am)(?: now| currently| still| mostly| strictly)?(?: an?)? (?P<val>vegetarian|vegan|"
            r"pescatarian|pescetarian|flexitarian|carnivore|omnivore)\b"
            r"(?! (?:food|recipes?|restaurants?|options?))",
            re.IGNORECASE,
        ),
        "diet",
    ),
    (FactType.PROFILE, compile_rule(rf"\bI(?:'m| am) allergic to\s+{OBJ}{END}"), "allergy:{obj}"),
    (
        FactType.PREFERENCE,
        compile_rule(rf"\b[Mm]y fav(?:ou?rite) (?P<what>[a-z ]{{2,30}}?) is\s+{OBJ}{END}"),
        "favorite:{what}",
    ),
    (
        FactType.PREFERENCE,
        compile_rule(
            rf"\bI (?:really |absolutely |just |also )?(?P<verb>love|like|enjoy|adore|hate|dislike|prefer|"
            rf"can't stand|don't like|do not like)\s+{OBJ}{END}"
        ),
        None,
    ),
    (
        FactType.RULE,
        compile_rule(rf"(?:^|[.!?]\s+|\bplease\s+)(?P<verb>[Aa]lways|[Nn]ever)\s+{OBJ}{END}"),
        None,
    ),
]
_PATTERNS += [(FactType.PROFILE, pattern, key) for pattern, key, *_ in PATTERNS]  # state_patterns
_WORDS.update(WORDS)
_VERB_VALUE = {"can't stand": "hate", "don't like": "dislike", "do not like": "dislike", "adore": "love"}


def extract(text: str) -> list[ExtractedFact]:
    """Facts a turn states: the speaker's own preferences, profile and rules (first person), and the place
    or work of someone they name (``subject``). Code states nothing (graphmem.model.prose)."""
    said, back = restore(shield(prose(text)))  # "Got laid off from ..." read as "I got laid off from ..."
    return [
        replace(
            f,
            key=f.key.replace(INNER_STOP, "."),
            value=f.value.replace(INNER_STOP, "."),
            span=None if f.span is None else (back(f.span[0]), back(f.span[1])),
        )
        for f in [*_extract(said), *said_of_people(said)]  # the people in the user's life, and who left it
    ]


def _stated(
    fact_type: FactType, template: str, m: re.Match[str], text: str
) -> tuple[ExtractedFact, ExtractedFact | None] | None:
    """The fact a match of a keyed pattern states, if its value passes the pattern's checks, and the place an
    employer is said to be in ("I'm an accountant at KPMG in Toronto"): where one works is where one lives,
    unless the turn speaks of a home."""
    groups = m.groupdict()
    obj = clean(groups.get("then") or groups.get("obj") or "")
    what = normalize_value(groups.get("what") or "")
    value, where_in = groups.get("val") or obj, None
    if template == "employer":  # "Unilever in the marketing team", "Rivian last month"
        value, end = _TIME_TAIL.split(_EMPLOYER_TAIL.split(value)[0])[0], m.end()
        two = AND_NAME.match(text, end)  # "Marks and Spencer" (not "Tesco and Mum", "Amazon and Sunday")
        if value == obj and two and fits("employer", two["name"].removesuffix("'s")):
            value, end = value + two.group(), two.end()
        value, where_in = firm_and_place(value, text, end)  # "KPMG in Toronto"
        value = name_only(value)
    if not value or not fits(template, value):
        return None
    if template == "location" and FOR_AN_EVENT.match(text, m.end()) is not None:
        return None  # "Moved to Mumbai for the conference": a stay, no home
    if template == "location" and AS_A_ROLE.match(text, m.end()) is not None and not is_place(value):
        return None  # "I'm moving to Initech as a staff engineer": a job, no home
    if template == "location" and groups.get("and") and not is_place(value):
        return None  # "I tried Vim and moved to Emacs", "I got up and moved to the Couch": no home
    if (check := CHECKS.get(id(m.re))) is not None and not check(value, text, m):  # where words cannot tell
        return None  # "I'm in a meeting", "I started at Oxford", "I'm at Sarah's now"
    key = template.format(obj=normalize_value(obj), what=what)
    ahead, span = PROGRESSIVE.search(m.group()) is not None, m.span()
    if template == "location" and (inside := narrower(text, value, m.end())) is not None:
        value, span = inside[0], (m.start(), inside[1])  # "I live in Austria, in Salzburg"
    fact = ExtractedFact(key, "yes" if "{obj}" in template else value, fact_type, ahead=ahead, span=span)
    if where_in is None or ahead or _HOME_WORDS.search(text):
        return fact, None
    return fact, ExtractedFact("location", where_in, FactType.PROFILE, span=m.span())


_HOME_WORDS = compile_rule(r"(?i:\b(?:live|living|lived|based|home|moved|moving|commute|commuting)\b)")


def _extract(text: str) -> list[ExtractedFact]:
    out: dict[tuple[FactType, str], ExtractedFact] = {}
    lower = text.lower()
    said_so = GATE.search(lower) is not None  # any word of a state_patterns one (7 turns in 8 none)
    worked_in: dict[int, ExtractedFact] = {}  # the place said with an employer, by the employer fact's id
    for fact_type, pattern, template in _PATTERNS:
        if not said_so and id(pattern) in WORDS:
            continue
        words = _WORDS.get(id(pattern))
        for m in pattern.finditer(text) if words is None or words.search(lower) else ():
            if template is None:
                verb = m["verb"].lower()
                obj = clean(m["obj"])
                if not standing(fact_type is FactType.RULE, obj, text[: m.start()]):
                    continue
                kind = "rule" if fact_type is FactType.RULE else "preference"
                fact = ExtractedFact(
                    f"{kind}:{normalize_value(obj)}", _VERB_VALUE.get(verb, verb), fact_type, span=m.span()
                )
            elif (stated := _stated(fact_type, template, m, text)) is None:
                continue
            else:
                fact, place = stated
                if place is not None:
                    worked_in[id(fact)] = place
            # two values of a key in a turn: the one said last (a move ahead stands beside the present value)
            where = (fact.fact_type, fact.key + ("@ahead" if fact.ahead else ""))
            kept = out.get(where)
            if kept is None or (kept.span or (0, 0))[1] <= (fact.span or (0, 0))[1]:
                out[where] = fact
    employer = out.get((FactType.PROFILE, "employer"))
    if employer is not None and id(employer) in worked_in:
        out.setdefault((FactType.PROFILE, "location"), worked_in[id(employer)])
    home = out.get((FactType.PROFILE, "location"))  # "I moved to Initech as a staff engineer": a job, no home
    if home and employer and home.value.casefold() == employer.value.casefold() and not is_place(home.value):
        del out[(FactType.PROFILE, "location")]
    about_others(text, out)
    household_moves(text, out)
    plans(text, out)
    endings(text, out)
    withdrawals(text, out)
    corrections(text, out)
    for where, f in list(out.items()):  # "Should I move to Berlin?", "If I moved to Berlin, ...": no state
        if f.fact_type is FactType.PROFILE and f.span is not None and supposed(text, f.span):
            del out[where]
    # in the order said (a plan called off after it is stated is off); a withdrawal before the value "instead"
    return sorted(out.values(), key=lambda f: ((f.span or (0, 0))[0], not f.withdraws))
