"""What calls a plan off, and what only looks like it: a move or a job named with other words ("I'm not
moving the couch myself", "the move is off to a good start", "I'm not starting with that") is no withdrawal,
so a pending plan stands. Pure rules."""

from __future__ import annotations

import pytest

from graphmem.model.fact_patterns import extract


@pytest.mark.parametrize(
    "text",
    [
        "I'm not moving the couch myself, the movers are doing it.",
        "I won't be moving much this weekend, my back hurts.",
        "I'm not moving from this sofa today.",
        "I'm not moving on from this easily.",
        "I've decided not to move the wedding.",
        "I decided not to move my savings into stocks.",
        "I'm not moving out until June.",
        "I'm not going to move a muscle.",
        "Our move is official: the contract is signed!",
        "The move is off to a great start.",
        "I'm not starting with that, it's too hard.",
        "I'm not moving to the house on the corner of Elm Street after all.",
        "I declined the role of best man.",
        "My boss made a counter offer but I turned down the offer.",
        "My sister isn't moving the couch herself.",
        "Dad won't be moving much after the surgery.",
        "My sister decided not to move her wedding.",
        "Emma isn't moving to the house on the corner of Elm Street after all.",
    ],
)
def test_a_sentence_that_only_looks_like_calling_a_plan_off_withdraws_none(text: str) -> None:
    assert [f for f in extract(text) if f.withdraws and not f.value] == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I'm not moving to Manchester until June.", "Manchester"),
        ("I'm not starting at Spotify until June.", "Spotify"),
    ],
)
def test_a_plan_put_off_is_not_called_off(text: str, value: str) -> None:
    assert [(f.value, f.put_off, f.withdraws) for f in extract(text)] == [
        (value, True, False)
    ]  # a plan from June


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I've decided not to move.", ""),
        ("I'd rather stay; I'm not moving.", ""),
        ("I'm not moving there after all.", ""),
        ("The move is off for now.", ""),
        ("I've called off the move, sadly.", ""),
        ("I cancelled my move to Oslo.", "Oslo"),
        ("I turned down the job offer.", ""),
        ("I declined the position.", ""),
    ],
)
def test_a_plan_called_off_in_few_words_is_still_a_withdrawal(text: str, value: str) -> None:
    assert [(f.value, f.withdraws) for f in extract(text)] == [(value, True)]
