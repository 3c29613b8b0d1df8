"""Where the speaker still lives or works, said beside a plan, without an LLM (pure): "still in Geneva till
then", "still in madrid till april", "we're staying in Halifax for now", "staying put in Hamburg", "still at
IBM till then", "staying at Ocado till then". The value holds now (a place is a location, an organisation an
employer; a name typed in lower case only for a place); said while a plan waits, the value the plan replaces
confirms it and leaves the plan (:func:`graphmem.model.facts.restates`), any other holds until the plan starts
(``holds``: :func:`graphmem.model.facts._holds_until`). What they give is
:func:`graphmem.model.fact_patterns.extract`'s (through :mod:`graphmem.model.fact_changes`)."""

from __future__ import annotations

import re

from graphmem.model.extracted import ExtractedFact, clean, fits
from graphmem.model.pattern_pieces import A_TRIP, AN_ERRAND, MONTH, SEASON, compile_rule
from graphmem.model.people import is_employer
from graphmem.model.places import EVERYDAY, is_place
from graphmem.models import FactType

__all__ = ["still_here"]

# the stay, then its bound: "still in Geneva till then", "staying at Ocado till then", "still in madrid till
# april", "we're staying in Halifax for now", "staying put in Hamburg" (to the end of its clause)
_WHILE = (
    r"(?:till|until|til) (?:then|I (?:move|go|leave|start)|we (?:move|go|leave))|for now|for the time being|"
    r"for the moment"
)
# an employer held only "till then" ("still at IBM till then"; not "staying at Canva for now" after an offer
# rescinded, which stands by itself)
_UNTIL_THEN = compile_rule(r"\s+(?:till|until|til) (?:then|I (?:move|go|leave|start))\b")
# a bound months ahead, not a trip's days: "till april", "until the end of January", "till spring" (not "until
# tomorrow", "until Sunday")
_MONTHS_AHEAD = (
    rf"(?:(?:the )?(?:end|start|beginning|middle) of )?(?i:{MONTH}|{SEASON}|next (?:month|year)|the new year)"
)
STILL = compile_rule(
    r"(?:^|[.!?,;:]\s*|\b(?:I'm|I am|[Ww]e're|[Ww]e are|and|but|so|though)\s+)"
    r"(?i:(?P<put>staying put|still staying|staying|remaining|still)) (?P<at>in|at)\s+"
    r"(?P<obj>(?:the )?[A-Za-z][\w&'-]*(?: [A-Z][\w&'-]*){0,3})"
    rf"(?P<bound>\s+(?:{_WHILE}|(?:till|until|til) {_MONTHS_AHEAD})\b)?"
    r"(?=\s*(?:[.,;!?\n]|$)|\s+(?:and|but|so)\b)"
)
# a home said bare, as a profile or a reply says it: "Still Dublin for now, but ...", "Lyon for now, moving to
# Marseille in April", "... still in Zurich." (a capitalised place; no trip's words in its sentence)
_BARE = compile_rule(  # (bare, only beside a move: not "Chelsea for now, they're top of the league")
    r"(?:^|[.!?;:\n][^\S\n]*)(?:(?i:still) )?(?P<obj>[A-Z][\w'-]+(?: [A-Z][\w'-]+)?)"
    r"(?=,? for now\b[^.!?\n]*\b(?:mov|relocat|then|till|until))|"
    r"(?:^|[.!;:\n,][^\S\n]*)(?:[Ss]till|I'm still|I am still|[Ww]e're still) in (?P<town>[A-Z][\w'-]+"
    r"(?: [A-Z][\w'-]+)?)(?=\s*(?:[.!\n]|$))"  # (of one's own sentence or clause, not asked)
)
_MONTHS_AHEAD_ONLY = compile_rule(rf"\s+(?:till|until|til) {_MONTHS_AHEAD}")
_A_MOVE = compile_rule(
    r"\b(?:mov(?:e|es|ed|ing)|relocat\w*|new (?:job|role|flat|house|place|home)|start(?:s|ing)?)\b", re.I
)


def still_here(text: str, out: dict[tuple[FactType, str], ExtractedFact]) -> None:
    """The speaker's place or work said as still held (a slot taken stands): a place (in lower case, not an
    everyday word: :data:`EVERYDAY`) or an organisation; "still" only with its bound ("till then", "for
    now": not "I'm still in shock", "still at work")."""
    for m in _BARE.finditer(text) if "for now" in text or "still" in text.lower() else ():
        place = m["obj"] or m["town"]
        if is_place(place) and A_TRIP.search(text) is None:
            out.setdefault(
                (FactType.PROFILE, "location"),
                ExtractedFact("location", place, FactType.PROFILE, holds=True, span=m.span()),
            )
    if "still" not in text.lower() and "stay" not in text.lower() and "remain" not in text.lower():
        return
    for m in STILL.finditer(text) if A_TRIP.search(text) is None else ():  # not "... the hotel is great"
        value, bound = clean(m["obj"]), m["bound"]
        if bound and _MONTHS_AHEAD_ONLY.match(bound) and _A_MOVE.search(text) is None:
            continue  # "We're staying in Cornwall till the end of August": a summer's stay, no plan said
        if m["put"].lower() in ("still", "staying", "remaining") and not bound:
            continue  # "I'm still in shock", "staying in Rome" on a trip
        written = value[:1].isupper()
        place = fits("location", value) and is_place(value) and (written or value.lower() not in EVERYDAY)
        if m["at"] == "in" and place:
            slot = (FactType.PROFILE, "location")
            out.setdefault(
                slot, ExtractedFact("location", value, FactType.PROFILE, holds=True, span=m.span())
            )
        # an organisation, not a place ("staying at the Hilton till Friday": a hotel's bound, not a job's)
        elif (
            m["at"] == "at"
            and written
            and bound
            and _UNTIL_THEN.match(bound)
            and is_employer(value)
            and AN_ERRAND.search(text) is None
        ) and not is_place(value):
            slot = (FactType.PROFILE, "employer")
            out.setdefault(
                slot, ExtractedFact("employer", value, FactType.PROFILE, holds=True, span=m.span())
            )
