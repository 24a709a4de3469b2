"""LlamaCppBackend on a tiny random-weight GGUF: loading, errors, grammar, deadline, KV-cache reuse, gate."""
import threading
import time

import pytest

from backends.base import (
    BACKENDS,
    Backend,
    BackendBusy,
    BackendError,
    GenerationCancelled,
    GenerationRequest,
    ModelGate,
)
from backends.llama_cpp import PREFILL_CHUNK, LlamaCppBackend, physical_cores
from backends.prefix_cache import PrefixCache
from llama_client import make_backend, plan_backend
from loop.grammar import build_tool_grammar
from toolcall.protocol import parse_tool_calls
from settings.loader import load_settings

pytestmark = pytest.mark.slow

MESSAGES = [{"role": "system", "content": "You are ChiQA. Answer with data."},
            {"role": "user", "content": "How many homicides were there in 2020?"}]
SCHEMAS = [{"name": "query_homicides", "description": "", "parameters": {"type": "object", "properties": {
    "year": {"type": "integer", "minimum": 2001, "maximum": 2024},
    "group_by": {"type": "string", "enum": ["year", "month"]}}}}]


def _settings(path, **extra):
    overrides = {"model.path": str(path), "model.n_ctx": 512, "model.n_threads": 1, "model.seed": 7,
                 "model.temperature": 0.8, "model.allow_download": False}
    overrides.update(extra)
    return load_settings(overrides=overrides)


@pytest.fixture(scope="module")
def backend(tiny_gguf_path):
    backend = LlamaCppBackend.from_settings(_settings(tiny_gguf_path, **{"model.n_ctx": 1024}))
    yield backend
    backend.close()


def test_a_stream_cancelled_from_its_token_callback_stops_without_counting_a_failure(backend):
    """A reader gone mid-answer (loop/model_pass.py raises from the relay) frees the model: no BackendError, no
    degraded health, and the gate is open for the next pass."""
    pieces = []

    def reader_gone(piece):
        pieces.append(piece)
        raise GenerationCancelled()

    failures = backend.failures
    with pytest.raises(GenerationCancelled):
        backend.generate(GenerationRequest(messages=MESSAGES, max_tokens=64, on_token=reader_gone))
    assert len(pieces) == 1 and backend.failures == failures and not backend.gate.busy
    assert backend.generate(GenerationRequest(messages=MESSAGES, max_tokens=4)).completion_tokens > 0


def test_info_describes_the_model(backend, tiny_gguf_path):
    info = backend.info()
    assert info["backend"] == "llama" and info["model"] == "tiny.gguf"
    assert info["size_bytes"] == tiny_gguf_path.stat().st_size < 1_000_000
    assert info["n_ctx"] == 1024 and info["n_threads"] == 1 and info["chat_format"] == "gguf"
    assert str(tiny_gguf_path) in info["reason"]


def test_prompt_uses_the_gguf_chat_template(backend):
    prompt = backend.render_prompt(MESSAGES)
    assert prompt.startswith("<|im_start|>system\nYou are ChiQA.")
    assert prompt.endswith("<|im_start|>assistant\n")
    # exact counting: the same tokens the generation evaluates
    assert backend.count_message_tokens(MESSAGES) == len(backend.prompt_tokens_for(MESSAGES))
    assert backend.count_tokens("<|im_end|>") == 1  # special tokens count as one


def test_generate_without_grammar(backend):
    pieces = []
    generation = backend.generate(GenerationRequest(messages=MESSAGES, max_tokens=24, on_token=pieces.append))
    assert generation.prompt_tokens == backend.count_message_tokens(MESSAGES)
    assert 0 < generation.completion_tokens <= 24
    assert generation.finish_reason in {"stop", "length"}
    assert "".join(pieces) == generation.text
    assert generation.duration_ms > 0
    assert 0 < generation.first_token_ms <= generation.duration_ms  # prompt evaluation and the first token


def test_generate_with_tool_grammar_parses(backend):
    gbnf = build_tool_grammar(SCHEMAS, 2, allow_no_call=False)
    generation = backend.generate(GenerationRequest(messages=MESSAGES, grammar=gbnf, max_tokens=200))
    result = parse_tool_calls(generation.text)
    assert result.calls and not result.errors, generation.text
    assert all(call["name"] == "query_homicides" for call in result.calls)
    assert generation.finish_reason == "stop"


