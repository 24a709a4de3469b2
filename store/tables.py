"""The run store's tables, written once for SQLite and PostgreSQL (SQLAlchemy Core).

``runs``: one row per answered run, the full result JSON plus the columns /api/stats and the lists need.
``conversations``: one row per conversation, ``turns`` being the last turn number handed out; save_turn raises it
with one conditional UPDATE, which is what keeps racing follow-ups under the cap on both databases.
``store_version``: one row, the schema version (store/migrations.py).

Times are epoch seconds as double precision (``created_at`` orders the history to the microsecond), the result is
JSON text (read back whole, never queried into), and the booleans are integers so that an existing SQLite file
keeps its column types.
"""
from __future__ import annotations

from sqlalchemy import Column, Double, Index, Integer, MetaData, Table, Text

metadata = MetaData()

runs = Table(
    "runs", metadata,
    Column("id", Text, primary_key=True),
    Column("created_at", Double, nullable=False),
    Column("question", Text, nullable=False),
    Column("latency_ms", Double),
    Column("stopped_because", Text),
    Column("partial", Integer, nullable=False, server_default="0"),
    Column("n_tool_calls", Integer, nullable=False, server_default="0"),
    Column("n_duplicate", Integer, nullable=False, server_default="0"),
    Column("n_error", Integer, nullable=False, server_default="0"),
    Column("backend", Text),
    Column("model", Text),
    Column("answer_pattern", Text),
    Column("result_json", Text, nullable=False),
    Column("rating", Integer),
    Column("comment", Text),
    Column("feedback_at", Double),
    Column("conversation_id", Text),
    Column("turn", Integer),
    Column("owner", Text),  # SHA-256 of the client's token; NULL = nobody's (legacy, CLI and MCP runs)
    Column("share_key", Text),  # the capability a permalink carries
)

# Columns that stores made by earlier versions may lack, with the type they are added as (migration 1).
LATER_COLUMNS = (("conversation_id", "TEXT"), ("turn", "INTEGER"), ("owner", "TEXT"), ("share_key", "TEXT"))

RUNS_CREATED = Index("runs_created", runs.c.created_at.desc())
RUNS_OWNER = Index("runs_owner", runs.c.owner, runs.c.created_at.desc())
# Two runs of one conversation never share a turn number: a constraint, not only the counter below.
RUNS_TURN = Index("runs_conversation_turn", runs.c.conversation_id, runs.c.turn, unique=True)

conversations = Table(
    "conversations", metadata,
    Column("id", Text, primary_key=True),
    Column("turns", Integer, nullable=False),
    Column("created_at", Double, nullable=False),
)

store_version = Table(
    "store_version", metadata,
    Column("version", Integer, nullable=False),
)

# The run columns a summary (lists, permalinks, conversations) reads; result_json only where the result is shown.
SUMMARY_COLUMNS = tuple(c for c in runs.c if c.name not in ("result_json", "feedback_at"))
