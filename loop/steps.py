"""The typed steps of one run, and the run's result.

The trace is these steps as dicts, and the model's prompt is rebuilt from the same objects, so what the
trace shows is what the model saw. Objects travel through the loop; ``to_dict()`` runs only at the edges
(the API, the run store, the CLI's --json).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields

import prompt_registry as prompts
from analyzer.analysis import Analysis
from analyzer.reading import Reading
from tools.common import STANDING_CAVEATS
from tools.registry import ToolResult


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
    analysis: Analysis | None = None
    # Set when no data tool can apply (only subjects the data lacks, or nothing it deals in): no gathering pass
    # is run, since its grammar could only admit NO_TOOL_CALL; the answer says why (stop reason no_data_needed).
    no_calls_reason: str = ""

    def to_dict(self) -> dict:
        out = super().to_dict()
        out["analysis"] = self.analysis.to_dict() if self.analysis else {}
        return out


# How much of a result the prompt shows, from most to least: trimming moves a step down this list.
RENDER_LEVELS = ("full", "summary", "dropped")


@dataclass
class ToolCallStep(Step):
    """One call the model asked for: its canonical arguments, what became of it, and its typed result."""

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
    # Who wrote the call: "planner" (no model: the rule planner ran it), "reader" (the reading ran it, no model
    # pass), "reading" (the model wrote a call the question's reading makes) or "model" (the model's own call).
    origin: str = "model"
    result: ToolResult | None = None
    _render: str = "full"

    @property
    def ran(self) -> bool:
        """The tool actually ran (successfully or with an error result the model should read)."""
        return self.status in ("ok", "error") and self.result is not None

    @property
    def render_level(self) -> str:
        return self._render

    def shorten(self, level: str) -> None:
        """Show less of this result in the prompt (trimming to fit the context window)."""
        if RENDER_LEVELS.index(level) > RENDER_LEVELS.index(self._render):
            self._render = level

    def to_dict(self) -> dict:
        out = super().to_dict()
        out["result"] = self.result.to_dict() if self.result is not None else None
        return out

    def summary_dict(self) -> dict:
        """The short form of this call in the result's ``tool_calls`` list."""
        return {"index": self.call, "name": self.name, "arguments": self.arguments, "status": self.status,
                "error": self.error, "duration_ms": self.duration_ms, "result_summary": self.result_summary}

    def to_text(self) -> str:
        """What the model is told about this call, at its current trimming level."""
        call = prompts.format_call(self.name, self.arguments)
        if self.status == "duplicate":
            return prompts.template("duplicate_note").format(call=call, where=f"see call {self.duplicate_of}")
        if self.status == "skipped":
            return prompts.template("skipped_note").format(call=call, reason=self.error)
        if self.status == "error":
            return prompts.template("error_block").format(call=call, message=self.error)
        name = {"full": "results_block", "summary": "trimmed_block", "dropped": "dropped_block"}[self._render]
        text = self.result.text or self.result_summary
        specific = [c for c in self.result.caveats if c not in STANDING_CAVEATS]
        if specific and self._render == "full":
            text += "\nCaveats: " + " ".join(specific)
        return prompts.template(name).format(source=self.source, label=self.label, call=call, text=text,
                                             summary=self.result_summary)


@dataclass
class _ModelOutput(Step):
    prompt_tokens: int = 0
    evaluated_tokens: int = 0
    completion_tokens: int = 0
    raw_output: str = ""
    finish_reason: str = ""
    first_token_ms: float | None = None  # from the pass's start to its first token (None: the backend did not time it)

    @classmethod
    def from_generation(cls, generation, prompt_tokens: int, **extra):
        # The backend may not report prompt tokens; our own count of the prompt stands in.
        return cls(prompt_tokens=generation.prompt_tokens or prompt_tokens,
                   evaluated_tokens=generation.evaluated_tokens, completion_tokens=generation.completion_tokens,
                   raw_output=generation.text, finish_reason=generation.finish_reason,
                   first_token_ms=generation.first_token_ms, **extra)


