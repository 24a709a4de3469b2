"""Every setting in one place: its type, default, environment variable and meaning.

config.yaml and the environment only override these defaults. The settings table in docs/settings.md is
checked against this module by a test, so the two cannot drift apart.
"""
from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields, is_dataclass


def setting(default, help: str, env: str | None = None, low=None, high=None, choices: tuple | None = None):
    """A field with its documentation attached; ``env`` names the environment variable that overrides it.

    ``low`` and ``high`` bound a numeric setting (both inclusive; None = unbounded on that side); ``choices`` are the
    only values a text setting takes. The loader refuses anything else with a message naming the setting and what
    it allows.
    """
    metadata = {"help": help, "env": env, "low": low, "high": high, "choices": choices}
    if isinstance(default, (list, dict)):
        return field(default_factory=lambda: type(default)(default), metadata=metadata)
    return field(default=default, metadata=metadata)


@dataclass(frozen=True)
class DataSettings:
    dir: str | None = setting(None, "data folder; null falls back to `var/data`, then `../shared/data`",
                              env="CHIQA_DATA_DIR")
    cache_dir: str = setting("cache", "parquet cache folder, relative to `server.var_dir`")


@dataclass(frozen=True)
class OpenAISettings:
    base_url: str = setting("http://127.0.0.1:8080/v1", "OpenAI-compatible server")
    model: str = setting("local-model", "model name sent to it")
    api_key_env: str | None = setting("OPENAI_API_KEY", "environment variable holding its API key, if any")
    request_timeout_seconds: float = setting(60, "longest wait for one whole reply (connect, headers and body "
                                                 "together), also capped by the question's time left",
                                             low=0.01, high=86400)
    send_grammar: bool = setting(True, "constrain tool calls on the server, in the field its `server_kind` reads")
    server_kind: str = setting("llama-server", "llama-server (`grammar`), vllm (`structured_outputs.grammar`), "
                               "ollama or generic (`response_format` JSON schema)")


@dataclass(frozen=True)
class ModelSettings:
    backend: str = setting("auto", "auto, llama, openai, rules or scripted", env="CHIQA_BACKEND")
    path: str | None = setting("qwen2.5-coder-0.5b", "a catalogue model name (see `models:` in config.yaml; "
                                                     "pulled into var/models) or a GGUF file path",
                               env="CHIQA_MODEL_PATH")
    hf_repo: str = setting("Qwen/Qwen2.5-1.5B-Instruct-GGUF", "default model repo for `Llama.from_pretrained`")
    hf_file: str = setting("qwen2.5-1.5b-instruct-q4_k_m.gguf", "file in that repo")
    allow_download: bool = setting(False, "allow fetching the default model when network is available")
    chat_format: str | None = setting(None, "llama-cpp-python chat format; null uses the GGUF's template")
    n_ctx: int = setting(4096, "context window in tokens", low=128, high=1048576)
    n_threads: int | None = setting(None, "threads; null = physical cores", low=1, high=1024)
    n_batch: int = setting(512, "prompt tokens llama.cpp evaluates per batch (see docs/measurements.md for what was tried)",
                           low=1, high=1048576)
    flash_attn: bool = setting(False, "llama.cpp flash attention (see docs/measurements.md for what was tried)")
    prompt_lookup: int = setting(0, "prompt-lookup decoding on the synthesis pass: draft tokens per step, 0 = off "
                                    "(needs every position's logits; see docs/measurements.md)", low=0, high=64)
    seed: int = setting(42, "sampling seed", low=-1, high=2**32 - 1)
    temperature: float = setting(0.2, "sampling temperature", low=0, high=5)
    max_tokens: int = setting(384, "reply budget per model pass", low=1, high=1048576)
    grammar: bool = setting(True, "constrain tool calls with a GBNF grammar built from the tool schemas")
    prefix_cache: bool = setting(True, "save the system prompt's KV state under the cache folder and load it at "
                                       "start-up, so a question evaluates only its own tokens")
    queue_size: int = setting(8, "requests that may wait for the model before \"busy\"", low=0, high=100000)
    scripted_delay_seconds: float = setting(0.0, "with the scripted backend, each pass sleeps this long "
                                                 "(fills the model queue on purpose in the load test)",
                                            env="CHIQA_SCRIPTED_DELAY", low=0, high=3600)
    openai: OpenAISettings = field(default_factory=OpenAISettings)


