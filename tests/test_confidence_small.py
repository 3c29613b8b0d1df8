"""A new user's few memories: confidence judged against reference sentences where the tenant's own pool is
short (graphmem.retrieval.reference), on the real server and the real embedder."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from graphmem import EmbedderError, GraphMemory
from graphmem.embedding import Embedder
from graphmem.model.scoring import ASKING_FACTOR, OTHER_VOICE_FACTOR, answer_confidence
from graphmem.retrieval import reference
from graphmem.retrieval.signals import answer_judge, coverage, names_known, other_voice, spread
from graphmem.retrieval.terms import query_names

FIRST_HOUR = [
    "My dog Rex is a two-year-old beagle",
    "My sister Ana is visiting in March",
    "I work as a nurse at the children's hospital",
    "I moved to Lisbon last month and I love the tram 28",
]
UNRELATED = "What instrument does Jonathan play in his band?"


def test_the_reference_sentences_ship_with_the_package() -> None:
    lines = reference.sentences()
    assert len(lines) >= 100
    assert len(set(lines)) == len(lines)


def test_a_short_pool_is_filled_from_the_reference_and_a_full_one_is_not(embedder: Embedder) -> None:
    query = embedder.embed(["where does my dog sleep"])[0]
    vector_seed = [{"id": "a", "found": [{"source": "vector", "score": 0.8}]}]
    filled = reference.for_pool(embedder, query, vector_seed * 3, 100)
    assert len(filled) == 100
    assert filled == sorted(filled, reverse=True)
    assert all(-1.0 <= c <= 1.0 for c in filled)
    assert reference.for_pool(embedder, query, vector_seed * 100, 100) == []  # the tenant's own pool
    assert reference.for_pool(embedder, None, vector_seed, 100) == []  # no query vector: full text only
    assert reference.for_pool(embedder, query, [], 100) == []  # nothing found: nothing to judge


def test_standout_of_a_single_memory_is_measured_against_the_reference() -> None:
    cosine, seeds = {"a": 0.7}, {"a": {"vector": 0.85}}
    assert spread(cosine, seeds)("a") == 0.0  # alone, it cannot stand out from itself
    filler = [0.45, 0.4, 0.35, 0.3, 0.25]
    assert spread(cosine, seeds, filler, 6)("a") > 2.0
    assert spread(cosine, seeds, filler, 1)("a") == 0.0  # the pool already holds pool_k


def test_a_new_users_few_memories_are_recognised(mem: GraphMemory, user_id: str) -> None:
    for text in FIRST_HOUR:
        mem.remember(text, user_id=user_id)
    for question, expected in (("What's my dog's name?", "Rex"), ("When is my sister visiting?", "Ana")):
        top = mem.recall(question, user_id=user_id, k=3, reinforce=False)[0]
        assert expected in top.memory.content
        assert top.confidence > 0.5, (question, top.confidence, top.explanation.components)
    assert mem.recall(UNRELATED, user_id=user_id, k=3, reinforce=False)[0].confidence < 0.5
    known = mem.context("What's my dog's name?", user_id=user_id, reinforce=False)
    assert not any(i.kind == "notice" for i in known.kept)
    assert any(i.kind == "memory" and "Rex" in i.text for i in known.kept)
    unknown = mem.context(UNRELATED, user_id=user_id, reinforce=False)
    assert "No memory clearly answers this query." in unknown.text
    assert not any(i.kind == "memory" for i in unknown.kept)


def test_a_single_memory_that_answers_is_recognised(mem: GraphMemory, user_id: str) -> None:
    mem.remember(FIRST_HOUR[0], user_id=user_id)
    assert mem.recall("What is my dog called?", user_id=user_id, k=1, reinforce=False)[0].confidence > 0.5
    assert mem.recall(UNRELATED, user_id=user_id, k=1, reinforce=False)[0].confidence < 0.5


class _FailsOnLargeBatches:
    """The real embedder, except that a batch of more than 50 texts fails (the reference has 149)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.dimension = inner.dimension

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if len(texts) > 50:
            raise EmbedderError("batch too large")
        return self.inner.embed(texts)

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return self.inner.embed_queries(texts)  # type: ignore[attr-defined, no-any-return]


