"""Canned replies, for tests, benchmarks and load tests."""
from __future__ import annotations

import re
import time

from backends.base import Backend, Generation, GenerationRequest, register_backend
from settings.schema import Settings


@register_backend
class ScriptedBackend(Backend):
    """Replies from a queue (strings, or callables taking the request); records every request.

    With an empty queue it behaves as a tiny deterministic model: the first gather pass asks
    for the year breakdown of homicides, later passes stop, and synthesis quotes the results.
    """

    name = "scripted"
    is_language_model = False  # canned replies: shown no draft, so tests see exactly the replies they queue

    def __init__(self, replies=None, delay: float = 0.0, queue_size: int = 8, token_delay: float = 0.0):
        super().__init__(queue_size)
        self.replies = list(replies or [])
        self.delay = delay
        self.token_delay = token_delay  # > 0: the reply is handed to on_token word by word, like a real model
        self.requests: list[GenerationRequest] = []
        self.selection_reason = "scripted replies (tests and benchmarks)"

    @classmethod
    def from_settings(cls, settings: Settings) -> "ScriptedBackend":
        return cls(delay=settings.model.scripted_delay_seconds, queue_size=settings.model.queue_size)

    def enqueue(self, *replies) -> "ScriptedBackend":
        self.replies.extend(replies)
        return self

    def info(self) -> dict:
        return {**super().info(), "model": "scripted", "chat_format": None}

    def _generate(self, request: GenerationRequest) -> Generation:
        self.requests.append(request)
        if self.delay:
            time.sleep(self.delay)
        if self.replies:
            reply = self.replies.pop(0)
            text = reply(request) if callable(reply) else str(reply)
        else:
            text = self._default_reply(request)
        if request.on_token and self.token_delay > 0:
            for piece in re.findall(r"\S+\s*|\s+", text):
                time.sleep(self.token_delay)
                request.on_token(piece)
        elif request.on_token:
            request.on_token(text)
        prompt_tokens = self.count_message_tokens(request.messages)
        return Generation(text=text, prompt_tokens=prompt_tokens, evaluated_tokens=prompt_tokens,
                          completion_tokens=self.count_tokens(text))

    @staticmethod
    def _default_reply(request: GenerationRequest) -> str:
        if request.phase == "gather":
            if any(m["role"] == "assistant" for m in request.messages):
                return "I have enough data."
            return 'TOOL_CALL: {"name": "query_homicides_advanced", "arguments": {"group_by": "year"}}'
        return " ".join(result_summaries(request.messages)) or "I could not find data for that question."


SOURCE_LINE = re.compile(r"^\[Source \d+: [^\]]*\] \w+\(.*?\) - (.+)$", re.M)


def result_summaries(messages: list) -> list[str]:
    """The result summaries a synthesis request lists ("[Source N: label] call(args) - summary"), in order."""
    for message in reversed(messages):  # a strict rewrite's request follows the synthesis request
        found = SOURCE_LINE.findall(message["content"]) if message["role"] == "user" else []
        if found:
            return [summary.split("; rows: ")[0].strip() for summary in found]  # the listed rows follow
    return []
