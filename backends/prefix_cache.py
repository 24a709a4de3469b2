"""The fixed system prefix of every prompt, evaluated once and saved as llama.cpp's per-sequence KV state.

Every question's prompt starts with the same tokens (the system message with the tool list, rendered by
the chat template). Evaluating them costs seconds on a CPU, so the KV state of sequence 0 after those
tokens is written once under var/cache, keyed by the model file, the prompt version and n_ctx, and
loaded at start-up by every process. Only the sequence's KV cells are saved (llama_state_seq_*), not the
whole context state with its logits buffer, so the file is small and loading is fast.

A file that fails to load, or whose tokens are not the expected prefix, is removed and rebuilt.
"""
from __future__ import annotations

import ctypes
import hashlib
import json
import os
from pathlib import Path

_FORMAT = 1  # bump when the key or file layout changes


def common_prefix(a: list, b: list) -> list:
    out = []
    for x, y in zip(a, b):
        if x != y:
            break
        out.append(x)
    return out


def cache_key(model_id: str, prompt_version: str, n_ctx: int, tokens: list) -> str:
    payload = json.dumps([_FORMAT, model_id, prompt_version, int(n_ctx), hashlib.sha256(
        json.dumps(tokens).encode()).hexdigest()])
    return hashlib.sha256(payload.encode()).hexdigest()[:32]


def model_identity(model_path: str) -> str:
    """The pulled model's sha256 from its sidecar when there is one, else path, size and mtime."""
    path = Path(model_path)
    sidecar = path.with_suffix(".json")
    try:
        recorded = json.loads(sidecar.read_text(encoding="utf-8")).get("sha256")
        if recorded:
            return f"sha256:{recorded}"
    except (OSError, ValueError, AttributeError):
        pass
    try:
        stat = path.stat()
        return f"{path.resolve()}:{stat.st_size}:{int(stat.st_mtime)}"
    except OSError:
        return str(path)


class PrefixCache:
    """Save and restore the KV state of the shared prompt prefix for one Llama object."""

    def __init__(self, cache_dir: Path):
        self.cache_dir = Path(cache_dir)
        self.last_event = ""  # hit | built | rebuilt (corrupt/stale) | skipped: what happened, for the trace

    def path_for(self, key: str) -> Path:
        return self.cache_dir / f"kv-prefix-{key}.bin"

    def restore_or_build(self, llm, tokens: list, key: str) -> str:
        """Make ``llm`` hold ``tokens`` in sequence 0; returns hit, built or rebuilt."""
        if not tokens:
            self.last_event = "skipped"
            return self.last_event
        path = self.path_for(key)
        if path.is_file():
            if self._load(llm, path, tokens):
                self.last_event = "hit"
                return self.last_event
            path.unlink(missing_ok=True)  # corrupt or not this prefix: rebuild below
            self.last_event = "rebuilt"
        else:
            self.last_event = "built"
        self._evaluate(llm, tokens)
        self._save(llm, path, tokens)
        return self.last_event

    @staticmethod
    def _evaluate(llm, tokens: list) -> None:
        llm.reset()
        llm.eval(tokens)

    def _save(self, llm, path: Path, tokens: list) -> None:
        import llama_cpp  # Lazy: llama-cpp-python loads only when the llama backend is used

        self.cache_dir.mkdir(parents=True, exist_ok=True)
        temp = path.with_suffix(f".tmp{os.getpid()}")
        array = (llama_cpp.llama_token * len(tokens))(*tokens)
        written = llama_cpp.llama_state_seq_save_file(llm.ctx, str(temp).encode(), 0, array, len(tokens))
        if written and temp.is_file():
            os.replace(temp, path)  # atomic: another worker never reads a half-written file
        else:
            temp.unlink(missing_ok=True)

    @staticmethod
    def _load(llm, path: Path, tokens: list) -> bool:
        import llama_cpp  # Lazy: llama-cpp-python loads only when the llama backend is used

        capacity = len(tokens) + 8
        out = (llama_cpp.llama_token * capacity)()
        count = ctypes.c_size_t(0)
        llm.reset()
        try:
            read = llama_cpp.llama_state_seq_load_file(llm.ctx, str(path).encode(), 0, out, capacity,
                                                       ctypes.byref(count))
        except Exception:  # noqa: BLE001 - any failure to read means rebuild
            return False
        if not read or count.value != len(tokens) or list(out[: count.value]) != list(tokens):
            mem = llama_cpp.llama_get_memory(llm.ctx)
            if mem is not None:
                llama_cpp.llama_memory_seq_rm(mem, 0, -1, -1)  # drop whatever a partial load left
            return False
        # Tell the Python wrapper what the KV cache now holds, so generate() reuses the prefix.
        llm.input_ids[: len(tokens)] = tokens
        llm.n_tokens = len(tokens)
        llm._requires_eval = True
        return True