def test_stop_strings_cut_the_text(backend):
    pieces = []
    request = GenerationRequest(messages=MESSAGES, grammar='root ::= "abc STOP xyz"', stop=["STOP"],
                                max_tokens=50, on_token=pieces.append)
    generation = backend.generate(request)
    assert generation.text == "abc " and generation.finish_reason == "stop"
    assert "".join(pieces) == "abc "


def test_a_gathering_reply_stops_when_it_repeats_a_line(backend):
    # The grammar forces three identical lines; the gathering pass keeps the first and stops at the copy.
    gbnf = 'root ::= "TOOL_CALL: {}\\nTOOL_CALL: {}\\nTOOL_CALL: {}"'
    messages = [{"role": "user", "content": "hi"}]
    gathered = backend.generate(GenerationRequest(messages=messages, grammar=gbnf, max_tokens=60, phase="gather"))
    assert gathered.text == "TOOL_CALL: {}" and gathered.finish_reason == "repeat"
    answered = backend.generate(GenerationRequest(messages=messages, grammar=gbnf, max_tokens=60, phase="synthesis"))
    assert answered.text.count("TOOL_CALL: {}") == 3  # only gathering is cut


def test_invalid_grammar_is_a_backend_error(backend):
    with pytest.raises(BackendError, match="grammar"):
        backend.generate(GenerationRequest(messages=MESSAGES, grammar="root ::= (", max_tokens=5))


def test_deadline_is_honoured(backend):
    def slow(_piece):
        time.sleep(0.004)  # makes the tiny model as slow as a real one would be

    started = time.monotonic()
    generation = backend.generate(GenerationRequest(messages=MESSAGES, max_tokens=800, deadline=started + 0.2,
                                                    on_token=slow))
    elapsed = time.monotonic() - started
    assert generation.finish_reason == "deadline"
    assert elapsed < 800 * 0.004  # far less than running all 800 slowed tokens
    assert 0 < generation.completion_tokens < 800


def test_deadline_already_past_returns_at_once(backend):
    generation = backend.generate(GenerationRequest(messages=MESSAGES, deadline=time.monotonic() - 1))
    assert generation.finish_reason == "deadline" and generation.text == "" and generation.evaluated_tokens == 0


def test_a_long_prompt_is_evaluated_in_chunks_that_check_the_deadline(backend, monkeypatch):
    long_messages = MESSAGES + [{"role": "user", "content": " ".join(f"row {i}: {i * 7}" for i in range(40))}]
    # The same reply whether the prompt was evaluated in one go or in chunks (same seed, greedy-equivalent state).
    whole = backend.generate(GenerationRequest(messages=long_messages, max_tokens=6))
    backend.generate(GenerationRequest(messages=MESSAGES, max_tokens=1))  # leaves only the shared prefix cached
    chunked = backend.generate(GenerationRequest(messages=long_messages, max_tokens=6,
                                                 deadline=time.monotonic() + 60))
    assert chunked.text == whole.text and chunked.evaluated_tokens > 128
    # A deadline that passes during the evaluation ends the pass between chunks, before any token is generated.
    backend.generate(GenerationRequest(messages=MESSAGES, max_tokens=1))
    evaluated = []
    real_eval = backend.llm.eval

    def slow_eval(tokens):
        evaluated.append(len(tokens))
        time.sleep(0.3)
        real_eval(tokens)

    monkeypatch.setattr(backend.llm, "eval", slow_eval)
    late = backend.generate(GenerationRequest(messages=long_messages, max_tokens=6, deadline=time.monotonic() + 0.1))
    assert late.finish_reason == "deadline" and late.text == "" and late.completion_tokens == 0
    assert evaluated and max(evaluated) <= PREFILL_CHUNK and len(evaluated) == 1


