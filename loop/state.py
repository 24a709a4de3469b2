"""What one run knows: its question and limits, the steps so far, the calls made, the answer, and why it stopped.

The phases (loop/gathering.py, loop/synthesis.py, loop/answer_check.py) read and update a RunState; the
decisions between them (loop/decisions.py) are pure functions of it. Every finished step goes through
``emit``, which numbers and times it, adds it to the trace and hands it to the stream, if there is one.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Callable

from analyzer.analysis import Analysis
from loop.steps import ModelPassStep, Step, ToolCallStep

TIMING_KEYS = ("analysis_ms", "model_ms", "tools_ms", "synthesis_ms", "grounding_ms")


class StopReason(StrEnum):
    """Why gathering ended (``stopped_because`` in the result)."""

    MODEL_DONE = "model_done"  # a pass asked for no call
    MAX_TOOL_CALLS = "max_tool_calls"  # the call cap (or the pass cap) was reached
    TIMEOUT = "timeout"  # the deadline passed
    ERROR = "error"  # a model pass failed
    DUPLICATE_CALL = "duplicate_call"  # the model only repeated calls already made
    PLAN_COMPLETE = "plan_complete"  # every call of the question's reading has run
    NO_DATA_NEEDED = "no_data_needed"  # no tool applies to what the question asks


@dataclass
class AnswerTokens:
    """Answer text as the model writes it (stream only; not a trace step). ``restart``: a strict re-synthesis
    begins, so the text shown so far is to be replaced."""

    text: str
    strict: bool = False
    restart: bool = False


@dataclass
class RunState:
    question: str
    max_calls: int
    use_grammar: bool
    deadline: float
    t0: float
    earlier: str = ""  # the summary of earlier conversation turns, made once (every prompt starts the same)
    history: list = field(default_factory=list)
    backend_info: dict = field(default_factory=dict)
    analysis: Analysis | None = None
    trace: list[Step] = field(default_factory=list)
    passes: list[ModelPassStep] = field(default_factory=list)
    calls: list[ToolCallStep] = field(default_factory=list)
    seen: dict = field(default_factory=dict)  # call key -> the step that ran it
    answer: str = ""
    stop: StopReason = StopReason.MODEL_DONE
    partial: bool = False
    used_fallback: bool = False  # the answer was built from result summaries, without the model
    used_planner_answer: bool = False  # the planner's answer replaced a model answer (unbacked, or no sentence)
    synthesis_request: list = field(default_factory=list)  # the synthesis messages, reused by the answer check
    ungrounded: list = field(default_factory=list)
    loop_caveats: list = field(default_factory=list)
    timings: dict = field(default_factory=lambda: dict.fromkeys(TIMING_KEYS, 0.0))
    allowed_values: dict = field(default_factory=dict)  # argument -> values the question allows (question grammar)
    allowed_tools: list = field(default_factory=list)  # the tools of the question's data domains ([] = all)
    no_calls_reason: str = ""  # the question asks only about what no tool has: no call is admitted
    calls_left_out: int = 0  # the reading's calls the call limit left unrun (the answer says it is incomplete)
    reader_ran: bool = False  # model_calls "gaps": the reading covered the question; its calls ran, no model pass
    query_pass: bool = False  # "gaps", the reading fell short: the model was asked for one query (loop/query_pass.py)
    coverage_gaps: list = field(default_factory=list)  # what the reader's answer left uncomputed (the model's cue)
    reader_answer: str = ""  # the planner's answer from the reading's own calls, shown to the query writer
    planner_text: str | None = None  # the planner's answer from the drafted calls, once per run (answer_check)
    model_reading: object = None  # the ToolCallStep of the model's query that ran (ok), if any
    reading_calls: list = field(default_factory=list)  # the reading's next calls: [(name, arguments)]
    reading_tools: set = field(default_factory=set)  # every tool the reading has called for in this run
    notes: list = field(default_factory=list)  # what the answer must tell the user (analyzer/notes.py)
    key_lines: list = field(default_factory=list)  # the result lines the synthesis request named
    sink: Callable | None = None  # receives each step and AnswerTokens as they happen (streaming)
    cancelled: bool = False  # the stream's reader went away: no further model pass is started

    @classmethod
    def start(cls, question: str, limits: dict, received: float | None = None, **fields) -> "RunState":
        # The time limit counts from when the server had the request (``received``, time.monotonic()), so time
        # spent waiting for a thread is part of it rather than added to it.
        t0 = time.monotonic() if received is None else received
        return cls(question=question, max_calls=limits["max_tool_calls"], use_grammar=limits["grammar"],
                   deadline=t0 + limits["timeout_seconds"], t0=t0, **fields)

    def now_ms(self) -> float:
        return round((time.monotonic() - self.t0) * 1000, 3)

    def time_left(self) -> float:
        return self.deadline - time.monotonic()

    def emit(self, step: Step, started_ms: float, timing: str | None = None) -> Step:
        step.index, step.started_ms = len(self.trace), started_ms
        step.duration_ms = round(self.now_ms() - started_ms, 3)
        if timing:
            self.timings[timing] += step.duration_ms
        self.trace.append(step)
        if self.sink:
            self.sink(step)
        return step

    def calls_used(self) -> int:
        """Calls counted against the cap: the ones that ran (ok or error). A refused repeat runs nothing; counting
        it left a model that repeated itself twice no call for the next link of a chained question."""
        return sum(step.status in ("ok", "error") for step in self.calls)

    def calls_left(self) -> int:
        return self.max_calls - self.calls_used()

    def ran_calls(self) -> list[ToolCallStep]:
        """Calls whose tool ran, in order: what the model, the planner and the grounding check read."""
        return [s for s in self.calls if s.ran]

    def sourced_calls(self) -> list[ToolCallStep]:
        return [s for s in self.calls if s.source]

    def all_calls_ok(self) -> bool:
        return all(step.status in ("ok", "duplicate") for step in self.calls)
