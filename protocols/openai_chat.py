"""OpenAI chat completions, ChiQA's way: parse a request into one question, render an answer as completion objects.

No Flask here (web/openai_compat.py serves it), so the formats are testable on their own.

What a request may carry:
- ``model``: one of MODELS. Both run the same loop; they differ only in how the tool calls show in the
  visible text. Any other name is refused (404 model_not_found), as OpenAI does, rather than silently
  answered by something the client did not ask for.
- ``messages``: the question is the last ``user`` message (text, or text parts). Earlier messages are
  accepted and ignored: every question is answered on its own, so a follow-up must restate what it
  refers to. System prompts are ignored too (ChiQA's prompt is its own).
- ``stream``, ``stream_options.include_usage`` (booleans); ``n`` must be 1. Sampling fields (temperature, ...),
  ``tools`` and ``response_format`` are accepted and ignored, the numeric ones only when they are finite numbers
  (no NaN or infinity anywhere in the body).
- ``chiqa``: ChiQA's per-question options, e.g. {"max_tool_calls": 2} (the same as /api/ask's options).

Visible text: the model's answer is HTML-escaped (never markup from a model) and its Markdown link and image
syntax is made inert (brackets and bare-URL schemes as character references), so a chat client neither fetches
an image URL nor shows a link the model wrote; the only markup and the only link are ours.
With ``chiqa`` each tool call is an Open WebUI tool-call block (``<details type="tool_calls" ...>``, the
attributes Open WebUI itself writes: name, arguments and result as HTML-escaped JSON strings) that
Open WebUI shows collapsed; ``chiqa-text`` lists the calls as plain lines for terminal clients.
"""
from __future__ import annotations

import html
import json
import math
import re
from dataclasses import dataclass, field

from protocols.trace import tool_call_view

MODELS = {
    "chiqa": "ChiQA: answer with each tool call as an Open WebUI collapsible tool-call block",
    "chiqa-text": "ChiQA: answer with the tool calls listed as plain text (terminal clients such as llm)",
}
OWNER = "chiqa"
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
ROLES = {"system", "developer", "user", "assistant", "tool", "function"}


class ChatRequestError(ValueError):
    """A request ChiQA cannot answer; status, code and param follow OpenAI's error format."""

    def __init__(self, status: int, code: str, message: str, param: str | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.param = status, code, message, param


@dataclass
class ChatRequest:
    model: str
    question: str
    stream: bool = False
    include_usage: bool = False
    options: dict = field(default_factory=dict)
    ignored_messages: int = 0  # earlier messages, not used (see the module docstring)


def model_card(model_id: str, created: int) -> dict:
    return {"id": model_id, "object": "model", "created": created, "owned_by": OWNER,
            "description": MODELS[model_id]}


def check_model(model) -> str:
    if not isinstance(model, str) or not model.strip():
        raise ChatRequestError(400, "missing_model", 'the body needs a "model" string, e.g. "chiqa"', "model")
    if model not in MODELS:
        raise ChatRequestError(404, "model_not_found",
                               f"the model {model!r} does not exist; use one of: {', '.join(MODELS)}", "model")
    return model


def _message_text(message: dict, index: int) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = []
        for part in content:
            if isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str):
                texts.append(part["text"])
            else:
                kind = part.get("type") if isinstance(part, dict) else type(part).__name__
                raise ChatRequestError(400, "unsupported_content",
                                       f"messages[{index}] has a {kind!r} part; ChiQA reads text only",
                                       f"messages[{index}].content")
        return "\n".join(texts)
    raise ChatRequestError(400, "invalid_content", f"messages[{index}].content must be text or a list of text parts",
                           f"messages[{index}].content")


# Sampling fields are ignored, but only when they are what OpenAI documents (numbers): "temperature": NaN or "0.2"
# answered with 200 would tell the client its value was taken.
NUMBER_FIELDS = ("temperature", "top_p", "presence_penalty", "frequency_penalty", "max_tokens",
                 "max_completion_tokens", "seed", "top_logprobs")


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _shown(value) -> str:
    """A short rendering of a bad value: a scalar as JSON, a list or object by its kind (it may nest deeply)."""
    if isinstance(value, (list, dict)):
        return "an array" if isinstance(value, list) else "an object"
    return json.dumps(value)[:40]


