"""Schema statements (constraints and indexes), one per .cypher file, applied by init()."""
