"""`graphmem api` and the length of its admin key ($GRAPHMEM_API_KEY): the key reaches every route of every
user, yet any non-empty one was served, on any bind address. A key under ADMIN_KEY_MIN_CHARS is refused
(ConfigurationError, exit 1, nothing served) for a bind address other machines may reach, and warned about on
loopback."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

runner = CliRunner()
SHORT = "cli-test-key"  # 12 characters
LONG = "k" * 43  # as long as a generated key's secret


def test_which_bind_addresses_are_loopback() -> None:
    from graphmem.adapters.auth import loopback

    for host in ("127.0.0.1", "127.8.0.2", "localhost", "LOCALHOST", "::1", "[::1]", " 127.0.0.1 "):
        assert loopback(host), host
    for host in ("0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "example.com", "my-host", ""):
        assert not loopback(host), host


def test_a_short_admin_key_is_refused_beyond_loopback_and_warned_about_on_it() -> None:
    from graphmem.adapters.auth import ADMIN_KEY_MIN_CHARS, check_admin_key
    from graphmem.errors import ConfigurationError

    assert ADMIN_KEY_MIN_CHARS >= 16
    for host in ("0.0.0.0", "::", "192.168.1.10", "api.example.com"):
        with pytest.raises(ConfigurationError, match=rf"is 12 characters: refused for --host {host}"):
            check_admin_key(SHORT, host)
    warning = check_admin_key(SHORT, "127.0.0.1")
    assert warning is not None and "is 12 characters" in warning and "loopback" in warning
    assert f"at least {ADMIN_KEY_MIN_CHARS}" in warning
    edge = "x" * ADMIN_KEY_MIN_CHARS
    assert check_admin_key(edge, "0.0.0.0") is None and check_admin_key(edge, "127.0.0.1") is None
    with pytest.raises(ConfigurationError):
        check_admin_key(edge[1:], "0.0.0.0")


def _api(monkeypatch: pytest.MonkeyPatch, key: str, *args: str) -> tuple[int, str, list[dict[str, Any]]]:
    """`graphmem api ARGS` with $GRAPHMEM_API_KEY=key, uvicorn.run recording what it would serve."""
    import uvicorn

    from graphmem.cli import agent
    from graphmem.cli.main import app

    served: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: served.append(kwargs))
    monkeypatch.setattr(agent, "_warm", lambda *a, **k: None)  # the model is not needed to decide
    result = runner.invoke(app, ["api", *args], env={"GRAPHMEM_API_KEY": key})
    return result.exit_code, " ".join(result.output.split()), served


def test_graphmem_api_refuses_a_short_key_on_a_public_bind(
    server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, served = _api(monkeypatch, SHORT, "--host", "0.0.0.0")
    assert code == 1 and served == [], out
    assert "error: the admin key (GRAPHMEM_API_KEY) is 12 characters: refused for --host 0.0.0.0" in out
    assert "secrets.token_urlsafe(32)" in out and SHORT not in out  # the key itself is never printed

    code, out, served = _api(monkeypatch, SHORT)  # loopback (the default): served, with a warning
    assert code == 0 and [s["host"] for s in served] == ["127.0.0.1"], out
    assert "warning: the admin key (GRAPHMEM_API_KEY) is 12 characters: accepted on loopback" in out

    code, out, served = _api(monkeypatch, LONG, "--host", "0.0.0.0")  # a long key: served anywhere, silently
    assert code == 0 and [s["host"] for s in served] == ["0.0.0.0"] and "warning" not in out, out
