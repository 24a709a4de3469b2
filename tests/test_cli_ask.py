"""The ask command: JSON-only stdout with --json, compact text otherwise, errors as exit code 2."""
import json

import pytest

import app
from cli.ask import render_text


def test_ask_json_prints_only_the_result(capsys, data):
    code = app.main(["ask", "How many homicides per year?", "--backend", "scripted", "--json"])
    out = capsys.readouterr().out
    assert code == 0
    result = json.loads(out)  # nothing but JSON on stdout
    assert result["question"] == "How many homicides per year?"
    assert result["tool_calls"][0]["name"] == "query_homicides_advanced" and result["answer"]
    assert result["backend"]["backend"] == "scripted" and result["stopped_because"] == "model_done"


def test_ask_text_shows_answer_and_trace(capsys, data):
    code = app.main(["ask", "How many homicides per year?", "--backend", "scripted", "--max-tool-calls", "2",
                     "--timeout", "30"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Trace:" in out and "tool_call" in out and "Stopped because: model_done" in out
    assert "Sources:" in out and "Caveats:" in out


@pytest.mark.parametrize("argv,code_name", [
    (["--backend", "llama", "--model", "/nonexistent/model.gguf"], "backend_unavailable"),
    (["--backend", "scripted", "--max-tool-calls", "0"], "invalid_options"),
    (["--backend", "scripted", "--timeout", "0"], "invalid_options"),
])
def test_ask_errors_exit_2_without_a_traceback(capsys, monkeypatch, argv, code_name):
    monkeypatch.delenv("CHIQA_MODEL_PATH", raising=False)
    assert app.main(["ask", "q", "--json", *argv]) == 2
    captured = capsys.readouterr()
    error = json.loads(captured.out)
    assert error["ok"] is False and error["error"]["code"] == code_name and error["error"]["message"]
    assert "Traceback" not in captured.err
    assert app.main(["ask", "q", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("error: ") and "Traceback" not in captured.err


def test_render_text_covers_every_step_type():
    result = {
        "answer": "About 340.", "partial": True, "stopped_because": "timeout", "tool_calls": [{}],
        "timings": {"total_ms": 1234.5}, "backend": {"backend": "llama"}, "model": "m.gguf", "prompt_version": "p-1",
        "sources": [{"dataset": "Crimes", "portal_id": "ijzp-q8t2", "coverage": {"start": "2001", "end": "2023"}}],
        "caveats": ["2023 is partial."], "ungrounded_numbers": ["99"],
        "trace": [
            {"type": "analysis", "index": 0, "duration_ms": 1, "analysis": {"hint_text": "Years: 2023"}},
            {"type": "model_pass", "index": 1, "duration_ms": 900, "pass": 1, "parsed_calls": [{"name": "q"}],
             "parse_errors": ["bad"], "prompt_tokens": 10, "evaluated_tokens": 4, "completion_tokens": 3,
             "finish_reason": "stop"},
            {"type": "tool_call", "index": 2, "duration_ms": 2, "call": 1, "name": "q", "arguments": {"year": 2023},
             "status": "error", "error": "bad year"},
            {"type": "trim", "index": 3, "duration_ms": 0, "trimmed": [{"action": "dropped", "call": 1, "name": "q"}],
             "prompt_tokens_before": 9, "prompt_tokens_after": 5},
            {"type": "error", "index": 4, "duration_ms": 0, "phase": "gather", "error_type": "BackendError",
             "message": "boom"},
            {"type": "synthesis", "index": 5, "duration_ms": 0, "fallback": True},
            {"type": "grounding", "index": 6, "duration_ms": 0, "checked": ["99"], "unmatched": ["99"]},
        ]}
    text = render_text(result)
    for expected in ("About 340.", "(partial answer)", "Years: 2023", "pass 1: q; 1 unreadable", '#1 q(year=2023) error: bad year',
                     "dropped #1 q (9 -> 5 tokens)", "BackendError: boom", "fallback answer", "unmatched: 99",
                     "Stopped because: timeout", "(m.gguf)", "Crimes (ijzp-q8t2, 2001 to 2023)", "2023 is partial.",
                     "Ungrounded numbers: 99"):
        assert expected in text
    assert len(text.splitlines()) == 2 + 1 + 1 + 1 + 7 + 1 + 2 + 2 + 1
    # Sources and caveats come once, right after the answer, before the trace.
    assert text.count("Sources:") == text.count("Caveats:") == 1
    assert text.index("About 340.") < text.index("Sources:") < text.index("Caveats:") < text.index("Trace:")
