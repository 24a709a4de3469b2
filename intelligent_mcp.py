"""The orchestrator: analysis, gathering passes that call data tools, synthesis, grounding check.

One question is one run. Every run is a list of typed steps (analysis, model_pass, tool_call, trim,
synthesis, grounding, error); the trace is those steps as dicts and the model's prompt is rebuilt from
the same objects, so what the trace shows is what the model saw. Prompts only ever grow by appending
(llama.cpp then reuses its KV cache), except when results must be trimmed to fit the context window.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, fields

import grounding
import prompt_registry as prompts
import question_analyzer
from llama_client import BackendBusy, GenerationRequest
from settings import get_dotted
from tool_call_parser import parse_tool_calls
from tool_grammar import build_tool_grammar
from tools.registry import ToolArgumentError, ToolResult, call_key

OPTION_KEYS = ("max_tool_calls", "timeout_seconds", "grammar")
MIN_PASS_SECONDS = 0.2  # no model pass is started with less time than this left


class InvalidOptions(ValueError):
    """An unknown option, or a limit outside what the configuration allows."""


# ---------------------------------------------------------------- typed steps

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
        out["pass"] = out.pop("pass_number")
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

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


# ---------------------------------------------------------------- the orchestrator

class Orchestrator:
    """Answers questions with a backend and a tool registry; safe to share between threads."""

    def __init__(self, backend, registry, settings: dict):
        self.backend = backend
        self.registry = registry
        self.settings = settings or {}
        self.max_tool_calls = int(get_dotted(self.settings, "orchestrator.max_tool_calls", 4))
        self.timeout_seconds = float(get_dotted(self.settings, "orchestrator.timeout_seconds", 60))
        self.reply_reserve = int(get_dotted(self.settings, "orchestrator.reply_reserve_tokens", 384))
        self.grounding_check = bool(get_dotted(self.settings, "orchestrator.grounding_check", True))
        self.grammar_enabled = bool(get_dotted(self.settings, "model.grammar", True))
        self.max_tokens = int(get_dotted(self.settings, "model.max_tokens", 384))
        self._system = None
        self._grammars: dict[int, str] = {}

    def system_prompt(self) -> str:
        if self._system is None:
            self._system = prompts.system_prompt(self.registry.schemas(), self.max_tool_calls)
        return self._system

    def grammar(self, remaining: int) -> str:
        if remaining not in self._grammars:
            self._grammars[remaining] = build_tool_grammar(self.registry.schemas(), remaining)
        return self._grammars[remaining]

    def limits(self, options: dict | None) -> dict:
        """Validated per-question limits; options may only lower the configured ones."""
        options = dict(options or {})
        unknown = sorted(set(options) - set(OPTION_KEYS))
        if unknown:
            raise InvalidOptions(f"unknown option(s): {', '.join(unknown)}; valid options: {', '.join(OPTION_KEYS)}")
        limits = {"max_tool_calls": self.max_tool_calls, "timeout_seconds": self.timeout_seconds,
                  "grammar": self.grammar_enabled}
        for key, top, kind in (("max_tool_calls", self.max_tool_calls, int),
                               ("timeout_seconds", self.timeout_seconds, float)):
            value = options.get(key)
            if value is None:
                continue
            try:
                if isinstance(value, bool) or (kind is int and float(value) != int(float(value))):
                    raise ValueError
                value = kind(float(value))
            except (TypeError, ValueError):
                raise InvalidOptions(f"{key} must be a number from 1 to {top:g}, got {value!r}") from None
            if not 1 <= value <= top:
                raise InvalidOptions(f"{key} must be from 1 to {top:g}, got {value:g}")
            limits[key] = value
        if options.get("grammar") is not None:
            if not isinstance(options["grammar"], bool):
                raise InvalidOptions(f"grammar must be true or false, got {options['grammar']!r}")
            limits["grammar"] = options["grammar"] and self.grammar_enabled
        return limits

    def stream(self, question: str, options: dict | None = None):
        """Yield the start event, one event per finished step, then the result event."""
        limits = self.limits(options)
        run = _Run(self, question, limits)
        yield {"event": "start", "backend": run.backend_info,
               "limits": {"max_tool_calls": limits["max_tool_calls"], "timeout_seconds": limits["timeout_seconds"]}}
        for step in run.steps():
            yield {"event": "step", "step": step.to_dict()}
        yield {"event": "result", "result": run.result().to_dict()}

    def run(self, question: str, options: dict | None = None) -> RunResult:
        for event in self.stream(question, options):
            if event["event"] == "result":
                return RunResult(**event["result"])
        raise RuntimeError("the run ended without a result")  # unreachable


class _Run:
    """The state of one question: steps so far, calls made, time left."""

    def __init__(self, orchestrator: Orchestrator, question: str, limits: dict):
        self.o = orchestrator
        self.question = question
        self.max_calls = limits["max_tool_calls"]
        self.use_grammar = limits["grammar"]
        self.t0 = time.monotonic()
        self.deadline = self.t0 + limits["timeout_seconds"]
        self.backend_info = orchestrator.backend.info()
        self.trace: list[Step] = []
        self.passes: list[ModelPassStep] = []
        self.calls: list[ToolCallStep] = []
        self.seen: dict[str, ToolCallStep] = {}
        self.results: list[dict] = []
        self.analysis: dict = {}
        self.answer = ""
        self.stop = "model_done"
        self.partial = self.used_fallback = False
        self._synthesis_extra: list = []
        self.ungrounded: list[str] = []
        self.loop_caveats: list[str] = []
        self.timings = dict.fromkeys(("analysis_ms", "model_ms", "tools_ms", "synthesis_ms", "grounding_ms"), 0.0)

    # -- helpers
    def _now_ms(self) -> float:
        return round((time.monotonic() - self.t0) * 1000, 3)

    def _time_left(self) -> float:
        return self.deadline - time.monotonic()

    def _add(self, step: Step, started_ms: float, timing: str | None = None) -> Step:
        step.index, step.started_ms = len(self.trace), started_ms
        step.duration_ms = round(self._now_ms() - started_ms, 3)
        if timing:
            self.timings[timing] += step.duration_ms
        self.trace.append(step)
        return step

    def messages(self) -> list:
        hint = self.analysis.get("hint_text") or ""
        user = prompts.question_message(self.question, hint)
        user += f"\nYou may make up to {self.max_calls} tool call(s)."
        messages = [{"role": "system", "content": self.o.system_prompt()}, {"role": "user", "content": user}]
        for step in self.passes:
            messages += step.to_messages()
        return messages

    def _fit(self, extra: list) -> tuple:
        """Messages within n_ctx minus the reply reserve, trimming the earliest results if needed."""
        count = self.o.backend.count_message_tokens
        budget = int(self.o.backend.n_ctx) - self.o.reply_reserve
        messages = self.messages() + extra
        tokens = before = count(messages)
        trim = None
        for action, level, before_levels in (("summarized", "summary", ("full",)),
                                             ("dropped", "dropped", ("full", "summary"))):
            for step in (s for s in self.calls if s.status == "ok"):
                if tokens <= budget:
                    break
                if step._render in before_levels:
                    step._render = level
                    trim = trim or TrimStep(budget=budget, prompt_tokens_before=before)
                    trim.trimmed.append({"call": step.call, "source": step.source, "name": step.name, "action": action})
                    messages = self.messages() + extra
                    tokens = count(messages)
        if trim:
            trim.prompt_tokens_after = tokens
        return messages, tokens, trim, tokens <= budget

    def _generate(self, phase: str, extra: list, strict: bool = False):
        """One model pass; yields trim/error steps and returns (generation, messages, tokens) or None."""
        started = self._now_ms()
        messages, tokens, trim, fits = self._fit(extra)
        if trim:
            yield self._add(trim, started)
            self.loop_caveats.append("Some earlier results were shortened to fit the model's context window.")
        if not fits:
            yield self._add(ErrorStep(phase=phase, error_type="ContextOverflow", message=(
                f"the prompt needs {tokens} tokens but only {self.o.backend.n_ctx - self.o.reply_reserve} fit")), started)
            return None
        remaining = max(0, self.max_calls - len(self.calls))
        request = GenerationRequest(
            messages=messages, phase=phase, max_tokens=min(self.o.max_tokens, self.o.backend.n_ctx - tokens),
            grammar=self.o.grammar(remaining) if phase == "gather" and self.use_grammar else None,
            deadline=self.deadline, question=self.question, analysis=self.analysis, results=list(self.results),
            remaining_calls=remaining, strict=strict)
        try:
            generation = self.o.backend.generate(request)
        except BackendBusy:
            raise
        except Exception as exc:  # a failing model pass ends the loop; the answer uses what we have
            yield self._add(ErrorStep(phase=phase, error_type=type(exc).__name__, message=str(exc)), started)
            return None
        return generation, tokens, started

    # -- the loop
    def steps(self):
        started = self._now_ms()
        try:
            self.analysis = dict(question_analyzer.analyze_question(self.question, self.o.registry.data) or {})
        except Exception as exc:  # the analyzer only adds hints; never fail a question over it
            self.analysis = {"error": f"{type(exc).__name__}: {exc}", "hint_text": ""}
        yield self._add(AnalysisStep(analysis=self.analysis), started, "analysis_ms")
        stop = None
        while stop is None:
            stop = yield from self._gather_pass()
        self.stop = stop
        yield from self._synthesize()
        if self.o.grounding_check:
            yield from self._ground()

    def _gather_pass(self):
        if len(self.calls) >= self.max_calls:
            return "max_tool_calls"
        if len(self.passes) >= self.max_calls + 2:
            return "max_tool_calls"
        if self._time_left() < MIN_PASS_SECONDS:
            return "timeout"
        outcome = yield from self._generate("gather", [])
        if outcome is None:
            return "error"
        generation, tokens, started = outcome
        parsed = parse_tool_calls(generation.text)
        step = ModelPassStep(pass_number=len(self.passes) + 1, prompt_tokens=generation.prompt_tokens or tokens,
                             evaluated_tokens=generation.evaluated_tokens, completion_tokens=generation.completion_tokens,
                             raw_output=generation.text, parsed_calls=parsed.calls, parse_errors=parsed.errors,
                             finish_reason=generation.finish_reason)
        self.passes.append(step)
        yield self._add(step, started, "model_ms")
        out_of_time = generation.finish_reason == "deadline" or self._time_left() <= 0
        stop = "timeout" if out_of_time else None
        for call in parsed.calls:
            tool_step = yield from self._call(call.get("name"), call.get("arguments"), stop)
            step._calls.append(tool_step)
            if tool_step.status == "skipped" and stop is None:
                stop = "max_tool_calls"
            if tool_step.status == "duplicate" and sum(s.status == "duplicate" for s in self.calls) >= 2:
                stop = stop or "duplicate_call"
        remaining = self.max_calls - len(self.calls)
        step._footer = prompts.template("continue" if remaining > 0 else "no_more_calls").format(remaining=remaining)
        if stop:
            return stop
        if not parsed.calls and not parsed.errors:
            return "model_done"
        return None

    def _call(self, name, arguments, stop: str | None):
        """Canonicalise, deduplicate and run one requested call; yields and returns its step."""
        started = self._now_ms()
        arguments = arguments if isinstance(arguments, dict) else {}
        step = ToolCallStep(call=len(self.calls) + 1, name=str(name), arguments=arguments)
        self.calls.append(step)
        if step.call > self.max_calls or stop:
            step.status = "skipped"
            step.error = ("time ran out" if stop == "timeout" else "gathering stopped after repeated duplicate calls"
                          if stop == "duplicate_call" else f"the limit of {self.max_calls} tool calls was reached")
            yield self._add(step, started)
            return step
        try:
            canonical, failure = self.o.registry.canonicalize(step.name, arguments), None
        except ToolArgumentError as exc:
            canonical, failure = arguments, ToolResult.failure(step.name, str(exc), exc.code, arguments)
        step.arguments = canonical
        key = call_key(step.name, canonical)
        if key in self.seen:
            step.status, step.duplicate_of = "duplicate", self.seen[key].call
            step.error = f"identical to call {step.duplicate_of}; its result is already available"
            yield self._add(step, started)
            return step
        self.seen[key] = step
        result = failure or self.o.registry.run(step.name, canonical)
        result_dict = result.to_dict()
        step.result, step.result_summary = result_dict, result.summary
        if result.ok:
            step.source = 1 + sum(s.source is not None for s in self.calls)
            tool = self.o.registry.get(step.name)
            step.label = prompts.source_label(getattr(tool, "domain", ""), result.sources, step.name)
        else:
            step.status, step.error = "error", (result.error or {}).get("message") or result.summary
        self.results.append({"name": step.name, "arguments": canonical, "status": step.status, "result": result_dict})
        yield self._add(step, started, "tools_ms")
        return step

    def _synthesize(self):
        if self.stop == "error":
            return (yield from self._fallback())
        if self._time_left() < MIN_PASS_SECONDS:
            self.stop = "timeout"
            return (yield from self._fallback())
        lines = [f"[Source {s.source}: {s.label}] {prompts.format_call(s.name, s.arguments)} - {s.result_summary}"
                 for s in self.calls if s.source]
        self._synthesis_extra = [{"role": "user", "content": prompts.synthesis_message(self.question, lines)}]
        yield from self._synthesis_pass(self._synthesis_extra, strict=False)

    def _synthesis_pass(self, extra: list, strict: bool):
        outcome = yield from self._generate("synthesis", extra, strict=strict)
        if outcome is None:  # an error step was recorded; keep an earlier answer if there is one
            if not self.answer:
                self.stop = "error"
                yield from self._fallback()
            return
        generation, tokens, started = outcome
        answer = prompts.clean_answer(generation.text)
        yield self._add(SynthesisStep(strict=strict, prompt_tokens=generation.prompt_tokens or tokens,
                                      evaluated_tokens=generation.evaluated_tokens,
                                      completion_tokens=generation.completion_tokens, raw_output=generation.text,
                                      finish_reason=generation.finish_reason), started, "synthesis_ms")
        if generation.finish_reason == "deadline" or self._time_left() <= 0:
            self.stop, self.partial = "timeout", True
        if answer:
            self.answer = answer
        elif not self.answer:
            yield from self._fallback()

    def _fallback(self):
        """A deterministic answer from the result summaries (no time or no model left)."""
        started = self._now_ms()
        self.partial = self.used_fallback = True
        self.answer = prompts.fallback_answer(self.stop == "timeout", [s for s in self.calls if s.source])
        yield self._add(SynthesisStep(fallback=True, raw_output=self.answer, finish_reason=self.stop), started,
                        "synthesis_ms")

    def _ground(self):
        # Error results count too: the valid ranges they name ("wards 1 to 50") are tool output.
        ok_results = [r["result"] for r in self.results if r["status"] in ("ok", "error") and r.get("result")]
        references = None
        for attempt in (1, 2):
            started = self._now_ms()
            references = references or grounding.References.build(ok_results, self.question)
            report = grounding.check_grounding(self.answer, ok_results, self.question, references)
            yield self._add(GroundingStep(attempt=attempt, checked=report.checked, ignored=report.ignored,
                                          unmatched=report.unmatched), started, "grounding_ms")
            self.ungrounded = report.unmatched
            if report.ok or attempt == 2 or self.used_fallback or self._time_left() < MIN_PASS_SECONDS:
                break
            first_answer = self.answer
            extra = self._synthesis_extra + [{"role": "assistant", "content": first_answer},
                                             {"role": "user", "content": prompts.strict_message(report.unmatched)}]
            yield from self._synthesis_pass(extra, strict=True)
            if self.answer == first_answer:
                break
        if self.ungrounded:
            self.loop_caveats.append("These figures could not be matched to the data the tools returned: "
                                     + ", ".join(self.ungrounded) + ".")

    def result(self) -> RunResult:
        sources, caveats = {}, []
        for entry in self.results:
            for source in entry["result"].get("sources") or []:
                sources.setdefault((source.get("key"), source.get("dataset")), source)
            caveats += entry["result"].get("caveats") or []
        skipped = sum(s.status == "skipped" for s in self.calls)
        if self.stop == "timeout":
            caveats.append(f"Partial answer: the {self.deadline - self.t0:g}-second limit was reached.")
        if skipped and self.stop == "max_tool_calls":
            caveats.append(f"Only {self.max_calls} tool calls are allowed per question; {skipped} more were skipped.")
        if self.stop == "error":
            caveats.append("The model failed during this question; the answer is built from the data already gathered.")
        model = self.backend_info.get("model")
        total = self._now_ms()
        return RunResult(
            question=self.question, answer=self.answer, partial=self.partial or self.stop in ("timeout", "error"),
            tool_calls=[{"index": s.call, "name": s.name, "arguments": s.arguments, "status": s.status, "error": s.error,
                         "duration_ms": s.duration_ms, "result_summary": s.result_summary} for s in self.calls],
            trace=[step.to_dict() for step in self.trace], stopped_because=self.stop,
            timings={"total_ms": total, **{k: round(v, 3) for k, v in self.timings.items()}},
            backend=self.backend_info, model=os.path.basename(model) if isinstance(model, str) else None,
            prompt_version=prompts.prompt_version(), sources=list(sources.values()),
            caveats=list(dict.fromkeys(caveats + self.loop_caveats)), ungrounded_numbers=list(self.ungrounded),
            analysis=self.analysis)

