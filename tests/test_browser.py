"""Real browser: headless Debian Chromium (Playwright) against the app on 127.0.0.1 with a scripted model.

Covers live trace steps, the answer, opening a step, the CSV download, charts, feedback, the permalink,
and that HTML/script payloads in the question and in model output stay inert text.
"""
import os
import threading
from pathlib import Path

import pytest

from app import create_app
from backends.rules_only import RulesBackend
from backends.scripted import ScriptedBackend

CHROMIUM = "/usr/bin/chromium"
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is absent (make browser-deps)")]

LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCRIPT = "<script>window.__pwned=1</script>"
IMG = '<img src=x onerror="window.__pwned=1">'
INVENTED = "99,999"


def payload_backend():
    class PayloadBackend(ScriptedBackend):
        """The default scripted model, but its answer carries HTML payloads and an invented number."""

        def _default_reply(self, request):
            if request.phase == "gather":
                return ScriptedBackend._default_reply(request)
            return f"Chicago recorded 12,657 homicides. {SCRIPT} {IMG} Also {INVENTED} is made up."

    return PayloadBackend(delay=0.4)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from werkzeug.serving import make_server


    cache = Path(__file__).resolve().parent.parent / "var" / "test" / "cache"
    app = create_app({"TESTING": True, "CHIQA_BACKEND_OBJECT": payload_backend(),
                      "SETTINGS_OVERRIDES": {"model.backend": "scripted", "data.cache_dir": str(cache),
                                             "server.var_dir": str(tmp_path_factory.mktemp("browser_var"))}})
    app.extensions["chiqa_runtime"].orchestrator()  # load the data before the clock starts
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()
    thread.join(5)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        yield b
        b.close()


def test_ask_stream_trace_csv_and_inert_payloads(server, browser, tmp_path):
    from playwright.sync_api import expect

    context = browser.new_context(accept_downloads=True)
    page = context.new_page()
    page.goto(server + "/")
    question = f"Homicides by year {SCRIPT} {IMG}"
    page.fill("#question", question)
    page.press("#question", "Enter")

    # Steps appear while the answer is still being worked on.
    page.wait_for_selector("#trace li.step", timeout=15000)
    assert page.is_hidden("#answer-section")
    assert "tool call" in page.text_content("#progress")
    page.wait_for_selector("#answer-section:not([hidden])", timeout=30000)
    page.wait_for_selector("#feedback:not([hidden])")

    # Payloads from the question and from model output are shown literally and stay inert.
    answer = page.text_content("#answer")
    assert SCRIPT in answer and IMG in answer
    assert SCRIPT in page.text_content("#asked") and IMG in page.text_content("#asked")
    assert page.evaluate("window.__pwned") is None
    assert page.evaluate("document.querySelectorAll('img').length") == 0
    assert page.evaluate("document.querySelectorAll('#answer script, #asked script').length") == 0

    # The invented number is marked; the grounded one is not.
    marks = page.eval_on_selector_all("#answer mark", "els => els.map(e => e.textContent)")
    assert marks == [INVENTED]
    types = page.eval_on_selector_all("#trace li.step", "els => els.map(e => e.dataset.type)")
    assert types[0] == "analysis" and "tool_call" in types and "synthesis" in types and "grounding" in types
    assert page.locator("#charts svg.chart-line path.series").count() == 1
    assert "scripted" in page.text_content("#backend-line")

    # Open the tool step with the keyboard; raw output of a model pass shows as text.
    step = page.locator("#trace li.step-tool_call").first
    step.locator("summary").focus()
    page.keyboard.press("Enter")
    assert step.locator("details").get_attribute("open") is not None
    assert step.locator("table.data tbody tr").count() == 10
    with page.expect_download() as info:
        step.locator("button.csv").click()
    download = info.value
    assert download.suggested_filename.endswith(".csv")
    path = tmp_path / "result.csv"
    download.save_as(path)
    lines = path.read_text().strip().splitlines()
    assert lines[0] == "year,homicides,arrests,share_pct,arrest_rate_pct"
    assert len(lines) == 24 and lines[1].startswith("2001,667,")

    synthesis = page.locator("#trace li.step-synthesis").first
    synthesis.locator("summary").click()
    assert SCRIPT in synthesis.locator("pre.raw").first.text_content()
    assert page.evaluate("document.querySelectorAll('img').length") == 0

    # Feedback, then the permalink renders the same stored run.
    page.click("#vote-up")
    expect(page.locator("#feedback-status")).to_contain_text("saved")  # (the page's CSP forbids eval polling)
    href = page.get_attribute("#permalink", "href")
    assert href.startswith("/runs/") and "?key=" in href  # the link shares the run on purpose
    recent = page.text_content("#recent")
    assert "Homicides by year" in recent

    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1, is_mobile=True)
    ppage = phone.new_page()
    ppage.goto(server + href)
    ppage.wait_for_selector("#answer-section:not([hidden])", timeout=15000)
    assert ppage.text_content("#answer") == answer
    assert ppage.get_attribute("#vote-up", "aria-pressed") == "true"
    # another browser (its own cookie): the shared run reads, without its owner's feedback controls or history
    assert ppage.is_hidden("#vote-up") and ppage.is_visible("#permalink")
    ppage.wait_for_selector("#recent li.note")
    assert "No questions yet" in ppage.text_content("#recent")
    assert ppage.goto(server + href.split("?")[0]).status == 404  # without the key: not found
    ppage.goto(server + href)
    ppage.wait_for_selector("#answer-section:not([hidden])", timeout=15000)
    assert ppage.evaluate("window.__pwned") is None
    assert ppage.evaluate("document.querySelectorAll('img').length") == 0
    assert ppage.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    ppage.screenshot(path="/tmp/chiqa_page.png", full_page=True)
    phone.close()
    context.close()


