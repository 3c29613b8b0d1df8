"""Bundled sample data (the demo conversation)."""