@dataclass(frozen=True)
class OrchestratorSettings:
    max_tool_calls: int = setting(4, "tool calls per question", low=1, high=100)
    timeout_seconds: float = setting(60, "wall time per question", low=0.01, high=86400)
    reply_reserve_tokens: int = setting(384, "tokens kept free for the reply when fitting the prompt",
                                        low=0, high=1048576)
    grounding_check: bool = setting(True, "check answer numbers against tool results")
    question_grammar: bool = setting(True, "the gathering grammar admits only the places, years and months the "
                                     "question named, where it named any")
    model_calls: str = setting("gaps", "with a model: gaps = where the reading used every word of the question, its "
                                       "calls run with no model gathering pass, the model writes the answer from the "
                                       "key figures, and an answer that fails the check is replaced by the planner's "
                                       "(no rewrite pass); where the reading falls short the model writes one typed "
                                       "query; own = the design's plain loop: the model writes every call itself",
                               choices=("gaps", "own"))
    key_figures: bool = setting(True, "with a model, the synthesis request names the result lines that answer the "
                                      "question (the rule planner's lead for those results)")
    number_grammar: bool = setting(False, "with a model, the synthesis grammar admits only numerals found in the "
                                          "tool results, the question or the notes "
                                          "(off by default: see docs/measurements.md)")
    max_conversation_turns: int = setting(20, "questions one conversation may hold; past it, a new conversation",
                                          low=1, high=100000)


@dataclass(frozen=True)
class ServerSettings:
    host: str = setting("127.0.0.1", "`python app.py serve` host")
    port: int = setting(8000, "`python app.py serve` port", low=1, high=65535)
    var_dir: str = setting("var", "run history, cache and refreshed data", env="CHIQA_VAR_DIR")
    max_question_chars: int = setting(2000, "longest accepted question", low=1, high=1000000)
    max_body_bytes: int = setting(65536, "largest accepted request body", low=1024, high=2**30)
    allowed_hosts: str = setting("127.0.0.1, localhost, [::1]",
                                 "Host header names the app answers (comma-separated; `*` = any); other hosts get "
                                 "400 (DNS rebinding). The host of `server.public_url` is allowed too",
                                 env="CHIQA_ALLOWED_HOSTS")
    public_url: str | None = setting(None, "the app's address as clients reach it (e.g. https://chiqa.example.org), "
                                           "used to build permalinks; null = the request's own (allowed) host",
                                     env="CHIQA_PUBLIC_URL")


@dataclass(frozen=True)
class StoreSettings:
    url: str | None = setting(None, "the run history's database: null = `sqlite:///<server.var_dir>/runs.sqlite3` (one "
                                    "machine); `postgresql://USER:PASSWORD@HOST:PORT/DATABASE` for several web nodes "
                                    "sharing one history", env="CHIQA_STORE_URL")
    pool_size: int = setting(4, "PostgreSQL: connections each web worker process keeps open", low=1, high=1000)
    max_overflow: int = setting(4, "PostgreSQL: connections a worker may open beyond `pool_size` under load",
                                low=0, high=1000)
    pool_timeout_seconds: float = setting(5, "PostgreSQL: longest wait for a free connection of the pool",
                                          low=0.1, high=3600)
    connect_timeout_seconds: float = setting(5, "PostgreSQL: longest wait to connect (at least 2 s)",
                                             low=0.1, high=3600)
    statement_timeout_seconds: float = setting(10, "PostgreSQL: longest one statement may run, lock waits included "
                                                   "(enforced by the server)", low=0.1, high=3600)


@dataclass(frozen=True)
class SocrataSettings:
    domain: str = setting("data.cityofchicago.org", "portal for `data refresh`")
    page_size: int = setting(50000, "rows per Socrata page", low=1, high=1000000)
    timeout_seconds: float = setting(60, "HTTP timeout for the refresh", low=0.01, high=3600)
    retries: int = setting(3, "retries per page after the first attempt (HTTP 5xx, 429, timeouts)", low=0, high=20)
    backoff_seconds: float = setting(1.0, "first retry wait; doubles each retry", low=0, high=600)


@dataclass(frozen=True)
class Settings:
    data: DataSettings = field(default_factory=DataSettings)
    model: ModelSettings = field(default_factory=ModelSettings)
    orchestrator: OrchestratorSettings = field(default_factory=OrchestratorSettings)
    server: ServerSettings = field(default_factory=ServerSettings)
    store: StoreSettings = field(default_factory=StoreSettings)
    socrata: SocrataSettings = field(default_factory=SocrataSettings)
    config_path: str = ""  # where the file came from; not a setting


def leaf_settings(cls=Settings, prefix: str = ""):
    """(dotted key, dataclass field) for every setting, in declaration order."""
    for f in fields(cls):
        if f.name == "config_path":
            continue
        sub = f.default_factory if f.default_factory is not MISSING and is_dataclass(f.default_factory) else None
        if sub is not None:
            yield from leaf_settings(sub, f"{prefix}{f.name}.")
        else:
            yield f"{prefix}{f.name}", f


def default_of(f):
    return f.default_factory() if f.default_factory is not MISSING else f.default


def env_overrides() -> dict:
    """Environment variable -> dotted key."""
    return {f.metadata["env"]: key for key, f in leaf_settings() if f.metadata.get("env")}