def test_kv_cache_reuse_for_an_appended_prompt(backend):
    first = backend.generate(GenerationRequest(messages=MESSAGES, max_tokens=8))
    extended = MESSAGES + [{"role": "assistant", "content": first.text},
                           {"role": "user", "content": "RESULT query_homicides: 2020 had 769 homicides."}]
    second = backend.generate(GenerationRequest(messages=extended, max_tokens=8))
    assert second.prompt_tokens > first.prompt_tokens
    assert second.evaluated_tokens < second.prompt_tokens
    assert second.evaluated_tokens <= second.prompt_tokens - first.prompt_tokens + 1
    # an identical prompt again only replays one token
    again = backend.generate(GenerationRequest(messages=extended, max_tokens=4))
    assert again.evaluated_tokens <= 1


def test_prompt_too_long_raises_before_llama_cpp(backend, monkeypatch):
    def boom(*args, **kwargs):
        raise AssertionError("llama.cpp must not be called")

    monkeypatch.setattr(backend.llm, "generate", boom)
    long_messages = [{"role": "user", "content": "word " * 2000}]
    with pytest.raises(BackendError, match="prompt too long"):
        backend.generate(GenerationRequest(messages=long_messages, max_tokens=16))
    near = [{"role": "user", "content": "x" * 900}]
    with pytest.raises(BackendError, match="prompt too long"):
        backend.generate(GenerationRequest(messages=near, max_tokens=384))


def test_missing_file_names_the_path(tmp_path):
    missing = tmp_path / "nope" / "model.gguf"
    with pytest.raises(BackendError) as info:
        LlamaCppBackend.from_settings(_settings(missing))
    assert str(missing) in str(info.value) and "CHIQA_MODEL_PATH" in str(info.value)


def test_corrupt_file_names_the_path(tmp_path):
    corrupt = tmp_path / "random.gguf"
    corrupt.write_bytes(bytes(range(256)) * 64)
    with pytest.raises(BackendError) as info:
        LlamaCppBackend.from_settings(_settings(corrupt))
    assert str(corrupt) in str(info.value) and "GGUF" in str(info.value)


def test_truncated_gguf_is_caught(tmp_path, tiny_gguf_path):
    truncated = tmp_path / "truncated.gguf"
    truncated.write_bytes(tiny_gguf_path.read_bytes()[:5000])
    with pytest.raises(BackendError) as info:
        LlamaCppBackend.from_settings(_settings(truncated))
    assert str(truncated) in str(info.value)


def test_configured_chat_format_and_default_threads(tiny_gguf_path):
    backend = LlamaCppBackend.from_settings(_settings(tiny_gguf_path, **{"model.chat_format": "chatml",
                                                                         "model.n_threads": None}))
    try:
        assert backend.chat_format == "chatml"
        assert backend.n_threads == physical_cores() >= 1
        assert backend.render_prompt(MESSAGES).endswith("<|im_start|>assistant\n")
    finally:
        backend.close()
    with pytest.raises(BackendError, match="chat_format"):
        LlamaCppBackend.from_settings(_settings(tiny_gguf_path, **{"model.chat_format": "no-such-format"}))


# ---------------------------------------------------------------- the gate

def _hold_the_model(backend, started, release):
    def on_token(_piece):
        started.set()
        release.wait(5)

    return threading.Thread(target=lambda: backend.generate(
        GenerationRequest(messages=MESSAGES, max_tokens=2, on_token=on_token)))


@pytest.mark.parametrize("queue_size", [0, 1])
def test_model_gate_busy(backend, queue_size):
    backend.gate = ModelGate(queue_size)
    started, release = threading.Event(), threading.Event()
    holder = _hold_the_model(backend, started, release)
    holder.start()
    waiter_results = []
    try:
        assert started.wait(5)
        waiter = None
        if queue_size == 1:
            waiter = threading.Thread(target=lambda: waiter_results.append(
                backend.generate(GenerationRequest(messages=MESSAGES, max_tokens=2))))
            waiter.start()
            for _ in range(500):
                if backend.gate.waiting == 1:
                    break
                time.sleep(0.01)
            assert backend.gate.waiting == 1
        with pytest.raises(BackendBusy):
            backend.generate(GenerationRequest(messages=MESSAGES, max_tokens=2))
    finally:
        release.set()
        holder.join(10)
    if queue_size == 1:
        waiter.join(10)
        assert len(waiter_results) == 1 and waiter_results[0].completion_tokens >= 1
    backend.gate = ModelGate(8)


