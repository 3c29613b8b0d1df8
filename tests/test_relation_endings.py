"""Relations said to have ended (round 63, graphmem.model.relation_endings): "Tom isn't my boss any more" ends
``manager`` (the holder named), "Sam is no longer my flatmate" ends ``person:Sam`` (the relation named),
"we broke up" ends whoever is the partner. First person, stated, and not ahead. The real-server scenario is in
tests/test_relations.py."""

from __future__ import annotations

import pytest

from graphmem.model.fact_patterns import extract
from graphmem.model.relation_endings import ended_relations


def _ended(text: str) -> list[tuple[str, str]]:
    facts = ended_relations(text)
    assert all(f.ends for f in facts)
    return [(f.key, f.value) for f in facts]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a role one holds one at a time: its holder named
        ("Tom isn't my boss any more", [("manager", "Tom")]),
        ("Tom is no longer my manager", [("manager", "Tom")]),
        ("Dr. Patel is not my dentist anymore", [("dentist", "Dr. Patel")]),
        ("my boss isn't Tom anymore", [("manager", "Tom")]),
        ("My boss is no longer Tom Becker.", [("manager", "Tom Becker")]),
        ("Tom's not my boss anymore", [("manager", "Tom")]),
        ("Honestly Tom isn't my boss anymore", [("manager", "Tom")]),
        ("Sam isn't my boyfriend any more", [("partner", "Sam")]),
        # a relation one has with many: the relation named, as relations.py stores it
        ("Ana isn't my friend any more", [("person:Ana", "friend")]),
        ("Sam is no longer my flatmate", [("person:Sam", "flatmate")]),
        ("Jake is no longer my co-worker", [("person:Jake", "colleague")]),
        ("Ana and I aren't friends anymore", [("person:Ana", "friend")]),
        # the partner, named or not (then whoever it is)
        ("I broke up with Sam", [("partner", "Sam")]),
        ("I broke up with my boyfriend Sam last week", [("partner", "Sam")]),
        ("I've broken up with my girlfriend", [("partner", "")]),
        ("Sam and I broke up", [("partner", "Sam")]),
        ("Sam and I split up", [("partner", "Sam")]),
        ("Sam and I have split up", [("partner", "Sam")]),
        ("Me and Sam broke up", [("partner", "Sam")]),
        ("Sam broke up with me", [("partner", "Sam")]),
        ("Sam and I aren't together anymore", [("partner", "Sam")]),
        ("we broke up", [("partner", "")]),
        ("We broke up and I moved out", [("partner", "")]),
        ("we split up", [("partner", "")]),
        ("we separated", [("partner", "")]),
        ("We're no longer together", [("partner", "")]),
        ("I got divorced", [("partner", "")]),
        ("I divorced Sam", [("partner", "Sam")]),
        ("I'm single again", [("partner", "")]),
        ("I don't have a therapist anymore", [("therapist", "")]),
    ],
)
def test_relations_a_turn_ends(text: str, expected: list[tuple[str, str]]) -> None:
    assert _ended(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "my ex Sam called",  # a former relation named: no change stated
        "If Tom isn't my boss any more, I'll stay.",  # supposed
        "If my boss isn't Tom anymore, fine",
        "If Sam and I broke up, I would move",
        "Did Sam and I break up?",  # asked
        "Is Tom no longer my boss?",
        "Wait, Tom isn't my boss anymore?",
        "I hope Tom isn't my boss anymore",  # hoped
        "I wish Tom wasn't my boss anymore",
        "Ana broke up with Sam",  # someone else's
        "Tom isn't her boss any more",
        "I broke up with Sam's brother",
        "Sam's brother and I broke up",
        "Tom won't be my boss after March",  # ahead
        "Tom will no longer be my boss",
        "Tom was my boss",  # past, no change
        "Tom is not my boss",  # not "any more": a correction, if anything
        "Ana isn't my sister anymore",  # kin does not end
        "My mum isn't Carol anymore",
        "We broke up for the summer holidays",  # a school's term
        "we split up the bill",  # not a parting
        "We split up to cover more ground",
        "we split up and searched the woods",
        "Sam dumped me at the station",
        "I've never broken up with anyone",
        "We haven't broken up",
    ],
)
def test_what_ends_no_relation(text: str) -> None:
    assert _ended(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Dr. Patel is not my dentist anymore", [("dentist", "Dr. Patel", True)]),
        # a relation stated inside the ending is the one ended, not a new one
        ("I broke up with my boyfriend Sam last week", [("partner", "Sam", True)]),
        # named: the holder ends, the new one starts after it
        (
            "Tom isn't my boss anymore, my new boss is Sara Lopez.",
            [("manager", "Tom", True), ("manager", "Sara Lopez", False)],
        ),
        # unnamed beside a new value of its key: the new one supersedes whoever it was
        ("We broke up. My new girlfriend is Leah.", [("partner", "Leah", False)]),
        (
            "I no longer live in Leeds and Tom is no longer my manager",
            [("location", "Leeds", True), ("manager", "Tom", True)],
        ),
    ],
)
def test_the_extractor_reads_endings_beside_relations(
    text: str, expected: list[tuple[str, str, bool]]
) -> None:
    assert [(f.key, f.value, f.ends) for f in extract(text)] == expected
