"""What says a state changed (pure): :data:`CHANGE`, the wordings of a change, and :func:`changed_words`, the
words a change names as what changed. graphmem.retrieval.changes reads them: a later statement changes an
earlier one that shares a word it names so."""

from __future__ import annotations

import bisect
import functools
import re

from graphmem.model.date_patterns import MOVED, SENTENCE_END
from graphmem.model.people import job_words
from graphmem.model.planned import SUPPOSING_WORDS, leading
from graphmem.retrieval.bm25 import stem
from graphmem.retrieval.restated import NEAR, WHEN, content_words

__all__ = ["CHANGE", "changed_words"]

_HOLDERS = "|".join(sorted(job_words() | {"job", "role", "position", "post", "gig", "boss", "landlord"}))
"""What a new one got is a change of: a job, or the holder of a role (graphmem.model.people.job_words: the
head nouns of job titles, "tutor", "dentist", "manager")."""

# A statement that says one's own state changed: "I sold the Corolla", "we moved the wedding", "I stopped
# learning Spanish and switched to Italian", "we decided to skip Osaka", "my new manager is Priya", "I don't
# drive any more", "I no longer eat meat". First person, and a change verb as a verb: conversation uses the
# same words otherwise ("it changed my life", "use oil instead of butter", "I won't quit", "any more art?").
# A value set to another, said by anyone of anything ("we raised the rate limit to 500", "we migrated the
# database from MySQL 5.7 to Postgres 16", "the staging URL changed to stage2.acme.io", "it was renamed to
# Billing"): a change verb with "to" and a value after it in the same clause (a number, a name, a compound
# term: not "my parents raised me to be honest", "we raised money to help the shelter"; not "moved to", a
# person's move, which the location rules read). Round 62, from a blind set of an assistant's users (what
# they say when a time, a person or a choice changes): an event moved to a time ("lab meeting moved to
# mondays at 11", "she moved the shower to Sunday the 22nd"), a state said to hold now ("practice is now
# tues thurs"), a new holder of a role ("my new charge nurse is Lorraine", "new lead is called Hana", "Miss
# Chen replaces him", "switching to Dr. Okonkwo's lab", "going with Golden Prairie") and a choice made after
# weighing ("we decided on Nora"). Round 63: a time moved by other verbs ("got bumped to the 19th",
# "postponed to Friday"), a role's new holder by name without "my" ("new supervisor is Latoya Grant", "New
# CFO will be Ms. Olga Kim from 12 Oct"), "from now on".

