#!/usr/bin/env python3
"""Builds an mlx-lm model folder from a llama-architecture GGUF, with no download from a model hub.

    mlx-model.py GGUF OUT_DIR

Run with the MLX virtual environment's Python (scripts/setup.sh mlx). What it writes in OUT_DIR:
  config.json            the llama hyper-parameters, from the GGUF's llama.* metadata, and the
                         quantization mlx-lm loads the weights with;
  model.safetensors      the GGUF's own quantized weights, unchanged: MLX's GGUF reader
                         (mx.load) turns Q4_1 blocks into MLX's affine 4-bit format with groups of 32
                         (value = scale * q + bias, the same q, scale and bias as Q4_1's d * q + m)
                         and Q8_0 into 8-bit groups of 32 (bias = -128 * scale). No weight is
                         dequantized or requantized (the float16 scales and biases are stored as
                         float32, exactly: MLX's CPU kernels are far slower on float16); q_proj and
                         k_proj rows are put back in Hugging Face's order (the GGUF converter
                         interleaves them for llama.cpp's rope);
  tokenizer.json         the byte-level BPE tokenizer from tokenizer.ggml.tokens / merges, with
                         the pre-tokenizer llama.cpp uses for tokenizer.ggml.pre = "smollm"
                         (single digits, then GPT-2's regex);
  tokenizer_config.json  the GGUF's chat template and special tokens (bos, eos, unk, pad);
  digests.txt            sha256 of each file above, sorted by name.
Every file is written deterministically: the same GGUF gives the same digests, which setup.sh pins.
Exit codes: 0 written; 2 bad arguments; 3 the GGUF is not one this script can convert.
"""

import hashlib
import json
import os
import sys

import mlx.core as mx
import numpy as np

# llama.cpp's names of the per-layer tensors, and mlx-lm's (Hugging Face's) names for them.
LAYER_NAMES = {
    "attn_norm": "input_layernorm",
    "attn_q": "self_attn.q_proj",
    "attn_k": "self_attn.k_proj",
    "attn_v": "self_attn.v_proj",
    "attn_output": "self_attn.o_proj",
    "ffn_norm": "post_attention_layernorm",
    "ffn_gate": "mlp.gate_proj",
    "ffn_up": "mlp.up_proj",
    "ffn_down": "mlp.down_proj",
}
GLOBAL_NAMES = {"token_embd": "model.embed_tokens", "output_norm": "model.norm"}
# The pre-tokenizers this script knows, as llama.cpp splits text for them (src/llama-vocab.cpp).
PRE_TOKENIZERS = {"smollm"}
GPT2_REGEX = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)"
# Token texts llama.cpp treats as end of generation when they are control tokens (llama-vocab.cpp):
# the ones this vocabulary has become eos_token_id too, so mlx-lm stops where llama.cpp stops.
END_OF_GENERATION_TEXTS = ["<|im_end|>", "<|endoftext|>", "<|eot_id|>", "<end_of_turn>", "<|end|>"]
CONTROL = 3


class ConversionError(Exception):
    pass


def scalar(meta, key):
    if key not in meta:
        raise ConversionError(f"the GGUF has no metadata key {key}")
    value = meta[key]
    return value.item() if hasattr(value, "item") else value


def hf_name(gguf_name):
    base, _, part = gguf_name.rpartition(".")
    if base in GLOBAL_NAMES:
        return f"{GLOBAL_NAMES[base]}.{part}"
    pieces = base.split(".")
    if len(pieces) == 3 and pieces[0] == "blk" and pieces[2] in LAYER_NAMES:
        return f"model.layers.{pieces[1]}.{LAYER_NAMES[pieces[2]]}.{part}"
    raise ConversionError(f"the GGUF tensor {gguf_name} has no place in mlx-lm's llama model")


