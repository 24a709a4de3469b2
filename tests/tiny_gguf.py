"""A tiny random-weight llama-architecture GGUF (< 1 MB) for exercising the real llama.cpp path.

The vocabulary is SentencePiece-style ("llama" tokenizer): control tokens <unk> <s> </s>,
the ChatML markers <|im_start|> <|im_end|> (control, so the chat template tokenizes them
as single tokens), the 256 byte-fallback tokens <0x00>..<0xFF>, "▁" (the space piece) and
the printable ASCII characters as normal tokens. The weights are random (fixed seed), so
the model writes noise, but it loads, tokenizes, applies chat templates and grammars and
generates exactly like a real model.

    python -m tests.tiny_gguf /tmp/tiny.gguf
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

CHATML_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)

N_EMBD = 64
N_LAYER = 2
N_HEAD = 4
N_HEAD_KV = 4
N_FF = 128
CONTEXT = 1024


def _vocab():
    import gguf

    tokens, scores, types = [], [], []

    def add(text, kind, score=0.0):
        tokens.append(text.encode("utf-8"))
        scores.append(score)
        types.append(kind)

    add("<unk>", gguf.TokenType.UNKNOWN)
    add("<s>", gguf.TokenType.CONTROL)
    add("</s>", gguf.TokenType.CONTROL)
    add("<|im_start|>", gguf.TokenType.CONTROL)
    add("<|im_end|>", gguf.TokenType.CONTROL)
    for byte in range(256):
        add(f"<0x{byte:02X}>", gguf.TokenType.BYTE)
    add("\u2581", gguf.TokenType.NORMAL, -1.0)
    for code in range(0x21, 0x7F):
        add(chr(code), gguf.TokenType.NORMAL, -2.0)
    return tokens, scores, types


def make_tiny_gguf(path, seed: int = 1234) -> Path:
    """Write the tiny model to ``path`` and return the path."""
    import gguf

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tokens, scores, types = _vocab()
    n_vocab = len(tokens)
    head_dim = N_EMBD // N_HEAD
    rng = np.random.default_rng(seed)

    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_name("chiqa-tiny-test")
    writer.add_context_length(CONTEXT)
    writer.add_embedding_length(N_EMBD)
    writer.add_block_count(N_LAYER)
    writer.add_feed_forward_length(N_FF)
    writer.add_head_count(N_HEAD)
    writer.add_head_count_kv(N_HEAD_KV)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_rope_dimension_count(head_dim)
    writer.add_rope_freq_base(10000.0)
    writer.add_vocab_size(n_vocab)
    writer.add_file_type(gguf.LlamaFileType.ALL_F32)

    writer.add_tokenizer_model("llama")
    writer.add_token_list(tokens)
    writer.add_token_scores(scores)
    writer.add_token_types(types)
    writer.add_unk_token_id(0)
    writer.add_bos_token_id(1)
    writer.add_eos_token_id(4)  # <|im_end|> ends an assistant turn
    writer.add_add_bos_token(True)
    writer.add_add_eos_token(False)
    writer.add_chat_template(CHATML_TEMPLATE)

    def weight(*shape, scale=0.08):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    writer.add_tensor("token_embd.weight", weight(n_vocab, N_EMBD, scale=0.5))
    for layer in range(N_LAYER):
        prefix = f"blk.{layer}."
        writer.add_tensor(prefix + "attn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        writer.add_tensor(prefix + "attn_q.weight", weight(N_EMBD, N_EMBD))
        writer.add_tensor(prefix + "attn_k.weight", weight(N_HEAD_KV * head_dim, N_EMBD))
        writer.add_tensor(prefix + "attn_v.weight", weight(N_HEAD_KV * head_dim, N_EMBD))
        writer.add_tensor(prefix + "attn_output.weight", weight(N_EMBD, N_EMBD))
        writer.add_tensor(prefix + "ffn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        writer.add_tensor(prefix + "ffn_gate.weight", weight(N_FF, N_EMBD))
        writer.add_tensor(prefix + "ffn_up.weight", weight(N_FF, N_EMBD))
        writer.add_tensor(prefix + "ffn_down.weight", weight(N_EMBD, N_FF))
    writer.add_tensor("output_norm.weight", np.ones(N_EMBD, dtype=np.float32))
    writer.add_tensor("output.weight", weight(n_vocab, N_EMBD, scale=0.5))

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


if __name__ == "__main__":
    target = sys.argv[1] if len(sys.argv) > 1 else "tiny.gguf"
    print(make_tiny_gguf(target))
