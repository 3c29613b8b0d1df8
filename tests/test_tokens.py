"""Words as the full-text index cuts them (graphmem.model.tokens): the rule pure, then checked against the
server's index, then through recall: an identifier is found whether the query writes it whole or in words, and
a word beyond ASCII is one word."""

from __future__ import annotations

import pytest

from graphmem import GraphMemory
from graphmem.model.entities import extract
from graphmem.model.fact_patterns import extract as fact_extract
from graphmem.model.intent import named_entities
from graphmem.model.keys import search_text
from graphmem.model.reconstruction import stands_alone
from graphmem.model.tokens import compound_parts, index_tokens
from graphmem.model.topics import words as topic_words
from graphmem.retrieval.terms import LUCENE_SPECIAL, query_terms
from graphmem.temporal import migrate

CUTS = {
    "alpha parse_config() beta": ["alpha", "parse_config", "beta"],
    "see parser.py and __init__": ["see", "parser.py", "and", "__init__"],
    "TokenExpiredError at 10.0.3.17": ["tokenexpirederror", "at", "10.0.3.17"],
    "numpy 1.26.4, 3,000 rows at 5:30": ["numpy", "1.26.4", "3,000", "rows", "at", "5", "30"],
    "finance@acme.io HMAC-SHA256 https://app.acme.io/auth": [
        "finance",
        "acme.io",
        "hmac",
        "sha256",
        "https",
        "app.acme.io",
        "auth",
    ],
    "O'Brien’s trip to Zürich, e.g. São Paulo": ["o'brien's", "trip", "to", "zürich", "e.g", "são", "paulo"],
    # a joint between a letter and a digit cuts; an ideograph is a term alone; "İ" lower-cases to "i"
    "base64.b64encode step1.next in the 90's": [
        "base64",
        "b64encode",
        "step1",
        "next",
        "in",
        "the",
        "90",
        "s",
    ],
    "北京大学 and İstanbul": ["北", "京", "大", "学", "and", "istanbul"],
}


def test_index_tokens_cut_as_the_standard_tokenizer() -> None:
    for text, tokens in CUTS.items():
        assert index_tokens(text) == tokens, text


def test_compound_parts_are_the_words_inside_joined_and_camel_case_terms() -> None:
    assert compound_parts("alpha parse_config() beta") == ["parse", "config"]
    assert compound_parts("TokenExpiredError in HTTPServer.handle") == [
        "token",
        "expired",
        "error",
        "http",
        "server",
        "handle",
    ]
    assert compound_parts("the parser in parser.py") == ["py"]  # "parser" is a term of its own already
    assert compound_parts("__init__ and 10.0.3.17") == ["init", "10", "17"]  # no part of one character
    # a number with a separator, letters next to digits, an apostrophe's word, a plain word: no parts
    assert compound_parts("3,000 sha256 3pm O'Brien Zürich plain") == []
    assert compound_parts("parse_config's default") == ["parse", "config"]  # the possessive aside
    assert compound_parts("APIs, URLs and GPUs") == []  # a plural acronym is one word


def test_query_terms_keep_the_whole_term_then_its_words() -> None:
    assert query_terms("How does parse_config work?") == ["parse_config", "work", "parse", "config"]
    assert query_terms("When did we move to Zürich?") == ["move", "zürich"]  # not "rich"
    assert query_terms("What did Caroline’s sister say?") == ["caroline's", "sister", "say"]


def test_search_text_carries_the_words_inside_compound_terms() -> None:
    text = search_text("Call refreshToken() after parse_config", None, [], [])
    assert text == "Call refreshToken() after parse_config refresh token parse config"
    assert search_text("I moved to Zürich", None, ["Zürich"], []) == "I moved to Zürich"
    # an entity whose name is only inside a compound term of the content is a term of its own to add
    assert search_text("mail finance@acme.io", None, ["Acme"], []) == "mail finance@acme.io Acme io"


@pytest.fixture()
def keyed(mem: GraphMemory, user_id: str) -> str:
    for text in CUTS:
        mem.remember(text, user_id=user_id)
    rows = mem.query("MATCH (m:Memory) WHERE m.user_id = $u RETURN m.user_key AS k LIMIT 1", {"u": user_id})
    return str(rows[0]["k"])


def _found(mem: GraphMemory, user_key: str, field: str, term: str) -> list[str]:
    escaped = LUCENE_SPECIAL.sub(r"\\\1", term)
    rows = mem.query(
        "CALL db.index.fulltext.queryNodes('memory_content', $q) YIELD node RETURN node.content AS c",
        {"q": f"+user_key:{user_key} +{field}:({escaped})"},
    )
    return [str(r["c"]) for r in rows]


def test_the_index_holds_each_token_as_cut_and_search_text_its_words(mem: GraphMemory, keyed: str) -> None:
    """The premise, on the server: every term :func:`index_tokens` cuts (the analyzer's stop words aside)
    finds its memory in the content field; a compound term's words do not, but find it by its search text."""
    for text, tokens in CUTS.items():
        for token in tokens:
            if token in {"and", "at", "to", "in", "the", "s"}:  # the analyzer's stop words (and "'s")
                continue
            assert _found(mem, keyed, "content", token) == [text], token
        for part in compound_parts(text):
            assert _found(mem, keyed, "content", part) == [], part
            assert text in _found(mem, keyed, "search_text", part), part


