"""The ``ask`` command: run one question and print the answer with a compact trace (or JSON).

``render_text(result)`` turns a RunResult dict into the plain-text rendering; the web page and the
API render the same dict their own way. Every answer is stored in the run store (``store.url``; by default
var_dir/runs.sqlite3) as a turn of a conversation, like the web's: ``--continue`` asks a follow-up in the last
conversation, ``--conversation ID`` in a given one.
"""
from __future__ import annotations

import contextlib
import json
import math
import re
import sys

from assembly.answering import AskError, answer, ask_errors, check_question
from assembly.services import build_services
from settings.loader import SettingsError, with_overrides
from settings.schema import Settings
from store.run_store import RunStore, open_store

# Exit codes: 0 an answer; 2 bad input, settings or data (nothing was answered); 3 the model failed
# during the question (the partial answer is still printed, and the cause under "error").
EXIT_OK, EXIT_BAD_INPUT, EXIT_MODEL_FAILED = 0, 2, 3
# What a terminal would act on rather than show: ANSI/VT escape sequences (CSI, OSC, ...) and every other
# C0/C1 control character except newline and tab (NUL, BEL, backspace, carriage return, DEL, ...).
ESCAPE_SEQUENCE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves, clearing
                             r"|\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC: window title, hyperlinks
                             r"|[@-Z\\-_])"  # any other two-byte sequence
                             r"|\x9b[0-?]*[ -/]*[@-~]")  # CSI in its one-byte C1 form
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def terminal_safe(text: str) -> str:
    """``text`` with escape sequences and control characters removed (newline and tab kept): what the CLI prints
    from a model or a tool result is shown, never obeyed by the terminal."""
    return CONTROL.sub("", ESCAPE_SEQUENCE.sub("", str(text)))

ASK_OVERRIDES = (("backend", "model.backend"), ("model", "model.path"),
                 ("max_tool_calls", "orchestrator.max_tool_calls"), ("timeout", "orchestrator.timeout_seconds"))


def _fmt_args(arguments: dict | None) -> str:
    return ", ".join(f"{k}={json.dumps(v, default=str)}" for k, v in (arguments or {}).items())


def _ms(value) -> str:
    return f"{value:.0f} ms" if value >= 10 else f"{value:.1f} ms"


def render_step(step: dict) -> str:
    """One line per trace step: type, what it did, status, time, tokens."""
    kind = step.get("type")
    head = f"{step.get('index', 0):>3} {kind:<10} {_ms(step.get('duration_ms', 0)):>8}  "
    if kind == "analysis":
        analysis = step.get("analysis") or {}
        return head + (analysis.get("hint_text") or f"complexity={analysis.get('complexity', '?')}")
    if kind in ("model_pass", "synthesis"):
        tokens = (f"tokens {step.get('prompt_tokens', 0)} prompt ({step.get('evaluated_tokens', 0)} evaluated), "
                  f"{step.get('completion_tokens', 0)} out")
        if kind == "model_pass":
            calls = ", ".join(c.get("name", "?") for c in step.get("parsed_calls") or []) or "no call"
            if step.get("phase") == "query":
                return head + f"the model's query {step.get('pass')}: {calls}; {tokens}; {step.get('finish_reason')}"
            if step.get("phase") == "reader":
                return head + f"reading's calls {step.get('pass')}: {calls}; no model pass (the reading used every word)"
            errors = f"; {len(step['parse_errors'])} unreadable" if step.get("parse_errors") else ""
            return head + f"pass {step.get('pass')}: {calls}{errors}; {tokens}; {step.get('finish_reason')}"
        if step.get("planner_answer"):
            return head + f"the rule planner's answer ({step.get('finish_reason')})"
        if step.get("fallback"):
            return head + "fallback answer from the result summaries"
        return head + ("strict " if step.get("strict") else "") + f"answer; {tokens}; {step.get('finish_reason')}"
    if kind == "tool_call":
        origin = {"draft": " [planner's draft]", "model": " [model's own]", "reader": " [the reading's]"}.get(step.get("origin"), "")
        line = head + f"#{step.get('call')} {step.get('name')}({_fmt_args(step.get('arguments'))}) {step.get('status')}{origin}"
        detail = step.get("result_summary") if step.get("status") == "ok" else step.get("error")
        return line + (f": {detail}" if detail else "")
    if kind == "trim":
        parts = [f"{t['action']} #{t['call']} {t['name']}" for t in step.get("trimmed") or []]
        return head + f"{'; '.join(parts)} ({step.get('prompt_tokens_before')} -> {step.get('prompt_tokens_after')} tokens)"
    if kind == "grounding":
        unmatched = step.get("unmatched") or []
        form = step.get("form_problems") or []
        return head + (f"{len(step.get('checked') or [])} numbers checked; "
                       + (f"unmatched: {', '.join(unmatched)}" if unmatched else "all matched")
                       + (f"; not read as an answer: {'; '.join(form)}" if form else ""))
    if kind == "notes":
        added = step.get("added") or []
        return head + (f"{len(added)} of {len(step.get('notes') or [])} notes added to the answer (it left them out)"
                       if added else f"{len(step.get('notes') or [])} notes, all stated in the answer")
    if kind == "error":
        return head + f"{step.get('phase')}: {step.get('error_type')}: {step.get('message')}"
    if kind == "reading":
        agreed = {True: "the same figures", False: "different figures", None: "nothing to compare"}[step.get("agreed")]
        query = f"; the model's query: {step.get('read_as')}" if step.get("read_as") else ""
        return head + f"the reading fell short; answered by: {step.get('ran')}{query}; {agreed}"
    return head