def test_example_button_and_errors(server, browser):
    page = browser.new_page()
    page.goto(server + "/")
    page.locator("button.example").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#answer-section:not([hidden])", timeout=30000)
    assert page.input_value("#question") == page.locator("button.example").first.text_content()
    page.fill("#question", "x" * 2001)  # maxlength stops typing; a forced value is refused by the page
    page.evaluate("document.getElementById('question').value = 'x'.repeat(2001)")
    page.click("#ask-button")
    assert "too long" in page.text_content("#error")
    page.close()


def serve_app(backend, backend_name: str, var_dir):
    """The app on 127.0.0.1 (a free port) in a thread, with its data loaded; yields its base URL."""
    from werkzeug.serving import make_server

    cache = Path(__file__).resolve().parent.parent / "var" / "test" / "cache"
    app = create_app({"TESTING": True, "CHIQA_BACKEND_OBJECT": backend,
                      "SETTINGS_OVERRIDES": {"model.backend": backend_name, "data.cache_dir": str(cache),
                                             "server.var_dir": str(var_dir)}})
    app.extensions["chiqa_runtime"].orchestrator()
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()
    thread.join(5)


@pytest.fixture(scope="module")
def streaming_server(tmp_path_factory):
    # writes its answer a word at a time
    yield from serve_app(ScriptedBackend(token_delay=0.12), "scripted", tmp_path_factory.mktemp("stream_var"))


def test_the_answer_streams_in_as_it_is_written(streaming_server, browser):
    page = browser.new_page()
    page.goto(streaming_server + "/")
    page.fill("#question", "How many homicides were there each year?")
    page.press("#question", "Enter")
    # Words show up while the run is still going: the progress line has not said "done" yet.
    page.wait_for_function("() => { const e = document.getElementById('answer-live');"
                           " return e && e.textContent.trim().split(/\\s+/).length >= 2; }", timeout=30000)
    assert not page.text_content("#progress").startswith("done")
    partial = page.text_content("#answer-live")
    # Then the finished answer replaces the live text, and begins with what was streamed.
    page.wait_for_function("() => document.getElementById('progress').textContent.startsWith('done')",
                           timeout=30000)
    assert page.locator("#answer-live").count() == 0
    reading = page.text_content("#answer .reading")
    final = page.text_content("#answer")
    assert final.startswith(reading)  # the question as read comes first, then the answer
    final = final[len(reading):]
    assert final.startswith(partial.strip()) and len(final) > len(partial.strip())
    page.close()


@pytest.fixture(scope="module")
def rules_server(tmp_path_factory):
    yield from serve_app(RulesBackend(), "rules", tmp_path_factory.mktemp("rules_var"))


def test_the_page_shows_the_reading_and_what_could_not_be_used(rules_server, browser):
    page = browser.new_page()
    page.goto(rules_server + "/")
    page.fill("#question", "How many homicides happened on rainy days in 2020?")
    page.press("#question", "Enter")
    page.wait_for_function("() => document.getElementById('progress').textContent.startsWith('done')",
                           timeout=30000)
    reading = page.text_content("#answer .reading")
    assert reading.startswith("Read as: homicides · 2020") and "not used: 'on rainy'" in reading
    answer = page.text_content("#answer")
    assert "I could not use 'on rainy' from the question" in answer
    assert "partial answer" in answer
    page.screenshot(path=str(Path(__file__).resolve().parent.parent / "var" / "test-artifacts" / "reading.png"))
    page.close()