def test_recall_finds_an_identifier_in_full_text_whole_or_in_words(mem: GraphMemory, user_id: str) -> None:
    texts = [
        "parse_config() reads settings.toml first, then the environment.",
        "We moved to Zürich in May.",
        "The rich soil in the garden grows tomatoes.",
        "UserSessionManager raises TokenExpiredError after thirty days.",
    ]
    for text in texts:
        mem.remember(text, user_id=user_id)

    def bm25(query: str) -> dict[str, float]:
        hits = mem.recall(query, user_id=user_id, k=4, reinforce=False)
        return {h.memory.content: float(h.explanation.components.get("bm25", 0.0)) for h in hits}

    for query in ("How does parse_config work?", "the parse config function"):
        assert bm25(query)[texts[0]] > 0.0, query
    for query in ("token expired error", "What raises TokenExpiredError?"):
        assert bm25(query)[texts[3]] > 0.0, query
    zurich = bm25("When did we move to Zürich?")
    assert zurich[texts[1]] > 0.0 and zurich.get(texts[2], 0.0) == 0.0  # "Zürich" is not "rich"


def test_a_name_that_starts_with_a_capital_beyond_ascii_is_a_name() -> None:
    found = [(m.name, m.type) for m in extract("I had coffee with Élodie and Łukasz in Örebro yesterday.")]
    assert found == [("Élodie", "person"), ("Łukasz", "person"), ("Örebro", "place")]
    assert [m.name for m in extract("My sister Émilie called.")] == ["Émilie"]
    assert named_entities("What did Élodie tell Łukasz about Zürich?") == ["Élodie", "Łukasz", "Zürich"]


def test_the_entity_view_links_memories_by_a_name_beyond_ascii(mem: GraphMemory, user_id: str) -> None:
    mem.remember("I went climbing with Łukasz on Saturday.", user_id=user_id)
    mem.remember("Łukasz lent me his rope.", user_id=user_id)
    rows = mem.query(
        "MATCH (m:Memory)-[:ENTITY]->(e:Entity) WHERE m.user_id = $u RETURN e.name AS name, count(m) AS n",
        {"u": user_id},
    )
    assert {r["name"]: r["n"] for r in rows}.get("Łukasz") == 2


def test_the_rules_that_read_words_read_letters_of_any_script() -> None:
    assert topic_words("We hiked near Zürich, a naïve café") == ["hiked", "near", "zürich", "naïve", "café"]
    assert stands_alone("It was amazing with Łukasz at the lake!")  # a name says what "it" is about


def test_init_adds_the_words_inside_compound_terms_to_memories_formed_before(
    mem: GraphMemory, user_id: str
) -> None:
    """The once-per-store migration (graphmem.temporal.migrate.compound_keys): a memory formed before round 61
    (its search text without the words inside its compound terms) gets them, and full text finds it."""
    old = mem.remember("Call refreshToken() after parse_config", user_id=user_id)
    plain = mem.remember("We painted the fence on Sunday.", user_id=user_id)
    mem.runtime.store.run_statement(
        "MATCH (m:Memory) WHERE m.user_id = $u SET m.search_text = m.content", {"u": user_id}
    )
    updated = mem.remember("We call the loader at startup.", user_id=user_id)
    mem.memories.update(
        updated.id, user_id=user_id, expected_version=1, content="We call load_settings at startup."
    )
    assert migrate.compound_keys(mem.runtime) >= 1
    rows = mem.query(
        "MATCH (m:Memory) WHERE m.user_id = $u RETURN m.id AS id, m.search_text AS text", {"u": user_id}
    )
    texts = {r["id"]: r["text"] for r in rows}
    assert texts[old.id] == "Call refreshToken() after parse_config refresh token parse config"
    assert texts[plain.id] == "We painted the fence on Sunday." and texts[updated.id] is None
    migrate.compound_keys(mem.runtime)  # a second run adds nothing more
    again = mem.query("MATCH (m:Memory {id: $id}) RETURN m.search_text AS text", {"id": old.id})
    assert again[0]["text"] == texts[old.id]
    hits = mem.recall("the parse config function", user_id=user_id, k=2, reinforce=False)
    assert hits[0].memory.id == old.id and hits[0].explanation.components["bm25"] > 0.0


def test_the_fact_rules_read_a_name_or_place_that_starts_with_a_capital_beyond_ascii() -> None:
    """Every rule compiles through pattern_pieces.compile_rule, whose character classes opening with A-Z take
    the capitals of other scripts: these stated nothing while "I live in Zürich" (a capital in A-Z) did."""
    found = {t: [(f.key, f.value) for f in fact_extract(t)] for t in FACTS}
    assert found == FACTS


FACTS = {
    "I live in Örebro.": [("location", "Örebro")],
    "I moved to Łódź last year.": [("location", "Łódź")],
    "My name is Élodie.": [("name", "Élodie")],
    "I live in Leeds.": [("location", "Leeds")],
}