def _non_finite(body):
    """The path of the first NaN or infinity anywhere in the body (Python's JSON reader takes NaN and Infinity),
    or None. A walk with a stack: the body may nest hundreds of levels."""
    stack = [(body, "")]
    while stack:
        node, path = stack.pop()
        if isinstance(node, float) and not math.isfinite(node):
            return path or "body"
        if isinstance(node, dict):
            stack.extend((v, f"{path}.{k}" if path else str(k)) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(node))
    return None


def check_values(body: dict) -> None:
    """400 for a documented number field that is not a finite number, and for NaN or infinity anywhere."""
    for name in NUMBER_FIELDS:
        value = body.get(name)
        if value is not None and (not _is_number(value) or (isinstance(value, float) and not math.isfinite(value))):
            raise ChatRequestError(400, f"invalid_{name}", f'"{name}" must be a finite number, not '
                                   f"{_shown(value)}", name)
    path = _non_finite(body)
    if path is not None:
        raise ChatRequestError(400, "invalid_number", f"{path} is NaN or infinite; send a finite number",
                               path.split(".")[0].split("[")[0])


def parse_chat_request(body: dict, max_question_chars: int) -> ChatRequest:
    model = check_model(body.get("model"))
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise ChatRequestError(400, "missing_messages", 'the body needs a non-empty "messages" list', "messages")
    last_user = None
    for index, message in enumerate(messages):
        if not isinstance(message, dict) or message.get("role") not in ROLES:
            raise ChatRequestError(400, "invalid_message",
                                   f"messages[{index}] must be an object with a role ({', '.join(sorted(ROLES))})",
                                   f"messages[{index}]")
        if message["role"] == "user":
            last_user = index
    if last_user is None:
        raise ChatRequestError(400, "missing_question", "the messages hold no user message to answer", "messages")
    question = _message_text(messages[last_user], last_user).strip()
    if not question:
        raise ChatRequestError(400, "empty_question", "the last user message is empty", "messages")
    if len(question) > max_question_chars:
        raise ChatRequestError(400, "question_too_long", f"the question has {len(question)} characters; "
                               f"the limit is {max_question_chars}", "messages")
    stream = body.get("stream", False)
    if not isinstance(stream, bool) and stream is not None:
        raise ChatRequestError(400, "invalid_stream", '"stream" must be true or false', "stream")
    n = body.get("n", 1)
    if isinstance(n, (bool, str)):  # true == 1 and "1" are not the integer 1
        raise ChatRequestError(400, "invalid_n", f'"n" must be the integer 1, not a {type(n).__name__} '
                               f"({json.dumps(n)})", "n")
    if n is not None and (not isinstance(n, int) or n != 1):
        raise ChatRequestError(400, "unsupported_n", "ChiQA writes one answer per question: n must be 1", "n")
    check_values(body)
    stream_options = body.get("stream_options")
    include_usage = None
    if stream_options is not None:
        if not isinstance(stream_options, dict):
            raise ChatRequestError(400, "invalid_stream_options", '"stream_options" must be an object',
                                   "stream_options")
        include_usage = stream_options.get("include_usage")
        if include_usage is not None and not isinstance(include_usage, bool):
            raise ChatRequestError(400, "invalid_stream_options", '"stream_options.include_usage" must be true '
                                   f"or false, not {_shown(include_usage)}", "stream_options")
    options = body.get("chiqa")
    if options is not None and not isinstance(options, dict):
        raise ChatRequestError(400, "invalid_options", '"chiqa" must be an object of options', "chiqa")
    return ChatRequest(model=model, question=question, stream=bool(stream),
                       include_usage=bool(include_usage),
                       options=dict(options or {}), ignored_messages=len(messages) - 1)


# ---------------------------------------------------------------- visible text

