"""The TOOL_CALL text protocol a model writes: parsing and formatting the lines, and their JSON-schema form for
servers that constrain output by a schema instead of a grammar."""
