"""The orchestrator: analysis, gathering passes that call data tools, synthesis, grounding check.

One question is one run, recorded as typed steps (loop/steps.py) from which the model's prompt is also
rebuilt. Prompts only ever grow by appending (llama.cpp then reuses its KV cache), except when results
must be trimmed to fit the context window.
"""
from __future__ import annotations

import os
import time

import prompt_registry as prompts
from analyzer import question as question_analyzer
from backends.base import BackendBusy, GenerationRequest
from loop import grounding
from loop.grammar import build_tool_grammar
from loop.options import validate_limits
from loop.protocol import parse_tool_calls
from loop.steps import (
    AnalysisStep,
    ErrorStep,
    GroundingStep,
    ModelPassStep,
    RunResult,
    Step,
    SynthesisStep,
    ToolCallStep,
    TrimStep,
)
from settings.schema import Settings
from tools.errors import ToolArgumentError
from tools.registry import ToolResult, call_key

MIN_PASS_SECONDS = 0.2  # no model pass is started with less time than this left


class Orchestrator:
    """Answers questions with a backend and a tool registry; safe to share between threads."""

    def __init__(self, backend, registry, settings: Settings):
        self.backend = backend
        self.registry = registry
        self.settings = settings
        self.max_tool_calls = self.settings.orchestrator.max_tool_calls
        self.timeout_seconds = self.settings.orchestrator.timeout_seconds
        self.reply_reserve = self.settings.orchestrator.reply_reserve_tokens
        self.grounding_check = self.settings.orchestrator.grounding_check
        self.grammar_enabled = self.settings.model.grammar
        self.max_tokens = self.settings.model.max_tokens
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
        return validate_limits(options, self.max_tool_calls, self.timeout_seconds, self.grammar_enabled)

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

    def _no_time_for_a_pass(self) -> bool:
        return self._time_left() < MIN_PASS_SECONDS

    def _out_of_time(self, generation) -> bool:
        return generation.finish_reason == "deadline" or self._time_left() <= 0

    def _sourced_calls(self) -> list:
        return [s for s in self.calls if s.source]

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
        """One model pass; yields trim/error steps and returns (generation, tokens, started_ms) or None."""
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
        except BackendBusy:  # the caller answers "busy, retry"; this is not a failure of the question
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
        # Passes that ask for nothing usable still count, so a model that never calls cannot loop forever.
        if len(self.calls) >= self.max_calls or len(self.passes) >= self.max_calls + 2:
            return "max_tool_calls"
        if self._no_time_for_a_pass():
            return "timeout"
        outcome = yield from self._generate("gather", [])
        if outcome is None:
            return "error"
        generation, tokens, started = outcome
        parsed = parse_tool_calls(generation.text)
        step = ModelPassStep.from_generation(generation, tokens, pass_number=len(self.passes) + 1,
                                             parsed_calls=parsed.calls, parse_errors=parsed.errors)
        self.passes.append(step)
        yield self._add(step, started, "model_ms")
        stop = "timeout" if self._out_of_time(generation) else None
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
        if self._no_time_for_a_pass():
            self.stop = "timeout"
            return (yield from self._fallback())
        lines = [f"[Source {s.source}: {s.label}] {prompts.format_call(s.name, s.arguments)} - {s.result_summary}"
                 for s in self._sourced_calls()]
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
        yield self._add(SynthesisStep.from_generation(generation, tokens, strict=strict), started, "synthesis_ms")
        if self._out_of_time(generation):
            self.stop, self.partial = "timeout", True
        if answer:
            self.answer = answer
        elif not self.answer:
            yield from self._fallback()

    def _fallback(self):
        """A deterministic answer from the result summaries (no time or no model left)."""
        started = self._now_ms()
        self.partial = self.used_fallback = True
        self.answer = prompts.fallback_answer(self.stop == "timeout", self._sourced_calls())
        yield self._add(SynthesisStep(fallback=True, raw_output=self.answer, finish_reason=self.stop), started,
                        "synthesis_ms")

    def _ground(self):
        # Error results count too: the valid ranges they name ("wards 1 to 50") are tool output.
        outputs = [r["result"] for r in self.results if r["status"] in ("ok", "error") and r.get("result")]
        references = None
        for attempt in (1, 2):
            started = self._now_ms()
            references = references or grounding.References.build(outputs, self.question)
            report = grounding.check_grounding(self.answer, outputs, self.question, references)
            yield self._add(GroundingStep(attempt=attempt, checked=report.checked, ignored=report.ignored,
                                          unmatched=report.unmatched), started, "grounding_ms")
            self.ungrounded = report.unmatched
            if report.ok or attempt == 2 or self.used_fallback or self._no_time_for_a_pass():
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
        failed = [s for s in self.trace if isinstance(s, ErrorStep)]  # the cause, not only "could not finish"
        error = ({"phase": failed[-1].phase, "type": failed[-1].error_type, "message": failed[-1].message}
                 if failed else None)
        return RunResult(
            question=self.question, answer=self.answer, partial=self.partial or self.stop in ("timeout", "error"),
            tool_calls=[{"index": s.call, "name": s.name, "arguments": s.arguments, "status": s.status, "error": s.error,
                         "duration_ms": s.duration_ms, "result_summary": s.result_summary} for s in self.calls],
            trace=[step.to_dict() for step in self.trace], stopped_because=self.stop,
            timings={"total_ms": total, **{k: round(v, 3) for k, v in self.timings.items()}},
            backend=self.backend_info, model=os.path.basename(model) if isinstance(model, str) else None,
            prompt_version=prompts.prompt_version(), sources=list(sources.values()),
            caveats=list(dict.fromkeys(caveats + self.loop_caveats)), ungrounded_numbers=list(self.ungrounded),
            analysis=self.analysis, error=error)

