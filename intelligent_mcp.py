"""The orchestrator: one question is one run, through the phases of the design's loop.

1. Analysis: the analyzer reads the question (places, years, measures, notes); a follow-up takes what it leaves
   out from earlier turns. What the gathering grammar may admit follows from it.
2. Gathering (loop/gathering.py): passes that write ``TOOL_CALL`` lines, the model's (shown the planner's draft)
   or, with no model, the planner's; at most ``max_tool_calls`` calls, never the same call twice, within the
   deadline. Why it stopped is a StopReason (loop/state.py), decided in loop/decisions.py.
3. Synthesis (loop/synthesis.py): one request turns all results into the answer.
4. Answer check (loop/answer_check.py): every figure backed by a result, the asked-for figures stated; then the
   notes the answer must pass on.
5. The RunResult (loop/run_result.py): the answer and its typed trace, as the CLI, the API and the page show it.
"""
from __future__ import annotations

import queue
import threading

import prompt_registry as prompts
from analyzer import followup
from analyzer.followup import EarlierTurn
from analyzer.notes import user_notes
from analyzer.parts import read_parts
from analyzer.question import analyze_question, failed_analysis
from loop.answer_check import check_answer, pass_on_notes
from loop.argument_constraints import argument_values, unanswerable_subjects
from loop.context import LoopConfig, RunContext, ToolGrammars
from loop.gathering import gather
from loop.model_pass import RunCancelled
from loop.options import validate_limits
from loop.run_result import build_result
from loop.state import AnswerTokens, RunState, StopReason
from loop.steps import AnalysisStep, RunResult, Step
from loop.synthesis import synthesize
from loop.coverage_check import check_coverage
from rules.collaborator import Planner
from settings.schema import Settings


