"""What a preference or a rule may be (pure): "I love X" states a preference only when X is a thing or an
activity said in the sentence's own clause, and "Always X" a rule only when X is an instruction. The
sentences are this file's own; each negative one was read as a preference or a rule before round 59, and
such facts led every ``context()`` of the user ("preference:how it s both a creative outlet: love")."""

from __future__ import annotations

import pytest

from graphmem.model import fact_patterns
from graphmem.model.extracted import standing


def _keys(text: str) -> list[str]:
    return [f.key for f in fact_patterns.extract(text) if f.key.startswith(("preference:", "rule:"))]


@pytest.mark.parametrize(
    "text",
    [
        "I love how the light falls through the kitchen window.",  # a clause: how it looks
        "I like what they did with the garden.",
        "I love when you send me those long voice notes!",
        "I love the way the sauce thickened.",
        "I love your new haircut, it suits you.",  # the listener's thing: a compliment
        "Running the shop is something I love and it shows.",
        "Working with kids, which is what I love is hard some days.",
        "That's exactly what I like to hear.",  # a relative clause: not what the speaker loves
        "I really like the idea.",  # vague
        "Always here if you need me.",  # no imperative: the subject left out
        "Never had the time to learn it.",
        "Never been to Japan, sadly.",
    ],
)
def test_no_preference_or_rule_is_read(text: str) -> None:
    assert _keys(text) == []


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("I love hiking in the hills.", "preference:hiking in the hills"),
        ("I love being a dad.", "preference:being a dad"),
        ("These days I enjoy baking sourdough.", "preference:baking sourdough"),
        ("I love that little bakery near the station.", "preference:that little bakery near the station"),
        ("I really like the idea of a four-day week.", "preference:idea of a four day week"),
        ("I can't stand loud restaurants.", "preference:loud restaurants"),
        ("Always reply in Spanish.", "rule:reply in spanish"),
        ("Never schedule calls on Fridays.", "rule:schedule calls"),
        ("Always have a backup plan.", "rule:have a backup plan"),
        ("Always be concise in your answers.", "rule:be concise in your answers"),  # "be": an imperative
        ("I love Will Ferrell movies.", "preference:will ferrell movies"),  # a name, not the auxiliary
        ("I love When Harry Met Sally.", "preference:when harry met sally"),  # a title, not a clause
    ],
)
def test_a_preference_or_rule_is_still_read(text: str, key: str) -> None:
    assert _keys(text) == [key]


def test_standing_reads_the_clause_before_the_object() -> None:
    assert standing(False, "jazz", "Honestly, ")
    assert not standing(False, "jazz", "It's everything ")  # "It's everything I love": a relative clause
    assert standing(True, "answer in French", "")
    assert not standing(True, "there for you", "")
