"""`graphmem export | delete-user | anonymize-user | import | memory ... | context` via typer's CliRunner
against the real server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphmem import GraphMemory, ValidationError
from graphmem.cli.importer import plan_import
from graphmem.cli.main import app

runner = CliRunner()


def _json(args: list[str], **kwargs: object) -> object:
    result = runner.invoke(app, [*args, "--json"], **kwargs)  # type: ignore[arg-type]
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _count(mem: GraphMemory, user: str) -> int:
    return int(mem.query("MATCH (m:Memory {user_id: $u}) RETURN count(m) AS n", {"u": user})[0]["n"])


def test_plan_import_batches_by_session() -> None:
    lines = [
        '{"role": "user", "content": "a", "session_id": "s1"}',
        "",
        '{"role": "assistant", "content": "b", "session_id": "s1"}',
        '{"role": "user", "content": "c", "session_id": "s1"}',
        '"a plain user turn"',
        '{"role": "user", "content": "d", "session_id": "s2"}',
    ]
    batches = plan_import(lines, session_id="default", batch=2)
    assert [(b.session_id, b.lines) for b in batches] == [
        ("s1", [1, 3]),
        ("s1", [4]),
        ("default", [5]),
        ("s2", [6]),
    ]
    assert batches[0].messages[0] == {"role": "user", "content": "a"}
    with pytest.raises(ValidationError, match="line 2"):
        plan_import(['"ok"', "{not json"], session_id="s", batch=10)
    with pytest.raises(ValidationError, match="line 1: has no session_id"):
        plan_import(['{"role": "user", "content": "x"}'], session_id=None, batch=10)
    with pytest.raises(ValidationError, match="batch"):
        plan_import([], session_id="s", batch=0)


def test_import_refuses_odd_json_lines_and_keeps_a_line_separator_in_text(
    mem: GraphMemory, user_id: str, tmp_path: Path
) -> None:
    """A line nested deeper than the JSON decoder recurses or holding an integer of more digits than Python
    converts is a refusal naming the line (they were tracebacks); a U+2028 inside a message is text, not a
    line break (JSONL separates lines by newlines only; str.splitlines split the message)."""
    for n, odd in enumerate(["[" * 100_000 + "]" * 100_000, "9" * 5000]):
        bad = tmp_path / f"bad{n}.jsonl"
        bad.write_text('{"role": "user", "content": "fine", "session_id": "s"}\n' + odd + "\n")
        refused = runner.invoke(app, ["import", str(bad), "-u", user_id])
        assert isinstance(refused.exception, SystemExit), repr(refused.exception)
        assert refused.exit_code == 1 and "line 2" in refused.output
    assert _count(mem, user_id) == 0
    text = "first line\u2028second line"
    file = tmp_path / "separator.jsonl"
    file.write_text(
        json.dumps({"role": "user", "content": text, "session_id": "s"}, ensure_ascii=False) + "\r\n"
    )
    assert _json(["import", str(file), "-u", user_id])["memories"] == 1  # type: ignore[index]
    stored = mem.query("MATCH (m:Memory {user_id: $u}) RETURN m.content AS c", {"u": user_id})
    assert [r["c"] for r in stored] == [text]
    bom = tmp_path / "bom.jsonl"  # as a Windows editor saves it
    bom.write_bytes(
        b"\xef\xbb\xbf"
        + json.dumps({"role": "user", "content": "with a BOM", "session_id": "s"}).encode()
        + b"\n"
    )
    assert _json(["import", str(bom), "-u", user_id])["memories"] == 1  # type: ignore[index]


def test_import_checks_every_session_id_and_the_encoding_before_writing(
    mem: GraphMemory, user_id: str, tmp_path: Path
) -> None:
    """A session id that add_messages refuses (a control character, too long) and bytes that are not UTF-8
    are refusals naming their line before the first batch is written (the session id was checked batch by
    batch: the batches before it were stored, and the message named no line)."""
    good = '{"role": "user", "content": "I adopted a cat called Tom", "session_id": "s1"}\n'
    for n, odd in enumerate(["bad\u0000session", "s" * 300]):
        bad = tmp_path / f"session{n}.jsonl"
        bad.write_text(good + json.dumps({"role": "user", "content": "second", "session_id": odd}) + "\n")
        refused = runner.invoke(app, ["import", str(bad), "-u", user_id, "--batch", "1"])
        assert refused.exit_code == 1 and "line 2: session_id" in refused.output, refused.output
    latin = tmp_path / "latin1.jsonl"
    latin.write_bytes(
        good.encode() + '{"role": "user", "content": "café", "session_id": "s1"}\n'.encode("latin-1")
    )
    refused = runner.invoke(app, ["import", str(latin), "-u", user_id, "--batch", "1"])
    assert refused.exit_code == 1 and "line 2: is not UTF-8" in refused.output, refused.output
    assert _count(mem, user_id) == 0


def test_import_export_anonymize_delete(mem: GraphMemory, user_id: str, tmp_path: Path) -> None:
    messages = [
        {
            "role": "user",
            "content": f"Day {i}: I walked the dog Rex along the river {i} km",
            "session_id": "walks",
        }
        for i in range(1, 8)
    ] + [{"role": "assistant", "content": "Rex must be a happy dog", "session_id": "chat"}]
    file = tmp_path / "messages.jsonl"
    file.write_text("\n".join(json.dumps(m) for m in messages) + "\n")

    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"role": "user", "content": "fine", "session_id": "s"}\n{"role": "robot", "content": "x"}\n'
    )
    refused = runner.invoke(app, ["import", str(bad), "-u", user_id, "--session", "s"])
    assert refused.exit_code == 1 and "line 2" in refused.output and "role" in refused.output
    assert _count(mem, user_id) == 0  # every line is checked before anything is written

    summary = _json(["import", str(file), "-u", user_id, "--batch", "3"])
    assert summary == {
        "user_id": user_id,
        "messages": 8,
        "batches": 4,
        "sessions": ["chat", "walks"],
        "memories": 8,
        "new": 8,
        "skipped": 0,
        "repeats": 0,
    }
    assert _count(mem, user_id) == 8
    again = runner.invoke(app, ["import", str(file), "-u", user_id, "--batch", "3"])
    assert again.exit_code == 0, again.output
    assert "all 8 messages were imported" in again.stdout and "nothing stored" in again.stdout
    assert _count(mem, user_id) == 8  # re-running the same file stores nothing twice

    out = runner.invoke(app, ["export", user_id])
    assert out.exit_code == 0
    data = json.loads(out.stdout)
    assert data["user_id"] == user_id and len(data["memories"]) == 8
    assert {m["content"] for m in data["memories"]} == {m["content"] for m in messages}
    target = tmp_path / "export.json"
    to_file = runner.invoke(app, ["export", user_id, "--out", str(target)])
    assert to_file.exit_code == 0 and "memories" in to_file.output
    assert f"exported {user_id} to {target}" in to_file.output  # one line, not a table title wrapped mid-path
    assert len(json.loads(target.read_text())["memories"]) == 8

    anonymized = _json(["anonymize-user", user_id, "--yes"])
    assert isinstance(anonymized, dict) and anonymized["anonymized"] >= 8
    contents = mem.query("MATCH (m:Memory {user_id: $u}) RETURN DISTINCT m.content AS c", {"u": user_id})
    assert [r["c"] for r in contents] == ["[redacted]"]

    declined = runner.invoke(app, ["delete-user", user_id], input="n\n")
    assert declined.exit_code == 1 and "aborted" in declined.output
    assert _count(mem, user_id) == 8
    report = _json(["delete-user", user_id, "--yes"])
    assert isinstance(report, dict) and report["user_id"] == user_id and report["nodes"]["Memory"] == 8
    assert _count(mem, user_id) == 0
    again = runner.invoke(app, ["delete-user", user_id], input="y\n")  # nothing left: said before asking
    assert again.exit_code == 4 and f"nothing is stored for user '{user_id}'" in again.output
    assert "Delete every" not in again.output


def test_memory_update_forget_history_context(mem: GraphMemory, user_id: str) -> None:
    rex = mem.remember("I adopted a dog named Rex", user_id=user_id)
    updated = _json(
        ["memory", "update", rex.id, "My dog is called Max", "-u", user_id, "--expected-version", "1"]
    )
    assert (
        isinstance(updated, dict) and updated["version"] == 2 and updated["content"] == "My dog is called Max"
    )
    stale = runner.invoke(
        app, ["memory", "update", rex.id, "Rex again", "-u", user_id, "--expected-version", "1"]
    )
    assert stale.exit_code == 1 and "version" in stale.output.lower()
    history = _json(["memory", "history", rex.id, "-u", user_id])
    assert isinstance(history, list) and [m["content"] for m in history] == [
        "I adopted a dog named Rex",
        "My dog is called Max",
    ]
    people = runner.invoke(app, ["memory", "history", rex.id, "-u", user_id])
    assert people.exit_code == 0 and "Max" in people.stdout

    rated = _json(["memory", "feedback", rex.id, "-u", user_id, "-q", "What is my dog's name?"])
    assert rated == {"memory_id": rex.id, "useful": True}
    unrated = runner.invoke(
        app, ["memory", "feedback", rex.id, "-u", user_id, "-q", "What is my dog's name?", "--not-useful"]
    )
    assert unrated.exit_code == 0 and "not useful" in unrated.stdout
    stored = mem.query(
        "MATCH (m:Memory {id: $id}) RETURN m.asked AS asked, m.confirmed AS c, m.disputed AS d",
        {"id": rex.id},
    )
    assert stored[0] == {"asked": None, "c": 1, "d": 1}  # added, then taken out again

    ctx = _json(["context", "what is my dog called?", "-u", user_id, "--budget", "200"])
    assert isinstance(ctx, dict) and "Max" in ctx["text"] and ctx["tokens"] <= 200

    assert _json(["memory", "forget", rex.id, "-u", user_id]) == {"forgotten": rex.id}
    assert mem.recall("dog", user_id=user_id, reinforce=False) == []
    other = runner.invoke(app, ["memory", "forget", rex.id, "-u", f"{user_id}-other"])
    assert other.exit_code == 1 and "not found" in other.output.lower()


def test_recall_and_context_as_of_a_past_time(mem: GraphMemory, user_id: str) -> None:
    """--as-of reads as it was then (valid time: the messages' times), --known-at as recorded by then."""
    mem.add_messages(
        [
            {"role": "user", "content": "I live in Leeds near the park", "timestamp": "2026-01-05T09:00:00Z"},
            {
                "role": "user",
                "content": "I moved to Manchester last week",
                "timestamp": "2026-02-10T09:00:00Z",
            },
        ],
        user_id=user_id,
        session_id="chat",
    )
    then = _json(["recall", "where do I live?", "-u", user_id, "--as-of", "2026-01-20", "--json"])
    assert isinstance(then, list) and [h["memory"]["content"] for h in then] == [
        "I live in Leeds near the park"
    ]
    now = _json(["recall", "where do I live?", "-u", user_id, "--json"])
    assert isinstance(now, list) and "Manchester" in now[0]["memory"]["content"]
    assert _json(["recall", "where do I live?", "-u", user_id, "--known-at", "2000-01-01", "--json"]) == []
    ctx = _json(["context", "where do I live?", "-u", user_id, "--as-of", "2026-01-20", "--json"])
    assert isinstance(ctx, dict) and "location: Leeds" in ctx["text"] and "Manchester" not in ctx["text"]
    bad = runner.invoke(app, ["recall", "where?", "-u", user_id, "--as-of", "yesterday"])
    assert bad.exit_code == 2 and "--as-of" in bad.output
    # graphmem timeline: the same history as mem.temporal.timeline, bounded by --start/--end, --known-at
    events = _json(["timeline", "-u", user_id, "--json"])
    assert isinstance(events, list) and events == [
        e.model_dump(mode="json") for e in mem.temporal.timeline(user_id)
    ]
    january = _json(["timeline", "-u", user_id, "--start", "2026-01-01", "--end", "2026-01-31", "--json"])
    assert isinstance(january, list)  # the statement and the value it set, both in valid time
    assert [(e["kind"], e["text"]) for e in january] == [
        ("fact_set", "location = Leeds"),
        ("memory", "I live in Leeds near the park"),
    ]
    assert _json(["timeline", "-u", user_id, "--known-at", "2000-01-01", "--json"]) == []
    latest = _json(["timeline", "-u", user_id, "--newest", "--limit", "2", "--json"])
    assert (
        latest == [e.model_dump(mode="json") for e in mem.temporal.timeline(user_id, newest_first=True)][:2]
    )
    assert isinstance(latest, list) and len(latest) == 2 and latest[0]["at"] >= latest[1]["at"]
    table = runner.invoke(app, ["timeline", "-u", user_id])
    assert table.exit_code == 0 and "2026-02-10 09:00" in table.stdout and "Manchester" in table.stdout


def test_the_demo_ingests_the_sample_and_answers_its_questions(mem: GraphMemory) -> None:
    """`make demo`'s command on the test server: the sample's facts, then each question's table with the
    expected memory first (what a new user sees first)."""
    result = runner.invoke(app, ["demo", "--k", "1"], env={"COLUMNS": "300"})  # one line a row
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "ingested 16 messages for user demo-alice" in out
    assert "occupation = nurse" in out and "Emma/location = Lisbon" in out
    for first in (
        "beagle named Rex",
        "hurt his paw",
        "Emma looks after Rex",
        "trip to Japan",
        "Italian food",
    ):
        assert first in out, first
    assert 'graphmem recall "where does Emma live?" -u demo-alice' in out  # what to try next
    assert "graphmem memory list -u demo-alice" in out
    # the REST hint makes a key `graphmem api` accepts on any bind (32 characters), not "secret"
    assert "export GRAPHMEM_API_KEY=$(openssl rand -hex 16)" in out and "=secret" not in out
