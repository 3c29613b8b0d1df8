"""The MCP server's wire: a lean tool list.

The tool list goes into the model's context whole: descriptions are sent on one line each (not with their
docstrings' indentation) and the input schemas without pydantic's titles, nor the ``null`` alternative of
a parameter that defaults to null (leaving it out means the same). The arguments are still validated
against the full schema.
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.types import Tool


class LeanServer(MCPServer):
    """An :class:`MCPServer` with a lean tool list."""

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
