"""The MCP server's wire: a lean tool list, and a JSON-RPC error for a stdio line that is not a message.

The tool list goes into the model's context whole: descriptions are sent on one line each (not with their
docstrings' indentation) and the input schemas without pydantic's titles, nor the ``null`` alternative of
a parameter that defaults to null (leaving it out means the same). The arguments are still validated
against the full schema.

The SDK's stdio transport passes a line it cannot read as a JSON-RPC message into the session as an
exception, which the session logs at debug level and drops: the client never hears of it, and waits for an
answer that never comes. :class:`ParseErrorReplies` answers it as JSON-RPC 2.0 says (-32700 ``Parse error``
for text that is not JSON, -32600 ``Invalid Request`` for JSON that is not a message, with the request's id
when it has one, else null) and goes on serving. A blank line is skipped.
"""

from __future__ import annotations

import logging
from types import TracebackType
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp.types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError, Tool
from pydantic import ValidationError

logger = logging.getLogger(__name__)

Incoming = SessionMessage | Exception


class LeanServer(MCPServer):
    """An :class:`MCPServer` with a lean tool list whose stdio transport answers unreadable lines."""

    async def list_tools(self) -> list[Tool]:
        return [
            tool.model_copy(
                update={
                    "description": " ".join((tool.description or "").split()) or None,
                    "input_schema": lean_schema(tool.input_schema),
                }
            )
            for tool in await super().list_tools()
        ]

    async def run_stdio_async(self) -> None:
        """As the SDK's, with the transport's read stream behind :class:`ParseErrorReplies`."""
        async with stdio_server() as (read_stream, write_stream):
            lowlevel = self._lowlevel_server  # as the SDK's own in-process client reaches it
            await lowlevel.run(
                ParseErrorReplies(read_stream, write_stream),
                write_stream,
                lowlevel.create_initialization_options(),
            )


def lean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` without titles, and a parameter that defaults to null without its null alternative."""
    out = {k: v for k, v in schema.items() if k != "title"}
    if isinstance(out.get("properties"), dict):
        out["properties"] = {name: lean_schema(p) for name, p in out["properties"].items()}
    if isinstance(out.get("items"), dict):
        out["items"] = lean_schema(out["items"])
    arms = out.get("anyOf")
    if isinstance(arms, list):
        arms = [lean_schema(a) for a in arms]
        if "default" in out and out["default"] is None:
            arms = [a for a in arms if a != {"type": "null"}]
            del out["default"]
        del out["anyOf"]
        out = (arms[0] | out) if len(arms) == 1 else {"anyOf": arms} | out
    return out


class ParseErrorReplies:
    """The stdio transport's read stream, its exceptions (lines it could not read) answered on the write
    stream with a JSON-RPC error instead of reaching the session; its messages pass through unchanged."""

    def __init__(self, read: Any, write: Any) -> None:
        self._read = read
        self._write = write

    @property
    def last_context(self) -> Any:
        """The sender context of the latest item (the SDK's context-aware streams carry one)."""
        return getattr(self._read, "last_context", None)

    async def receive(self) -> Incoming:
        while True:
            item: Incoming = await self._read.receive()
            if not isinstance(item, Exception):
                return item
            error = error_reply(item)
            if error is None:
                continue
            try:
                await self._write.send(SessionMessage(error))
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                logger.debug("no reply to an unreadable line: the write stream is closed")

    def __aiter__(self) -> ParseErrorReplies:
        return self

    async def __anext__(self) -> Incoming:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        await self._read.aclose()

    async def __aenter__(self) -> ParseErrorReplies:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()


def error_reply(exc: Exception) -> JSONRPCError | None:
    """The JSON-RPC error answering the line the transport failed to read with ``exc``; None for a blank
    line."""
    errors = exc.errors() if isinstance(exc, ValidationError) else []
    unparsable = [e for e in errors if e["type"] == "json_invalid"]
    if unparsable and not str(unparsable[0].get("input", "x")).strip():
        return None
    if errors and not unparsable:
        logger.info("refused a JSON-RPC message that is not a valid request")
        return _error(_request_id(errors), INVALID_REQUEST, "Invalid Request")
    logger.info("refused a line that is not JSON")
    return _error(None, PARSE_ERROR, "Parse error")


def _request_id(errors: list[Any]) -> str | int | None:
    """The id of the refused message, when it has a valid one."""
    for e in errors:
        message = e.get("input")
        if isinstance(message, dict):
            rid = message.get("id")
            if isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool)):
                return rid
    return None


def _error(rid: str | int | None, code: int, message: str) -> JSONRPCError:
    return JSONRPCError(jsonrpc="2.0", id=rid, error=ErrorData(code=code, message=message))
