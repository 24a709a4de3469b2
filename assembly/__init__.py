"""The composition root: one way to build settings, data, tools, backend and orchestrator for every entry point."""
