"""A chat's "I" restored (pure): "Got laid off from Wells Fargo yesterday", "Been living in Lyon since March",
"Based in Johannesburg, work at Standard Bank.", "live in Berlin", "At Stripe now", "im in Melbourne", "i work
at HSBC". People drop the subject of a sentence about themselves, or type it in lower case; the fact patterns
read "I ...". :func:`restore` gives the text with the subject said, and a map from its positions back to the
text as written, so that a fact's span still points into the message (:mod:`graphmem.model.planned` reads
its clause there). An emoji is read as a full stop, so that it ends a value ("Lisbon 🎉") and a sentence.

A sentence is restored when it opens with a past form ("Got", "Left", "Started", "Been", "Based", ...), with
"live" or "work" and a name ("live in Berlin"), or after a comma of one's own sentence ("Based in Cape Town,
working at Takealot"). One opening with "-ing" is as often a gerund ("Living in London is expensive", "Working
at Google was hard"), so it is restored only when the sentence says nothing more of it ("Working at Deloitte,
Dublin."); "Moved", "Moving", "Relocated" keep their own subjectless patterns, which check that the value is
a place ("Moving to Linux on Monday" is no home). Not after a sentence about someone else ("My sister is
well. Left Deloitte in October.")."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable

from graphmem.model.pattern_pieces import KIN, compile_rule, sentence_end, sentence_start
from graphmem.model.people import RELATIVES, is_first_name
from graphmem.model.places import is_place

__all__ = ["about_someone", "restore"]

# a sentence's first word (after "Just", "Finally", ...), a verb of a change of one's own home or work, or
# of where one lives and works now ("live in Berlin", "work at Standard Bank", after a comma too: "Based in
# Johannesburg, work at Standard Bank")
_DROPPED = compile_rule(
    r"(?:^\s*|[.!?:]\s+|\n[^\S\n]*)(?P<word>(?i:(?:just|finally|officially|recently|actually|also|now) )?"
    r"(?P<verb>(?i:got|left|quit|joined|started|accepted|took|landed|lost|handed|finished|been|based|retired|"
    r"signed|made|resigned|starting))\b|(?P<still>(?i:still) in (?=[A-Z])))|"
    r"(?:^\s*|[.!?:]\s+|\n[^\S\n]*)(?P<now>(?i:live|work) (?:in|at|for) (?=[A-Z]))|"
    r"(?:,\s+(?:but )?|\s(?:rn|atm|now|currently)\s+(?=working|living))"
    r"(?P<then>(?i:live|work|living|working|based) (?:in|at|for) (?=[A-Z])|"
    r"(?i:got|started|joined|quit|left) (?=\S))|"
    # "At Stripe now"
    r"(?:^\s*|[.!?:]\s+|\n[^\S\n]*)(?P<at>(?i:at) (?=[A-Z][\w&'-]*(?: [A-Z][\w&'-]*)* now\b))"
)
# a sentence opening with "Working at" or "Living in" that says nothing more of it is no gerund: "Working at
# Deloitte, Dublin." (but "Working at Google was hard", "Living in London is expensive")
_FRAGMENT = compile_rule(
    r"(?:^\s*|[.!?:]\s+|\n[^\S\n]*)(?P<word>(?P<verb>(?i:working|living)) (?:at|for|in) (?=[A-Z]))"
)
_FINITE = compile_rule(
    r"\b(?:is|was|are|were|has|had|have|makes?|made|gets?|got|will|would|can|could|feels?|felt|sucks|seems?|"
    r"became|changed|taught|means|meant|gives?|gave|helps?|helped|pays|paid|costs?|looks?|sounds?|isn't|"
    r"wasn't|does|did|do|takes?|took|keeps?|kept)\b|"
    # "it's", "London's expensive" (not a name's: "Nando's in Croydon", "Nando's now")
    r"'s(?= (?!(?:in|at|on|near|by|for|now|too|here|there|tho|though|lol)\b)[a-z])"
)
# the subject a verb form drops: "Been ..." is "I've been ...", "Based ..." is "I'm based ..."
_SUBJECT = {"been": "I've ", "based": "I'm ", "working": "I'm ", "living": "I'm ", "starting": "I'm "}
# an emoji is read as a full stop ("Figma rescinded the offer 😞 so I'm staying", "Big news 🎉 Got the job"):
# one character each
_EMOJI = compile_rule("[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f\u200d]")
# "i" written in lower case ("i work at HSBC", "i'm in Leeds") and "im" with no apostrophe ("im in Melbourne")
_LOWER_I = compile_rule(r"(?<![\w'’-])i(?=\s|['’](?:m|ve|ll|d)\b)")
_NO_APOSTROPHE = compile_rule(r"(?<![\w'’-])[Ii](?=(?:m|ve) [a-z])")


# a sentence whose subject is someone else: "My sister ...", "Emma moved ...", "She ...", "Jake's doing
# well.", or a question about them: "What about Tom?", "How's Priya?", "My sister?"
_ABOUT_SOMEONE = compile_rule(
    rf"\s*(?:[Mm]y (?:{KIN})\b|(?i:he|she|they)\b|"
    r"(?!I\b)[A-Z][a-z]+ (?:is|was|has|had|moved|got|left|started|lives|works|went|just)\b|"
    r"(?:[Ww]hat|[Hh]ow) about\b|[Hh]ow(?:'s| is) (?!I\b)[A-Z]|(?:[Ii]s|[Dd]oes|[Hh]as) (?!I\b)[A-Z][a-z]+\b|"
    r"(?P<name>[A-Z][a-z]+)(?:'s\b|\?))"
)
_STOPS = compile_rule(r"[.!?\n]")
_I_SAID = compile_rule(r"\bI\b")  # a sentence of the speaker's own, before a past form after its comma


def about_someone(text: str, at: int) -> bool:
    """Whether the sentence before the one starting at ``at`` is about someone else (its subject dropped,
    the one starting at ``at`` is theirs: "My sister is well. Left Deloitte in October.")."""
    last = _stop_before(text, max(0, at - 1))
    if last < 0:
        return False
    said = _ABOUT_SOMEONE.match(text, max(0, _stop_before(text, last) + 1))
    return said is not None and (said["name"] is None or is_first_name(said["name"]))  # not "It's been ..."


def _dropped(text: str) -> list[tuple[int, str]]:
    """Where a subject is said in ``text`` and what: each sentence that drops it, not after a sentence about
    someone else."""
    said: list[tuple[int, str]] = []
    for m in _DROPPED.finditer(text):
        if m["then"]:  # "Based in Cape Town, working at Takealot" (not "My sister, working at Asda, ...")
            at = m.start("then")
            past = not m["then"].lower().startswith(("live", "work", "based"))  # "..., got taken on by X"
            start = max(_stop_before(text, at) + 1, at - _REACH)  # the speaker's, not someone else's sentence
            mine = not past or _I_SAID.search(text, start, at) is not None or _no_one(text, start, at)
            if (
                mine
                and not _someone_said(text, at)
                and not _person_before(text, m.start())
                and not _said_with_verb(text, m.end())
            ):
                am = m["then"].lower().startswith(("living", "working", "based"))
                said.append((at, "I'm " if am else "I "))
            continue
        at = m.start("word") if m["word"] else m.start("now") if m["now"] else m.start("at")
        if (m["now"] and _said_with_verb(text, m.end())) or text.startswith("?", _clause_end(text, m.end())):
            continue  # "work at Stripe is grand tbh", "Based in Leeds? DM me": not a subject dropped
        if not about_someone(text, at):  # "My sister is well. Left Deloitte in October.": hers
            said.append(
                (at, "I'm " if m["at"] or m["still"] else _SUBJECT.get((m["verb"] or "").lower(), "I "))
            )
    for m in _FRAGMENT.finditer(text):
        rest = text[m.end() : sentence_end(text, m.end())]
        if _FINITE.search(rest) is None and not about_someone(text, m.start("word")):
            said.append((m.start("word"), _SUBJECT[m["verb"].lower()]))
    return said


def _no_one(text: str, start: int, end: int) -> bool:
    """Whether the words from ``start`` to ``end`` have no verb and name no one: an opening of one's own
    ("ok good news, got a job at ...", "switched jobs finally, joined ..."; not "Tom quit, got a job ...")."""
    names = _CAPITALISED.findall(text, start, end)
    return (
        _FINITE.search(text, start, end) is None
        and _SOMEONE.search(text, start, end) is None
        and not any(is_first_name(w) for w in names)
    )


_CAPITALISED = compile_rule(r"\b[A-Z][a-z]+\b")
# someone named by a pronoun or a relative: "Big week for my sister, got a job ...", "Congrats to Mum, ..."
_SOMEONE = compile_rule(
    rf"\b(?i:he|she|they|him|her|them|his|their|(?:my|our) (?:{KIN})|{'|'.join(RELATIVES)})\b"
)


def _said_with_verb(text: str, at: int) -> bool:
    """Whether the clause from ``at`` has a verb of its own or asks ("work at Stripe is grand", "live in
    Berlin? no way"), so that "work at", "living in" at its head is no subject dropped (but "work at KPMG,
    it's fine")."""
    end = _clause_end(text, at)
    return _FINITE.search(text, at, end) is not None or text.startswith("?", end)


def _clause_end(text: str, at: int) -> int:
    """Where the clause from ``at`` ends, looking no further than :data:`_REACH` characters."""
    stop = _CLAUSE_STOPS.search(text, at, at + _REACH)
    return stop.start() if stop else min(len(text), at + _REACH)


_REACH = 300  # how far a clause is read around a subject restored: a bound, so that a long text stays linear


_CLAUSE_STOPS = compile_rule(r"[.!?,;\n]")


def _stop_before(text: str, at: int) -> int:
    """Where the last sentence stop before ``at`` is (-1: none), searched backwards."""
    return sentence_start(text, at) - 1


def _someone_said(text: str, at: int) -> bool:
    """Whether the sentence holding ``at`` opens with someone or something else ("My sister is in Leeds,
    working at ...", "Our hotel, based in Sydney, is lovely")."""
    start = _stop_before(text, at) + 1
    return _ABOUT_SOMEONE.match(text, start) is not None or _SOMETHING.match(text, start) is not None


# the last words before a comma: "I met Tom, working at Google now", "I met her at uni, ..." (the clause
# describes the one named next to it, not the speaker; but "Based in Cape Town, working at Takealot")
_LAST_WORD = compile_rule(
    rf"(?:(?P<name>[A-Z][a-z]+)|(?P<kin>\b(?i:her|him|them|(?:my|our) (?:{KIN}))))[\s,]*$"
)


def _person_before(text: str, comma: int) -> bool:
    """Whether a person (a first name, a pronoun, a relative) ends the clause before the comma at ``comma``
    (not a town that is also a name: "Based in Sydney, working at Atlassian")."""
    last = _LAST_WORD.search(text, max(0, comma - 40), comma)
    if last is None:
        return False
    return last["kin"] is not None or (is_first_name(last["name"]) and not is_place(last["name"]))


# a sentence about a thing, not the speaker: "Our hotel, based in Sydney, ...", "The firm, based in Leeds"
_SOMETHING = compile_rule(r"\s*(?i:the|our|his|her|their|its|this|that|these|those|a|an)\b")


def restore(text: str) -> tuple[str, Callable[[int], int]]:
    """``text`` with the "I" of each sentence that drops it (a lower-case "i" written "I", an emoji as a
    full stop), and the map from a position in it to the same place in ``text`` (a position inside a restored
    subject maps to where the sentence starts)."""
    # (the same length: positions hold; a curly apostrophe typed on a phone as a straight one)
    if not text.isascii():
        text = _EMOJI.sub(".", text.replace("’", "'"))
    text = _LOWER_I.sub("I", text)
    inserts = [(m.start() + 1, "'") for m in _NO_APOSTROPHE.finditer(text)]  # "im" -> "I'm"
    text = _NO_APOSTROPHE.sub("I", text)
    inserts = sorted(dict(inserts + _dropped(text)).items())  # one subject a place ("...,\nWorking at")
    if not inserts:
        return text, lambda at: at
    parts: list[str] = []
    starts: list[int] = []  # where each insertion starts, in the restored text
    sizes: list[int] = []  # the characters added up to and including it
    last = added = 0
    for at, said in inserts:
        word = text[at : at + 1].lower() if said.endswith(" ") else text[at : at + 1]  # "Got" -> "I got"
        parts += [text[last:at], said, word]
        starts.append(at + added)
        added += len(said)
        sizes.append(added)
        last = at + 1
    parts.append(text[last:])

    def back(at: int) -> int:
        i = bisect_right(starts, at) - 1  # the last insertion starting at or before ``at``
        if i < 0:
            return at
        inside = at - starts[i] < sizes[i] - (sizes[i - 1] if i else 0)
        return starts[i] - (sizes[i - 1] if i else 0) if inside else at - sizes[i]

    return "".join(parts), back
