"""The ``rules`` backend: no model at all. The orchestrator then lets the rule planner gather and answer.

It stays a backend so that choosing it works like choosing any other (``--backend rules``, ``CHIQA_BACKEND``,
the ``auto`` fallback when no model file is there) and so that health and the trace can name it. It never
generates: the orchestrator asks the Planner (rules/collaborator.py) directly.
"""
from __future__ import annotations

from backends.base import Backend, BackendError, Generation, GenerationRequest, register_backend


@register_backend
class RulesBackend(Backend):
    name = "rules"
    is_language_model = False
    is_planner = True
    n_ctx = 1_000_000

    def info(self) -> dict:
        return {"backend": "rules", "model": "rule-planner", "n_ctx": self.n_ctx, "chat_format": None,
                "reason": self.selection_reason}

    def _generate(self, request: GenerationRequest) -> Generation:
        raise BackendError("the rules backend writes no text: the orchestrator's planner gathers and answers")