def test_recall_goes_on_when_the_reference_cannot_be_embedded(
    mem: GraphMemory, user_id: str, embedder: Embedder
) -> None:
    flaky = GraphMemory(mem.runtime.store, _FailsOnLargeBatches(embedder), mem.runtime.settings)
    flaky.remember(FIRST_HOUR[0], user_id=user_id)
    [hit] = flaky.recall("What is my dog called?", user_id=user_id, k=1, reinforce=False)
    assert "Rex" in hit.memory.content
    assert hit.explanation.components["standout"] == 0.0  # judged on its own pool of one, as before


def test_a_question_by_a_fact_relations_alias_is_covered(mem: GraphMemory, user_id: str) -> None:
    """ "What is my job?" shares no word with "I work as a nurse", but the turn states an occupation, and the
    key namespace maps "job" to occupation (as "Where do I live?" reaches location by "lives"): the top hit
    is recognised, where its coverage of 0 kept it under 0.5."""
    for text in FIRST_HOUR:
        mem.remember(text, user_id=user_id)
    for question, expected in (("What is my job?", "nurse"), ("Where do I live?", "Lisbon")):
        top = mem.recall(question, user_id=user_id, k=3, reinforce=False)[0]
        assert expected in top.memory.content
        assert top.explanation.components["coverage"] == 1.0
        assert top.confidence > 0.5, (question, top.confidence, top.explanation.components)


def test_a_relation_brings_its_one_word_aliases_only() -> None:
    assert (
        coverage(["job"], {"content": "I work as a nurse", "text": "I work as a nurse occupation nurse"})
        == 1.0
    )
    assert coverage(["job"], {"content": "I work as a nurse"}) == 0.0  # no fact line, no relation
    assert (
        coverage(["first"], {"content": "Call me Bob", "text": "Call me Bob name Bob"}) == 0.0
    )  # first_name


def test_a_query_whose_names_no_memory_mentions_is_about_another_store() -> None:
    counted = [["caroline's", 0], ["hobbies", 12]]  # the speakers' names are never counted
    assert names_known("What are Caroline's hobbies?", counted) == 0.0
    assert names_known("What are Caroline's hobbies?", [["caroline's", 3], ["hobbies", 12]]) == 1.0
    assert names_known("What did Melanie paint?", [["paint", 40]]) == 1.0  # a speaker: not counted
    assert names_known("Did Jon meet Gina in Paris?", [["jon", 0], ["meet", 5], ["paris", 0]]) == 1.0  # Gina
    assert names_known("Did Jon visit Paris?", [["jon", 0], ["visit", 5], ["paris", 0]]) == 0.0
    assert names_known("Did Jon visit Paris?", [["jon", 0], ["visit", 5], ["paris", 2]]) == 1.0
    assert names_known("what did i paint?", [["paint", 0]]) == 1.0  # no name asked
    assert names_known("What are Caroline's hobbies?", None) == 1.0  # nothing counted (full text down)


def test_a_question_about_someone_the_user_never_mentioned_is_not_answered(
    mem: GraphMemory, user_id: str
) -> None:
    for text in FIRST_HOUR:
        mem.remember(text, user_id=user_id)
    hits = mem.recall("When is Jonathan's sister visiting?", user_id=user_id, k=3, reinforce=False)
    assert "Ana is visiting" in hits[0].memory.content  # the closest match, but about someone else's sister
    assert hits[0].explanation.components["names_known"] == 0.0
    assert all(h.confidence == 0.0 for h in hits)
    top = mem.recall("When is my sister Ana visiting?", user_id=user_id, k=3, reinforce=False)[0]
    assert top.explanation.components["names_known"] == 1.0 and top.confidence > 0.5


