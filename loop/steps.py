"""The typed steps of one run, and the run's result.

The trace is these steps as dicts, and the model's prompt is rebuilt from the same objects, so what the
trace shows is what the model saw.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields

import prompt_registry as prompts


@dataclass
class Step:
    """Common step fields; subclasses add their own. Fields starting with '_' stay out of the trace."""

    type = "step"
    index: int = 0
    started_ms: float = 0.0
    duration_ms: float = 0.0

    def to_dict(self) -> dict:
        out = {"type": self.type}
        out.update({f.name: getattr(self, f.name) for f in fields(self) if not f.name.startswith("_")})
        return out


@dataclass
class AnalysisStep(Step):
    type = "analysis"
    analysis: dict = field(default_factory=dict)


@dataclass
class ToolCallStep(Step):
    type = "tool_call"
    call: int = 0  # 1-based number among all calls the model asked for
    name: str = ""
    arguments: dict = field(default_factory=dict)
    status: str = "ok"  # ok | error | duplicate | skipped
    error: str | None = None
    result_summary: str = ""
    source: int | None = None  # "[Source N]" number in the prompt, for ok results
    label: str = ""
    duplicate_of: int | None = None
    result: dict | None = None
    _render: str = "full"  # full | summary | dropped (set by trimming)

    def to_text(self) -> str:
        return prompts.tool_step_text(self, self._render)


@dataclass
class _ModelOutput(Step):
    prompt_tokens: int = 0
    evaluated_tokens: int = 0
    completion_tokens: int = 0
    raw_output: str = ""
    finish_reason: str = ""

    @classmethod
    def from_generation(cls, generation, prompt_tokens: int, **extra):
        # The backend may not report prompt tokens; our own count of the prompt stands in.
        return cls(prompt_tokens=generation.prompt_tokens or prompt_tokens,
                   evaluated_tokens=generation.evaluated_tokens, completion_tokens=generation.completion_tokens,
                   raw_output=generation.text, finish_reason=generation.finish_reason, **extra)


@dataclass
class ModelPassStep(_ModelOutput):
    type = "model_pass"
    pass_number: int = 0
    phase: str = "gather"
    parsed_calls: list = field(default_factory=list)
    parse_errors: list = field(default_factory=list)
    _calls: list = field(default_factory=list)  # the ToolCallSteps this pass asked for
    _footer: str = ""

    def to_dict(self) -> dict:
        out = super().to_dict()
        out["pass"] = out.pop("pass_number")  # "pass" is a keyword, so the field cannot be named that
        return out

    def to_messages(self) -> list:
        messages = [{"role": "assistant", "content": self.raw_output}]
        parts = [step.to_text() for step in self._calls]
        parts += [prompts.template("parse_note").format(error=e) for e in self.parse_errors]
        if parts:
            messages.append({"role": "user", "content": "\n\n".join(parts + [self._footer]).strip()})
        return messages


@dataclass
class TrimStep(Step):
    type = "trim"
    trimmed: list = field(default_factory=list)  # [{"call", "source", "name", "action": summarized|dropped}]
    prompt_tokens_before: int = 0
    prompt_tokens_after: int = 0
    budget: int = 0


@dataclass
class SynthesisStep(_ModelOutput):
    type = "synthesis"
    strict: bool = False
    fallback: bool = False  # built from result summaries without the model


@dataclass
class GroundingStep(Step):
    type = "grounding"
    attempt: int = 1
    checked: list = field(default_factory=list)
    ignored: list = field(default_factory=list)
    unmatched: list = field(default_factory=list)


@dataclass
class ErrorStep(Step):
    type = "error"
    phase: str = ""
    error_type: str = ""
    message: str = ""


@dataclass
class RunResult:
    question: str
    answer: str = ""
    partial: bool = False
    tool_calls: list = field(default_factory=list)
    trace: list = field(default_factory=list)
    stopped_because: str = "model_done"
    timings: dict = field(default_factory=dict)
    backend: dict = field(default_factory=dict)
    model: str | None = None
    prompt_version: str = ""
    sources: list = field(default_factory=list)
    caveats: list = field(default_factory=list)
    ungrounded_numbers: list = field(default_factory=list)
    analysis: dict = field(default_factory=dict)
    error: dict | None = None  # {"phase", "type", "message"} when a model pass failed; the answer is then partial

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}
