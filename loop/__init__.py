"""The pieces of the TOOL_CALL loop: trace steps, options, protocol, grammar and grounding."""
