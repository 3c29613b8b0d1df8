"""Moves and call-offs in more everyday words, without an LLM (pure): a move "for good" (not a trip), a move
an employer makes ("the company is sending me to Edmonton in April", "I got transferred to Harrogate District
Hospital"), and plans called off with a name typed in lower case or in chat words ("berlin's off", "nah scrap
cardiff", "deliveroo fell through", "The CPS role has been withdrawn"). What they give is
:func:`graphmem.model.fact_patterns.extract`'s (through :mod:`graphmem.model.fact_changes`); a call-off only
withdraws a pending plan whose value it names (:func:`graphmem.model.fact_endings.plan_withdraw`)."""

from __future__ import annotations

from graphmem.model.extracted import ExtractedFact, clean, fits
from graphmem.model.pattern_pieces import AND, NAMED_PLACE, WEEKDAY, compile_rule, sentence_end
from graphmem.model.people import is_employer, is_organisation, names_a_kind
from graphmem.model.places import EVERYDAY, is_place
from graphmem.model.plan_patterns import REPLANNED
from graphmem.models import FactType

__all__ = ["lower_calloffs", "more_moves"]

Found = dict[tuple[FactType, str], ExtractedFact]

# "for good" said of a move, not of a thing ("for good food", "for good weather")
_FOR_GOOD = (
    r"\bfor good(?=\s*(?:[.,;!?\n]|$)|\s+(?:and|but|so|now|this|next|last|in|on|from|after|since|because|"
    r"when|with|lol|tbh|this time|finally|probably)\b)"
)
# A move for good, ahead: "I'm flying to Auckland on 9 January for good", "we fly out to Auckland on the 3rd
# of january for good" (a plan with its day; not "I'm flying to Rome on Friday", a trip, nor "I'm in Paris for
# good food")
FOR_GOOD_AHEAD = compile_rule(
    r"\b(?:I(?:'m| am|'ll| will)|[Ww]e(?:'re| are|'ll| will)|I|[Ww]e)(?: be)?(?: \w+ly)? "
    r"(?:fly(?:ing)?|head(?:ing)?|go(?:ing)?|mov(?:e|ing)|return(?:ing)?)(?: out| back| over)?(?: home)?"
    # (in its own clause, or "... and we stay there for good")
    rf" to\s+{NAMED_PLACE}(?=(?:(?! and\b)[^.!?,;\n]){{0,40}}?{_FOR_GOOD}|[^.!?\n]{{0,40}}?\band (?:we|I)"
    rf"(?:'ll| will)? (?:stay|live|settle|remain)\b[^.!?\n]{{0,20}}?{_FOR_GOOD})"
)
# ... and done: "I finished my contract in Hong Kong and came home to Batangas for good last month"
FOR_GOOD_DONE = compile_rule(
    rf"(?:\b(?:I|[Ww]e)(?:'ve| have)?|{AND})(?: \w+ly)? "
    r"(?:came|come|went|gone|moved|flew|headed|returned)(?: back| over)?(?: home)?"
    rf" to\s+{NAMED_PLACE}(?=\s+{_FOR_GOOD})"
)
# A move one's employer makes, ahead: "the company is sending me to Edmonton in April", "my job is moving me
# to Calgary next spring", "they're transferring me to the Leeds office in March", "I'm being posted to Oslo
# in May" (a plan with its date; the town, not the office)
SENT = compile_rule(
    r"(?:\b(?:[Tt]he (?:company|firm|bank|business|agency|army|navy|organi[sz]ation)|[Mm]y (?:company|job|"
    r"employer|firm|work|boss|bank)|[Ww]ork|[Tt]hey)(?:'s|'re| is| are|'ll| will| is going to| are going to)"
    r"(?: be)? (?:sending|moving|transferring|relocating|posting|send|move|transfer|relocate|post) me|"
    r"\bI(?:'m| am)(?: being| getting) (?:sent|moved|transferred|relocated|posted))"
    rf"(?: over| out| back| across| down| up)? to\s+(?:the |their |our |its )?{NAMED_PLACE}"
    r"(?:\s+(?:office|branch|site|HQ|headquarters|base|plant|store|team))?"
)
# ... and done: "I got transferred to Harrogate District Hospital", "transferred to South Central Ambulance
# Service" (an employer, when an organisation),
# "We transferred to Davao City last month because of my husband's job" (a home)
TRANSFERRED = compile_rule(
    r"(?:\b(?:I|[Ww]e)(?:'ve| have)?(?: just| finally| recently)? (?P<passive>(?:got|was|been|have been) )?|"
    r"(?P<bare>(?:^|[.!?]\s+)(?i:just |finally )?(?i:got )?))"  # "Got transferred to ...": the speaker's
    r"transferred to\s+(?:the )?(?P<obj>[A-Z][\w&'-]*(?:\s+(?:[A-Z][\w&'-]*|of\b|&))*)"
)
_CITY = compile_rule(r"\s+(?:City|Town)$")