def render_text(result: dict) -> str:
    """The answer; its sources, caveats and ungrounded numbers once, right after it; the conversation; then the
    trace one line per step and the stop reason."""
    reading = (result.get("reading") or {}).get("line")
    lines = ([reading, ""] if reading else []) + [result.get("answer") or "(no answer)"]
    if result.get("partial"):
        lines.append("(partial answer)")
    lines.append("")
    if result.get("sources"):
        lines.append("Sources:")
        for source in result["sources"]:
            coverage = source.get("coverage") or {}
            span = f", {coverage.get('start')} to {coverage.get('end')}" if coverage.get("start") else ""
            lines.append(f"  - {source.get('dataset')} ({source.get('portal_id') or source.get('publisher')}{span})")
    if result.get("caveats"):
        lines.append("Caveats:")
        lines += [f"  - {caveat}" for caveat in result["caveats"]]
    if result.get("ungrounded_numbers"):
        lines.append("Ungrounded numbers: " + ", ".join(result["ungrounded_numbers"]))
    if result.get("saved") is False:
        lines.append(f"Not stored in the run history: {result.get('save_error')}")
    elif result.get("conversation_id"):
        lines.append(f"Conversation {result['conversation_id']}, turn {result.get('turn')}; run "
                     f"{result.get('run_id')}. Ask a follow-up with: ask --continue \"...\"")
    lines += ["", "Trace:"]
    lines += ["  " + render_step(step) for step in result.get("trace") or []]
    timings = result.get("timings") or {}
    backend = result.get("backend") or {}
    lines.append(f"Stopped because: {result.get('stopped_because')}; {len(result.get('tool_calls') or [])} tool "
                 f"call(s); total {_ms(timings.get('total_ms', 0))}; backend {backend.get('backend')}"
                 + (f" ({result['model']})" if result.get("model") else "")
                 + (f", sha256 {str(backend['sha256'])[:12]}" if backend.get("sha256") else "")
                 + f"; prompts {result.get('prompt_version')}")
    return "\n".join(lines)


def report_error(args, code: str, message: str) -> int:
    """The CLI's one error shape: the API's JSON error object with --json, else a line on stderr; exit code 2."""
    message = " ".join(terminal_safe(message).split())  # one line, whatever the cause's text holds
    if getattr(args, "json", False):
        print(json.dumps({"ok": False, "error": {"code": code, "message": message}}))
    else:
        print(f"error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _conversation_id(args, store: RunStore):
    """None for a new conversation; ``--conversation ID``; ``--continue``: the last conversation."""
    if not getattr(args, "continue_conversation", False):
        return getattr(args, "conversation", None)
    conversation_id = store.last_conversation_id()
    if conversation_id is None:
        raise AskError(404, "no_conversation", "there is no earlier conversation to continue; "
                                               "ask a question without --continue first")
    return conversation_id


def run_ask(args, settings: Settings) -> int:
    """The ``ask`` command. Exit 0 on an answer, 2 on bad input or setup (never a stack trace), 3 when the
    model failed during the question (the partial answer is printed all the same)."""
    try:
        question = check_question(args.question, settings.server.max_question_chars)
    except AskError as exc:
        return report_error(args, exc.code, exc.message)
    overrides = {}
    for attr, dotted in ASK_OVERRIDES:
        value = getattr(args, attr, None)
        if value is None:
            continue
        # NaN compares false with everything, so "< 1" alone would let --timeout nan switch the deadline off.
        if attr in ("max_tool_calls", "timeout") and ((isinstance(value, float) and not math.isfinite(value))
                                                      or value < 1):
            return report_error(args, "invalid_options",
                                f"--{attr.replace('_', '-')} must be a finite number of at least 1, got {value:g}")
        overrides[dotted] = value
    try:
        settings = with_overrides(settings, overrides)
    except SettingsError as exc:
        return report_error(args, "invalid_options", str(exc))
    built = []

    def orchestrator():
        built.append(build_services(settings))
        return built[-1].orchestrator

    try:
        with contextlib.redirect_stdout(sys.stderr):  # with --json, stdout carries only the result
            store = open_store(settings)
            with ask_errors():
                conversation_id = _conversation_id(args, store)
            result = answer(orchestrator, store, question, None, conversation_id,
                            settings.orchestrator.max_conversation_turns)
    except AskError as exc:
        return report_error(args, exc.code, exc.message)
    except SettingsError as exc:  # store.url names no database ChiQA can use
        return report_error(args, "invalid_settings", str(exc))
    except Exception as exc:  # the CLI never shows a stack trace
        return report_error(args, "internal_error", f"{type(exc).__name__}: {exc}")
    finally:
        for services in built:
            services.close()
    if not result.get("saved"):
        print(f"warning: the answer was not stored: {result.get('save_error')}", file=sys.stderr)
    if getattr(args, "json", False):
        print(json.dumps(result, indent=2, default=str))
    else:
        print(terminal_safe(render_text(result)))
    error = result.get("error")
    if error:
        print(terminal_safe(f"error: the model failed during the question ({error.get('type')}: "
                            f"{error.get('message')}); the answer above is partial"), file=sys.stderr)
        return EXIT_MODEL_FAILED
    return EXIT_OK
