"""The read path: search ranks memories for a query; recall and context build on it."""
