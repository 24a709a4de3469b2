"""ChiQA: the Flask application factory and the command line.

    python app.py serve                  # the web app (gunicorn: see gunicorn.conf.py)
    python app.py ask "QUESTION" [--json] [--backend B] [--model PATH] [--max-tool-calls N] [--timeout S]
                                 [--continue | --conversation ID]
    python app.py tool NAME 'JSON' [--json]
    python app.py data refresh [--dataset NAME]
    python app.py data verify [--json]
    python app.py eval [--backend NAME] [--model NAME|PATH]
    python app.py model list | pull NAME | rm NAME
    python app.py mcp [--backend B]      # an MCP server on stdin/stdout (the data tools and `ask`)
    python app.py store migrate [--from PATH] [--to URL] | status   # the run history's database
"""
from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import sys

from flask import Flask

from assembly.services import build_tools
from backends.base import BACKENDS
from cli.ask import report_error, run_ask, terminal_safe
from cli.models import run_model_command
from cli.store_command import run_store_command
from evals.runner import run_eval_command
from protocols.mcp_server import serve_stdio
from settings.loader import DataNotFoundError, SettingsError, load_settings
from store.startup import prepare_store
from tools.data.checksums import run_verify_command
from tools.data.integrity import DataIntegrityError
from tools.refresh.command import run_refresh_command
from web.factory import register_web

BACKEND_CHOICES = ["auto", *sorted(BACKENDS)]  # the providers register themselves (llama_client.py)


def create_app(test_config: dict | None = None):
    """Build the Flask app. Nothing heavy happens here: data and model load on first use."""
    config = dict(test_config or {})  # a copy: the caller's mapping is never changed
    overrides = config.pop("SETTINGS_OVERRIDES", None)
    app = Flask(__name__, template_folder="templates", static_folder="static")
    app.config.from_mapping(CHIQA_SETTINGS=load_settings(overrides=overrides), MAX_CONTENT_LENGTH=None)
    app.config.update(config)
    register_web(app)
    return app


# ---------------------------------------------------------------- CLI commands

def cmd_tool(args, settings) -> int:
    try:
        arguments = json.loads(args.arguments or "{}")
    except json.JSONDecodeError as exc:
        return report_error(args, "invalid_json", f"arguments are not valid JSON: {exc.msg} at position {exc.pos}")
    except RecursionError:
        return report_error(args, "invalid_json", "arguments nest arrays or objects too deeply")
    except ValueError as exc:  # e.g. an integer past Python's 4,300-digit conversion limit
        return report_error(args, "invalid_json", f"arguments hold a value that cannot be read: {exc}")
    registry = build_tools(settings)
    result = registry.run(args.name, arguments)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2, default=str))
    else:  # a result's text is shown, never obeyed by the terminal (no escape sequences or control bytes)
        print(terminal_safe(result.text))
        if result.caveats:
            print(terminal_safe("\nCaveats:\n" + "\n".join(f"- {c}" for c in result.caveats)))
        if result.sources:
            print(terminal_safe("\nSources:\n" + "\n".join(
                f"- {s['dataset']} ({s.get('portal_id') or s.get('publisher')})" for s in result.sources)))
    return 0 if result.ok else 2


def cmd_ask(args, settings) -> int:
    return run_ask(args, settings)


def cmd_data(args, settings) -> int:
    if args.data_command == "verify":
        return run_verify_command(args, settings)
    return run_refresh_command(args, settings)


def cmd_model(args, settings) -> int:
    return run_model_command(args, settings)


def cmd_eval(args, settings) -> int:
    return run_eval_command(args, settings)


def cmd_mcp(args, settings) -> int:
    return serve_stdio(settings, args.backend)


def cmd_store(args, settings) -> int:
    return run_store_command(args, settings)


