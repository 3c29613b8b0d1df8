"""`graphmem --help` groups the commands in panels, in the order a new user needs them (round 57: the flat
list of 29 opened with worker, health, mcp and api, and ended with remember, recall and demo)."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from graphmem.cli.main import HELP_PANELS, app


def test_every_command_sits_in_a_panel_in_order() -> None:
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "100", "NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    panels: list[tuple[str, list[str]]] = []
    for line in result.output.splitlines():
        title = re.match(r"╭─ (.+?) ─", line)
        if title:
            panels.append((title.group(1), []))
            continue
        command = re.match(r"│ ([a-z][a-z-]*)\s{2,}", line)
        if command and panels:
            panels[-1][1].append(command.group(1))
    shown = [(name, commands) for name, commands in panels if name != "Options"]
    assert [name for name, _ in shown] == list(HELP_PANELS)  # no command fell into a "More" panel
    for name, commands in shown:
        assert commands == HELP_PANELS[name], name  # in the listed order
