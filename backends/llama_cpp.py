"""The llama-cpp-python backend: one Llama object in process, prompts rendered once, KV cache reused.

Loading checks the GGUF file first so a wrong path or a corrupt download names itself instead
of surfacing as a llama.cpp error. Imported lazily through llama_client, so the app starts (and
the other backends work) without llama-cpp-python installed.
"""
from __future__ import annotations

import codecs
import ctypes
import os
import time
from pathlib import Path

import prompt_registry as prompts
from backends.base import (
    Backend,
    BackendError,
    Generation,
    GenerationCancelled,
    GenerationRequest,
    register_backend,
)
from backends.lazy_grammar import LazyGrammar
from backends.prefix_cache import PrefixCache, cache_key, common_prefix, model_identity
from models.catalog import configured_model, sidecar_facts
from settings.loader import var_dir
from settings.schema import Settings

GGUF_MAGIC = b"GGUF"
PREFILL_CHUNK = 128  # prompt tokens evaluated between deadline checks (about 1 s on the 0.5B model here)
_HOW_TO_GET_A_MODEL = (
    "pull a catalogue model with `python app.py model pull qwen2.5-coder-0.5b` (see `python app.py model list`), "
    "or set model.path / CHIQA_MODEL_PATH to a catalogue name or a GGUF file"
)


def physical_cores() -> int:
    """Physical cores from /proc/cpuinfo (distinct physical id/core id pairs), else os.cpu_count()."""
    try:
        pairs = set()
        physical = core = None
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "physical id":
                    physical = value.strip()
                elif key == "core id":
                    core = value.strip()
                elif not line.strip():
                    if core is not None:
                        pairs.add((physical, core))
                    physical = core = None
        if core is not None:
            pairs.add((physical, core))
        if pairs:
            return min(len(pairs), os.cpu_count() or len(pairs))
    except OSError:
        pass
    return max(1, os.cpu_count() or 1)


def check_gguf_file(path) -> Path:
    """The path if it is a readable GGUF file; BackendError naming the path otherwise."""
    path = Path(str(path)).expanduser()
    if not path.exists():
        raise BackendError(f"model file not found: {path}; {_HOW_TO_GET_A_MODEL}")
    if not path.is_file():
        raise BackendError(f"model path is not a file: {path}; {_HOW_TO_GET_A_MODEL}")
    try:
        with open(path, "rb") as fh:
            magic = fh.read(4)
    except OSError as exc:
        raise BackendError(f"cannot read model file {path}: {exc}") from exc
    if magic != GGUF_MAGIC:
        raise BackendError(
            f"model file {path} is not a GGUF file (starts with {magic!r}, expected b'GGUF'); "
            "it may be corrupt, truncated or in an older format (convert or re-download it)"
        )
    return path


def _chatml(messages: list) -> str:
    parts = [f"<|im_start|>{m.get('role', 'user')}\n{m.get('content', '')}<|im_end|>\n" for m in messages]
    return "".join(parts) + "<|im_start|>assistant\n"


