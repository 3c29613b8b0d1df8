"""Bi-temporal facts and point-in-time reads: valid time (as_of) and transaction time (known_at)."""
