"""`graphmem import` run again, and the shapes of files and messages a first-hour user brings to it (typer's
CliRunner against the real server)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from graphmem import GraphMemory
from graphmem.cli.main import app

runner = CliRunner()


def _import(*args: str, input: str | None = None) -> dict[str, Any]:
    result = runner.invoke(app, ["import", *args, "--json"], input=input)
    assert result.exit_code == 0, result.output
    summary: dict[str, Any] = json.loads(result.stdout)
    return summary


def _write(path: Path, messages: list[Any]) -> Path:
    path.write_text("".join(json.dumps(m) + "\n" for m in messages))
    return path


def _state(mem: GraphMemory, user: str) -> list[Any]:
    """Every memory of the user with what a reinforcement changes, and the user's Merge records."""
    rows = mem.query(
        "MATCH (m:Memory {user_id: $u}) RETURN m.content AS c, m.access_count AS n, m.strength AS s, "
        "m.merge_count AS merges ORDER BY c",
        {"u": user},
    )
    merges = mem.query("MATCH (r:Merge {user_id: $u}) RETURN count(r) AS n", {"u": user})[0]["n"]
    return [*rows, merges]


TOPICS = ["my sister Ana lives in Porto", "I play the cello on Sundays", "our cat Miso hates the vacuum"]
TOPICS += ["I work as a tram driver", "we are saving for a trip to Japan", "I am allergic to walnuts"]
TOPICS += ["my favourite film is Paris, Texas"]


def test_reimport_with_other_batches_or_appended_lines_stores_and_reinforces_nothing_again(
    mem: GraphMemory, user_id: str, tmp_path: Path
) -> None:
    """The key of each add_messages call named the file's hash, the batch size and the batch's place: another
    --batch, or lines appended to the file, ran the old lines again (their near-duplicate check reinforced
    their memories: access counts, strength, Merge records) while the summary said all were already stored.
    Messages are now recorded as imported by their session and content."""
    lines = [{"role": "user", "content": t, "session_id": "life"} for t in TOPICS]
    file = _write(tmp_path / "chat.jsonl", lines[:5])
    first = _import(str(file), "-u", user_id, "--batch", "3")
    assert (first["new"], first["batches"]) == (5, 2)
    before = _state(mem, user_id)

    again = _import(str(file), "-u", user_id, "--batch", "2")
    assert _state(mem, user_id) == before  # nothing reinforced
    assert first["skipped"] == 0
    assert (again["new"], again["skipped"], again["batches"], again["memories"]) == (0, 5, 0, 0)

    _write(file, lines)  # two lines appended
    appended = _import(str(file), "-u", user_id, "--batch", "4")
    assert (appended["new"], appended["skipped"], appended["batches"]) == (2, 5, 1)
    after = _state(mem, user_id)
    assert len(after) == 8 and after[-1] == 0  # 7 memories, no Merge record
    assert [r for r in after[:-1] if r["c"] in TOPICS[:5]] == before[:-1]

    said = runner.invoke(app, ["import", str(file), "-u", user_id])
    assert said.exit_code == 0 and "all 7 messages were imported" in said.stdout, said.output


def test_another_session_is_another_import(mem: GraphMemory, user_id: str, tmp_path: Path) -> None:
    """Lines without a session_id imported with --session A and then --session B: the second run replayed the
    first's key and sent nothing to B. Now B's run sends its messages (add_messages decides what they are:
    here near-duplicates of A's memories, which they reinforce), and says so."""
    file = _write(tmp_path / "notes.jsonl", [{"role": "user", "content": t} for t in TOPICS[:2]])
    assert _import(str(file), "-u", user_id, "--session", "A")["new"] == 2
    into_b = _import(str(file), "-u", user_id, "--session", "B")
    merges = mem.query("MATCH (r:Merge {user_id: $u}) RETURN count(r) AS n", {"u": user_id})[0]["n"]
    assert merges == 2  # the same turns said again reinforce the memories A stored
    assert (into_b["skipped"], into_b["batches"], into_b["new"], into_b["repeats"]) == (0, 1, 0, 2)
    line = runner.invoke(app, ["import", str(file), "-u", user_id, "--session", "C"])
    assert line.exit_code == 0 and "imported 2 of 2 messages" in line.stdout, line.output
    assert "reinforced" in line.stdout  # honest: no new memory, the stored ones were reinforced