# what a state said to hold "now", or a choice "going with", is: a time, a number or a name ("practice is now
# tues thurs", "Going with Golden Prairie"; not "the team is now so much happier", "going with my sister")
_VALUE = rf"(?:{WHEN}|(?-i:[A-Z0-9]))"
# a person or a choice named: a capitalised name (a title before it allowed), not "I", not a possessive
# ("The new album is Taylor's best"), not a word said for emphasis or assent
_HOLDER = (
    r"(?:(?:Mr|Mrs|Ms|Dr|Prof)\.? )?(?!(?-i:I|So|That|This|Here|There|As|Yes|Yeah|Yep|Sure|Well|Lol|Maybe|"
    r"Such|Thus|It|What|Ok|Okay|Honestly)\b)(?-i:[A-Z][\w-]*+)(?!['’]s\b)"
)
CHANGE = re.compile(
    r"\b(?:I|we)(?:'ve|'d| have| had)?(?: just| finally| recently| already| actually| since)? "
    r"(?:switched(?! off\b| on\b)|changed|moved|sold|replaced|quit|stopped|left|cancell?ed|postponed|"
    r"rescheduled|skipped|"
    r"gave up|decided (?:not )?to (?:skip|cancel|stop|quit|drop|move|switch|change|sell))\b"
    r"|\b(?:my|our) new \w+(?: \w+)?(?: of \w+)? (?:is|are)\b"
    r"|\bnew \w+(?: \w+)? (?:is|are) (?:called|named)\b"
    # the subject left out, as people type ("quit lawson!!", "Sold the Buick", "moved apartments last
    # weekend"; not "Sold out!!", "Stopped for coffee", "Moved to tears"); someone new hired for a role, a
    # new job or holder got ("hired a new fella, Wade", "Jordo got a new job at Telstra", "dan's got a new
    # tutor"; not "bought a new epipen", "got a new bike for my son": a thing got anew changes no fact that
    # names it); a holder who left a role ("Dr Feldman retired", "karthik resigned"; not "my retired
    # neighbour", "a club for retired nurses", "I'm resigned to it"); a holder said by what they are ("new
    # heart doc is a gal named Dr Patel", "new lead is some guy from Bangalore", "jen's replacement is";
    # not "mum's hip replacement is on friday")
    r"|(?:^|[.!?;:\n]\s*|\b(?:ok|okay|lol|welp|update)\W+(?:so\W+)?)(?:just |finally |officially )?"
    r"(?:switched(?! off\b| on\b)|changed|moved(?! to tears| by\b)|sold(?! out\b)|replaced|quit|"
    r"stopped(?! by| at| in| off| for| to| raining| snowing)|cancell?ed|postponed|rescheduled|gave up)\b"
    r"|\bhired (?:a|our|my) new\b"
    rf"|\b(?:got|found|has|have|'s) (?:a|our|my) new (?:{_HOLDERS})\b"
    r"|(?<!['’])\b(?!(?:my|our|your|his|her|their|a|an|the|is|was|are|am|be|been|semi|i'm|im|for|with|of|to|"
    r"at|by|from|and|or|newly|recently|just|all|many|some|other)\b)[A-Za-z][\w-]* "
    r"(?:has |had |just )?(?:retired|resigned)\b(?! to\b)"
    r"|\bnew \w+(?: \w+)? (?:is|are|will be) (?:a |some |this )?"
    r"(?:guy|gal|woman|man|lady|bloke|fella|girl|dude|chap)\b"
    r"|(?:\b\w+['’]s|\b(?:my|our|his|her|their)) replacement (?:is|will be)\b"
    # a value corrected after "is", the new one before the old ("sorry the locker is 32 not 23", "wifi
    # password is BlauerHund!89 not 88", "its the 3rd floor not 2nd"; not "Maybe not Tuesday", "we have 2
    # kids not 3"), or said to have been misread or mistyped ("I read the bottle wrong"); not "correction"
    # alone: "Correction: I don't live in Porto, I live in Braga. I only work in Porto." corrects the home,
    # not the work said with it
    r"|\b(?:is|are|its|it's|'s)\s+(?:the\s+|a\s+|on\s+)?(?:[a-z]+\s+)?"
    r"(?<![\w!.:/-])(?-i:\d|[A-Z])[\w!.:/-]*+(?: [a-z]+)?,? not (?:the )?(?-i:\d|[A-Z])"
    r"|\b(?:mistyped|misread|typo|(?:read|got) (?:it|that|the \w+) wrong)\b"
    # a holder named (a capitalised name, not "I", not a possessive): "new supervisor is Latoya Grant", "New
    # CFO will be Ms. Olga Kim", "interim lead is Bogdan", "Ms. Fujita from Tokyo will be new department head"
    rf"|\bnew \w+(?: \w+)?(?: from \w+)? (?:is|will be) {_HOLDER}"
    rf"|\b(?:interim|acting) \w+(?: \w+)? (?:is|will be) {_HOLDER}"
    rf"|\b{_HOLDER}(?: from (?-i:[A-Z])[\w-]+)? will be (?:the |our |my )?new \w+"
    r"|\b(?:takes|took|taking|take) over (?:from|as|the (?:team|role|job|department|class|group|project|"
    r"shop|business|company|practice|position))\b"
    # a time said to hold from now on, or again ("he'll have Saga Monday-Wednesday from now on", "choir is
    # back on Wednesdays"; not "Mom's back on the 23rd", a return)
    rf"|{WHEN}[^.!?]{{0,40}}\bfrom now on\b|\bfrom now on\b[^.!?]{{0,40}}{WHEN}"
    rf"|\b(?:is|are|'s|'re) back on (?!the \d){WHEN}"
    # a choice made after weighing: "We chose the Mazda CX-5", "We decided!! Mai it is", "Karen it is, ..."
    # (a sentence of its own: not "Paris it is, the most beautiful city", "Yeah it is!"), "decided: pizza"
    r"|\b(?:I|we) (?:chose|opted for|picked|went for|landed on|ended up (?:going )?with) (?:the |a |an )?"
    r"(?-i:[A-Z0-9])"
    r"|(?:\b(?:I|we) (?:have |'ve )?|^|[.!?]\s*)decided\s*[.!:]"
    rf"|(?:^|[.!?]\s*|\bdecided\W+){_HOLDER} it is\s*(?:[.!]|,(?= found| got| we| I))"
    r"|\b(?:changed|switched|moved) again\b"  # "restaurant changed again: now closed only mondays"
    r"|\bno longer\b|(?:n't|\bnot|\bnever)\b[^.!?]{0,30}\bany ?more\b"
    rf"|\b(?:is|are) now (?:on )?{_VALUE}|\b(?:replaces|replacing)\b"
    rf"|\b(?:switching|switched|switches) (?:over )?to\b|\b(?:going|went) with {_VALUE}"
    r"|\b(?:decided|settled) on\b"
    rf"|\b(?:{MOVED}|moving|changing|shifting)\b"
    r"(?:[^.!?;,]|[.,](?=\w)){0,40}?\b(?:to|until)\s+"
    rf"{WHEN}"
    r"|\b(?:changed|switched|migrated|upgraded|downgraded|renamed|raised|lowered|increased|reduced|bumped|"
    r"updated|rotated)\b(?:[^.!?;,]|[.,](?=\w)){0,60}?\bto\s+(?=(?-i:[A-Z0-9$€£])|\S*?(?:\d|[._:]\w))",
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=65536)
def changed_words(content: str) -> frozenset[str]:
    """The content words that stand within :data:`~graphmem.retrieval.restated.NEAR` words of a change
    stated in ``content`` (:data:`CHANGE`, not only supposed), less the words that name anyone new
    (:data:`_NAMING`): what changed is named beside the words that say so ("quit lawson", "Dr Feldman
    retired", "lab meeting moved to mondays"; a replacement anywhere in its sentence, which it names by a
    pronoun: "Mr Osei is leaving ...; Miss Chen replaces him"), and an earlier statement that shares only a
    word said elsewhere is another thing's ("moved my desk to the window at work" changes no "work is at 10
    fleet st"; "got a new coat from the shop on high st" no "my barber is ali on high st"). Cached: a
    memory's words do not change."""
    starts = [m.start() for m in _WORD.finditer(content)]
    ends = [m.end() for m in _WORD.finditer(content)]
    found: set[str] = set()
    for m in CHANGE.finditer(content):
        if _supposed(content, m.span()):
            continue
        if "replac" in m.group().lower():  # "Mr Osei is leaving ...; Miss Chen replaces him": its sentence
            back = max(0, m.start() - _SENTENCE_MAX)
            begin = max((e.end() for e in SENTENCE_END.finditer(content, back, m.start())), default=back)
            ahead = min(len(content), m.end() + _SENTENCE_MAX)
            end = SENTENCE_END.search(content, m.end(), ahead)
            found |= content_words(content[begin : end.start() if end else ahead])
            continue
        first = max(0, bisect.bisect_right(ends, m.start()) - NEAR)
        last = min(len(ends), bisect.bisect_left(starts, m.end()) + NEAR)
        if first < last:
            found |= content_words(content[starts[first] : ends[last - 1]])
    return frozenset(found) - _NAMING


_WORD = re.compile(r"\S+")
_SENTENCE_MAX = 300  # characters either way to a replacement's sentence ends: a long text stays linear
_NAMING = frozenset(stem(w) for w in ("named", "called", "guy", "gal", "someone", "new"))
"""Words that name anyone new, shared by statements of different things ("jen's replacement is a guy named
Tomasz", "our contact person is someone named Dana"): no sign that one changed the other."""

_SUPPOSING = leading(SUPPOSING_WORDS)
"""What supposes or asks a change (``CHANGE``'s verbs are past forms: "If I moved to Bergen, ...", "Should
we have switched ..."), right before its subject. Not ``graphmem.model.planned.supposed``'s time words
(when, once, before, after, until): "When I sold the Corolla last spring, I bought a Tesla" states the
sale."""


def _supposed(text: str, span: tuple[int, int]) -> bool:
    """Whether the change at ``span`` is only supposed or asked (:data:`_SUPPOSING`)."""
    return _SUPPOSING.search(text, max(0, span[0] - 40), span[0]) is not None
