"""The orchestrator: analysis, gathering passes that call data tools, synthesis, grounding check.

One question is one run, recorded as typed steps (loop/steps.py) from which the model's prompt is also
rebuilt. Prompts only ever grow by appending (llama.cpp then reuses its KV cache), except when results
must be trimmed to fit the context window.
"""
from __future__ import annotations

import json
import os
import queue
import threading
import time
from dataclasses import dataclass

import prompt_registry as prompts
from analyzer import followup
from analyzer.analysis import Analysis
from analyzer.followup import EarlierTurn
from analyzer.notes import unstated_notes, user_notes
from analyzer.question import analyze_question, failed_analysis
from backends.base import BackendBusy, GenerationRequest
from loop import grounding
from loop.argument_constraints import admitted_tools, argument_values, unanswerable_subjects
from loop.grammar import build_tool_grammar
from loop.number_grammar import allowed_numerals, build_number_grammar
from loop.options import validate_limits
from loop.protocol import ParseResult, format_tool_call, parse_tool_calls
from loop.steps import (
    AnalysisStep,
    ErrorStep,
    GroundingStep,
    ModelPassStep,
    NotesStep,
    RunResult,
    Step,
    SynthesisStep,
    ToolCallStep,
    TrimStep,
)
from rules.answer import CAPABILITIES, key_figures, key_line_parts, write_answer
from rules.planner import next_calls
from settings.schema import Settings
from tools.errors import ToolArgumentError
from tools.registry import ToolResult, call_key

MIN_PASS_SECONDS = 0.2  # no model pass is started with less time than this left
GRAMMAR_CACHE_SIZE = 64
MIN_ANSWER_WORDS = 4  # a strict re-synthesis shorter than this does not replace the answer


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
        self.suggest_calls = self.settings.orchestrator.suggest_calls
        self.question_grammar = self.settings.orchestrator.question_grammar
        self.stop_when_planned = self.settings.orchestrator.stop_when_plan_done
        self.key_figures = self.settings.orchestrator.key_figures
        self.number_grammar = self.settings.orchestrator.number_grammar
        self._system = None
        self._grammars: dict[tuple, str] = {}
        self._property_order: dict | None = None

    def system_prompt(self) -> str:
        if self._system is None:
            self._system = prompts.system_prompt(self.registry.schemas(), self.max_tool_calls, self.suggests)
        return self._system

    def grammar(self, remaining: int, suggested: bool = False, allowed: dict | None = None,
                no_call: bool = True, only_lines: tuple = (), tools: tuple = ()) -> str:
        """``tools``: the only tools admitted (all when empty)."""
        key = (remaining, suggested, no_call, json.dumps(allowed or {}, sort_keys=True), only_lines, tools)
        if key not in self._grammars:
            if len(self._grammars) >= GRAMMAR_CACHE_SIZE:  # per-question grammars: keep the cache bounded
                self._grammars.pop(next(iter(self._grammars)))
            schemas = [s for s in self.registry.schemas() if not tools or s["name"] in tools]
            self._grammars[key] = build_tool_grammar(schemas, remaining, allow_suggested=suggested,
                                                     allowed=allowed, allow_no_call=no_call,
                                                     only_lines=list(only_lines))
        return self._grammars[key]

    def in_schema_order(self, name: str, arguments: dict) -> dict:
        """A call's arguments in its schema's property order: the order the gathering grammar makes the model
        write them. A draft shown in another order could not be copied: a small model that began with a later
        argument had no way back to an earlier one (the ZIP of "home values in 60614" was lost that way)."""
        if self._property_order is None:
            self._property_order = {schema["name"]: list((schema.get("parameters") or {}).get("properties") or {})
                                    for schema in self.registry.schemas()}
        order = self._property_order.get(name, [])
        ranked = sorted(arguments, key=lambda key: order.index(key) if key in order else len(order))
        return {key: arguments[key] for key in ranked}

    @property
    def suggests(self) -> bool:
        """A model (not the planner itself, nor canned replies) is shown the planner's draft calls."""
        return self.suggest_calls and getattr(self.backend, "takes_suggestions", False)

    def limits(self, options: dict | None) -> dict:
        """Validated per-question limits; options may only lower the configured ones."""
        return validate_limits(options, self.max_tool_calls, self.timeout_seconds, self.grammar_enabled)

    def stream(self, question: str, options: dict | None = None, history: list[EarlierTurn] | None = None):
        """Yield the start event, one event per finished Step, then the RunResult (typed; the caller serialises).
        ``history``: the earlier turns of a conversation, oldest first (web/conversations.py builds them)."""
        limits = self.limits(options)
        run = _Run(self, question, limits, history)
        yield {"event": "start", "backend": run.backend_info,
               "limits": {"max_tool_calls": limits["max_tool_calls"], "timeout_seconds": limits["timeout_seconds"]}}
        run.stream_tokens = True
        for item in run.steps():
            if isinstance(item, AnswerTokens):
                yield {"event": "token", "text": item.text, "strict": item.strict, "restart": item.restart}
            else:
                yield {"event": "step", "step": item}
        yield {"event": "result", "result": run.result()}

    def run(self, question: str, options: dict | None = None, history: list[EarlierTurn] | None = None) -> RunResult:
        run = _Run(self, question, self.limits(options), history)
        for _step in run.steps():
            pass
        return run.result()


