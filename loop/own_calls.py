"""The model's own calls where the planner's reading fell short (setting ``orchestrator.unread_calls``): whether the
model writes them (``none``, ``replace``), whether it is offered one pass to add a call for the unread words after
the draft has run (``add``), the request's block for them, and the note the answer then carries.
"""
from __future__ import annotations

import prompt_registry as prompts
from analyzer.notes import not_used_note, own_calls_note
from loop.context import RunContext
from loop.state import RunState
from toolcall.protocol import format_tool_call


def note_own_calls(state: RunState) -> None:
    """Where the model's own calls stood in for the words the reading missed, the answer says so instead of "the
    figures do not take them into account", which its own calls may have done."""
    unused = state.analysis.not_used if state.analysis is not None else []
    if not ((state.own_calls or state.unread_pass) and unused
            and any(c.origin == "model" and c.status == "ok" for c in state.calls)):
        return
    plain = not_used_note(unused)
    state.notes = [own_calls_note(unused) if note == plain else note for note in state.notes]


def offers_unread_pass(state: RunState, ctx: RunContext) -> bool:
    """``add``: the draft has run and the reading left words unused; one pass, with calls and time left."""
    return (ctx.config.unread_calls == "add" and ctx.model_drafts and bool(state.analysis.not_used)
            and not state.unread_pass and state.calls_left() > 0 and state.time_left() > 0)


def writes_own_calls(state: RunState, ctx: RunContext) -> bool:
    """The model writes the calls itself, not taking a draft: the reading left words unused, or the planner has no
    draft for a question that names data; only under the own-calls settings."""
    analysis = state.analysis
    if not ctx.model_drafts or analysis is None or analysis.error or state.no_calls_reason:
        return False
    if ctx.config.unread_calls not in ("none", "replace"):
        return False
    return bool(analysis.not_used) or not state.draft.calls


def own_calls_text(unused: list, drafted: list, adding: bool = False) -> str:
    """The own-calls block: the partial reading (when there is a draft), the words it left out, and how the tools'
    arguments write the times and exclusions a reading most often misses. ``adding``: the drafts have run, and the
    model may add a call for the words they left out."""
    words = ", ".join(f"'{w}'" for w in unused[:4])
    if adding:
        head = prompts.template("own_calls_add").format(words=words or "part of the question")
    elif drafted:
        head = prompts.template("own_calls_partial").format(
            calls="\n".join(format_tool_call(n, a) for n, a in drafted),
            words=words or "part of the question")
    else:
        head = prompts.template("own_calls_none").format(
            words=f" (it could not use {words})" if words else "")
    return head + "\n" + prompts.template("argument_guide")
