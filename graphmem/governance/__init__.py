"""Who owns what: GDPR export/delete/anonymize, per-memory decisions, versions, core blocks."""
