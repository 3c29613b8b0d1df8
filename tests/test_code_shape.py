"""The size limits of the style guide, pinned: no module of graphmem/ over ~400 lines, no function over ~60.

Only the files below are exempt, each for a stated reason. Declarative tables (word lists, pattern tables)
may be exempted here with a comment (data, not logic: splitting them would only scatter one list); none
needs it today (the entity word lists live in ``model/entity_words.py``, under the limit).
"""

from __future__ import annotations

import ast
from pathlib import Path

import graphmem

MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60
ROOT = Path(graphmem.__file__).parent

MODULE_ALLOW: dict[str, str] = {}
FUNCTION_ALLOW: dict[str, str] = {}


def _modules() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*.py") if "__pycache__" not in p.parts)


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def test_no_module_is_longer_than_the_limit() -> None:
    too_long = {
        _name(p): n
        for p in _modules()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
        and _name(p) not in MODULE_ALLOW
    }
    assert not too_long, f"modules over {MAX_MODULE_LINES} lines: {too_long}"


def test_no_function_is_longer_than_the_limit() -> None:
    too_long: dict[str, int] = {}
    for path in _modules():
        for fn in _functions(ast.parse(path.read_text(encoding="utf-8"))):
            assert fn.end_lineno is not None
            lines = fn.end_lineno - fn.lineno + 1
            name = f"{_name(path)}:{fn.name}"
            if lines > MAX_FUNCTION_LINES and name not in FUNCTION_ALLOW:
                too_long[name] = lines
    assert not too_long, f"functions over {MAX_FUNCTION_LINES} lines: {too_long}"


def test_the_allow_lists_name_only_existing_files_and_functions() -> None:
    """A stale entry would hide the next offender of that name: every exemption must still point at code."""
    names = {_name(p) for p in _modules()}
    assert set(MODULE_ALLOW) <= names
    functions = {
        f"{_name(p)}:{fn.name}"
        for p in _modules()
        for fn in _functions(ast.parse(p.read_text(encoding="utf-8")))
    }
    assert set(FUNCTION_ALLOW) <= functions


def test_the_limits_catch_an_offender() -> None:
    """The scan itself works: a long function in a parsed module is measured as long."""
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES + 1))
    (fn,) = _functions(ast.parse(f"def long() -> None:\n{body}\n"))
    assert fn.end_lineno is not None and fn.end_lineno - fn.lineno + 1 > MAX_FUNCTION_LINES
