"""Read a GGUF file's header and metadata in plain Python: enough to check a download without llama.cpp."""
from __future__ import annotations

import struct
from pathlib import Path

MAGIC = b"GGUF"
_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
_STRING, _ARRAY = 8, 9
WANTED = ("general.architecture", "general.name", "tokenizer.chat_template")


class GGUFError(ValueError):
    """Not a GGUF file, or its header is cut short or malformed."""


class _Reader:
    def __init__(self, fh):
        self.fh = fh

    def take(self, n: int) -> bytes:
        data = self.fh.read(n)
        if len(data) != n:
            raise GGUFError("the file ends inside its header (truncated?)")
        return data

    def scalar(self, kind: int):
        fmt = _SCALARS[kind]
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))[0]

    def string(self) -> str:
        length = self.scalar(10)
        if length > 64 * 1024 * 1024:
            raise GGUFError("a metadata string claims an impossible length")
        return self.take(length).decode("utf-8", errors="replace")

    def value(self, kind: int, keep: bool):
        if kind in _SCALARS:
            return self.scalar(kind)
        if kind == _STRING:
            return self.string()
        if kind == _ARRAY:
            item_kind, count = self.scalar(4), self.scalar(10)
            items = [self.value(item_kind, keep) for _ in range(count)]
            return items if keep else None
        raise GGUFError(f"unknown metadata value type {kind}")


def read_header(path: str | Path) -> dict:
    """{"version", "tensors", "metadata": {architecture, name, context_length, chat_template}}."""
    with open(path, "rb") as fh:
        reader = _Reader(fh)
        if reader.take(4) != MAGIC:
            raise GGUFError(f"{path} does not start with the GGUF magic bytes")
        version = reader.scalar(4)
        if version not in (2, 3):
            raise GGUFError(f"{path}: unsupported GGUF version {version}")
        tensors, kv_count = reader.scalar(10), reader.scalar(10)
        meta: dict = {}
        for _ in range(kv_count):
            key = reader.string()
            kind = reader.scalar(4)
            value = reader.value(kind, keep=False)
            if key in WANTED or key.endswith(".context_length"):
                meta[key] = value
    arch = meta.get("general.architecture")
    return {"version": version, "tensors": tensors,
            "metadata": {"architecture": arch, "name": meta.get("general.name"),
                         "context_length": meta.get(f"{arch}.context_length"),
                         "chat_template": meta.get("tokenizer.chat_template")}}