@dataclass
class ModelPassStep(_ModelOutput):
    type = "model_pass"
    pass_number: int = 0
    phase: str = "gather"
    parsed_calls: list = field(default_factory=list)
    parse_errors: list = field(default_factory=list)
    allowed_values: dict = field(default_factory=dict)  # argument -> values the grammar admitted ([] = none)
    allowed_tools: list = field(default_factory=list)  # the tools the grammar admitted ([] = all of them)
    _calls: list = field(default_factory=list)  # the ToolCallSteps this pass asked for
    _footer: str = ""

    def add_call(self, step: ToolCallStep) -> None:
        self._calls.append(step)

    @property
    def asked_only_duplicates(self) -> bool:
        """Every call this pass asked for had already been made."""
        return bool(self._calls) and all(step.status == "duplicate" for step in self._calls)

    @property
    def asked_a_duplicate(self) -> bool:
        return any(step.status == "duplicate" for step in self._calls)

    def close(self, footer: str) -> None:
        """The line the model reads after this pass's results (calls left, or none)."""
        self._footer = footer

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
    fallback: bool = False  # built without the model: from result summaries, or by the planner
    planner_answer: bool = False  # the rule planner's templated answer replaced a model answer the data did not back


@dataclass
class GroundingStep(Step):
    type = "grounding"
    attempt: int = 1
    checked: list = field(default_factory=list)
    ignored: list = field(default_factory=list)
    unmatched: list = field(default_factory=list)
    matches: list = field(default_factory=list)  # [{"number", "rule", "source", "meaning"?}]: where each came from
    mislabelled: list = field(default_factory=list)  # [{"number", "claimed", "data", "conflicts", "source"}]
    missing_lead_figures: list = field(default_factory=list)  # results' lead figures a model's answer left out
    form_problems: list = field(default_factory=list)  # why a model's answer does not read as one (answer_form.py)


@dataclass
class NotesStep(Step):
    """What the answer must tell the user about the question itself (a partial year, figures published by
    community area, a place that does not exist, a subject the data lacks), and which of those notes were added
    to the answer because it left them out."""

    type = "notes"
    notes: list = field(default_factory=list)
    added: list = field(default_factory=list)


@dataclass
class ReadingStep(Step):
    """Where the reading fell short: which reading answered ("reader", "model", "reader+model" or "none"), the
    model's query and how it reads in words, and whether its figures are the reader's too (None: nothing to
    compare)."""

    type = "reading"
    ran: str = "reader"
    agreed: bool | None = None
    model_query: dict | None = None
    read_as: str = ""
    not_used: list = field(default_factory=list)


@dataclass
class ErrorStep(Step):
    type = "error"
    phase: str = ""
    error_type: str = ""
    message: str = ""


@dataclass
class RunResult:
    """The one result object: the answer with its typed trace. The CLI, the API and the page render it."""

    question: str
    answer: str = ""
    partial: bool = False
    steps: list[Step] = field(default_factory=list)
    stopped_because: str = "model_done"
    timings: dict = field(default_factory=dict)
    backend: dict = field(default_factory=dict)
    model: str | None = None
    prompt_version: str = ""
    sources: list = field(default_factory=list)
    caveats: list = field(default_factory=list)
    ungrounded_numbers: list = field(default_factory=list)
    analysis: Analysis | None = None
    error: dict | None = None  # {"phase", "type", "message"} when a model pass failed; the answer is then partial
    reading: Reading | None = None  # the question as read, in plain words (analyzer/reading.py)

    @property
    def calls(self) -> list[ToolCallStep]:
        return [s for s in self.steps if isinstance(s, ToolCallStep)]

    def to_dict(self) -> dict:
        return {
            "question": self.question, "answer": self.answer, "partial": self.partial,
            "tool_calls": [s.summary_dict() for s in self.calls],
            "trace": [s.to_dict() for s in self.steps], "stopped_because": self.stopped_because,
            "timings": self.timings, "backend": self.backend, "model": self.model,
            "prompt_version": self.prompt_version, "sources": self.sources, "caveats": self.caveats,
            "ungrounded_numbers": self.ungrounded_numbers,
            "analysis": self.analysis.to_dict() if self.analysis else {}, "error": self.error,
            "reading": self.reading.to_dict() if self.reading else None,
        }
