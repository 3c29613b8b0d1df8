"""Code is no source of names (graphmem.model.prose): the rule pure, then through remember() on the real
server, where code in two memories used to link them through Entity nodes such as "None"."""

from __future__ import annotations

import time

from graphmem import GraphMemory
from graphmem.model.entities import extract
from graphmem.model.fact_patterns import extract as fact_extract
from graphmem.model.prose import prose

FIX = """Here's the fix Maria suggested:
```python
def parse_config(path: str) -> Config:
    if data.get("Debug") is None:
        data["Debug"] = False
    return Config(**data)
```
Then run `UserSession.refresh()` again and tell Oscar.

    raise TokenExpiredError("Refresh token expired")
    - ask Priya in Lisbon about the cache
Done."""


def test_prose_blanks_code_and_keeps_every_position() -> None:
    text = prose(FIX)
    assert len(text) == len(FIX) and text.count("\n") == FIX.count("\n")
    for code in ("parse_config", "Config", "Debug", "False", "UserSession", "TokenExpiredError", "```"):
        assert code not in text, code
    for words in ("Here's the fix Maria suggested:", "Then run", "again and tell Oscar.", "Priya in Lisbon"):
        assert words in text and text.index(words) == FIX.index(words), words
    assert prose('{"status": "Error", "Service": "PaymentsAPI"}').strip() == ""
    assert prose("[draft] Maria said hi") == "[draft] Maria said hi"  # not JSON: prose
    assert prose("Nothing to blank here.") == "Nothing to blank here."


def test_names_come_from_the_prose_only() -> None:
    assert [m.name for m in extract(FIX)] == ["Maria", "Oscar", "Priya", "Lisbon"]
    assert extract('{"error": "Internal Server Error", "Service": "Payments"}') == []
    assert [m.name for m in extract("The parser returns None when Anna passes True.")] == ["Anna"]


def test_code_in_two_memories_links_them_through_no_entity(mem: GraphMemory, user_id: str) -> None:
    for text in (
        "```python\nif value is None:\n    return False\n```\nThat fixed the importer.",
        "```js\nif (x === null) { return None; }\n```\nSame guard in the client, says Oscar.",
    ):
        mem.remember(text, user_id=user_id)
    rows = mem.query(
        "MATCH (m:Memory)-[:ENTITY]->(e:Entity) WHERE m.user_id = $u RETURN e.name AS name, count(m) AS n",
        {"u": user_id},
    )
    assert {r["name"]: r["n"] for r in rows} == {"Oscar": 1}


def test_a_one_line_fence_and_indented_prose_stay_prose() -> None:
    """A backtick fence's info string holds no backtick ("```npm install```" is inline code, not a block to
    the end), and an indented line right after prose continues its paragraph (Markdown)."""
    assert [m.name for m in extract("```npm install```\nThen ask Maria to review it with Oscar.")] == [
        "Maria",
        "Oscar",
    ]
    notes = "Notes from the call with the team:\n    Alice will send the report to Bob on Monday."
    assert [m.name for m in extract(notes)] == ["Alice", "Bob"]
    assert [m.name for m in extract("We had lunch with Nan on Sunday.")] == ["Nan"]  # a name, not NaN


def test_code_states_no_fact_of_the_speaker() -> None:
    code = '```python\nBIO = "I live in Berlin and work at Siemens."\n```'
    assert fact_extract(code) == []
    assert [f.key for f in fact_extract("I live in Berlin.")] == ["location"]


def test_prose_is_linear_in_a_long_run_of_fence_characters() -> None:
    started = time.perf_counter()
    prose("`" * 100_000)
    prose("~" * 100_000 + "\n")
    assert time.perf_counter() - started < 0.5  # 6.4 s before the runs were possessive
