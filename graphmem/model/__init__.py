"""The pure core: rules and math over plain data. No database, no model, no I/O."""
