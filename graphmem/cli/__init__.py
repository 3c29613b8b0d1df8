"""The `graphmem` command line (typer + rich)."""
