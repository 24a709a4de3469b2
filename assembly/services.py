"""Settings -> data -> tool registry -> backend -> orchestrator, built one way.

The CLI, the web app's per-worker runtime, the evals and the benches all call these functions, so
a question is answered by the same parts whichever way it arrives.
"""
from __future__ import annotations

from dataclasses import dataclass

import prompt_registry as prompts

from backends.base import Backend
from intelligent_mcp import Orchestrator
from llama_client import make_backend
from settings.schema import Settings
from tools.catalog import build_registry
from tools.data.loader import DataBundle, shared_data
from tools.registry import ToolRegistry


@dataclass
class Services:
    """Everything one process needs to answer questions."""

    settings: Settings
    data: DataBundle
    registry: ToolRegistry
    backend: Backend
    orchestrator: Orchestrator

    def close(self) -> None:
        self.backend.close()


def build_tools(settings: Settings, data: DataBundle | None = None) -> ToolRegistry:
    """The tool registry over the process-wide data bundle (or the given one)."""
    return build_registry(data if data is not None else shared_data(settings))


def build_services(settings: Settings, *, backend: Backend | None = None, data: DataBundle | None = None,
                   backend_name: str | None = None) -> Services:
    """Data first (a missing data folder fails before a model is loaded), then the backend and the loop."""
    registry = build_tools(settings, data)
    backend = backend if backend is not None else make_backend(settings, backend_name)
    orchestrator = Orchestrator(backend, registry, settings)
    # A saved KV prefix makes the first question start warm; the answer pass's short prompt is kept beside it.
    backend.warm(orchestrator.system_prompt(), prompts.answer_system_prompt(), orchestrator.query_prompt())
    return Services(settings, registry.data, registry, backend, orchestrator)