def unpermute_rows(array, heads):
    """Undoes convert_hf_to_gguf.py's permute() of q/k rows (weight, scales and biases alike)."""
    rows = array.shape[0]
    grouped = array.reshape(heads, rows // heads // 2, 2, *array.shape[1:])
    return np.ascontiguousarray(grouped.swapaxes(1, 2).reshape(array.shape))


def quantization_bits(weight, scales, group_size):
    """Bits per value of an MLX-quantized tensor: packed uint32 columns against its groups."""
    values = scales.shape[-1] * group_size
    return weight.shape[-1] * 32 // values


def convert_weights(tensors, meta):
    heads = scalar(meta, "llama.attention.head_count")
    kv_heads = scalar(meta, "llama.attention.head_count_kv")
    weights, per_layer_bits, group_size = {}, {}, 32
    for name in sorted(tensors):
        array = np.array(tensors[name]) if tensors[name].dtype != mx.bfloat16 else None
        if array is None:
            raise ConversionError(f"{name} is bfloat16, which this script does not convert")
        if ".attn_q." in name:
            array = unpermute_rows(array, heads)
        elif ".attn_k." in name:
            array = unpermute_rows(array, kv_heads)
        if array.dtype == np.float16:
            # Exact (every float16 is a float32), and it decides the compute type: MLX's CPU
            # quantized matmul took 215 ms for a 576x1536 product with float16 scales against
            # 2.3 ms with float32 ones (mlx 0.32.4, 2-core EPYC).
            array = array.astype(np.float32)
        weights[hf_name(name)] = array
        if name.endswith(".scales"):
            base = name[: -len(".scales")]
            if tensors[base + ".weight"].dtype != mx.uint32:
                raise ConversionError(f"{base}.weight has scales but is {tensors[base + '.weight'].dtype}, not packed uint32")
            per_layer_bits[hf_name(base + ".weight")[: -len(".weight")]] = quantization_bits(
                tensors[base + ".weight"], tensors[name], group_size
            )
        elif name.endswith(".weight") and tensors[name].dtype == mx.uint32 and name[: -len(".weight")] + ".scales" not in tensors:
            raise ConversionError(f"{name} is packed but has no scales: a GGUF type MLX does not keep quantized")
    bits = sorted(set(per_layer_bits.values()))
    if not bits:
        raise ConversionError("the GGUF holds no quantized tensor; this script converts quantized GGUFs only")
    common = max(bits, key=lambda b: sum(1 for v in per_layer_bits.values() if v == b))
    quantization = {"group_size": group_size, "bits": common, "mode": "affine"}
    for layer, layer_bits in sorted(per_layer_bits.items()):
        if layer_bits != common:
            quantization[layer] = {"group_size": group_size, "bits": layer_bits, "mode": "affine"}
    return {k: mx.array(v) for k, v in weights.items()}, quantization


def end_of_generation_ids(meta):
    tokens = meta["tokenizer.ggml.tokens"]
    types = meta["tokenizer.ggml.token_type"].tolist()
    eos = scalar(meta, "tokenizer.ggml.eos_token_id")
    ids = [eos]
    for text in END_OF_GENERATION_TEXTS:
        if text in tokens:
            index = tokens.index(text)
            if types[index] == CONTROL and index not in ids:
                ids.append(index)
    return ids


def config(meta, quantization):
    if scalar(meta, "general.architecture") != "llama":
        raise ConversionError(f"architecture {scalar(meta, 'general.architecture')}: this script converts llama models only")
    hidden = scalar(meta, "llama.embedding_length")
    heads = scalar(meta, "llama.attention.head_count")
    if scalar(meta, "llama.rope.dimension_count") != hidden // heads:
        raise ConversionError("llama.rope.dimension_count is not the head size: partial rope is not converted")
    return {
        "architectures": ["LlamaForCausalLM"],
        "model_type": "llama",
        "hidden_size": hidden,
        "intermediate_size": scalar(meta, "llama.feed_forward_length"),
        "num_hidden_layers": scalar(meta, "llama.block_count"),
        "num_attention_heads": heads,
        "num_key_value_heads": scalar(meta, "llama.attention.head_count_kv"),
        "head_dim": hidden // heads,
        "max_position_embeddings": scalar(meta, "llama.context_length"),
        "rms_norm_eps": float(np.float32(scalar(meta, "llama.attention.layer_norm_rms_epsilon"))),
        "rope_theta": float(scalar(meta, "llama.rope.freq_base")),
        "rope_traditional": False,
        "tie_word_embeddings": True,
        "vocab_size": len(meta["tokenizer.ggml.tokens"]),
        "bos_token_id": scalar(meta, "tokenizer.ggml.bos_token_id"),
        "eos_token_id": end_of_generation_ids(meta),
        "quantization": quantization,
    }


def tokenizer_json(meta):
    if scalar(meta, "tokenizer.ggml.model") != "gpt2":
        raise ConversionError(f"tokenizer.ggml.model {scalar(meta, 'tokenizer.ggml.model')}: only byte-level BPE (gpt2) is converted")
    pre = scalar(meta, "tokenizer.ggml.pre")
    if pre not in PRE_TOKENIZERS:
        raise ConversionError(f"tokenizer.ggml.pre {pre}: this script knows only {sorted(PRE_TOKENIZERS)}")
    tokens = meta["tokenizer.ggml.tokens"]
    types = meta["tokenizer.ggml.token_type"].tolist()
    added = [
        {"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False, "special": True}
        for i, (t, kind) in enumerate(zip(tokens, types))
        if kind == CONTROL
    ]
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": None,
        "pre_tokenizer": {
            "type": "Sequence",
            "pretokenizers": [
                {"type": "Digits", "individual_digits": True},
                {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
            ],
        },
        "post_processor": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": False, "use_regex": True},
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
        "model": {
            "type": "BPE",
            "dropout": None,
            "unk_token": None,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": False,
            "byte_fallback": False,
            "ignore_merges": False,
            "vocab": {t: i for i, t in enumerate(tokens)},
            "merges": [m.split(" ", 1) for m in meta["tokenizer.ggml.merges"]],
        },
    }


def tokenizer_config(meta):
    tokens = meta["tokenizer.ggml.tokens"]
    if "tokenizer.chat_template" not in meta:
        raise ConversionError("the GGUF carries no chat template (tokenizer.chat_template)")

    def token(key):
        return tokens[scalar(meta, key)] if key in meta else None

    return {
        "tokenizer_class": "GPT2Tokenizer",
        "add_bos_token": bool(scalar(meta, "tokenizer.ggml.add_bos_token")) if "tokenizer.ggml.add_bos_token" in meta else False,
        "add_prefix_space": False,
        "bos_token": token("tokenizer.ggml.bos_token_id"),
        "eos_token": token("tokenizer.ggml.eos_token_id"),
        "unk_token": token("tokenizer.ggml.unknown_token_id"),
        "pad_token": token("tokenizer.ggml.padding_token_id"),
        "chat_template": scalar(meta, "tokenizer.chat_template"),
        "clean_up_tokenization_spaces": False,
        "model_max_length": scalar(meta, "llama.context_length"),
    }


def write_json(path, value):
    with open(path, "w", encoding="utf-8") as out:
        json.dump(value, out, indent=1, ensure_ascii=False, sort_keys=False)
        out.write("\n")


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def main(argv):
    if len(argv) != 3:
        print("usage: mlx-model.py GGUF OUT_DIR", file=sys.stderr)
        return 2
    gguf, out = argv[1], argv[2]
    if not os.path.isfile(gguf):
        print(f"mlx-model.py: {gguf}: no such file", file=sys.stderr)
        return 2
    try:
        tensors, meta = mx.load(gguf, return_metadata=True)
        weights, quantization = convert_weights(tensors, meta)
        files = {
            "config.json": config(meta, quantization),
            "tokenizer.json": tokenizer_json(meta),
            "tokenizer_config.json": tokenizer_config(meta),
        }
    except ConversionError as error:
        print(f"mlx-model.py: {gguf}: {error}", file=sys.stderr)
        return 3
    os.makedirs(out, exist_ok=True)
    for name, value in files.items():
        write_json(os.path.join(out, name), value)
    mx.save_safetensors(os.path.join(out, "model.safetensors"), weights, metadata={"format": "mlx"})
    names = sorted([*files, "model.safetensors"])
    with open(os.path.join(out, "digests.txt"), "w") as listing:
        for name in names:
            listing.write(f"{sha256(os.path.join(out, name))}  {name}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
