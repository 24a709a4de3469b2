"""Conversations: which earlier turns a question continues, checked the same way for the API and the CLI.

A first question (no id) starts a conversation with a new id; a question that sends an id back
continues it, with the earlier turns handed to the orchestrator as its history. The run store keeps
them as JSON; they are typed again here (``EarlierTurn`` with an ``Analysis``), at the edge. An id
that is not 16 lowercase hex characters, an id no run carries and a conversation that already has
``orchestrator.max_conversation_turns`` turns are refused with a ConversationError that says what to
do instead.
"""
from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field

from analyzer.analysis import Analysis
from analyzer.followup import EarlierTurn
from store.run_store import ANY

ID_PATTERN = re.compile(r"[0-9a-f]{16}")


class ConversationError(Exception):
    """A conversation id that cannot be continued; ``status`` is the HTTP status the API answers with."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass
class Turn:
    """The conversation a question belongs to, its turn number and the earlier turns."""

    conversation_id: str
    number: int
    history: list[EarlierTurn] = field(default_factory=list)

    @property
    def is_new(self) -> bool:
        return self.number == 1


def new_id() -> str:
    return secrets.token_hex(8)


def check_id(value) -> str:
    if not isinstance(value, str) or not ID_PATTERN.fullmatch(value):
        raise ConversationError(400, "invalid_conversation_id",
                                "conversation_id must be the 16-character id an earlier answer returned "
                                f"(lowercase hex); got {str(value)[:40]!r}. Leave it out to start a new conversation.")
    return value


def begin_turn(store, conversation_id, max_turns: int, owner=ANY) -> Turn:
    """The turn a question is about to take: a new conversation without an id, else the next turn of that one.
    With ``owner`` (a client's token hash), only that client's conversation can be continued: another client's
    is "not found", the same as one that does not exist."""
    if conversation_id is None:
        return Turn(new_id(), 1)
    conversation_id = check_id(conversation_id)
    history = store.conversation_turns(conversation_id, owner=owner)
    if not history:
        raise ConversationError(404, "conversation_not_found",
                                f"no conversation with id {conversation_id!r}; leave conversation_id out to start one")
    if len(history) >= max_turns:
        raise ConversationError(409, "conversation_full",
                                f"this conversation has reached its limit of {max_turns} turns; start a new "
                                "conversation (ask without a conversation_id) to go on")
    return Turn(conversation_id, len(history) + 1, [earlier_turn(row) for row in history])


def earlier_turn(row: dict) -> EarlierTurn:
    """A stored turn (RunStore.conversation_turns) as the orchestrator reads it."""
    try:
        analysis = Analysis.from_dict(row["analysis"])
    except (TypeError, ValueError, KeyError, AttributeError):
        # Stored by a version whose analysis had another shape: the turn still counts and is summarised in the
        # prompt, but nothing is carried from it (better than refusing the whole conversation).
        analysis = Analysis.from_dict({})
    return EarlierTurn(turn=int(row["turn"]), question=row["question"] or "", answer=row["answer"] or "",
                       analysis=analysis)