def _place(value: str) -> bool:
    """A place, or one named with "City": "Davao City"."""
    return is_place(value) or is_place(_CITY.sub("", value))


# a trip's, a call's or a journey's words after the place (not a move's)
_A_STAY = compile_rule(
    r"\b(?:for (?:a|an|the) (?:conference|course|training|trade show|workshop|summit|event|meeting|week|few "
    r"days|couple of (?:days|weeks)|project)|for (?:\w+ )?(?:days?|weeks?|nights?)|trade show|on the "
    r"(?:phone|shuttle|train|bus|line)|at (?:[A-Z]\w+|the airport|the station)|the (?:train|flight|plane|"
    rf"bus) was|on (?i:{WEEKDAY})|no help|on hold|by the airline|by (?:ambulance|air|helicopter)|"
    r"for (?:treatment|surgery|tests|scans|care))\b"
)
_MORE_WORDS = compile_rule(
    r"for good|transferr|sending me|moving me|posting me|relocating me|(?:being|getting) (?:sent|moved|"
    r"transferred|relocated|posted)"
)


def more_moves(text: str, out: Found) -> None:
    """A move for good or by one's employer: a plan (a fact only with its date) or a value now; a slot taken
    stands."""
    if _MORE_WORDS.search(text) is None:
        return
    for pattern, planned in ((FOR_GOOD_AHEAD, True), (FOR_GOOD_DONE, False), (SENT, True)):
        for m in pattern.finditer(text):
            if pattern is SENT and _A_STAY.search(text, m.end(), sentence_end(text, m.end())):
                continue  # "The company is sending me to Berlin for a conference in April": a trip
            if _place(value := clean(m["obj"])) and fits("location", value):
                slot = (FactType.PROFILE, "location@planned" if planned else "location")
                fact = ExtractedFact("location", value, FactType.PROFILE, planned=planned, span=m.span())
                out.setdefault(slot, fact)
    for m in TRANSFERRED.finditer(text):
        value = clean(m["obj"])
        if _A_STAY.search(text, m.end(), sentence_end(text, m.end())):
            continue  # "transferred to Customer Services on the phone", "... to Manchester at Crewe"
        # "got transferred to Harrogate District Hospital" (by its kind; not "... to Customer Services")
        if (
            (m["passive"] or m["bare"] is not None)
            and names_a_kind(value)
            and is_organisation(value)
            and not _place(value)
        ):
            out.setdefault(
                (FactType.PROFILE, "employer"),
                ExtractedFact("employer", value, FactType.PROFILE, span=m.span()),
            )
        elif m["bare"] is None and _place(value) and fits("location", value):  # (bare: "Got transferred to
            # Gatwick because of fog" is a flight as often)
            out.setdefault(
                (FactType.PROFILE, "location"),
                ExtractedFact("location", value, FactType.PROFILE, span=m.span()),
            )