# ---------------------------------------------------------------- auto selection

def test_auto_picks_llama_when_the_file_exists(tiny_gguf_path):
    backend = make_backend(_settings(tiny_gguf_path, **{"model.backend": "auto"}))
    try:
        assert backend.name == "llama"
        assert backend.selection_reason == f"auto: model file {tiny_gguf_path} found"
    finally:
        backend.close()


def test_auto_falls_back_to_rules_with_the_reason(tmp_path, monkeypatch):
    class FakeRules(Backend):
        name = "rules"

    monkeypatch.setitem(BACKENDS, "rules", FakeRules)
    missing = tmp_path / "absent.gguf"
    backend = make_backend(_settings(missing, **{"model.backend": "auto"}))
    assert backend.name == "rules"
    assert str(missing) in backend.selection_reason and "rule planner" in backend.selection_reason


def test_auto_without_rules_planner_is_a_clear_error(tmp_path, monkeypatch):
    class BrokenRules(Backend):
        name = "rules"

        def __init__(self, queue_size=8):
            raise ImportError("no planner here")

    monkeypatch.setitem(BACKENDS, "rules", BrokenRules)
    with pytest.raises(BackendError, match="rule planner"):
        make_backend(_settings(tmp_path / "absent.gguf", **{"model.backend": "auto"}))


def test_plan_backend_explains_the_choice_without_loading(tiny_gguf_path, tmp_path):
    with_file = load_settings(overrides={"model.backend": "auto", "model.path": str(tiny_gguf_path)})
    assert plan_backend(with_file) == ("llama", f"auto: model file {tiny_gguf_path} found")
    missing = load_settings(overrides={"model.backend": "auto", "model.path": str(tmp_path / "none.gguf"),
                                       "model.allow_download": False})
    choice, reason = plan_backend(missing)
    assert choice == "rules" and "none.gguf" in reason and "rule planner" in reason
    assert plan_backend(missing, "openai")[0] == "openai"


# ---------------------------------------------------------------- the saved system prefix

def _prefix_backend(tiny_gguf_path, cache_dir):
    settings = load_settings(overrides={"model.path": str(tiny_gguf_path), "model.n_ctx": 12288,
                                        "model.n_threads": 2, "model.max_tokens": 8})
    backend = LlamaCppBackend.from_settings(settings)
    backend.prefix_cache = PrefixCache(cache_dir)
    return backend


SYSTEM = "You are ChiQA. Tools: query_homicides_advanced(year: integer). Answer with data only."


def test_prefix_cache_miss_then_hit_in_a_new_process_state(tiny_gguf_path, tmp_path):
    first = _prefix_backend(tiny_gguf_path, tmp_path)
    try:
        built = first.warm(SYSTEM)
        assert built["event"] == "built" and built["tokens"] > 10 and (tmp_path / built["file"]).is_file()
    finally:
        first.close()
    second = _prefix_backend(tiny_gguf_path, tmp_path)  # a fresh Llama, as a new worker would have
    try:
        hit = second.warm(SYSTEM)
        assert hit["event"] == "hit" and hit["file"] == built["file"]
        messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "How many in 2020?"}]
        generation = second.generate(GenerationRequest(messages=messages, max_tokens=4))
        # Only the question's own tokens are evaluated: the prefix came from the saved state.
        assert generation.evaluated_tokens == generation.prompt_tokens - hit["tokens"]
    finally:
        second.close()


ANSWER_SYSTEM = "You are ChiQA. The tools have run; write the answer from the figures given. Never invent numbers."


