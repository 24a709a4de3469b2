"""Grammar-constrained sampling that checks a few likely tokens instead of the whole vocabulary.

llama-cpp-python puts the grammar sampler before top-k, so every generated token is matched against the
grammar for all ~150,000 vocabulary entries of a Qwen model: seconds per token on a CPU. llama.cpp's own
tools sample first and consult the grammar only for the candidates. This does the same as a logits
processor: the grammar judges the top candidates; only if none of them is allowed does it judge the
whole vocabulary. The token that is then sampled is always one the grammar allows.
"""
from __future__ import annotations

import ctypes

import numpy as np

CANDIDATES = 64
_TOKEN_DATA = np.dtype([("id", np.intc), ("logit", np.single), ("p", np.single)], align=True)


class LazyGrammar:
    """A logits processor for Llama.generate; ``close()`` frees the llama.cpp grammar."""

    def __init__(self, llm, gbnf: str):
        import llama_cpp  # Lazy: llama-cpp-python loads only when the llama backend is used

        self._lib = llama_cpp
        self._sampler = llama_cpp.llama_sampler_init_grammar(llm._model.vocab, gbnf.encode("utf-8"), b"root")
        if not self._sampler:
            raise ValueError("llama.cpp rejected the grammar")
        self._seen: int | None = None  # how many of input_ids the grammar has already consumed

    def __call__(self, input_ids, scores):
        if self._seen is None:
            self._seen = len(input_ids)  # the prompt: nothing to accept
        for token in input_ids[self._seen:]:
            self._lib.llama_sampler_accept(self._sampler, int(token))
        self._seen = len(input_ids)
        scores = np.asarray(scores, dtype=np.single)
        k = min(CANDIDATES, scores.size - 1)
        top = np.argpartition(-scores, k)[:k]
        allowed = self._allowed(top, scores)
        if not allowed.size:
            allowed = self._allowed(np.arange(scores.size), scores)
        out = np.full_like(scores, -np.inf)
        out[allowed] = scores[allowed]
        return out

    def _allowed(self, ids: np.ndarray, scores: np.ndarray) -> np.ndarray:
        data = np.zeros(ids.size, dtype=_TOKEN_DATA)
        data["id"] = ids
        data["logit"] = scores[ids]
        lib = self._lib
        array = lib.llama_token_data_array(
            data=data.ctypes.data_as(ctypes.POINTER(lib.llama_token_data)), size=ids.size, selected=-1, sorted=False)
        lib.llama_sampler_apply(self._sampler, ctypes.byref(array))
        keep = np.isfinite(data["logit"])
        return data["id"][keep]

    def close(self) -> None:
        if self._sampler:
            self._lib.llama_sampler_free(self._sampler)
            self._sampler = None
