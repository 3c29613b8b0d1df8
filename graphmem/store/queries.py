"""Cypher lives in ``.cypher`` files (one statement each), loaded once by name.

Query files sit in the repository's ``cypher/`` folder, shipped as the package ``graphmem.cypher``; schema
statements sit in ``schema/``, shipped as ``graphmem.schema``.
"""

from __future__ import annotations

import functools
import re
from importlib import resources

_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_/")


def _source(package: str, name: str) -> str:
    if not name or not set(name) <= _NAME_CHARS or ".." in name:
        raise KeyError(f"bad query name {name!r}")
    resource = resources.files(package).joinpath(f"{name}.cypher")
    if not resource.is_file():
        raise KeyError(f"no query named {name!r} in {package}")
    return resource.read_text(encoding="utf-8")


def _read(package: str, name: str, *, filtered: bool = False, strict: bool = False) -> str:
    return expand(strip_comments(dialect(_source(package, name), filtered=filtered)), strict=strict)


FILTER_BLOCK = re.compile(r"^[ \t]*// \[vector filter\][^\n]*\n(.*?)^[ \t]*// \[end\][^\n]*\n", re.M | re.S)
"""Lines between ``// [vector filter]`` and ``// [end]``: the in-index tenant filter of the vector indexes
(Neo4j 2026.01+, Cypher 25's ``SEARCH … WHERE``), which a 5.26 server cannot parse."""

PLAIN_BLOCK = re.compile(r"^[ \t]*// \[no vector filter\][^\n]*\n(.*?)^[ \t]*// \[end\][^\n]*\n", re.M | re.S)
"""Lines between ``// [no vector filter]`` and ``// [end]``: what replaces a ``[vector filter]`` block on a
server that cannot filter (the over-fetched index call)."""


def dialect(text: str, *, filtered: bool) -> str:
    """``text`` for a server whose vector indexes filter by tenant (``filtered``: its ``[vector filter]``
    blocks kept and its ``[no vector filter]`` blocks dropped, run as Cypher 25) or not (the reverse): one
    file serves both."""
    if not FILTER_BLOCK.search(text):
        return text
    keep, drop = (FILTER_BLOCK, PLAIN_BLOCK) if filtered else (PLAIN_BLOCK, FILTER_BLOCK)
    text = keep.sub(lambda m: m.group(1), drop.sub("", text))
    return "CYPHER 25\n" + text if filtered else text


def variant(name: str, *, filtered: bool) -> str:
    """The query name to run ``name`` under: its filtered variant (``FILTERED + name``) where the vector
    indexes filter by tenant."""
    return FILTERED + name if filtered else name


FRAGMENT_DEPTH = 3
"""Levels of fragments within fragments (``fragments/pool_memory`` includes ``typed_cosine``)."""


def expand(text: str, *, strict: bool = False) -> str:
    """``text`` with every ``{{fragment(variable, clock)}}`` replaced by that fragment's expression, and the
    fragments those include, level by level (``strict``: every ``typed_cosine`` as ``strict_cosine``)."""
    for _ in range(FRAGMENT_DEPTH + 1):
        if strict:
            text = text.replace("{{typed_cosine(", "{{strict_cosine(")
        if not _INCLUDE.search(text):
            return text
        text = _INCLUDE.sub(_expand, text)
    raise ValueError(f"fragments nest deeper than {FRAGMENT_DEPTH} levels")


_INCLUDE = re.compile(r"\{\{(\w+)\(([\w.]+(?:\[\w+\])?),\s*(.*?)\)\}\}")
"""``{{name(variable, clock)}}`` in a statement: the expression of ``cypher/fragments/<name>.cypher`` over
that node variable (or property, or dynamic property ``m[key]``) and clock (or default) expression (its
``__m__`` and ``__now__``), parenthesised."""


@functools.cache
def fragment(name: str) -> str:
    """The expression of ``cypher/fragments/<name>.cypher`` (``__m__`` and ``__now__`` placeholders), the
    fragments it includes left to :func:`expand`."""
    return strip_comments(_source("graphmem.cypher", f"fragments/{name}"))


def _expand(match: re.Match[str]) -> str:
    name, variable, clock = match.groups()
    body = fragment(name).replace("__m__", variable).replace("__now__", f"({clock})")
    return f"({body})"


def strip_comments(text: str) -> str:
    """Drop ``//`` header and full-line comments; keep the statement."""
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("//")]
    return "\n".join(lines).strip().rstrip(";")


FILTERED = "filtered:"
"""``query(FILTERED + name)``: the statement for a server whose vector indexes filter by tenant
(:func:`dialect`); ``query(name)`` is the one any Neo4j 5.26+ runs."""

UNBATCHED = "unbatched:"
"""``query(UNBATCHED + name)``: the statement without its ``CALL { } IN TRANSACTIONS`` batching, so it can
run inside one explicit transaction (the jobs' dry run executes it there and rolls back)."""

_IN_TRANSACTIONS = re.compile(
    r"\}\s*IN\s+(?:\S+\s+)?(?:CONCURRENT\s+)?TRANSACTIONS(\s+OF\s+\S+\s+ROWS?)?"
    r"(\s+ON\s+ERROR\s+(?:RETRY(?:\s+FOR\s+\S+\s+SECONDS?)?(?:\s+THEN\s+\w+)?|\w+))?",
    re.IGNORECASE,
)


STRICT = "strict:"
"""``query(STRICT + name)``: the statement with every cosine of a stored vector checking the vector's
coordinates first (``fragments/strict_cosine``), the rerun of a statement the server refused for a stored
vector written by hand (:func:`graphmem.store.strict_vectors.with_strict_vectors`)."""


def unbatched(text: str) -> str:
    return _IN_TRANSACTIONS.sub("}", text)


@functools.cache
def query(name: str) -> str:
    """The statement of ``cypher/<name>.cypher`` (``unbatched:<name>``: without its batching)."""
    if name.startswith(UNBATCHED):
        return unbatched(query(name[len(UNBATCHED) :]))
    strict = name.startswith(STRICT)
    name = name[len(STRICT) :] if strict else name
    filtered = name.startswith(FILTERED)
    name = name[len(FILTERED) :] if filtered else name
    return _read("graphmem.cypher", name, filtered=filtered, strict=strict)


def query_names(folder: str = "") -> list[str]:
    """Every query name (optionally under one sub-folder such as ``kit``)."""
    root = resources.files("graphmem.cypher")
    base = root.joinpath(folder) if folder else root
    prefix = f"{folder}/" if folder else ""
    return sorted(prefix + p.name[: -len(".cypher")] for p in base.iterdir() if p.name.endswith(".cypher"))


def schema_statements(*, filtered: bool = False) -> list[tuple[str, str]]:
    """(name, statement) for every schema file, in file-name order (``filtered``: for a server whose vector
    indexes can filter by tenant, :func:`dialect`)."""
    root = resources.files("graphmem.schema")
    names = sorted(p.name for p in root.iterdir() if p.name.endswith(".cypher"))
    return [
        (n[: -len(".cypher")], _read("graphmem.schema", n[: -len(".cypher")], filtered=filtered))
        for n in names
    ]


def has_strict_variant(name: str) -> bool:
    """Whether ``name`` computes a cosine of a stored vector (a strict rerun to fall back on)."""
    return query(STRICT + name) != query(name)


def has_filter_variant(name: str) -> bool:
    """Whether ``cypher/<name>.cypher`` has ``[vector filter]`` blocks (a second statement to check)."""
    return query(FILTERED + name) != query(name)
