"""`graphmem mcp` answers a stdio line that is not a JSON-RPC message with a JSON-RPC 2.0 error and goes on
serving (round 58's probe: the SDK's stdio transport logged such a line at debug level and dropped it, so the
client waited for an answer that never came)."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
import pytest
from mcp.shared.message import SessionMessage

import graphmem
from graphmem.adapters.mcp_wire import ParseErrorReplies
from graphmem.server import LocalServer

PARSE = {"code": -32700, "message": "Parse error"}
INVALID = {"code": -32600, "message": "Invalid Request"}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"},
    },
}


def _unreadable(line: str) -> Exception:
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except Exception as exc:
        return exc
    raise AssertionError(f"{line!r} is a message")


def test_unreadable_lines_are_answered_and_messages_pass() -> None:
    ping = SessionMessage(types.JSONRPCRequest(jsonrpc="2.0", id=3, method="ping"))
    incoming = [
        _unreadable("not json"),
        _unreadable("   "),  # a blank line: skipped, unanswered
        _unreadable('{"jsonrpc": "2.0", "id": 7, "method": 7}'),
        _unreadable('{"hello": "world"}'),
        ping,
    ]

    async def run() -> tuple[list[Any], list[Any]]:
        read_send, read_receive = anyio.create_memory_object_stream[Any](10)
        write_send, write_receive = anyio.create_memory_object_stream[Any](10)
        async with read_send:
            for item in incoming:
                await read_send.send(item)
        async with write_send, ParseErrorReplies(read_receive, write_send) as stream:
            passed = [item async for item in stream]
        async with write_receive:
            wire = [m.message async for m in write_receive]
        return passed, wire

    passed, answered = anyio.run(run)
    assert passed == [ping]
    assert [m.model_dump(mode="json", by_alias=True, exclude_unset=True) for m in answered] == [
        {"jsonrpc": "2.0", "id": None, "error": PARSE},
        {"jsonrpc": "2.0", "id": 7, "error": INVALID},
        {"jsonrpc": "2.0", "id": None, "error": INVALID},
    ]


def _lines(proc: subprocess.Popen[str]) -> tuple[Callable[[], dict[str, Any]], threading.Thread]:
    """The next JSON line of ``proc``'s output, read by a thread (a pipe's buffered lines escape select), and
    the thread (it ends at the end of the output)."""
    received: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            received.put(line)
        received.put("")

    reader = threading.Thread(target=read, daemon=True)
    reader.start()

    def next_line() -> dict[str, Any]:
        line = received.get(timeout=120)
        assert line, "graphmem mcp closed its output"
        out: dict[str, Any] = json.loads(line)
        return out

    return next_line, reader


def test_graphmem_mcp_answers_a_line_that_is_not_json_and_keeps_serving(
    server: LocalServer, user_id: str
) -> None:
    env = {k: v for k, v in os.environ.items() if k.startswith(("GRAPHMEM_", "NEO4J_", "HOME", "PATH"))}
    env |= {"GRAPHMEM_MCP_USER_ID": user_id, "PYTHONPATH": str(Path(graphmem.__file__).resolve().parents[1])}
    cli = str(Path(sys.executable).with_name("graphmem"))
    proc = subprocess.Popen([cli, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    line, reader = _lines(proc)

    def send(*lines: str | dict[str, Any]) -> None:
        assert proc.stdin is not None
        proc.stdin.write("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
        proc.stdin.flush()

    try:
        send("this is not json", "", '{"jsonrpc": "2.0", "id": 7, "method": 7}', INITIALIZE)
        assert line() == {"jsonrpc": "2.0", "id": None, "error": PARSE}
        assert line() == {"jsonrpc": "2.0", "id": 7, "error": INVALID}
        assert line()["id"] == 1  # the handshake's answer: still serving
        send({"jsonrpc": "2.0", "method": "notifications/initialized"}, "{not json either")
        assert line() == {"jsonrpc": "2.0", "id": None, "error": PARSE}
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "memory_list"}})
        listed = line()
        assert listed["id"] == 2 and listed["result"]["structuredContent"] == {"memories": [], "total": 0}
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            pytest.fail("graphmem mcp did not exit when its input closed")
        finally:
            reader.join(timeout=10)
            proc.stdout.close()
