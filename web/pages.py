"""HTML pages: the question page and the /runs/<id> permalink (same template and renderer)."""
from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template, request

from assembly.version import VERSION
from web import access

bp = Blueprint("pages", __name__)

EXAMPLES = [
    "How many homicides were there in Chicago each year?",
    "Which community areas had the most homicides in 2023?",
    "How have home values changed in Logan Square?",
    "Compare per capita income in Hyde Park and Englewood.",
    "What share of homicides were domestic in 2022?",
]


def _page(run_id: str | None):
    settings = current_app.config["CHIQA_SETTINGS"]
    return render_template(
        "index.html", run_id=run_id, examples=EXAMPLES, version=VERSION,
        max_question_chars=settings.server.max_question_chars,
        max_turns=settings.orchestrator.max_conversation_turns,
    )


@bp.get("/")
def index():
    return _page(None)


@bp.get("/runs/<run_id>")
def run_page(run_id: str):
    # Only the run's owner, or whoever holds its permalink (?key=<share key>); anyone else: not found.
    run = current_app.extensions["chiqa_store"].get(run_id)
    if run is None or not access.can_read(run, request.args.get("key")):
        abort(404)
    return _page(run_id)