def test_import_stores_tags_and_warns_of_fields_it_drops(
    mem: GraphMemory, user_id: str, tmp_path: Path
) -> None:
    """A line's tags were dropped silently; now they are the memory's tags (add_messages takes them), and a
    field no message stores is named with its line on stderr."""
    file = _write(
        tmp_path / "tagged.jsonl",
        [
            {"role": "user", "content": "I adopted a greyhound called Pip", "tags": ["pets", "family"]},
            {"role": "user", "content": "Pip sleeps on the sofa", "mood": "happy", "tags": []},
        ],
    )
    result = runner.invoke(app, ["import", str(file), "-u", user_id, "-s", "s1"])
    assert result.exit_code == 0, result.output
    tags = mem.query(
        "MATCH (m:Memory {user_id: $u}) RETURN m.content AS c, m.tags AS t ORDER BY c", {"u": user_id}
    )
    assert [(r["c"], r["t"]) for r in tags] == [
        ("I adopted a greyhound called Pip", ["pets", "family"]),
        ("Pip sleeps on the sofa", []),
    ]
    assert "line 2: field 'mood' is not stored" in result.stderr
    hits = mem.memories.list(user_id=user_id, tags=["pets"])
    assert [m.content for m in hits] == ["I adopted a greyhound called Pip"]


def test_openai_content_parts_are_text_and_other_parts_are_refused_by_name(
    mem: GraphMemory, user_id: str, tmp_path: Path
) -> None:
    """``"content": [{"type": "text", "text": ...}]`` (OpenAI, Anthropic) was refused as 'parts must be a
    list'; its text parts are now joined by newlines, and an image part is refused naming its type and line
    (add_messages: tests/test_message_parts.py)."""
    parts = [{"type": "text", "text": "I moved to Lisbon"}, {"type": "text", "text": "in March"}]
    image = {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}
    file = _write(tmp_path / "parts.jsonl", [{"role": "user", "content": parts}])
    assert _import(str(file), "-u", user_id, "-s", "s")["new"] == 1
    assert [m.content for m in mem.memories.list(user_id)] == ["I moved to Lisbon\nin March"]
    file = _write(tmp_path / "image.jsonl", [{"role": "assistant", "content": [image]}])
    refused = runner.invoke(app, ["import", str(file), "-u", user_id, "-s", "s"])
    assert refused.exit_code == 1 and "line 1: content[0] is a part of type 'image_url'" in refused.output


def test_a_json_array_file_is_imported_and_other_json_gets_a_hint(
    mem: GraphMemory, user_id: str, tmp_path: Path
) -> None:
    """A file that is one JSON array of messages (as chat APIs take them) is imported, message by message
    (it was refused as 'line 1: is not JSON' or a list that is no message); a pretty-printed object names the
    formats taken."""
    array = tmp_path / "messages.json"
    array.write_text(json.dumps([{"role": "user", "content": t} for t in TOPICS[:3]], indent=2))
    summary = _import(str(array), "-u", user_id, "-s", "s")
    assert (summary["messages"], summary["new"]) == (3, 3)
    assert _import(str(array), "-u", user_id, "-s", "s")["skipped"] == 3
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"role": "user", "content": "x"}, {"role": "robot", "content": "y"}]))
    refused = runner.invoke(app, ["import", str(bad), "-u", user_id, "-s", "s"])
    assert refused.exit_code == 1 and "message 2: role unknown role 'robot'" in refused.output
    pretty = tmp_path / "pretty.json"
    pretty.write_text(json.dumps({"role": "user", "content": "hello"}, indent=2))
    refused = runner.invoke(app, ["import", str(pretty), "-u", user_id, "-s", "s"])
    assert refused.exit_code == 1 and "JSONL (one whole message per line)" in refused.output


def test_dash_reads_stdin_and_an_empty_file_is_an_error(
    mem: GraphMemory, user_id: str, tmp_path: Path
) -> None:
    """``graphmem import -`` was refused ("Path '-' does not exist"); an empty file (or blank lines) was a
    silent success that imported nothing."""
    piped = _import("-", "-u", user_id, "-s", "s", input=json.dumps({"role": "user", "content": TOPICS[0]}))
    assert (piped["messages"], piped["new"]) == (1, 1)
    for n, text in enumerate(["", "\n  \n\n"]):
        empty = tmp_path / f"empty{n}.jsonl"
        empty.write_text(text)
        refused = runner.invoke(app, ["import", str(empty), "-u", user_id, "-s", "s"])
        assert refused.exit_code == 1 and f"{empty}: no messages in it" in refused.output, refused.output
    refused = runner.invoke(app, ["import", "-", "-u", user_id, "-s", "s"], input="")
    assert refused.exit_code == 1 and "stdin: no messages in it" in refused.output
    missing = runner.invoke(app, ["import", str(tmp_path / "nope.jsonl"), "-u", user_id])
    assert missing.exit_code == 1 and "nope.jsonl: no such file" in missing.output


def test_import_keys_follow_the_messages_not_their_place() -> None:
    from graphmem.cli.importer import fingerprints, parse_lines

    lines = ['"yes"', '"no"', '"yes"']
    keys = fingerprints(parse_lines(lines, session_id="s"))
    assert len(set(keys)) == 3  # a turn said twice is two messages
    assert fingerprints(parse_lines(["", *lines, '"maybe"'], session_id="s"))[:3] == keys
    assert fingerprints(parse_lines(lines, session_id="t"))[0] != keys[0]