class Orchestrator:
    """Answers questions with a backend, a tool registry and the rule planner; safe to share between threads."""

    def __init__(self, backend, registry, settings: Settings, planner: Planner | None = None):
        self.backend = backend
        self.registry = registry
        self.settings = settings
        self.config = LoopConfig.from_settings(settings)
        self.planner = planner or Planner(registry.data)
        self.grammars = ToolGrammars(registry)
        # A language model decides, and the planner helps it (the reading, key figures, the answer check); a backend
        # that is no model leaves gathering and the answer to the planner; canned test replies get no help.
        self.model_decides = getattr(backend, "is_language_model", False)
        self.planner_decides = getattr(backend, "is_planner", False)
        self._system: str | None = None
        self._query: str | None = None

    def system_prompt(self) -> str:
        if self._system is None:
            self._system = prompts.system_prompt(self.registry.prompt_schemas(), self.config.max_tool_calls)
        return self._system

    def query_prompt(self) -> str:
        if self._query is None:
            self._query = prompts.query_system_prompt()
        return self._query

    def limits(self, options: dict | None) -> dict:
        """Validated per-question limits; options may only lower the configured ones."""
        return validate_limits(options, self.config.max_tool_calls, self.config.timeout_seconds, self.config.grammar)

    def run(self, question: str, options: dict | None = None, history: list[EarlierTurn] | None = None,
            received: float | None = None) -> RunResult:
        """``received``: when the server had the request (time.monotonic()); the time limit counts from then."""
        state = self._start(question, self.limits(options), history, received)
        self._execute(state)
        return build_result(state)

    def stream(self, question: str, options: dict | None = None, history: list[EarlierTurn] | None = None,
               received: float | None = None):
        """Yield the start event, one event per finished Step (and answer tokens as they are written), then the
        RunResult. The run goes on in a worker thread; a reader that stops reading ends it before its next pass.
        ``history``: the earlier turns of a conversation, oldest first."""
        limits = self.limits(options)
        state = self._start(question, limits, history, received)
        yield {"event": "start", "backend": state.backend_info,
               "limits": {"max_tool_calls": limits["max_tool_calls"], "timeout_seconds": limits["timeout_seconds"]}}
        events: queue.Queue = queue.Queue()
        state.sink = events.put
        worker = threading.Thread(target=self._work, args=(state, events), name="chiqa-run", daemon=True)
        worker.start()
        try:
            while True:
                item = events.get()
                if isinstance(item, AnswerTokens):
                    yield {"event": "token", "text": item.text, "strict": item.strict, "restart": item.restart}
                elif isinstance(item, Step):
                    yield {"event": "step", "step": item}
                elif isinstance(item, BaseException):
                    raise item
                else:
                    yield {"event": "result", "result": item}
                    return
        finally:
            state.cancelled = True

    def _work(self, state: RunState, events: queue.Queue) -> None:
        try:
            self._execute(state)
            events.put(build_result(state))
        except RunCancelled:
            pass
        except BaseException as exc:  # handed to the reader's thread (BackendBusy among them)
            events.put(exc)

    def _start(self, question: str, limits: dict, history: list[EarlierTurn] | None,
               received: float | None = None) -> RunState:
        earlier = list(history or [])
        return RunState.start(question, limits, received, history=earlier, backend_info=self.backend.info(),
                              earlier=followup.history_lines(earlier, self.backend.n_ctx))

    def _context(self) -> RunContext:
        return RunContext(backend=self.backend, registry=self.registry, planner=self.planner, config=self.config,
                          grammars=self.grammars, system_prompt=self.system_prompt(),
                          answer_prompt=prompts.answer_system_prompt(), query_prompt=self.query_prompt(),
                          model_decides=self.model_decides,
                          planner_decides=self.planner_decides)

    def _execute(self, state: RunState) -> None:
        ctx = self._context()
        self._analyse(state)
        # No tool can apply: a gathering pass could only write NO_TOOL_CALL (1-3 s), and a small model that had
        # just written it wrote it again as its answer.
        state.stop = StopReason.NO_DATA_NEEDED if state.no_calls_reason else gather(state, ctx)
        synthesize(state, ctx)
        if self.config.grounding_check:
            check_answer(state, ctx)
        # after the answer check, which may add a figure the answer left out: what is still missing is said
        check_coverage(state)
        if state.notes:
            pass_on_notes(state)

    def _in_parts(self, question: str, analysis, earlier: list):
        """Read whole with words unused, a question of several parts each read alone is read in parts (its later
        parts as follow-ups of its earlier ones): nothing is left unused, and each part is planned and answered."""
        data = self.registry.data

        def analyze(text):
            try:
                part = analyze_question(text, data)
            except Exception as exc:  # noqa: BLE001 - a part that cannot be read keeps the whole reading
                return failed_analysis(data, f"{type(exc).__name__}: {exc}")
            return followup.apply(part, text, earlier) if earlier else part

        parts = read_parts(question, analysis, analyze,
                           lambda part, text, before: followup.apply(part, text, earlier + before))
        if parts:
            analysis.parts, analysis.not_used = parts, []
        return analysis

    def _analyse(self, state: RunState) -> None:
        started = state.now_ms()
        data = self.registry.data
        try:
            analysis = analyze_question(state.question, data)
        except Exception as exc:  # the analyzer only adds hints; never fail a question over it
            analysis = failed_analysis(data, f"{type(exc).__name__}: {exc}")
        earlier = [t.analysis for t in state.history or []]
        if earlier:  # a follow-up: places, periods and subjects it leaves out come from earlier turns
            analysis = followup.apply(analysis, state.question, earlier)
        analysis = self._in_parts(state.question, analysis, earlier)
        state.analysis = analysis
        # The gathering grammar admits only the places, years and months the question named (where it named any);
        # without the grammar nothing enforces "no call": the model decides.
        constrain = self.config.question_grammar
        state.allowed_values = argument_values(analysis) if constrain else {}
        state.no_calls_reason = (unanswerable_subjects(analysis, nothing_named=self.model_decides)
                                 if constrain and state.use_grammar else "")
        state.notes = user_notes(analysis)
        state.emit(AnalysisStep(analysis=analysis, no_calls_reason=state.no_calls_reason), started, "analysis_ms")
