"""Pure formation rules: messages, entities, facts, causal cues, PII, duplicates, importance. No database."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem import ValidationError
from graphmem.model import entities, extracted, fact_patterns, facts, importance, linking, messages
from graphmem.model.extraction import CueDirection, PatternExtractor, causal_cue, luhn_ok, redact_pii
from graphmem.model.facts import CurrentFact, FactInput, Resolution
from graphmem.models import FactType, MemoryType, Priority, Source

T0 = datetime(2024, 5, 1, tzinfo=UTC)


# --- messages --------------------------------------------------------------------------------------
def test_every_message_shape_normalizes() -> None:
    adk = SimpleNamespace(role="model", parts=[SimpleNamespace(text="Hello"), SimpleNamespace(text="there")])
    event = SimpleNamespace(
        author="user", content=SimpleNamespace(role="user", parts=[SimpleNamespace(text="hi")])
    )
    turns = messages.normalize_all(
        [
            {
                "role": "user",
                "content": "I like tea",
                "name": "Ann",
                "timestamp": "2024-05-01T10:00:00Z",
                "metadata": {"dia_id": "D1:1"},
            },
            adk,
            {"role": "user", "parts": [{"text": "dict content"}]},
            event,
            "plain string",
        ],
        max_batch=10,
        max_chars=1000,
    )
    assert [t.role for t in turns] == ["user", "model", "user", "user", "user"]
    assert turns[0].speaker == "Ann" and turns[0].metadata == {"dia_id": "D1:1"}
    assert turns[0].timestamp == datetime(2024, 5, 1, 10, tzinfo=UTC)
    assert (
        turns[1].content == "Hello\nthere" and turns[1].speaker == "model" and turns[1].source is Source.AGENT
    )


@pytest.mark.parametrize(
    ("batch", "field"),
    [
        ([{"role": "user"}], "messages[0].content"),
        ([{"role": "wizard", "content": "x"}], "messages[0].role"),
        ([{"content": "x"}], "messages[0].role"),
        ([{"role": "user", "content": "x", "timestamp": "last tuesday"}], "messages[0].timestamp"),
        ([{"role": "user", "content": "x", "metadata": [1]}], "messages[0].metadata"),
        ([{"role": "user", "parts": []}], "messages[0]"),
        ([42], "messages[0]"),
        (["x"] * 11, "messages"),
        ([], "messages"),
        ("not a list", "messages"),
    ],
)
def test_bad_messages_are_typed_errors(batch: object, field: str) -> None:
    with pytest.raises(ValidationError) as info:
        messages.normalize_all(batch, max_batch=10, max_chars=1000)
    assert info.value.field == field


# --- entities --------------------------------------------------------------------------------------
def test_entity_variants_share_a_key() -> None:
    assert (
        entities.normalize_key("Rex") == entities.normalize_key("rex") == entities.normalize_key("my dog Rex")
    )
    assert entities.normalize_key("Dr. Smith's") == "smith"


def test_entities_from_rules() -> None:
    found = {m.key: m.type for m in entities.extract("My dog Rex loves the beach in Brighton with Anna Lee.")}
    assert found == {"rex": "animal", "brighton": "place", "anna lee": "person"}
    assert entities.extract("Went to the shop. Honestly it was fine.") == []
    assert [m.key for m in entities.extract("rex chewed my shoes", known={"rex"})] == ["rex"]
    assert [m.type for m in entities.extract("I work at Acme Corp now")] == ["organization"]


def _alternation_spans(text: str, keys: set[str]) -> list[tuple[int, int]]:
    """The reference: one regex alternation of the keys, longest first (what extract used until round 28)."""
    alternation = "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True))
    return [m.span() for m in re.finditer(rf"(?<![\w-])(?:{alternation})(?![\w-])", text)]


WORDS = st.sampled_from(
    ["rex", "new", "york", "new york", "st.", "st. louis", "ann-marie", "ann", "o'neil", "é"]
)


@given(
    st.lists(st.one_of(WORDS, st.sampled_from([" ", "  ", ", ", "-", ".", "'s ", "x", "_"])), max_size=30),
    st.sets(WORDS, min_size=1, max_size=6),
)
def test_known_spans_find_what_the_alternation_finds(parts: list[str], keys: set[str]) -> None:
    text = "".join(parts)
    assert list(entities.known_spans(text, keys)) == _alternation_spans(text, keys)


def test_known_spans_cost_does_not_grow_with_the_keys() -> None:
    """5,000 known keys: a scan of the text per distinct key length, no alternation to compile."""
    keys = {f"person {i}" for i in range(5_000)} | {"rex"}
    assert list(entities.known_spans("rex met person 42 and person 4200.", keys)) == [
        (0, 3),
        (8, 17),
        (22, 33),
    ]


# --- facts -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My name is Alice Smith.", [("name", "Alice Smith", FactType.PROFILE)]),
        ("Hi! I'm Maya, nice to meet you.", [("name", "Maya", FactType.PROFILE)]),
        ("Hello, I am John Smith.", [("name", "John Smith", FactType.PROFILE)]),
        ("Call me Bob.", [("name", "Bob", FactType.PROFILE)]),
        ("I'm Italian.", []),
        ("Hey, I'm tired today.", []),
        (
            "I live in Leeds and I work at Acme Corp.",
            [("location", "Leeds", FactType.PROFILE), ("employer", "Acme Corp", FactType.PROFILE)],
        ),
        (
            "I started a new job at Spotify last week as a data engineer.",
            [("employer", "Spotify", FactType.PROFILE), ("occupation", "data engineer", FactType.PROFILE)],
        ),
        ("I've got a job with the BBC.", [("employer", "BBC", FactType.PROFILE)]),
        (
            "I joined Acme as a designer",
            [("employer", "Acme", FactType.PROFILE), ("occupation", "designer", FactType.PROFILE)],
        ),
        ("I started the job as an intern", [("occupation", "intern", FactType.PROFILE)]),
        (
            "I started at Acme as a designer",
            [("employer", "Acme", FactType.PROFILE), ("occupation", "designer", FactType.PROFILE)],
        ),
        ("I started running as a hobby", []),
        (  # the role and the place of a job; a full stop inside a name does not end it
            "I work as a nurse at St. Mary's hospital, mostly night shifts.",
            [
                ("occupation", "nurse", FactType.PROFILE),
                ("employer", "St. Mary's hospital", FactType.PROFILE),
            ],
        ),
        ("I work as a tutor for kids", [("occupation", "tutor for kids", FactType.PROFILE)]),
        ("I moved to St. Louis last year.", [("location", "St. Louis", FactType.PROFILE)]),
        # a time after the value is not part of it; a name that starts like a month is not a time
        (
            "I moved to Berlin in March and started at Zalando as a data engineer.",
            [
                ("location", "Berlin", FactType.PROFILE),
                ("employer", "Zalando", FactType.PROFILE),
                ("occupation", "data engineer", FactType.PROFILE),
            ],
        ),
        ("I moved to York two years ago", [("location", "York", FactType.PROFILE)]),
        ("I moved to Oslo in 2021", [("location", "Oslo", FactType.PROFILE)]),
        ("I live in Paris on weekdays", [("location", "Paris", FactType.PROFILE)]),
        ("I moved to Sydney in Nova Scotia", [("location", "Sydney in Nova Scotia", FactType.PROFILE)]),
        ("I love hiking in autumn", [("preference:hiking", "love", FactType.PREFERENCE)]),
        # a move to a firm, not a place: the job, no home (round 59: both keys read "Initech")
        ("I just moved to Initech as a staff engineer.", [("employer", "Initech", FactType.PROFILE)]),
        ("I'm moving to Initech next month as a staff engineer.", []),  # nor a plan of one
        ("I moved over to Stripe last year as a designer.", []),
        # a place: a home
        ("I moved to Leeds last year as a nurse.", [("location", "Leeds", FactType.PROFILE)]),
        ("She moved to Paris and started at Dior as a model", []),
        ("Actually I left Zalando and now work at N26", [("employer", "N26", FactType.PROFILE)]),
        ("I sold the flat and now live in Leeds", [("location", "Leeds", FactType.PROFILE)]),
        ("I met her and she works at Acme", []),
        (
            "I just moved to Leeds for a new job at the BBC.",
            [("location", "Leeds", FactType.PROFILE), ("employer", "BBC", FactType.PROFILE)],
        ),
        ("I applied for a job at Google", []),
        ("I quit and work as a barista now", [("occupation", "barista", FactType.PROFILE)]),
        ("I live in Washington D.C. now", [("location", "Washington D.C.", FactType.PROFILE)]),
        ("I moved to Leeds. St. Mary's is nearby.", [("location", "Leeds", FactType.PROFILE)]),
        ("I'm allergic to peanuts", [("allergy:peanuts", "yes", FactType.PROFILE)]),
        ("I'm vegetarian, but I eat eggs.", [("diet", "vegetarian", FactType.PROFILE)]),
        ("So I'm a vegan now.", [("diet", "vegan", FactType.PROFILE)]),
        ("I'm vegetarian food obsessed", []),
        ("I'm not vegetarian", []),
        ("I love hiking!", [("preference:hiking", "love", FactType.PREFERENCE)]),
        ("I can't stand jazz", [("preference:jazz", "hate", FactType.PREFERENCE)]),
        ("My favourite colour is green.", [("favorite:colour", "green", FactType.PREFERENCE)]),
        ("Always answer in French.", [("rule:answer in french", "always", FactType.RULE)]),
        ("I like it", []),
        ("The weather is nice", []),
    ],
)
def test_fact_patterns(text: str, expected: list[tuple[str, str, FactType]]) -> None:
    assert sorted((f.key, f.value, f.fact_type) for f in fact_patterns.extract(text)) == sorted(expected)


def _input(value: str, when: datetime, source: Source = Source.USER) -> FactInput:
    return FactInput(user_id="u", key="city", value=value, valid_from=when, source=source)


def test_fact_plan_supersedes_and_closes_intervals() -> None:
    current = CurrentFact("old", "Leeds", T0, Source.USER, 1)
    plan = facts.plan([_input("York", T0 + timedelta(days=3))], {("u", None, "city"): current}, T0)
    assert plan.results[0][1] is Resolution.SUPERSEDE
    assert plan.close == [{"id": "old", "valid_to": T0 + timedelta(days=3), "status": "superseded"}]
    assert plan.supersedes[0]["dst"] == "old" and plan.create[0]["version"] == 2
    assert plan.audit[0]["resolution"] == "supersede"


def test_fact_classification() -> None:
    current = CurrentFact("old", "Leeds", T0, Source.USER, 1)
    later = T0 + timedelta(days=1)
    assert facts.classify(current, _input("leeds.", later), later)[0] is Resolution.MERGE
    assert facts.classify(current, _input("York", later, Source.INFERENCE), later)[0] is Resolution.KEEP_BOTH
    assert facts.classify(current, _input("York", T0 - timedelta(days=1)), T0 - timedelta(days=1))[0] is (
        Resolution.KEEP_BOTH
    )
    assert facts.classify(None, _input("York", later), later)[0] is Resolution.NEW


def test_two_values_in_one_batch_chain_versions() -> None:
    plan = facts.plan([_input("A", T0), _input("B", T0 + timedelta(days=1))], {}, T0)
    assert [r["status"] for r in plan.create] == ["superseded", "current"]
    assert plan.create[0]["valid_to"] == T0 + timedelta(days=1) and plan.close == []


# --- causal cues -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "cue", "direction"),
    [
        ("It rained, so I stayed home.", "so", CueDirection.EFFECT),
        ("That's why I moved.", "that's why", CueDirection.EFFECT),
        ("As a result, I missed the bus.", "as a result", CueDirection.EFFECT),
        ("Because my mother was sick.", "because", CueDirection.CAUSE),
        ("I'm learning German because I moved to Berlin", "because", CueDirection.EFFECT),
    ],
)
def test_causal_cues(text: str, cue: str, direction: CueDirection) -> None:
    found = causal_cue(text)
    assert found is not None and (found.cue, found.direction) == (cue, direction)


@pytest.mark.parametrize("text", ["I was so happy!", "I have lived here since 2019.", "We went to the shop."])
def test_not_causal(text: str) -> None:
    assert causal_cue(text) is None


# --- PII -------------------------------------------------------------------------------------------
def test_pii_redaction() -> None:
    text, kinds = redact_pii(
        "Mail bob@example.com, call +44 7700 900123, card 4111 1111 1111 1111, account number: 12345678. "
        "Born 1990, meet 2024-05-01, I have 3 kids."
    )
    assert kinds == ["account", "card", "email", "phone"]
    assert "bob@" not in text and "4111" not in text and "7700" not in text and "12345678" not in text
    assert "1990" in text and "2024-05-01" in text and "3 kids" in text


def test_a_number_failing_luhn_is_not_a_card() -> None:
    assert not luhn_ok("4111111111111112")
    assert "[CARD]" not in redact_pii("order 4111 1111 1111 1112")[0]


@given(st.text(alphabet="abcdefghij .,!?", max_size=80))
def test_redaction_leaves_plain_text_alone(text: str) -> None:
    assert redact_pii(text) == (text, [])


# --- duplicates and links ----------------------------------------------------------------------------
def _item(text: str) -> linking.NewItem:
    return linking.NewItem(text, T0, "s")


def test_duplicate_of_existing_and_of_batch() -> None:
    existing = [linking.Neighbour("m1", 0.97, "I adopted a dog named Rex", T0, "s")]
    vectors = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    plan = linking.plan_links(
        [_item("I adopted a dog named Rex!"), _item("I adopted a dog named Rex!"), _item("other")],
        [existing, [], []],
        linking.batch_cosines(vectors),
        duplicate_threshold=0.95,
        related_threshold=0.5,
        related_k=5,
    )
    assert plan.duplicate_of_existing == {0: ("m1", 0.97)}
    assert 1 not in plan.duplicate_of_batch  # its twin merged into m1, so it is the first new copy


def test_differing_numbers_or_negation_are_not_duplicates() -> None:
    assert not linking.same_claims("I paid $30", "I paid $40")
    assert not linking.same_claims("I like jazz", "I don't like jazz")
    assert linking.same_claims("I adopted Rex", "i adopted rex!")


def test_related_and_causal_links() -> None:
    vectors = np.array([[1.0, 0.0], [0.9, 0.43589], [0.0, 1.0]])
    plan = linking.plan_links(
        [_item("It rained all day."), _item("It rained, so I stayed home."), _item("Unrelated.")],
        [[], [], []],
        linking.batch_cosines(vectors),
        duplicate_threshold=0.95,
        related_threshold=0.5,
        related_k=5,
    )
    assert plan.related == [(1, 0, 0.9)]
    assert plan.causes == [(0, 1, 0.9, "so")]


def _related_by_definition(
    items: list[linking.NewItem], neighbours: list[list[linking.Neighbour]], cosines: np.ndarray, k: int
) -> list[tuple[int, str | int, float]]:
    """RELATED_TO by its definition (no near-duplicates here): each memory's neighbours, then every earlier
    draft, sorted stably by cosine; the first ``k`` at or above the threshold."""
    out: list[tuple[int, str | int, float]] = []
    for i in range(len(items)):
        candidates = [(n.id, n.cosine) for n in neighbours[i]] + [(j, float(cosines[i, j])) for j in range(i)]
        candidates.sort(key=lambda c: -c[1])
        out += [(i, t, round(c, 4)) for t, c in candidates[:k] if c >= 0.3]
    return out


def test_related_links_match_their_definition_with_ties() -> None:
    rng = np.random.default_rng(5)
    vectors = rng.normal(size=(60, 4))
    vectors[rng.integers(0, 60, size=20)] = vectors[0]  # exact ties at the top-k boundary
    items = [_item(f"note {i}") for i in range(60)]
    neighbours = [[linking.Neighbour(f"m{i}", 0.6, "old", T0, "s")] if i % 3 else [] for i in range(60)]
    cosines = linking.batch_cosines(vectors)
    plan = linking.plan_links(
        items, neighbours, cosines, duplicate_threshold=1.1, related_threshold=0.3, related_k=4
    )
    assert plan.related == _related_by_definition(items, neighbours, cosines, 4)


def test_entity_merge_needs_similarity_and_likeness() -> None:
    assert linking.should_merge_entities("rexy", "rex", 0.93, 0.9)
    assert not linking.should_merge_entities("paris", "london", 0.95, 0.9)
    assert not linking.should_merge_entities("york", "new york", 0.95, 0.9)
    assert not linking.should_merge_entities("rexy", "rex", 0.8, 0.9)


# --- importance --------------------------------------------------------------------------------------
def test_importance_ranks_types_and_boosts_marked() -> None:
    def score(t: MemoryType, marked: bool = False) -> float:
        f = importance.factors(base=0.5, access_count=0, n_facts=0, memory_type=t, occurred_at=T0, now=T0)
        return importance.importance(f, marked=marked)

    order = [
        score(MemoryType.PREFERENCE),
        score(MemoryType.PROCEDURAL),
        score(MemoryType.SEMANTIC),
        score(MemoryType.EPISODIC),
    ]
    assert order == sorted(order, reverse=True) and len(set(order)) == 4
    assert score(MemoryType.EPISODIC, marked=True) > score(MemoryType.EPISODIC)
    assert importance.is_marked(Priority.P0, [], {}) and importance.is_marked(None, ["Important"], {})
    assert importance.DEFAULT_PRIORITY[MemoryType.EPISODIC] is Priority.P2


def test_pattern_extractor_uses_mid_sentence_names_for_sentence_starts() -> None:
    out = PatternExtractor().extract(["Melanie said hi.", "I met Melanie at the park."])
    assert [m.key for m in out[0].entities] == ["melanie"]


def test_client_side_top_k_matches_a_full_sort() -> None:
    rng = np.random.default_rng(7)
    a, b = rng.normal(size=(5, 8)), rng.normal(size=(40, 8))
    cos = linking.cross_cosines(a.tolist(), b.tolist())
    for i in range(5):
        assert linking.top_k(cos[i], 6) == [int(j) for j in np.argsort(-cos[i])[:6]]
    assert linking.top_k(cos[0], 0) == [] and len(linking.top_k(cos[0], 99)) == 40


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Thanks, Caroline. We've been busy.", ["Caroline"]),
        ("Nice pic, Mel. Relaxing is key.", ["Mel"]),
        ("I met Dr. Smith in St. Louis.", ["Smith", "St. Louis"]),
        ("J. K. Rowling wrote it.", ["J. K. Rowling"]),
    ],
)
def test_a_name_does_not_run_on_into_the_next_sentence(text: str, names: list[str]) -> None:
    assert [m.name for m in entities.extract(text)] == names


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Emma lives in Lisbon now, but she is staying with me until June.", [("Emma/location", "Lisbon")]),
        ("Emma moved to Porto a few weeks ago", [("Emma/location", "Porto")]),
        ("My sister Emma moved to Porto.", [("Emma/location", "Porto"), ("person:Emma", "sister")]),
        ("My brother works at Acme Corp.", [("brother/employer", "Acme Corp")]),
        ("Tom works as a photographer.", [("Tom/occupation", "photographer")]),
        ("I live in Leeds and my mom lives in York.", [("location", "Leeds"), ("mom/location", "York")]),
        ("I've moved to York.", [("location", "York")]),  # "I've" is nobody's name
        ("She lives in Paris.", []),
        ("Jean-Luc lives in Paris.", [("Jean-Luc/location", "Paris")]),  # not "Luc"
        ("O'Neil works at Acme.", [("O'Neil/employer", "Acme")]),
        ("Does Emma live in Lisbon?", []),
    ],
)
def test_facts_about_someone_else_are_keyed_under_them(text: str, expected: list[tuple[str, str]]) -> None:
    found = [(extracted.with_subject(f, "Maya").key, f.value) for f in fact_patterns.extract(text)]
    expected = [(k if "/" in k else f"Maya/{k}", v) for k, v in expected]  # the speaker's own: under her
    assert sorted(found) == sorted(expected)