# A plan called off by its name in lower case or chat words: the name first ("berlin's off", "toronto's on
# hold indefinitely", "deliveroo fell through"), dropped ("nah scrap cardiff, lost the deposit"), turned down
# ("ok i turned down revolut in the end"); an employer's role withdrawn ("The CPS role has been withdrawn")
_LEAD = r"(?:^|[.!?,;:]\s*|\b(?:nah|ok|okay|so|and|but|well|yeah|update|sadly|anyway)\s+)"
_WORD = r"(?P<obj>[A-Za-z][\w'-]*)"
_OFF = r"(?:off|on hold|cancel+ed|called off|not happening|dead)"
_TAIL = r"(?=\s*(?:[.,;!?\n]|$)|\s+(?:indefinitely|for now|after all|in the end|so|because|now|sadly)\b)"
_FELL = r"(?:fell|has fallen|had fallen|'s fallen) through"
NAME_OFF = compile_rule(rf"{_LEAD}{_WORD}(?:'s| is)(?: now| officially)? {_OFF}{_TAIL}")
NAME_FELL = compile_rule(rf"{_LEAD}{_WORD} {_FELL}\b")
SCRAPPED = compile_rule(
    rf"\b(?i:scrap|scratch|forget|ditch|drop)(?:ped)? {_WORD}(?=\s*(?:[.,;!?\n]|$)|\s+[-—])"
)
# (a lower-case name turned down only "in the end", "after all", or in a message about a job: not "I turned
# down dessert")
TURNED_DOWN = compile_rule(
    r"\bI(?:'ve| have)? (?:turned down|declined|rejected|passed on) (?P<obj>[a-z][\w'-]*+)"
    r"(?=\s+(?:in the end|after all)\b|(?=.*\b(?:job|offer|role|position|contract|start\w*)\b)"
    r"(?:\s*(?:[.,;!?\n]|$)|\s+(?:so|because|now|sadly)\b))"
)
# "I've told Monzo I'm not coming after all", "told Deliveroo I won't be joining"
TOLD_NOT_COMING = compile_rule(
    r"\bI(?:'ve| have)? told (?P<obj>[A-Z][\w&'-]*(?: [A-Z][\w&'-]*){0,3}) (?:that )?"
    r"I(?:'m| am| won't be| will not"
    r" be|'m not| am not) (?:not )?(?:coming|joining|starting|taking (?:it|the (?:job|role|offer)))\b"
)
ROLE_WITHDRAWN = compile_rule(
    r"\b[Tt]he (?P<obj>[A-Z][\w&'-]*(?: [A-Z][\w&'-]*){0,3}) (?:job offer|job|role|position|post|offer) "
    r"(?:has been|had been|was|got|is|'s been) (?:withdrawn|rescinded|pulled|cancel+ed)\b"
)
# a word every pattern above holds (a turn without one is not searched)
_CALLOFF_WORDS = compile_rule(
    r"\boff\b|on hold|cancel|not happening|dead|fell|fallen|scrap|scratch|forget|ditch|drop|turned down|"
    r"declined|rejected|passed on|withdrawn|rescinded|pulled|not coming|not joining|won't be joining"
)  # (searched in the lower-cased text: a case-blind alternation is slow)


def _named(key: str, value: str, written: bool) -> bool:
    """Whether ``value`` can name a plan of ``key``: a place, or an employer's name (one typed in lower case
    read as written with a capital); not an everyday word."""
    if value.lower() in EVERYDAY or not fits(key, value):
        return False
    if key == "location":
        return is_place(value)
    return not is_place(value) and is_employer(value if written else value[:1].upper() + value[1:])


def lower_calloffs(text: str, out: Found) -> None:
    """Plans called off by a name in lower case or chat words, for each key it can name (a slot taken
    stands); not a plan dropped for another "instead" (:data:`graphmem.model.plan_patterns.REPLANNED`)."""
    if _CALLOFF_WORDS.search(text.lower()) is None or any(p.search(text) for p in REPLANNED):
        return
    both = ("location", "employer")
    keyed = (
        (NAME_OFF, both),
        (NAME_FELL, both),
        (SCRAPPED, both),
        (TURNED_DOWN, ("employer",)),
        (TOLD_NOT_COMING, ("employer",)),
        (ROLE_WITHDRAWN, ("employer",)),
    )
    for pattern, keys in keyed:
        for m in pattern.finditer(text):
            value = clean(m["obj"])
            for key in keys:
                if _named(key, value, pattern is ROLE_WITHDRAWN):
                    fact = ExtractedFact(key, value, FactType.PROFILE, withdraws=True, span=m.span())
                    out.setdefault((FactType.PROFILE, f"{key}@withdrawn"), fact)
