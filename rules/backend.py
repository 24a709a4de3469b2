"""The rule planner: a deterministic backend that speaks the same TOOL_CALL protocol as a model.

It goes through the orchestrator's loop like any model. In a gather pass it reads the question's
analysis (entities, years, metrics, ranking; see analyzer/question.py) and the results so far,
and writes ``TOOL_CALL: {...}`` lines for the calls the question still needs, including chained
calls that take an area from an earlier result ("which area had the most homicides in 2021,
and what is the per capita income there?" is a ranking first, then the income of the top area).
A pass with nothing left to ask ends gathering. The synthesis pass writes a templated answer
from the results (rules/answer.py).

What to call is decided in rules/planner.py (with the per-domain arguments in rules/calls.py);
this module only turns that plan into protocol text and hands synthesis to rules/answer.py.
"""
from __future__ import annotations

from analyzer.analysis import Analysis
from analyzer.question import analyze_question
from backends.base import Backend, Generation, GenerationRequest, register_backend
from loop.protocol import format_tool_call
from rules.answer import write_answer
from rules.planner import next_calls
from tools.data.loader import shared_data


@register_backend
class RulesBackend(Backend):
    """Deterministic planner and answer writer behind the Backend interface."""

    name = "rules"
    takes_suggestions = False
    n_ctx = 1_000_000

    def __init__(self, queue_size: int = 8):
        super().__init__(queue_size)
        self.selection_reason = ""
        self._data = None

    def info(self) -> dict:
        return {"backend": "rules", "model": "rule-planner", "n_ctx": self.n_ctx, "chat_format": None,
                "reason": self.selection_reason}

    @property
    def data(self):
        if self._data is None:
            self._data = shared_data()
        return self._data

    def _analysis(self, request: GenerationRequest) -> Analysis:
        # Called outside the orchestrator (or after the analyzer failed) the planner analyses for itself.
        if request.analysis is None or request.analysis.error:
            return analyze_question(request.question, self.data)
        return request.analysis

    def _generate(self, request: GenerationRequest) -> Generation:
        analysis = self._analysis(request)
        if request.phase == "synthesis":
            text = write_answer(request.question, analysis, request.results, strict=request.strict,
                                geo=self._geo())
        else:
            calls = next_calls(analysis, request.results, request.remaining_calls, geo=self._geo())
            text = "\n".join(format_tool_call(n, a) for n, a in calls)
            if not text:
                text = "NO_TOOL_CALL: the results so far answer the question."
        if request.on_token:
            request.on_token(text)
        prompt_tokens = self.count_message_tokens(request.messages) if request.messages else 0
        return Generation(text=text, prompt_tokens=prompt_tokens, evaluated_tokens=0,
                          completion_tokens=self.count_tokens(text))

    def _geo(self):
        try:
            return self.data.geography
        except Exception:
            return None