@dataclass
class AnswerTokens:
    """Answer text as the model writes it (stream only; not a trace step). ``restart``: a strict re-synthesis
    begins, so the text shown so far is to be replaced."""

    text: str
    strict: bool = False
    restart: bool = False


class _Run:
    """The state of one question: steps so far, calls made, time left."""

    def __init__(self, orchestrator: Orchestrator, question: str, limits: dict,
                 history: list[EarlierTurn] | None = None):
        self.o = orchestrator
        self.question = question
        # The summary of earlier turns, made once: every pass's prompt starts with the same text (KV cache reuse).
        self.earlier = followup.history_lines(list(history or []), orchestrator.backend.n_ctx)
        self.history = list(history or [])
        self.max_calls = limits["max_tool_calls"]
        self.use_grammar = limits["grammar"]
        self.t0 = time.monotonic()
        self.deadline = self.t0 + limits["timeout_seconds"]
        self.backend_info = orchestrator.backend.info()
        self.trace: list[Step] = []
        self.passes: list[ModelPassStep] = []
        self.calls: list[ToolCallStep] = []
        self.seen: dict[str, ToolCallStep] = {}
        self.analysis: Analysis | None = None
        self.answer = ""
        self.stop = "model_done"
        self.partial = self.used_fallback = self.used_planner_answer = False
        self._synthesis_extra: list = []
        self.ungrounded: list[str] = []
        self.loop_caveats: list[str] = []
        self.timings = dict.fromkeys(("analysis_ms", "model_ms", "tools_ms", "synthesis_ms", "grounding_ms"), 0.0)
        self.stream_tokens = False  # set by Orchestrator.stream: synthesis text is passed on as it is written
        self.allowed_values: dict = {}  # argument name -> the values the question allows (question grammar)
        self.allowed_tools: list[str] = []  # the tools of the question's data domains ([] = all; question grammar)
        self.no_calls_reason = ""  # set when the question asks only about what no tool has: no call is admitted
        self.plan_done = False  # the planner's draft calls have all run (the model was told so)
        self.suggested: list = []  # the planner's draft for the coming pass: [(name, arguments)]
        self.first_suggestion = ""  # its text in the first user message (later ones follow each pass's results)
        self.draft_only = False  # the coming pass may only take the planner's outstanding draft or stop
        self.offered_draft = False  # such a pass happens at most once per question
        self.notes: list[str] = []  # what the answer must tell the user (analyzer/notes.py)
        self.key_lines: list[str] = []  # the result lines the synthesis request named (rules/answer.key_figures)

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

    def _ran_calls(self) -> list[ToolCallStep]:
        """Calls whose tool ran, in order: what the model, the planner and the grounding check read."""
        return [s for s in self.calls if s.ran]

    def _add(self, step: Step, started_ms: float, timing: str | None = None) -> Step:
        step.index, step.started_ms = len(self.trace), started_ms
        step.duration_ms = round(self._now_ms() - started_ms, 3)
        if timing:
            self.timings[timing] += step.duration_ms
        self.trace.append(step)
        return step

    def messages(self) -> list:
        hint = self.analysis.hint_text
        user = prompts.question_message(self.question, hint, self.earlier)
        user += f"\nYou may make up to {self.max_calls} tool call(s)."
        if self.first_suggestion:
            user += "\n" + self.first_suggestion
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
                if step.render_level in before_levels:
                    step.shorten(level)
                    trim = trim or TrimStep(budget=budget, prompt_tokens_before=before)
                    trim.trimmed.append({"call": step.call, "source": step.source, "name": step.name, "action": action})
                    messages = self.messages() + extra
                    tokens = count(messages)
        if trim:
            trim.prompt_tokens_after = tokens
        return messages, tokens, trim, tokens <= budget

    def _generate(self, phase: str, extra: list, strict: bool = False, append: bool = False):
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
        remaining = max(0, self.max_calls - self._calls_used())
        admitted = remaining
        # A question the planner could map needs data: its first pass may not end gathering before any call
        # (a small model answered "NO_TOOL_CALL" to "how many murders were there last year?").
        must_call = bool(self.suggested) and not self.passes and admitted > 0
        if must_call:
            # The first pass may write as many calls as the draft has: a small model copied the draft and then
            # wrote it again line after line. A call the draft missed can still come in the next pass.
            admitted = min(admitted, len(self.suggested))
        elif self.plan_done:
            # Once the planned calls have run, a further call is an exception: one per pass (a small model
            # tended to repeat the last call several times, each costing seconds).
            admitted = min(admitted, 1)
        if phase == "gather" and self.use_grammar:
            grammar = self.o.grammar(admitted, bool(self.suggested) and admitted > 0, self.allowed_values,
                                     no_call=not must_call, only_lines=self._draft_lines(), tools=tuple(self.allowed_tools))
        elif phase == "synthesis" and self.use_grammar and self.o.number_grammar:
            # Numbers only from the data, by construction: the answer's numerals are the results' own.
            grammar = build_number_grammar(allowed_numerals([s.result for s in self._ran_calls()], self.question,
                                                            self.notes))
        else:
            grammar = None
        request = GenerationRequest(
            messages=messages, phase=phase, max_tokens=min(self.o.max_tokens, self.o.backend.n_ctx - tokens),
            grammar=grammar,
            tools=self.o.registry.schemas() if phase == "gather" and self.use_grammar else [],
            deadline=self.deadline, question=self.question, analysis=self.analysis, results=self._ran_calls(),
            remaining_calls=remaining, strict=strict)
        try:
            if phase == "synthesis" and self.stream_tokens:
                generation = yield from self._generate_streaming(request, strict, append)
            else:
                generation = self.o.backend.generate(request)
        except BackendBusy:  # the caller answers "busy, retry"; this is not a failure of the question
            raise
        except Exception as exc:  # a failing model pass ends the loop; the answer uses what we have
            yield self._add(ErrorStep(phase=phase, error_type=type(exc).__name__, message=str(exc)), started)
            return None
        return generation, tokens, started

    def _generate_streaming(self, request: GenerationRequest, strict: bool, append: bool = False):
        """Run the pass in a helper thread and yield its text as it arrives (the generator cannot yield from
        inside the backend's on_token callback)."""
        pieces: queue.Queue = queue.Queue()
        outcome: list = []
        request.on_token = pieces.put

        def work():
            try:
                outcome.append(self.o.backend.generate(request))
            except BaseException as exc:  # handed to the generator's thread below
                outcome.append(exc)
            pieces.put(None)

        worker = threading.Thread(target=work, name="chiqa-synthesis", daemon=True)
        worker.start()
        first = True
        while (piece := pieces.get()) is not None:
            if piece:
                # An added sentence continues the text shown; a rewrite replaces it.
                yield AnswerTokens((" " + piece) if append and first else piece, strict=strict,
                                   restart=strict and first and not append)
                first = False
        worker.join()
        if isinstance(outcome[0], BaseException):
            raise outcome[0]
        return outcome[0]

    # -- the loop
    def steps(self):
        started = self._now_ms()
        try:
            self.analysis = analyze_question(self.question, self.o.registry.data)
        except Exception as exc:  # the analyzer only adds hints; never fail a question over it
            self.analysis = failed_analysis(self.o.registry.data, f"{type(exc).__name__}: {exc}")
        if self.history:  # a follow-up: places, periods and subjects it leaves out come from earlier turns
            self.analysis = followup.apply(self.analysis, self.question, [t.analysis for t in self.history])
        # The gathering grammar admits only the places, years and months the question named (where it named any).
        self.allowed_values = argument_values(self.analysis) if self.o.question_grammar else {}
        # Without the grammar nothing enforces "no call": the model decides.
        self.no_calls_reason = (unanswerable_subjects(self.analysis, nothing_named=self.o.suggests)
                                if self.o.question_grammar and self.use_grammar else "")
        self.notes = user_notes(self.analysis)
        yield self._add(AnalysisStep(analysis=self.analysis, no_calls_reason=self.no_calls_reason), started,
                        "analysis_ms")
        # No tool can apply: a gathering pass could only write NO_TOOL_CALL (1-3 s), and a small model that had
        # just written it wrote it again as its answer.
        stop = "no_data_needed" if self.no_calls_reason else None
        while stop is None:
            stop = yield from self._gather_pass()
        self.stop = stop
        yield from self._synthesize()
        if self.o.grounding_check:
            yield from self._ground()
        if self.notes:
            yield from self._pass_on_notes()

    def _gather_pass(self):
        # Passes that ask for nothing usable still count, so a model that never calls cannot loop forever.
        if self._calls_used() >= self.max_calls or len(self.passes) >= self.max_calls + 2:
            return "max_tool_calls"
        if self._no_time_for_a_pass():
            return "timeout"
        if not self.passes:
            self.suggested = self._suggestions()
            self.first_suggestion = self._suggestion_text()
        if self.o.question_grammar:
            self.allowed_tools = admitted_tools(self.analysis, self.o.registry.domains(), [n for n, _ in self.suggested])
        outcome = yield from self._generate("gather", [])
        if outcome is None:
            return "error"
        generation, tokens, started = outcome
        used = bool(self.suggested) and generation.text.strip().upper().startswith(prompts.SUGGESTED_REPLY)
        parsed = (ParseResult(calls=[{"name": n, "arguments": a} for n, a in self.suggested]) if used
                  else parse_tool_calls(generation.text))
        step = ModelPassStep.from_generation(
            generation, tokens, pass_number=len(self.passes) + 1, parsed_calls=parsed.calls,
            parse_errors=parsed.errors, suggested_calls=[{"name": n, "arguments": a} for n, a in self.suggested],
            used_suggestion=used, allowed_values=self.allowed_values if self.use_grammar else {},
            allowed_tools=self.allowed_tools if self.use_grammar else [],
            draft_only=bool(self._draft_lines()) if self.use_grammar else False)
        self.passes.append(step)
        yield self._add(step, started, "model_ms")
        stop = "timeout" if self._out_of_time(generation) else None
        # Calls the model wrote before time ran out still run: the tools answer in milliseconds, and their data
        # is what the time-limited answer is built from. Only further model passes are given up.
        run_stop = None if stop == "timeout" else stop
        for call in parsed.calls:
            tool_step = yield from self._call(call.get("name"), call.get("arguments"), run_stop)
            step.add_call(tool_step)
            if tool_step.status == "skipped" and stop is None:
                stop = "max_tool_calls"
        remaining = self.max_calls - self._calls_used()
        outstanding = self._suggestions() if remaining > 0 and not stop else []
        # A pass that asks only for calls already made has nothing new to ask: another free pass would cost
        # seconds of generation and, with a small model, usually the same repeat. If the planner's draft is still
        # unrun, the model gets one pass that may only take that draft or stop (the sufficiency check's verdict
        # "these results do not cover the question" put to the model); otherwise gathering ends.
        self.draft_only = False
        repeated = sum(s.status == "duplicate" for s in self.calls) >= 2  # a second repeat, across passes
        if step.asked_only_duplicates or (repeated and step.asked_a_duplicate):
            if outstanding and not self.offered_draft and self.use_grammar:
                self.draft_only = self.offered_draft = True
            else:
                stop = stop or "duplicate_call"
        elif outstanding and self.analysis.chained and self.use_grammar and not stop:
            # A chained question's next call takes its place from a result ("the area with the most homicides,
            # and its income"): the planner's draft names it. Given a free pass, a small model wrote the
            # city-wide call instead, then repeated itself, two passes and 15-20 s before the draft-only pass.
            # Every step of the chain gets it (a model that had strayed at the first step was offered the draft
            # there, then wrote the city-wide poverty call at the next); each such pass runs the draft or stops.
            self.draft_only = self.offered_draft = True
        footer = prompts.template("continue" if remaining > 0 else "no_more_calls").format(remaining=remaining)
        had_plan = bool(self.suggested) or any(p.suggested_calls for p in self.passes)
        self.suggested = outstanding if not stop else []
        # A small model keeps calling while calls are left; once the plan is done, say so plainly.
        done = prompts.template("plan_done") if had_plan and not self.suggested and remaining > 0 else ""
        self.plan_done = bool(done)
        # Sufficiency check: once every call the planner would make has run without error, a further pass
        # measured as a repeat of the last call (seconds of generation, nothing new), so the loop goes to synthesis.
        if self.plan_done and not stop and self.o.stop_when_planned and parsed.calls and self._all_calls_ok():
            stop = "plan_complete"
        if stop:
            # No further pass reads a footer ("you can make 3 more calls..."); the synthesis request follows.
            return stop
        step.close("\n".join(x for x in (footer, self._suggestion_text(), done) if x))
        if not parsed.calls and not parsed.errors:
            return "model_done"
        return None

    def _draft_lines(self) -> tuple:
        """The planner's outstanding calls as exact lines, when the coming pass may only take them or stop."""
        if not (self.draft_only and self.suggested):
            return ()
        return tuple(format_tool_call(n, a) for n, a in self.suggested)

    def _calls_used(self) -> int:
        """Calls counted against the cap: the ones that ran (ok or error). A refused repeat runs nothing; counting
        it left a model that repeated itself twice no call for the planner's draft (chained questions)."""
        return sum(step.status in ("ok", "error") for step in self.calls)

    def _all_calls_ok(self) -> bool:
        return all(step.status in ("ok", "duplicate") for step in self.calls)

    def _suggestions(self) -> list:
        """The rule planner's next calls for this question, given what has run (only when a model decides)."""
        if not self.o.suggests or self.analysis is None or self.analysis.error:
            return []
        remaining = self.max_calls - self._calls_used()
        try:
            drafted = next_calls(self.analysis, self._ran_calls(), remaining, geo=self.o.registry.data.geography)
            return [(name, self.o.in_schema_order(name, args)) for name, args in drafted]
        except Exception:  # noqa: BLE001 - a planner failure only loses the hint
            return []

    def _suggestion_text(self) -> str:
        if not self.suggested:
            return ""
        lines = "\n".join(format_tool_call(n, a) for n, a in self.suggested)
        return prompts.template("suggestion").format(calls=lines)

    def _call(self, name, arguments, stop: str | None):
        """Canonicalise, deduplicate and run one requested call; yields and returns its step."""
        started = self._now_ms()
        arguments = arguments if isinstance(arguments, dict) else {}
        used = self._calls_used()
        step = ToolCallStep(call=len(self.calls) + 1, name=str(name), arguments=arguments)
        self.calls.append(step)
        if used >= self.max_calls or stop:
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
        step.result, step.result_summary = result, result.summary
        if result.ok:
            step.source = 1 + sum(s.source is not None for s in self.calls)
            tool = self.o.registry.get(step.name)
            step.label = prompts.source_label(getattr(tool, "domain", ""), result.sources, step.name)
        else:
            step.status, step.error = "error", (result.error or {}).get("message") or result.summary
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
        rows = [line + prompts.listed_rows(s.result.text) for line, s in zip(lines, self._sourced_calls())]
        notes = self.notes
        self.key_lines = key = self._key_figures()
        self._synthesis_extra = [{"role": "user", "content": prompts.synthesis_message(
            self.question, rows, CAPABILITIES, self.no_calls_reason, notes, key)}]
        budget = int(self.o.backend.n_ctx) - self.o.reply_reserve
        if rows != lines and self.o.backend.count_message_tokens(self.messages() + self._synthesis_extra) > budget:
            # Where the context is tight the results themselves come first: the request repeats only summaries.
            self._synthesis_extra = [{"role": "user", "content": prompts.synthesis_message(
                self.question, lines, CAPABILITIES, self.no_calls_reason, notes, key)}]
        yield from self._synthesis_pass(self._synthesis_extra, strict=False)

    def _key_figures(self) -> list[str]:
        """The planner's lead lines for the results gathered, shown to a model writing the answer."""
        if not (self.o.key_figures and self.o.suggests) or self.analysis is None:
            return []
        try:
            planned = {call["name"] for step in self.passes for call in step.suggested_calls}
            return key_figures(self.question, self.analysis, self._ran_calls(), planned)
        except Exception:  # noqa: BLE001 - the planner only adds a hint here; the answer is still the model's
            return []

    def _lines_with(self, figures: list[str]) -> list[str]:
        """The key lines (else result summaries) the missing figures come from, so the model knows what they are."""
        lines = self.key_lines or [s.result_summary for s in self._ran_calls() if s.status == "ok"]
        return [line for line in lines if any(f in line for f in figures)]

    def _synthesis_pass(self, extra: list, strict: bool, append_to: str = ""):
        outcome = yield from self._generate("synthesis", extra, strict=strict, append=bool(append_to))
        if outcome is None:  # an error step was recorded; keep an earlier answer if there is one
            if not self.answer:
                self.stop = "error"
                yield from self._fallback()
            return
        generation, tokens, started = outcome
        answer = reply = prompts.clean_answer(generation.text)
        if append_to and reply and not reply.startswith(append_to.strip()):
            answer = append_to.rstrip() + " " + reply  # the added sentence follows the first answer
        yield self._add(SynthesisStep.from_generation(generation, tokens, strict=strict), started, "synthesis_ms")
        if self._out_of_time(generation):
            self.stop, self.partial = "timeout", True
        # A strict reply of a few words ("717") is no answer (nor a sentence to add); the check then fails
        # again and the planner's answer is used instead of it.
        if answer and not (strict and self.answer and len(reply.split()) < MIN_ANSWER_WORDS):
            self.answer = answer
        elif not self.answer and not (yield from self._planner_answer()):
            # A reply with nothing but call markers ("NO_TOOL_CALL") is no answer: the planner's, else a fallback.
            yield from self._fallback()

    def _fallback(self):
        """A deterministic answer from the result summaries (no time or no model left)."""
        started = self._now_ms()
        self.partial = self.used_fallback = True
        found = [f"[Source {s.source}: {s.label}] {s.result_summary}" for s in self._sourced_calls()]
        self.answer = prompts.fallback_answer(self.stop == "timeout", found)
        yield self._add(SynthesisStep(fallback=True, raw_output=self.answer, finish_reason=self.stop), started,
                        "synthesis_ms")

    def _ground(self):
        # Error results count too: the valid ranges they name ("wards 1 to 50") are tool output.
        outputs = [s.result for s in self._ran_calls()]
        # The notes the answer was asked to pass on (data coverage, valid ranges) are sources of numbers too.
        references = grounding.References.build(outputs, self.question, self.notes)
        report = None
        for attempt in (1, 2, 3):
            started = self._now_ms()
            report = grounding.check_grounding(self.answer, outputs, self.question, references)
            missing = self._missing_lead_figures()
            yield self._add(GroundingStep(attempt=attempt, checked=report.checked, ignored=report.ignored,
                                          unmatched=report.unmatched, matches=report.matches,
                                          missing_lead_figures=missing), started, "grounding_ms")
            self.ungrounded = report.unmatched
            if (report.ok and not missing) or self.used_fallback or attempt == 3:
                break
            if attempt == 2 or self._no_time_for_a_pass():
                # The model could not write an answer the data backs: the planner's templated answer instead.
                if not (yield from self._planner_answer()):
                    break
                continue
            first_answer = self.answer
            # Figures left out are added by one more sentence, not by a rewrite: asked to rewrite, the 0.5B
            # model returned its first answer unchanged and the planner's answer followed.
            adding = not report.unmatched
            fix = (prompts.strict_message(report.unmatched) if report.unmatched
                   else prompts.missing_figures_message(missing, self._lines_with(missing)))
            extra = self._synthesis_extra + [{"role": "assistant", "content": first_answer},
                                             {"role": "user", "content": fix}]
            yield from self._synthesis_pass(extra, strict=True, append_to=first_answer if adding else "")
        if self.ungrounded:
            self.loop_caveats.append("These figures could not be matched to the data the tools returned: "
                                     + ", ".join(self.ungrounded) + ".")

    def _pass_on_notes(self):
        """Each note the answer leaves out is added after it, word for word: asked to pass notes on, the 0.5B model
        often answered "33 homicides in ward 20" and never said that poverty is not published by ward."""
        started = self._now_ms()
        added = unstated_notes(self.analysis, self.notes, self.answer)
        if added:
            self.answer = "\n\n".join([self.answer.rstrip()] * bool(self.answer.strip())
                                       + ["Note: " + note for note in added])
        yield self._add(NotesStep(notes=list(self.notes), added=added), started)

    def _missing_lead_figures(self) -> list[str]:
        """The figures the model's answer leaves out. With key figures (the lines the synthesis request named),
        each line's lead figure: the top entry's value of a ranking ("Austin saw the most killings" left out 83),
        the count or rate of a summary; any year of a yearly series; and where the question compares, each
        compared entry's figure ("786 murders in 2016 were higher than in 2017" left out 2017's 672). Without
        them (no planner draft), any figure of each result counts as using it, since a summary leads with a
        total the question may not ask for."""
        if not self.o.suggests:
            return []  # the planner writes its answers from the summaries; the check is for models

        def figures(text: str) -> list:
            return [n for n in grounding.extract_numbers(grounding.without_place_numbers(text)) if not n.is_year]

        def said(wanted: list) -> bool:
            return any(abs(abs(n.value) - abs(f.value)) <= max(n.tolerance, f.tolerance)
                       for n in stated for f in wanted)

        stated = figures(self.answer)
        a = self.analysis
        compares = a is not None and (a.comparison or len(a.areas) >= 2 or len(a.years) >= 2 or len(a.periods) >= 2)
        parts = self.key_lines or [
            step.result_summary + "\n" + (step.result.text or "") for step in self._ran_calls() if step.status == "ok"]
        missing = []
        years = list(a.years) if a is not None else []
        checked = ([piece for line in parts for piece in key_line_parts(line, compares, years)] if self.key_lines
                   else [(part, False) for part in parts])
        for text, lead_only in checked:
            wanted = figures(text)[:1] if lead_only else figures(text)
            if wanted and not said(wanted) and wanted[0].text not in missing:  # two key lines may share a figure
                missing.append(wanted[0].text)
        return missing

    def _planner_answer(self):
        """Replace the answer with the rule planner's, marked in the trace; False when there is none to give."""
        if not self.o.suggests or self.analysis is None:
            return False
        started = self._now_ms()
        try:
            text = write_answer(self.question, self.analysis, self._ran_calls(), geo=self.o.registry.data.geography)
        except Exception:  # noqa: BLE001 - keep the model's answer, flagged, rather than none
            return False
        if not text:
            return False
        self.answer, self.used_planner_answer = text, True
        yield self._add(SynthesisStep(fallback=True, planner_answer=True, raw_output=text, finish_reason="planner"),
                        started, "synthesis_ms")
        return True

    def _places_left_out(self) -> list[str]:
        """Named places no call looked at (more than the call budget covers): said, never silently dropped."""
        if self.analysis is None:
            return []
        named = {"community_area": self.analysis.area_numbers, "ward": self.analysis.wards,
                 "district": self.analysis.districts}
        covered: dict[str, set] = {kind: set() for kind in named}
        for step in self._ran_calls():
            args = step.arguments
            for kind in named:
                for key in (kind, f"{kind}s", "compare_areas" if kind == "community_area" else None):
                    value = args.get(key) if key else None
                    covered[kind].update(value if isinstance(value, list) else [] if value is None else [value])
        names = {a.number: f"{a.name} ({a.number})" for a in self.analysis.areas}
        out = []
        for kind, numbers in named.items():
            missing = [n for n in numbers if n not in covered[kind]]
            if covered[kind] and missing:
                label = {"community_area": "community areas", "ward": "wards", "district": "police districts"}[kind]
                out.append(f"Only {len(numbers) - len(missing)} of the {len(numbers)} {label} named could be looked "
                           f"up within the {self.max_calls}-call limit; not covered: "
                           + ", ".join(names.get(n, str(n)) if kind == "community_area" else str(n) for n in missing)
                           + ". Ask about them separately.")
        return out

    def result(self) -> RunResult:
        sources, caveats = {}, []
        for step in self._ran_calls():
            for source in step.result.sources:
                sources.setdefault((source.get("key"), source.get("dataset")), source)
            caveats += step.result.caveats
        skipped = sum(s.status == "skipped" for s in self.calls)
        if self.stop == "timeout":
            caveats.append(f"Partial answer: the {self.deadline - self.t0:g}-second limit was reached.")
        if skipped and self.stop == "max_tool_calls":
            caveats.append(f"Only {self.max_calls} tool calls are allowed per question; {skipped} more were skipped.")
        if self.stop == "error":
            caveats.append("The model failed during this question; the answer is built from the data already gathered.")
        left_out = self._places_left_out()
        caveats += left_out
        model = self.backend_info.get("model")
        total = self._now_ms()
        return RunResult(
            question=self.question, answer=self.answer,
            partial=self.partial or self.stop in ("timeout", "error") or bool(left_out),
            steps=list(self.trace), stopped_because=self.stop,
            timings={"total_ms": total, **{k: round(v, 3) for k, v in self.timings.items()}},
            backend=self.backend_info, model=os.path.basename(model) if isinstance(model, str) else None,
            prompt_version=prompts.prompt_version(), sources=list(sources.values()),
            caveats=list(dict.fromkeys(caveats + self.loop_caveats)), ungrounded_numbers=list(self.ungrounded),
            analysis=self.analysis, error=self._model_error())

    def _model_error(self) -> dict | None:
        """The last model failure of this run as {"phase", "type", "message"}, or None.

        A context overflow is handled by trimming, so it is not reported as a model failure."""
        errors = [s for s in self.trace if isinstance(s, ErrorStep) and s.error_type != "ContextOverflow"]
        if not errors:
            return None
        last = errors[-1]
        return {"phase": last.phase, "type": last.error_type, "message": last.message}
