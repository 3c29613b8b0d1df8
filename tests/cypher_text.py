"""Reading Cypher text in tests: the SET clauses of a statement and the properties they assign."""

from __future__ import annotations

import re

SET_CLAUSE = re.compile(
    r"\bSET\b(.*?)(?=\b(?:RETURN|WITH|MATCH|CREATE|MERGE|UNWIND|FOREACH|CALL|DELETE|REMOVE)\b|[}|)]\s*$|\Z)",
    re.DOTALL,
)
"""One SET clause's body, up to the next clause, the end of a subquery or list, or the end of the text."""


def assigned(cypher: str) -> set[str]:
    """The properties a statement's SET clauses assign (``x.name = ...``), comments left out."""
    text = "\n".join(line.split("//")[0] for line in cypher.splitlines())
    return {
        prop for clause in SET_CLAUSE.findall(text) for prop in re.findall(r"\b\w+\.(\w+)\s*=(?!=)", clause)
    }