def cmd_serve(args, settings) -> int:
    print(prepare_store(settings), file=sys.stderr)  # pending migrations now, or one line and exit 2
    app = create_app({"SETTINGS_OVERRIDES": {"model.backend": args.backend}} if args.backend else None)
    host = args.host or settings.server.host
    port = args.port or settings.server.port
    print(f"ChiQA on http://{host}:{port}/", file=sys.stderr)
    app.run(host=host, port=port, threaded=True)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="app.py", description="ChiQA: questions about Chicago public data")
    parser.add_argument("--config", help="path to config.yaml")
    sub = parser.add_subparsers(dest="command", required=True)

    ask = sub.add_parser("ask", help="answer one question and print the answer and trace")
    ask.add_argument("question")
    ask.add_argument("--json", action="store_true", help="print the whole result object as JSON")
    ask.add_argument("--backend", choices=BACKEND_CHOICES)
    ask.add_argument("--model", help="a catalogue model name or a GGUF path")
    ask.add_argument("--max-tool-calls", type=int)
    ask.add_argument("--timeout", type=float, help="seconds for the whole question")
    follow = ask.add_mutually_exclusive_group()
    follow.add_argument("--continue", dest="continue_conversation", action="store_true",
                        help="a follow-up question in the last conversation")
    follow.add_argument("--conversation", metavar="ID", help="a follow-up question in this conversation")
    ask.set_defaults(fn=cmd_ask)

    tool = sub.add_parser("tool", help="run one data tool directly")
    tool.add_argument("name")
    tool.add_argument("arguments", nargs="?", default="{}")
    tool.add_argument("--json", action="store_true", help="print the whole result object")
    tool.set_defaults(fn=cmd_tool)

    data = sub.add_parser("data", help="manage the data folder")
    data_sub = data.add_subparsers(dest="data_command", required=True)
    refresh = data_sub.add_parser("refresh", help="re-download the datasets (needs network)")
    refresh.add_argument("--dataset", action="append", help="only this dataset (repeatable)")
    refresh.add_argument("--dest", help="folder to write into (default: the configured data folder)")
    verify = data_sub.add_parser("verify", help="check every data file (layout, rows, sha256) and say which fail")
    verify.add_argument("--json", action="store_true", help="print the checks as JSON")
    data.set_defaults(fn=cmd_data)

    model = sub.add_parser("model", help="the model catalogue: list, pull (verified), rm")
    model_sub = model.add_subparsers(dest="model_command", required=True)
    model_sub.add_parser("list", help="catalogue models, their size and licence, and which are pulled")
    for verb, text in (("pull", "download, assemble and verify a catalogue model into var/models"),
                       ("rm", "remove a pulled model")):
        model_sub.add_parser(verb, help=text).add_argument("name")
    model.set_defaults(fn=cmd_model)

    ev = sub.add_parser("eval", help="run the evaluation question set")
    ev.add_argument("--backend", choices=BACKEND_CHOICES)
    ev.add_argument("--model", help="a catalogue model name or a GGUF path")
    ev.add_argument("--output", help="where to save the JSON report")
    ev.add_argument("--limit", type=int, help="only the first N questions")
    ev.add_argument("--category", action="append", help="only questions of this category (repeatable)")
    ev.add_argument("--id", action="append", help="only the question with this id (repeatable)")
    ev.set_defaults(fn=cmd_eval)

    serve = sub.add_parser("serve", help="run the web app with Flask's server (gunicorn for production)")
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    serve.add_argument("--backend", choices=BACKEND_CHOICES)
    serve.set_defaults(fn=cmd_serve)

    mcp = sub.add_parser("mcp", help="serve the data tools and `ask` to an MCP client over stdin/stdout")
    mcp.add_argument("--backend", choices=BACKEND_CHOICES,
                     help="the backend `ask` uses (default: model.backend)")
    mcp.set_defaults(fn=cmd_mcp)

    store = sub.add_parser("store", help="the run history's database: move a SQLite history into PostgreSQL, status")
    store_sub = store.add_subparsers(dest="store_command", required=True)
    migrate = store_sub.add_parser("migrate", help="copy a SQLite run history into store.url (safe to run again)")
    migrate.add_argument("--from", dest="source", metavar="PATH",
                         help="the SQLite file (default: <server.var_dir>/runs.sqlite3)")
    migrate.add_argument("--to", metavar="URL", help="the target database (default: store.url / CHIQA_STORE_URL)")
    store_sub.add_parser("status", help="where the history is, its schema version, how many runs and conversations")
    store.set_defaults(fn=cmd_store)
    return parser


# A write to stdout that fails this way (`> /dev/full`, a full disk or quota) is reported, not a traceback.
OUTPUT_ERRNOS = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO}


def _discard_stdout() -> None:
    """Point stdout at /dev/null, so what is still buffered is dropped quietly at exit."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        settings = load_settings(args.config)
        code = args.fn(args, settings)
        sys.stdout.flush()  # inside the try: output that cannot be written is an error here, not at exit
        return code
    except BrokenPipeError:  # output piped into `head` and closed early: not an error worth a traceback
        _discard_stdout()
        return 0
    except OSError as exc:
        if exc.errno not in OUTPUT_ERRNOS:
            raise
        with contextlib.suppress(OSError, ValueError):
            _discard_stdout()
        print(f"error: the output could not be written ({exc.strerror or exc})", file=sys.stderr)
        return 2
    except DataIntegrityError as exc:
        return report_error(args, "data_invalid", str(exc))
    except DataNotFoundError as exc:
        return report_error(args, "data_not_found", str(exc))
    except SettingsError as exc:
        return report_error(args, "invalid_settings", str(exc))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
