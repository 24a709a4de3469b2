"""Model backends behind one small interface.

Every backend turns a GenerationRequest (chat messages plus the structured context the
orchestrator already has) into a Generation (text plus token accounting). The orchestrator
parses TOOL_CALL lines out of the text the same way whichever backend wrote it.

Backends: ``llama`` (llama-cpp-python in process), ``openai`` (an OpenAI-compatible HTTP
server such as llama-server, vLLM or Ollama), ``rules`` (the deterministic planner in
rules_backend.py) and ``scripted`` (canned replies, for tests, benches and load tests).
"""
from __future__ import annotations

import codecs
import json
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable


class BackendError(RuntimeError):
    """The model could not be loaded or could not answer; the message says why."""


class BackendBusy(BackendError):
    """The model's wait queue is full; try again shortly."""


@dataclass
class GenerationRequest:
    """One model pass: the prompt as chat messages plus the context a planner may use."""

    messages: list  # [{"role": "system"|"user"|"assistant", "content": str}]
    phase: str = "gather"  # "gather" (may emit TOOL_CALL lines) | "synthesis" (writes the answer)
    grammar: str | None = None  # GBNF text constraining a gather pass
    max_tokens: int = 384
    deadline: float | None = None  # time.monotonic() value after which generation stops
    stop: list = field(default_factory=list)
    question: str = ""
    analysis: dict | None = None
    results: list = field(default_factory=list)  # [{"name", "arguments", "status", "result": ToolResult dict}]
    remaining_calls: int = 0
    strict: bool = False  # the stricter re-synthesis after a failed grounding check
    on_token: Callable[[str], None] | None = None


@dataclass
class Generation:
    text: str
    prompt_tokens: int = 0
    evaluated_tokens: int = 0  # prompt tokens actually evaluated; the rest came from the KV cache
    completion_tokens: int = 0
    duration_ms: float = 0.0
    finish_reason: str = "stop"  # stop | length | deadline


class ModelGate:
    """One generation at a time; at most ``queue_size`` callers wait, the rest get BackendBusy."""

    def __init__(self, queue_size: int = 8):
        self._lock = threading.Lock()
        self._state = threading.Lock()
        self.queue_size = int(queue_size)
        self.waiting = 0
        self.busy = False

    def __enter__(self):
        with self._state:
            if self.busy and self.waiting >= self.queue_size:
                raise BackendBusy(f"the model is busy: {self.waiting} requests already waiting; retry shortly")
            self.waiting += 1
        try:
            self._lock.acquire()
        finally:
            with self._state:
                self.waiting -= 1
        self.busy = True
        return self

    def __exit__(self, *exc):
        self.busy = False
        self._lock.release()
        return False