def test_two_warmed_prefixes_are_swapped_in_memory_and_answer_as_a_cold_evaluation_would(tiny_gguf_path, tmp_path):
    """The answer pass's short system prompt and the tools' prompt are both kept: a pass starting with either
    evaluates only its own tokens after it, and what it writes is what evaluating the whole prompt writes."""
    def ask(backend, system, question):
        messages = [{"role": "system", "content": system}, {"role": "user", "content": question}]
        return backend.generate(GenerationRequest(messages=messages, max_tokens=6))

    cold = LlamaCppBackend.from_settings(load_settings(overrides={
        "model.path": str(tiny_gguf_path), "model.n_ctx": 12288, "model.n_threads": 2, "model.max_tokens": 8}))
    warm = _prefix_backend(tiny_gguf_path, tmp_path)
    try:
        state = warm.warm(SYSTEM, ANSWER_SYSTEM)
        assert state["also"][0]["event"] == "built" and state["also"][0]["tokens"] > 10
        turns = [(ANSWER_SYSTEM, "How many in 2020? Figures: 772."), (SYSTEM, "How many in 2019?"),
                 (ANSWER_SYSTEM, "How many in 2021? Figures: 797."), (ANSWER_SYSTEM, "And 2018? Figures: 561.")]
        for system, question in turns:
            cold.llm.reset()  # the cold backend evaluates every prompt from its first token
            expected = ask(cold, system, question)
            got = ask(warm, system, question)
            prefix = state["tokens"] if system == SYSTEM else state["also"][0]["tokens"]
            assert got.evaluated_tokens == got.prompt_tokens - prefix, (system, question)
            assert expected.evaluated_tokens == expected.prompt_tokens
            assert got.text == expected.text, (system, question)
    finally:
        warm.close()
        cold.close()


def test_prefix_cache_stale_prompt_gets_its_own_file(tiny_gguf_path, tmp_path):
    backend = _prefix_backend(tiny_gguf_path, tmp_path)
    try:
        one = backend.warm(SYSTEM)
        other = backend.warm(SYSTEM + " Version two of the prompt.")
        assert other["event"] == "built" and other["file"] != one["file"]
    finally:
        backend.close()


def test_prefix_cache_corrupt_file_is_rebuilt(tiny_gguf_path, tmp_path):
    backend = _prefix_backend(tiny_gguf_path, tmp_path)
    try:
        built = backend.warm(SYSTEM)
        path = tmp_path / built["file"]
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 3])  # truncated
        again = backend.warm(SYSTEM)
        assert again["event"] == "rebuilt" and path.stat().st_size > 0
        assert backend.warm(SYSTEM)["event"] == "hit"
        path.write_bytes(b"not a state file")
        assert backend.warm(SYSTEM)["event"] == "rebuilt"
    finally:
        backend.close()


def test_lazy_grammar_only_lets_allowed_tokens_through(backend):
    """The grammar judges the top candidates, and falls back to the whole vocabulary when none is allowed."""
    import numpy as np

    from backends.lazy_grammar import LazyGrammar

    grammar = LazyGrammar(backend.llm, 'root ::= "abc"')
    try:
        vocab = backend.llm.n_vocab()
        scores = np.zeros(vocab, dtype=np.single)
        out = grammar([1, 2, 3], scores)
        allowed = np.flatnonzero(np.isfinite(out))
        assert allowed.size >= 1
        texts = {backend.llm.detokenize([int(t)]).decode("utf-8", "replace") for t in allowed}
        assert all("abc".startswith(t) and t for t in texts)
    finally:
        grammar.close()


def test_prompt_lookup_drafts_only_on_the_synthesis_pass(tiny_gguf_path):
    backend = LlamaCppBackend.from_settings(_settings(tiny_gguf_path, **{"model.prompt_lookup": 4,
                                                                         "model.temperature": 0.0}))
    try:
        assert backend.prompt_lookup is not None and backend.llm._logits_all
        answer = backend.generate(GenerationRequest(messages=MESSAGES, max_tokens=24, phase="synthesis"))
        assert backend.llm.draft_model is backend.prompt_lookup and 0 < answer.completion_tokens <= 24
        gathered = backend.generate(GenerationRequest(messages=MESSAGES, max_tokens=8, phase="gather",
                                                      grammar=build_tool_grammar(SCHEMAS, 1)))
        assert backend.llm.draft_model is None and parse_tool_calls(gathered.text).calls is not None
    finally:
        backend.close()
    plain = LlamaCppBackend.from_settings(_settings(tiny_gguf_path))
    try:
        assert plain.prompt_lookup is None and not plain.llm._logits_all
    finally:
        plain.close()