# Markdown a chat client would act on: "[" and "]" (links, images, reference definitions) and the start of an
# autolinked bare URL ("http://", "www."). Character references show the same text but form no syntax.
# (Backslash escapes would not do: Open WebUI reads \[ ... \] and \( ... \) as math.)
_MD_LINK = re.compile(r"[\[\]]|(?<=[A-Za-z0-9]):(?=//)|(?<![A-Za-z0-9.])www\.", re.IGNORECASE)
_MD_REFERENCES = {"[": "&#91;", "]": "&#93;", ":": "&#58;"}


def inert_markdown(text: str) -> str:
    """Model-written text (already HTML-escaped) with its Markdown link and image syntax neutralised."""
    def sub(match):
        found = match.group()
        return _MD_REFERENCES.get(found) or found[:3] + "&#46;"
    return _MD_LINK.sub(sub, text)


def _attr(value) -> str:
    """An attribute value as Open WebUI writes it: JSON text, HTML-escaped (quotes included)."""
    return html.escape(json.dumps(value, ensure_ascii=False), quote=True)


def tool_call_text(call: dict, model: str) -> str:
    """One tool call (a trace step or result["tool_calls"] entry) as visible text, ending with a newline."""
    view = tool_call_view(call)
    arguments = json.dumps(view["arguments"], ensure_ascii=False, sort_keys=True)
    outcome = view["summary"] if view["status"] == "ok" else f"{view['status']}: {view['error'] or view['summary']}"
    if model == "chiqa-text":  # arguments are model-written: inert as the answer is
        name, arguments, outcome = (inert_markdown(html.escape(str(v), quote=False))
                                    for v in (view["name"], arguments, outcome))
        return f"Tool call {view['index']}: {name} {arguments} → {outcome}\n"
    # Open WebUI parses arguments and result as JSON strings holding JSON (its own double encoding).
    call_id = html.escape(f"call_{view['index']}", quote=True)
    return (f'<details type="tool_calls" done="true" id="{call_id}" '
            f'name="{html.escape(view["name"], quote=True)}" arguments="{_attr(arguments)}" '
            f'result="{_attr(outcome)}" files="" embeds="">\n'
            f"<summary>Tool Executed</summary>\n</details>\n")


def answer_text(answer: str, permalink: str | None, model: str, after_calls: bool) -> str:
    """The answer (escaped: a model never writes markup here) and the link to the full trace."""
    text = ("\n" if after_calls else "") + inert_markdown(html.escape(answer or "", quote=False))
    if permalink:
        link = html.escape(permalink, quote=True)
        text += f"\n\nTrace: {link}" if model == "chiqa-text" else f"\n\n[Full trace]({link})"
    return text


def shown_answer(result: dict) -> str:
    """The answer as a reader sees it: the question as read first, then the answer."""
    reading = (result.get("reading") or {}).get("line") if isinstance(result.get("reading"), dict) else None
    answer = result.get("answer") or ""
    return f"{reading}\n\n{answer}" if reading else answer


def visible_text(result: dict, steps: list, permalink: str | None, model: str) -> str:
    calls = "".join(tool_call_text(step, model) for step in steps)
    return calls + answer_text(shown_answer(result), permalink, model, bool(calls))


# ---------------------------------------------------------------- response objects

def completion(completion_id: str, created: int, model: str, content: str, trace: dict, usage: dict) -> dict:
    return {"id": completion_id, "object": "chat.completion", "created": created, "model": model,
            "system_fingerprint": None,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                         "logprobs": None, "finish_reason": "stop"}],
            "usage": usage, "chiqa": trace}


def chunk(completion_id: str, created: int, model: str, delta: dict | None, finish_reason: str | None = None,
          **extra) -> dict:
    choices = [] if delta is None else [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}]
    return {"id": completion_id, "object": "chat.completion.chunk", "created": created, "model": model,
            "system_fingerprint": None, "choices": choices, **extra}


def sse(event: dict | str) -> str:
    data = event if isinstance(event, str) else json.dumps(event, ensure_ascii=False, default=str)
    # A lone UTF-16 surrogate cannot be sent as UTF-8: replaced, so a stream is never cut mid-way by it.
    return f"data: {_LONE_SURROGATE.sub(chr(0xFFFD), data)}\n\n"
