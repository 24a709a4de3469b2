"""The rule planner: a deterministic backend that plans tool calls and writes templated answers."""
