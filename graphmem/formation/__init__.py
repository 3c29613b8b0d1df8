"""The write path: messages and drafts become memories linked into the user's graph."""