class Backend:
    """Base class: subclasses implement ``_generate`` and describe themselves in ``info``."""

    name = "base"
    n_ctx = 4096

    def __init__(self, queue_size: int = 8):
        self.gate = ModelGate(queue_size)
        self.selection_reason = ""

    def info(self) -> dict:
        return {"backend": self.name, "model": None, "n_ctx": self.n_ctx, "reason": self.selection_reason}

    def count_tokens(self, text: str) -> int:
        """Approximate for backends without a tokenizer; llama overrides with the real one."""
        return max(1, len(text) // 4)

    def count_message_tokens(self, messages: list) -> int:
        return sum(self.count_tokens(m["content"]) + 4 for m in messages)

    def generate(self, request: GenerationRequest) -> Generation:
        with self.gate:
            started = time.perf_counter()
            generation = self._generate(request)
            if not generation.duration_ms:
                generation.duration_ms = round((time.perf_counter() - started) * 1000, 3)
            return generation

    def _generate(self, request: GenerationRequest) -> Generation:
        raise NotImplementedError

    def close(self) -> None:
        pass


class ScriptedBackend(Backend):
    """Replies from a queue (strings, or callables taking the request); records every request.

    With an empty queue it behaves as a tiny deterministic model: the first gather pass asks
    for the year breakdown of homicides, later passes stop, and synthesis quotes the results.
    """

    name = "scripted"

    def __init__(self, replies=None, delay: float = 0.0, queue_size: int = 8):
        super().__init__(queue_size)
        self.replies = list(replies or [])
        self.delay = delay
        self.requests: list[GenerationRequest] = []
        self.selection_reason = "scripted replies (tests and benchmarks)"

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
        if request.on_token:
            request.on_token(text)
        prompt_tokens = self.count_message_tokens(request.messages)
        return Generation(text=text, prompt_tokens=prompt_tokens, evaluated_tokens=prompt_tokens,
                          completion_tokens=self.count_tokens(text))

    @staticmethod
    def _default_reply(request: GenerationRequest) -> str:
        if request.phase == "gather":
            if request.results:
                return "I have enough data."
            return 'TOOL_CALL: {"name": "query_homicides_advanced", "arguments": {"group_by": "year"}}'
        lines = [r["result"].get("summary", "") for r in request.results if r.get("result")]
        return " ".join(line for line in lines if line) or "I could not find data for that question."


def make_backend(settings: dict, name: str | None = None) -> Backend:
    """Build the configured backend; ``auto`` prefers a local GGUF and falls back to rules."""
    from settings import get_dotted

    name = (name or get_dotted(settings, "model.backend", "auto") or "auto").lower()
    queue_size = int(get_dotted(settings, "model.queue_size", 8))
    if name == "scripted":
        return ScriptedBackend(queue_size=queue_size)
    if name == "rules":
        from rules_backend import RulesBackend

        backend = RulesBackend(queue_size=queue_size)
        backend.selection_reason = backend.selection_reason or "backend 'rules' chosen in config or --backend"
        return backend
    if name == "llama":
        return LlamaCppBackend.from_settings(settings)
    if name == "openai":
        return OpenAIBackend.from_settings(settings)
    if name == "auto":
        return _auto_backend(settings, queue_size)
    raise BackendError(f"unknown backend '{name}'; choose auto, llama, openai, rules or scripted")


# ---------------------------------------------------------------- backend selection

def _network_reachable(host: str = "huggingface.co", port: int = 443, timeout: float = 1.5) -> bool:
    import socket

    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def plan_backend(settings: dict, name: str | None = None, check_network: bool = True) -> tuple[str, str]:
    """Which backend ``make_backend`` would build, and why, without loading anything.

    /api/health uses this before the first question so the choice is visible at once.
    """
    from settings import get_dotted

    name = (name or get_dotted(settings, "model.backend", "auto") or "auto").lower()
    if name != "auto":
        return name, f"backend '{name}' chosen in config, CHIQA_BACKEND or --backend"
    configured = get_dotted(settings, "model.path")
    path = Path(str(configured)).expanduser() if configured else None
    if path is not None and path.is_file():
        return "llama", f"auto: model file {path} found"
    allow = bool(get_dotted(settings, "model.allow_download", False))
    if allow and (not check_network or _network_reachable()):
        return "llama", (f"auto: no local model file; downloading {get_dotted(settings, 'model.hf_repo')}/"
                         f"{get_dotted(settings, 'model.hf_file')} (model.allow_download is true)")
    where = ("no model file configured (set model.path or CHIQA_MODEL_PATH)" if path is None
             else f"no model file at {path} (set model.path or CHIQA_MODEL_PATH)")
    download = "; download allowed but network unreachable" if allow else ""
    return "rules", f"auto: {where}{download}; using the rule planner"


def _auto_backend(settings: dict, queue_size: int) -> Backend:
    """Prefer a local GGUF (or an allowed download); otherwise the rule planner, saying why."""
    choice, reason = plan_backend(settings, "auto")
    if choice == "llama":
        backend = LlamaCppBackend.from_settings(settings, queue_size=queue_size)
        backend.selection_reason = reason
        return backend
    try:
        from rules_backend import RulesBackend
    except Exception as exc:  # noqa: BLE001 - any import failure means no planner
        raise BackendError(
            f"{reason.removesuffix('; using the rule planner')}, and the rule planner could not be loaded "
            f"({type(exc).__name__}: {exc}); set model.path or CHIQA_MODEL_PATH to a GGUF file"
        ) from exc
    backend = RulesBackend(queue_size=queue_size)
    backend.selection_reason = reason
    return backend


# ---------------------------------------------------------------- llama.cpp in process

GGUF_MAGIC = b"GGUF"
_HOW_TO_GET_A_MODEL = (
    "set model.path in config.yaml or CHIQA_MODEL_PATH to a GGUF file (e.g. "
    "qwen2.5-1.5b-instruct-q4_k_m.gguf from Hugging Face), or set model.allow_download: true"
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
        probe = list(llm.tokenize(b"", add_bos=True, special=True))
        self._bos_prefix = probe[:1] if probe else []

    # ------------------------------------------------------------ construction
    @classmethod
    def from_settings(cls, settings: dict, queue_size: int | None = None) -> "LlamaCppBackend":
        from settings import get_dotted

        def opt(key, default=None):
            value = get_dotted(settings, "model." + key, default)
            return default if value is None else value

        queue_size = int(queue_size if queue_size is not None else opt("queue_size", 8))
        n_ctx = int(opt("n_ctx", 4096))
        n_threads = int(opt("n_threads") or physical_cores())
        seed = int(opt("seed", 42))
        temperature = float(opt("temperature", 0.2))
        chat_format = opt("chat_format") or None
        configured = opt("path")
        try:
            from llama_cpp import Llama
        except Exception as exc:  # noqa: BLE001
            raise BackendError(f"llama-cpp-python is not installed or failed to import: {exc}") from exc
        common = dict(n_ctx=n_ctx, n_threads=n_threads, seed=seed, verbose=False)
        if chat_format:
            common["chat_format"] = chat_format
        path = Path(str(configured)).expanduser() if configured else None
        if path is None or not path.exists():
            if not opt("allow_download", False):
                where = f"model file not found: {path}" if path else "no model file configured (model.path is null)"
                raise BackendError(f"{where}; {_HOW_TO_GET_A_MODEL}")
            repo, filename = opt("hf_repo"), opt("hf_file")
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
        backend.selection_reason = f"backend 'llama' with model file {model_path}"
        return backend

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
                "size_bytes": size, "chat_format": self.chat_format, "n_ctx": self.n_ctx,
                "n_threads": self.n_threads, "reason": self.selection_reason}

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
        from llama_cpp import LlamaGrammar

        return LlamaGrammar.from_string(gbnf, verbose=False)

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
        evaluated = self._evaluated_for(tokens)
        stops = [s for s in (request.stop or []) if s]
        hold = max((len(s) for s in stops), default=1) - 1
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        text = ""
        emitted = 0
        completion: list[int] = []
        finish = "length"
        self.llm.set_seed(self.seed)
        try:
            history = list(tokens)
            for token in self.llm.generate(tokens, temp=self.temperature, top_k=40, top_p=0.95, min_p=0.05,
                                           repeat_penalty=1.0, grammar=grammar):
                if self._is_end(token):
                    finish = "stop"
                    break
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
        except BackendError:
            raise
        except Exception as exc:  # noqa: BLE001 - llama.cpp decode failures
            raise BackendError(f"llama.cpp generation failed: {type(exc).__name__}: {exc}") from exc
        text += decoder.decode(b"", final=True)
        if request.on_token and len(text) > emitted:
            request.on_token(text[emitted:])
        return Generation(text=text, prompt_tokens=prompt_tokens, evaluated_tokens=evaluated,
                          completion_tokens=len(completion),
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


# ---------------------------------------------------------------- OpenAI-compatible HTTP

class OpenAIBackend(Backend):
    """Any OpenAI-compatible /chat/completions server (llama-server, llama_cpp.server, vLLM, Ollama)."""

    name = "openai"

    def __init__(self, base_url: str, model: str = "local-model", *, api_key: str | None = None,
                 timeout: float = 60.0, temperature: float = 0.2, send_grammar: bool = True,
                 n_ctx: int = 4096, queue_size: int = 8, session=None):
        super().__init__(queue_size)
        import requests

        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = api_key
        self.timeout = float(timeout)
        self.temperature = float(temperature)
        self.send_grammar = send_grammar
        self.n_ctx = int(n_ctx)
        self.session = session or requests.Session()

    @classmethod
    def from_settings(cls, settings: dict, queue_size: int | None = None) -> "OpenAIBackend":
        from settings import get_dotted

        def opt(key, default=None):
            value = get_dotted(settings, "model." + key, default)
            return default if value is None else value

        key_env = opt("openai.api_key_env", "OPENAI_API_KEY")
        backend = cls(
            opt("openai.base_url", "http://127.0.0.1:8080/v1"),
            opt("openai.model", "local-model"),
            api_key=os.environ.get(key_env) if key_env else None,
            timeout=float(opt("openai.request_timeout_seconds", 60)),
            temperature=float(opt("temperature", 0.2)),
            send_grammar=bool(opt("openai.send_grammar", True)),
            n_ctx=int(opt("n_ctx", 4096)),
            queue_size=int(queue_size if queue_size is not None else opt("queue_size", 8)),
        )
        backend.selection_reason = f"backend 'openai' at {backend.base_url}"
        return backend

    def info(self) -> dict:
        return {"backend": self.name, "model": self.model, "base_url": self.base_url, "chat_format": "server",
                "n_ctx": self.n_ctx, "reason": self.selection_reason}

    def _payload(self, request: GenerationRequest, stream: bool) -> dict:
        payload = {
            "model": self.model,
            "messages": [{"role": m.get("role", "user"), "content": m.get("content") or ""} for m in request.messages],
            "max_tokens": int(request.max_tokens),
            "temperature": self.temperature,
            "stream": stream,
        }
        if request.stop:
            payload["stop"] = list(request.stop)
        if request.grammar and self.send_grammar:
            payload["grammar"] = request.grammar
        return payload

    def _timeout(self, deadline: float | None) -> float:
        if deadline is None:
            return self.timeout
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise BackendError("the deadline passed before the model server was asked")
        return max(0.05, min(self.timeout, remaining))

    def _generate(self, request: GenerationRequest) -> Generation:
        import requests

        started = time.perf_counter()
        url = self.base_url + "/chat/completions"
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        stream = request.on_token is not None
        timeout = self._timeout(request.deadline)
        try:
            response = self.session.post(url, json=self._payload(request, stream), headers=headers,
                                         timeout=timeout, stream=stream)
        except requests.Timeout as exc:
            raise BackendError(f"the model server at {url} did not answer within {timeout:.1f} s") from exc
        except requests.ConnectionError as exc:
            raise BackendError(f"cannot connect to the model server at {url}: is it running? ({exc})") from exc
        except requests.RequestException as exc:
            raise BackendError(f"request to the model server at {url} failed: {exc}") from exc
        try:
            if response.status_code >= 400:
                detail = (response.text or "")[:300].strip()
                raise BackendError(f"the model server at {url} answered HTTP {response.status_code}: "
                                   f"{detail or response.reason}")
            if stream:
                generation = self._read_stream(response, request, url)
            else:
                generation = self._read_body(response, url)
        except requests.Timeout as exc:
            raise BackendError(f"the model server at {url} stopped answering (timeout)") from exc
        except requests.RequestException as exc:
            raise BackendError(f"reading the reply from {url} failed: {exc}") from exc
        finally:
            response.close()
        if not generation.prompt_tokens:
            generation.prompt_tokens = self.count_message_tokens(request.messages)
            generation.evaluated_tokens = generation.prompt_tokens
        if not generation.completion_tokens:
            generation.completion_tokens = self.count_tokens(generation.text) if generation.text else 0
        generation.duration_ms = round((time.perf_counter() - started) * 1000, 3)
        return generation

    @staticmethod
    def _usage(generation: Generation, usage) -> None:
        if not isinstance(usage, dict):
            return
        prompt = usage.get("prompt_tokens")
        if isinstance(prompt, int):
            generation.prompt_tokens = prompt
            generation.evaluated_tokens = prompt
            details = usage.get("prompt_tokens_details")
            cached = details.get("cached_tokens") if isinstance(details, dict) else None
            if isinstance(cached, int) and 0 <= cached <= prompt:
                generation.evaluated_tokens = prompt - cached
        completion = usage.get("completion_tokens")
        if isinstance(completion, int):
            generation.completion_tokens = completion

    def _read_body(self, response, url: str) -> Generation:
        try:
            body = response.json()
            choice = body["choices"][0]
            text = choice["message"]["content"] or ""
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            snippet = (response.text or "")[:200]
            raise BackendError(f"the model server at {url} sent an unreadable reply ({type(exc).__name__}): "
                               f"{snippet!r}") from exc
        if not isinstance(text, str):
            raise BackendError(f"the model server at {url} sent non-text content")
        finish = choice.get("finish_reason") or "stop"
        generation = Generation(text=text, finish_reason="length" if finish == "length" else "stop")
        self._usage(generation, body.get("usage"))
        return generation

    def _read_stream(self, response, request: GenerationRequest, url: str) -> Generation:
        parts: list[str] = []
        generation = Generation(text="")
        finish = "stop"
        got_any = False
        for raw in response.iter_lines(decode_unicode=False):
            if request.deadline is not None and time.monotonic() > request.deadline:
                finish = "deadline"
                break
            if not raw:
                continue
            line = raw.decode("utf-8", errors="replace").strip()
            if not line.startswith("data:"):
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                break
            try:
                chunk = json.loads(data)
            except ValueError as exc:
                raise BackendError(f"the model server at {url} sent an unreadable stream chunk: {data[:120]!r}") from exc
            got_any = True
            if chunk.get("usage"):
                self._usage(generation, chunk["usage"])
            for choice in chunk.get("choices") or []:
                piece = (choice.get("delta") or {}).get("content") or ""
                if piece:
                    parts.append(piece)
                    request.on_token(piece)
                if choice.get("finish_reason") == "length":
                    finish = "length"
        if not got_any and finish != "deadline":
            raise BackendError(f"the model server at {url} sent an empty or unreadable stream")
        generation.text = "".join(parts)
        generation.finish_reason = finish
        return generation
