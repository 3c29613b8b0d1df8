"""Interfaces over the facade: REST and its dashboard, MCP, Google ADK, LangGraph, an LLM extractor."""