def test_another_speakers_turn_is_half_as_sure_an_answer() -> None:
    speakers = frozenset({"caroline", "melanie"})
    voice = other_voice("What did Caroline realise after her charity race?", speakers)
    assert voice({"speaker": "Melanie", "content": "I ran a charity race"}) == OTHER_VOICE_FACTOR
    assert voice({"speaker": "Caroline", "content": "The race made me realise..."}) == 1.0
    assert voice({"speaker": None, "content": "a note"}) == 1.0  # no speaker: nobody else's voice
    assert voice({"speaker": "Ana", "content": "a guest"}) == 1.0  # not one of the tenant's speakers
    both = other_voice("Did Caroline and Melanie run together?", speakers)
    assert both({"speaker": "Melanie"}) == 1.0  # asks about both: either may answer
    assert other_voice("What did I paint?", speakers)({"speaker": "Melanie"}) == 1.0


def test_a_turn_that_only_asks_is_half_as_sure_an_answer() -> None:
    """A question states no answer: the same match (standout, coverage) is half as sure on a turn that only
    asks as on a statement, as it counts half in ranking."""
    judge = answer_judge("What did the vet say?", {}, ["vet", "say"], lambda mid: 3.0)
    asked, parts = judge("q", {"content": "Poor Rex! What did the vet say?"})
    stated, stated_parts = judge("s", {"content": "The vet did say Rex needs two weeks of rest."})
    assert parts["coverage"] == stated_parts["coverage"] == 1.0
    assert (parts["asking"], stated_parts["asking"]) == (ASKING_FACTOR, 1.0)
    assert stated > 0.5 and asked == pytest.approx(ASKING_FACTOR * stated)


def test_recall_halves_the_confidence_of_a_turn_that_only_asks(mem: GraphMemory, user_id: str) -> None:
    mem.remember("Poor Rex! What did the vet say?", user_id=user_id)
    mem.remember("The vet said it is a small sprain and Rex needs rest", user_id=user_id)
    hits = mem.recall("What did the vet say?", user_id=user_id, k=2, reinforce=False)
    by_content = {h.memory.content: h for h in hits}
    for hit in hits:  # the confidence is the judged parts' product, the asking factor among them
        parts, meta = hit.explanation.components, hit.explanation.metamemory
        answer = answer_confidence(parts["standout"], parts["coverage"])
        answer *= parts["names_known"] * parts["voice"] * parts["asking"]
        trust = meta["reliability"] * (0.5 + 0.5 * meta["timeliness"])
        assert hit.confidence == pytest.approx(answer * trust, abs=1e-9)
    asked = by_content["Poor Rex! What did the vet say?"]
    assert asked.explanation.components["asking"] == ASKING_FACTOR
    assert (
        by_content["The vet said it is a small sprain and Rex needs rest"].explanation.components["asking"]
        == 1.0
    )


def test_a_question_s_opener_is_a_name_only_when_it_is_one() -> None:
    """Every question opens with a capital: "Whose", "Remind", "Please" named someone no memory mentions and
    set the confidence to 0 (round 62); a possessive or a given name still opens one."""
    counted = [["whose", 0], ["remind", 0], ["please", 0], ["birthday", 2], ["sister", 3], ["caroline's", 0]]
    for question in (
        "Whose birthday is coming up?",
        "Remind me where my sister lives",
        "Please find my sister",
    ):
        assert names_known(question, counted) == 1.0, question
    assert query_names("Caroline's hobbies?") == {"caroline"}
    assert query_names("Melanie painted what?") == {"melanie"}
    assert query_names("Google's revenue?") == {"google"}
    assert query_names("Tell me about Ana") == {"ana"}
    assert query_names("Hey, what is my name?") == set()
    for opener in ("Mom's birthday?", "Today's plan?", "Everyone's favourite?", "Monday's meeting?"):
        assert query_names(opener) == set(), opener  # a possessive of no one (the review of round 62)
    assert query_names("'Tell me about Ana") == {"ana"}


def test_an_imperative_question_is_answered_with_confidence(mem: GraphMemory, user_id: str) -> None:
    mem.remember("Please book a table at Nando's for Mia's birthday on the 20th.", user_id=user_id)
    mem.remember("The weather has been awful all week.", user_id=user_id)
    top = mem.recall("Whose birthday is coming up?", user_id=user_id, k=2, reinforce=False)[0]
    assert "Mia's birthday" in top.memory.content
    assert top.explanation.components["names_known"] == 1.0 and top.confidence > 0.0
