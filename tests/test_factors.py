"""The strength factors are pure functions of a memory's text and neighbourhood."""

from __future__ import annotations

from graphmem.model import factors as f


def test_emotion_is_sentiment_intensity_from_the_vader_lexicon() -> None:
    assert f.emotion("The meeting is on the second floor.") == 0.0
    assert f.emotion("I was devastated when my dog died!!") > 0.6
    intensity, valence = f.sentiment("I love this, it is wonderful")
    assert intensity > 0.5 and valence > 0


def test_presentation_cues() -> None:
    assert f.presentation("we met at noon") == 0.0
    assert f.presentation_cues("Remember this: the door code is 1234") == {"explicit"}
    assert "code" in f.presentation_cues("run this:\n```\nmake test\n```")
    assert "list" in f.presentation_cues("- eggs\n- milk\n- bread")
    assert "list" not in f.presentation_cues("- just one dash")
    assert "table" in f.presentation_cues("| a | b |\n|---|---|\n| 1 | 2 |")
    assert "heading" in f.presentation_cues("# Setup\ninstall it")
    assert "emphasis" in f.presentation_cues("this is **really** important")
    assert f.presentation("Remember this:\n# Plan\n- a\n- b\n```x```") == 1.0


def test_coherence_is_the_mean_of_the_strongest_similarities() -> None:
    assert f.coherence([]) == 0.0
    assert abs(f.coherence([0.9, 0.8, 0.7, 0.1]) - 0.8) < 1e-12
    assert f.coherence([-0.4]) == 0.0
