"""One model pass: the prompt rebuilt from the run's steps, fitted to the context window, sent to the backend.

Prompts only ever grow by appending (llama.cpp then reuses its KV cache), except when results must be
trimmed to fit the context window: the earliest results are summarised first, then dropped.
"""
from __future__ import annotations

from dataclasses import dataclass

import prompt_registry as prompts
from backends.base import BackendBusy, Generation, GenerationCancelled, GenerationRequest
from loop.context import RunContext
from loop.state import AnswerTokens, RunState
from loop.steps import ErrorStep, TrimStep


class RunCancelled(GenerationCancelled):
    """The stream's reader went away: no further model pass is started, and a pass writing the answer stops at
    its next token (the backend then lets the model go: the next question need not wait for it)."""


@dataclass
class PassOutcome:
    generation: Generation
    prompt_tokens: int
    started_ms: float

    @property
    def text(self) -> str:
        return self.generation.text


def messages(state: RunState, ctx: RunContext) -> list:
    user = prompts.question_message(state.question, state.analysis.hint_text, state.earlier)
    user += f"\nYou may make up to {state.max_calls} tool call(s)."
    out = [{"role": "system", "content": ctx.system_prompt}, {"role": "user", "content": user}]
    for step in state.passes:
        out += step.to_messages()
    return out


def fit(state: RunState, ctx: RunContext, extra: list) -> tuple:
    """Messages within n_ctx minus the reply reserve, trimming the earliest results if needed."""
    count = ctx.backend.count_message_tokens
    budget = int(ctx.backend.n_ctx) - ctx.config.reply_reserve
    if extra and extra[0].get("role") == "system":  # a small synthesis or a query pass is its whole prompt
        tokens = count(extra)
        return extra, tokens, None, tokens <= budget
    prompt = messages(state, ctx) + extra
    tokens = before = count(prompt)
    trim = None
    for action, level, before_levels in (("summarized", "summary", ("full",)),
                                         ("dropped", "dropped", ("full", "summary"))):
        for step in (s for s in state.calls if s.status == "ok"):
            if tokens <= budget:
                break
            if step.render_level in before_levels:
                step.shorten(level)
                trim = trim or TrimStep(budget=budget, prompt_tokens_before=before)
                trim.trimmed.append({"call": step.call, "source": step.source, "name": step.name, "action": action})
                prompt = messages(state, ctx) + extra
                tokens = count(prompt)
    if trim:
        trim.prompt_tokens_after = tokens
    return prompt, tokens, trim, tokens <= budget


def generate(state: RunState, ctx: RunContext, phase: str, extra: list, grammar: str | None = None,
             strict: bool = False, append: bool = False) -> PassOutcome | None:
    """Run one pass; None when it failed (an error step says why). Synthesis text goes to the stream as written:
    an added sentence continues the text shown, a rewrite replaces it."""
    if state.cancelled:
        raise RunCancelled()
    started = state.now_ms()
    prompt, tokens, trim, fits = fit(state, ctx, extra)
    if trim:
        state.emit(trim, started)
        state.loop_caveats.append("Some earlier results were shortened to fit the model's context window.")
    if not fits:
        state.emit(ErrorStep(phase=phase, error_type="ContextOverflow", message=(
            f"the prompt needs {tokens} tokens but only {ctx.backend.n_ctx - ctx.config.reply_reserve} fit")), started)
        return None
    request = GenerationRequest(
        messages=prompt, phase=phase, max_tokens=min(ctx.config.max_tokens, ctx.backend.n_ctx - tokens),
        grammar=grammar, tools=ctx.registry.prompt_schemas() if phase == "gather" and state.use_grammar else [],
        deadline=state.deadline, remaining_calls=max(0, state.calls_left()))
    if phase == "synthesis" and state.sink:
        request.on_token = _token_relay(state, strict, append)
    try:
        generation = ctx.backend.generate(request)
    except GenerationCancelled:
        raise RunCancelled() from None
    except BackendBusy as exc:
        if all(p.phase == "reader" for p in state.passes):
            # No model pass has run (the reading's calls took milliseconds): the caller answers "busy, retry" (503
            # with Retry-After), as for any question the model could not start.
            raise
        # A question the model already worked on keeps what it gathered, as when its time runs out.
        state.emit(ErrorStep(phase=phase, error_type="BackendBusy", message=str(exc)), started)
        return None
    except Exception as exc:  # a failing model pass ends the loop; the answer uses what we have
        state.emit(ErrorStep(phase=phase, error_type=type(exc).__name__, message=str(exc)), started)
        return None
    return PassOutcome(generation, tokens, started)


def _token_relay(state: RunState, strict: bool, append: bool):
    first = [True]

    def relay(piece: str) -> None:
        if state.cancelled:  # checked per token: a reader gone mid-answer frees the model at once
            raise RunCancelled()
        if piece:
            state.sink(AnswerTokens((" " + piece) if append and first[0] else piece, strict=strict,
                                    restart=strict and first[0] and not append))
            first[0] = False
    return relay


def out_of_time(state: RunState, generation: Generation) -> bool:
    return generation.finish_reason == "deadline" or state.time_left() <= 0
