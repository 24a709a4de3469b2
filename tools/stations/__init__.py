"""Police district stations."""