@register_backend
class LlamaCppBackend(Backend):
    """llama-cpp-python in process: one Llama object, prompts rendered once, KV cache reused."""

    name = "llama"

    def __init__(self, llm, model_path: str, *, n_ctx: int, n_threads: int, seed: int = 42,
                 temperature: float = 0.2, chat_format: str | None = None, queue_size: int = 8):
        super().__init__(queue_size)
        self.llm = llm
        self.model_path = str(model_path)
        self.n_ctx = int(n_ctx)
        self.n_threads = int(n_threads)
        self.seed = int(seed)
        self.temperature = float(temperature)
        self.chat_format = chat_format
        self._formatter = self._make_formatter(chat_format)
        self._grammar_ok: dict[str, bool] = {}
        self.prefix_cache: PrefixCache | None = None
        self.prefix_state: dict = {}
        self.prefixes: list[tuple[list, bytes]] = []  # warmed prefixes' tokens and KV state, longest first
        self.kv_layout = "standard"  # flash attention stores the V cache untransposed: a saved state is per layout
        self.prompt_lookup = None  # a draft model for the synthesis pass (model.prompt_lookup)
        probe = list(llm.tokenize(b"", add_bos=True, special=True))
        self._bos_prefix = probe[:1] if probe else []

    # ------------------------------------------------------------ construction
    @classmethod
    def from_settings(cls, settings: Settings) -> "LlamaCppBackend":
        model = settings.model
        queue_size = model.queue_size
        n_ctx = model.n_ctx
        n_threads = model.n_threads or physical_cores()
        seed = model.seed
        temperature = model.temperature
        chat_format = model.chat_format or None
        path, _how = configured_model(settings, var_dir(settings))
        try:
            from llama_cpp import Llama
        except Exception as exc:  # noqa: BLE001
            raise BackendError(f"llama-cpp-python is not installed or failed to import: {exc}") from exc
        common = dict(n_ctx=n_ctx, n_threads=n_threads, seed=seed, verbose=False, n_batch=model.n_batch,
                      flash_attn=model.flash_attn)
        if chat_format:
            common["chat_format"] = chat_format
        if model.prompt_lookup > 0:  # drafts are checked against every position's logits
            common["logits_all"] = True
        if path is None or not path.exists():
            if not model.allow_download:
                where = f"model file not found: {path}" if path else "no model file configured (model.path is null)"
                raise BackendError(f"{where}; {_HOW_TO_GET_A_MODEL}")
            repo, filename = model.hf_repo, model.hf_file
            try:
                llm = Llama.from_pretrained(repo_id=repo, filename=filename, **common)
            except Exception as exc:  # noqa: BLE001
                raise BackendError(f"could not download {repo}/{filename}: {type(exc).__name__}: {exc}; "
                                   f"{_HOW_TO_GET_A_MODEL}") from exc
            model_path = getattr(llm, "model_path", filename)
        else:
            path = check_gguf_file(path)
            try:
                llm = Llama(model_path=str(path), **common)
            except Exception as exc:  # noqa: BLE001 - llama.cpp raises ValueError/RuntimeError
                raise BackendError(f"llama.cpp could not load model file {path}: {type(exc).__name__}: {exc}; "
                                   "the file may be corrupt or use an unsupported architecture") from exc
            model_path = str(path)
        backend = cls(llm, model_path, n_ctx=n_ctx, n_threads=n_threads, seed=seed, temperature=temperature,
                      chat_format=chat_format, queue_size=queue_size)
        backend.kv_layout = "flash-attn" if model.flash_attn else "standard"
        if model.prompt_lookup > 0:
            from llama_cpp.llama_speculative import LlamaPromptLookupDecoding

            backend.prompt_lookup = LlamaPromptLookupDecoding(num_pred_tokens=model.prompt_lookup)
        if model.prefix_cache:
            backend.prefix_cache = PrefixCache(var_dir(settings) / settings.data.cache_dir)
        backend.selection_reason = f"backend 'llama' with model file {model_path}"
        return backend

    def warm(self, system_text: str, *others: str) -> dict:
        """Load (or evaluate once and save) the KV state of the prompt prefix every question shares; ``others``
        are further system prompts (the answer pass's short one) whose state is kept in memory beside it, so a
        pass that starts with one of them restores it instead of evaluating it after the other."""
        if self.prefix_cache is None:
            return {}
        also = [self._warm_one(text)[0] for text in others]
        state, tokens = self._warm_one(system_text)
        self.prefix_state = {**state, "also": also} if also else state
        return self.prefix_state

    def _warm_one(self, system_text: str) -> tuple[dict, list]:
        started = time.perf_counter()
        # The shared prefix is whatever two prompts with different questions have in common, so it is
        # right for any chat template (some put the system text inside the first user turn).
        probes = [self.prompt_tokens_for([{"role": "system", "content": system_text},
                                          {"role": "user", "content": text}]) for text in ("A?", "Zq.")]
        tokens = common_prefix(*probes)
        key = cache_key(model_identity(self.model_path), f"{prompts.prompt_version()}/{self.kv_layout}", self.n_ctx,
                        tokens)
        event = self.prefix_cache.restore_or_build(self.llm, tokens, key)
        self._remember(tokens)
        return ({"event": event, "tokens": len(tokens), "file": self.prefix_cache.path_for(key).name,
                 "ms": round((time.perf_counter() - started) * 1000, 1)}, tokens)

    def _remember(self, tokens: list) -> None:
        """Keep the KV state the cache now holds for ``tokens`` (sequence 0) in memory: a few MB a prefix
        (~12 KB a token on the 0.5B model), copied back in milliseconds where evaluating it takes seconds."""
        import llama_cpp  # Lazy: llama-cpp-python loads only when the llama backend is used

        if not tokens or self.llm.n_tokens != len(tokens):
            return
        size = llama_cpp.llama_state_seq_get_size(self.llm.ctx, 0)
        buffer = (ctypes.c_uint8 * size)()
        written = llama_cpp.llama_state_seq_get_data(self.llm.ctx, buffer, size, 0)
        if written:
            self.prefixes = [p for p in self.prefixes if p[0] != tokens] + [(list(tokens), bytes(buffer[:written]))]
            self.prefixes.sort(key=lambda p: -len(p[0]))

    def _restore_prefix(self, tokens: list) -> None:
        """Put back the longest remembered prefix of ``tokens`` when the cache holds less of them: the answer pass
        starts with a short system prompt of its own, and attending over the tools' ~1,850 tokens made its prompt
        evaluate at half the speed of the same tokens at position 0."""
        import llama_cpp  # Lazy: llama-cpp-python loads only when the llama backend is used

        held = self.cached_prefix(tokens)
        for prefix, data in self.prefixes:
            if len(prefix) <= held or len(prefix) >= len(tokens) or tokens[: len(prefix)] != prefix:
                continue
            mem = llama_cpp.llama_get_memory(self.llm.ctx)
            llama_cpp.llama_memory_seq_rm(mem, 0, -1, -1)
            buffer = (ctypes.c_uint8 * len(data)).from_buffer_copy(data)
            if llama_cpp.llama_state_seq_set_data(self.llm.ctx, buffer, len(data), 0):
                self.llm.input_ids[: len(prefix)] = prefix
                self.llm.n_tokens = len(prefix)
            else:  # nothing usable is left in the cache: evaluate from the start
                self.llm.n_tokens = 0
            self.llm._requires_eval = True
            return

    def _make_formatter(self, chat_format: str | None):
        """A callable messages -> prompt text, from model.chat_format or the GGUF's template."""
        from llama_cpp import llama_chat_format as lcf

        if chat_format:
            wanted = "".join(ch for ch in chat_format.lower() if ch.isalnum())
            for attr in dir(lcf):
                if attr.startswith("format_") and "".join(ch for ch in attr[7:].lower() if ch.isalnum()) == wanted:
                    fn = getattr(lcf, attr)
                    return lambda messages: fn(messages=messages).prompt
            raise BackendError(f"unknown model.chat_format '{chat_format}' (e.g. chatml, llama-2, llama-3, "
                               "mistral-instruct, gemma); use null for the GGUF's own template")
        metadata = getattr(self.llm, "metadata", {}) or {}
        template = metadata.get("tokenizer.chat_template")
        if template:
            def piece(key):
                try:
                    token_id = int(metadata[key])
                    return self.llm._model.token_get_text(token_id)
                except Exception:  # noqa: BLE001
                    return ""

            try:
                formatter = lcf.Jinja2ChatFormatter(template=template, eos_token=piece("tokenizer.ggml.eos_token_id"),
                                                    bos_token=piece("tokenizer.ggml.bos_token_id"),
                                                    add_generation_prompt=True)
            except Exception:  # noqa: BLE001 - a template jinja2 cannot parse: fall back
                formatter = None
            if formatter is not None:
                self.chat_format = self.chat_format or "gguf"
                return lambda messages: formatter(messages=messages).prompt
        self.chat_format = self.chat_format or "chatml-fallback"
        return _chatml

    # ------------------------------------------------------------ description and counting
    def info(self) -> dict:
        try:
            size = os.path.getsize(self.model_path)
        except OSError:
            size = None
        return {"backend": self.name, "model": os.path.basename(self.model_path), "model_path": self.model_path,
                "sha256": sidecar_facts(Path(self.model_path)).get("sha256"),
                "size_bytes": size, "chat_format": self.chat_format, "n_ctx": self.n_ctx,
                "n_threads": self.n_threads, "reason": self.selection_reason, "prefix_cache": self.prefix_state}

    def count_tokens(self, text: str) -> int:
        return len(self.llm.tokenize(text.encode("utf-8"), add_bos=False, special=True))

    def render_prompt(self, messages: list) -> str:
        try:
            return self._formatter([{"role": m.get("role", "user"), "content": m.get("content") or ""}
                                    for m in messages])
        except Exception as exc:  # noqa: BLE001 - template errors (e.g. role order) must be readable
            raise BackendError(f"the chat template could not render the messages: {exc}") from exc

    def prompt_tokens_for(self, messages: list) -> list:
        text = self.render_prompt(messages)
        tokens = list(self.llm.tokenize(text.encode("utf-8"), add_bos=False, special=True))
        if self._bos_prefix and tokens[:1] != self._bos_prefix:
            tokens = self._bos_prefix + tokens
        return tokens

    def count_message_tokens(self, messages: list) -> int:
        return len(self.prompt_tokens_for(messages))

    def cached_prefix(self, tokens: list) -> int:
        """How many leading tokens of ``tokens`` are already in the KV cache."""
        cached = self.llm.input_ids[: self.llm.n_tokens]
        common = 0
        for a, b in zip(cached, tokens):
            if int(a) != b:
                break
            common += 1
        return common

    def _evaluated_for(self, tokens: list) -> int:
        """Prompt tokens llama-cpp-python will decode for ``tokens`` (mirrors Llama.generate's reuse rule)."""
        common = self.cached_prefix(tokens)
        if common == len(tokens) and tokens:
            exact = self.llm.n_tokens == len(tokens) and not getattr(self.llm, "_requires_eval", True)
            return 0 if exact else 1  # a fully cached prompt replays its last token for fresh logits
        return len(tokens) - common

    def _prefill(self, tokens: list, deadline: float) -> bool:
        """Evaluate the prompt but its last token in chunks, checking the deadline between them; False when it
        passed. One llama.cpp evaluation cannot be stopped, and a long synthesis prompt begun a few seconds
        before the limit ran past it (a question took 64.9 s against the 60 s limit). ``generate`` then finds
        all but the last token cached and evaluates only that one."""
        start, end = self.cached_prefix(tokens), len(tokens) - 1
        if end - start <= PREFILL_CHUNK:
            return True  # one chunk or less: as fast to let generate do it
        self.llm.n_tokens = start  # drop whatever followed the shared prefix (Llama.eval clears that KV)
        while start < end:
            if time.monotonic() >= deadline:
                return False
            stop = min(end, start + PREFILL_CHUNK)
            self.llm.eval(tokens[start:stop])
            start = stop
        return True

    # ------------------------------------------------------------ grammar
    def _grammar(self, gbnf: str | None):
        if not gbnf:
            return None
        ok = self._grammar_ok.get(gbnf)
        if ok is None:
            ok = validate_grammar(self.llm, gbnf)
            if len(self._grammar_ok) > 32:
                self._grammar_ok.clear()
            self._grammar_ok[gbnf] = ok
        if not ok:
            raise BackendError("the GBNF grammar for this pass does not parse (llama.cpp rejected it)")
        return LazyGrammar(self.llm, gbnf)

    # ------------------------------------------------------------ generation
    def _generate(self, request: GenerationRequest) -> Generation:
        started = time.perf_counter()
        tokens = self.prompt_tokens_for(request.messages)
        prompt_tokens = len(tokens)
        max_tokens = max(1, int(request.max_tokens or 1))
        if prompt_tokens + max_tokens > self.n_ctx:
            raise BackendError(f"prompt too long: {prompt_tokens} prompt tokens + {max_tokens} reply tokens exceed "
                               f"the context window of {self.n_ctx} tokens")
        grammar = self._grammar(request.grammar)
        deadline = request.deadline
        if deadline is not None and time.monotonic() >= deadline:
            return Generation(text="", prompt_tokens=prompt_tokens, evaluated_tokens=0, completion_tokens=0,
                              duration_ms=round((time.perf_counter() - started) * 1000, 3), finish_reason="deadline")
        self._restore_prefix(tokens)
        evaluated = self._evaluated_for(tokens)
        if deadline is not None and not self._prefill(tokens, deadline):
            return Generation(text="", prompt_tokens=prompt_tokens, evaluated_tokens=evaluated, completion_tokens=0,
                              duration_ms=round((time.perf_counter() - started) * 1000, 3), finish_reason="deadline")
        stops = [s for s in (request.stop or []) if s]
        hold = max((len(s) for s in stops), default=1) - 1
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        text = ""
        emitted = 0
        completion: list[int] = []
        finish = "length"
        first_token_ms = None
        self.llm.set_seed(self.seed)
        # An answer copies names and figures from the results in its prompt, so drafts taken from the prompt
        # may be accepted several tokens at a time; a gathering reply or a query is grammar-bound, so no drafts.
        self.llm.draft_model = self.prompt_lookup if request.phase not in ("gather", "query") else None
        try:
            history = list(tokens)
            # The grammar judges the likely candidates only (backends/lazy_grammar.py), not the whole vocabulary.
            for token in self.llm.generate(tokens, temp=self.temperature, top_k=40, top_p=0.95, min_p=0.05,
                                           repeat_penalty=1.0, logits_processor=[grammar] if grammar else None):
                if self._is_end(token):
                    finish = "stop"
                    break
                if first_token_ms is None:
                    first_token_ms = round((time.perf_counter() - started) * 1000, 3)
                piece = self.llm.detokenize([token], prev_tokens=history)
                history.append(token)
                completion.append(token)
                text += decoder.decode(piece)
                if stops:
                    cut = min((i for i in (text.find(s) for s in stops) if i >= 0), default=-1)
                    if cut >= 0:
                        text = text[:cut]
                        finish = "stop"
                        break
                if request.phase == "gather" and _repeats_a_line(text):
                    # A small model may write the same call again and again; each copy costs seconds and
                    # the loop would only mark it a duplicate.
                    text, finish = text[:text.rfind("\n")], "repeat"
                    break
                safe = len(text) - hold if stops else len(text)
                if request.on_token and safe > emitted:
                    request.on_token(text[emitted:safe])
                    emitted = safe
                if len(completion) >= max_tokens:
                    finish = "length"
                    break
                if deadline is not None and time.monotonic() > deadline:
                    finish = "deadline"
                    break
        except (BackendError, GenerationCancelled):  # a reader gone mid-answer is no llama.cpp failure
            raise
        except Exception as exc:  # noqa: BLE001 - llama.cpp decode failures
            raise BackendError(f"llama.cpp generation failed: {type(exc).__name__}: {exc}") from exc
        finally:
            if grammar is not None:
                grammar.close()
        text += decoder.decode(b"", final=True)
        if request.on_token and len(text) > emitted:
            request.on_token(text[emitted:])
        return Generation(text=text, prompt_tokens=prompt_tokens, evaluated_tokens=evaluated,
                          completion_tokens=len(completion), first_token_ms=first_token_ms,
                          duration_ms=round((time.perf_counter() - started) * 1000, 3), finish_reason=finish)

    def _is_end(self, token: int) -> bool:
        import llama_cpp

        try:
            return bool(llama_cpp.llama_vocab_is_eog(self.llm._model.vocab, token))
        except Exception:  # noqa: BLE001
            return token == self.llm.token_eos()

    def close(self) -> None:
        llm, self.llm = self.llm, None
        if llm is not None:
            try:
                llm.close()
            except Exception:  # noqa: BLE001
                pass


def _repeats_a_line(text: str) -> bool:
    """The line being written is, already in full, one of the reply's earlier lines."""
    cut = text.rfind("\n")
    current = text[cut + 1:].strip()
    return cut >= 0 and bool(current) and current in {line.strip() for line in text[:cut].split("\n")}


def validate_grammar(llm, gbnf: str) -> bool:
    """True when llama.cpp parses ``gbnf`` against the model's vocabulary.

    llama-cpp-python does not check the result of llama_sampler_init_grammar, so an invalid
    grammar would reach the sampler chain as a null pointer; this checks it first.
    """
    import llama_cpp

    sampler = llama_cpp.llama_sampler_init_grammar(llm._model.vocab, gbnf.encode("utf-8"), b"root")
    if not sampler:
        return False
    llama_cpp.llama_sampler_free(sampler)
    return True
