"""The semantic layer as a TOOL_CALL tool: one typed query over every dataset."""
