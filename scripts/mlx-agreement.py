#!/usr/bin/env python3
"""Is the converted MLX model the same model as the GGUF on llama.cpp? Greedy answers compared.

    mlx-agreement.py --llama-server PATH --gguf GGUF --mlx-model DIR [--tokens N] [--json OUT]

Run with the MLX environment's Python (scripts/setup.sh mlx; `make test` sets it up). It starts
llama-server (the same llama.cpp tree as ChatEval's in-process runtime) on the GGUF, and loads the
converted folder with mlx-lm in this process. For each prompt below:
  - the chat template: llama-server's rendering (/apply-template, the GGUF's template) against
    mlx-lm's (tokenizer_config.json's), which must be the same text;
  - the tokenizer: llama-server's token ids for that text (/tokenize) against mlx-lm's;
  - the model: both decode greedily from the same token ids, up to N tokens or an end of
    generation; reported are the first token's agreement, the whole answer's, and where they part,
    with both sides' margin between their top two tokens at that step (a near tie, which
    different arithmetic can flip, or a real difference).
Exit codes: 0 compared (agreement is reported, not judged); 2 bad arguments; 3 llama-server did
not start; 4 a template or tokenizer mismatch (the comparison would not be of the same input).
"""

import argparse
import json
import os
import subprocess
import sys
import urllib.request

from local_servers import free_port, stop, wait_ready

import mlx.core as mx
from mlx_lm import load

# Conversations a chat app sends: facts, a list, arithmetic, a follow-up, instructions, code.
PROMPTS = [
    [{"role": "user", "content": "What is the capital of France?"}],
    [{"role": "system", "content": "You are a concise assistant. Answer in one short sentence."},
     {"role": "user", "content": "Name three primary colors."}],
    [{"role": "user", "content": "What is 12 plus 30?"}],
    [{"role": "user", "content": "My name is Ada. Please remember it."},
     {"role": "assistant", "content": "Nice to meet you, Ada! I will remember your name."},
     {"role": "user", "content": "What is my name?"}],
    [{"role": "user", "content": "Write a haiku about autumn leaves."}],
    [{"role": "user", "content": "Translate 'good morning' into Spanish."}],
    [{"role": "user", "content": "Write a Python function that returns the square of a number."}],
    [{"role": "system", "content": "Answer with a single word."},
     {"role": "user", "content": "Is the sun a star? Answer yes or no."}],
]




def post(base, path, body):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=300) as response:
        return json.loads(response.read())




def top_two_margin(logits):
    """The gap between the best and the second-best logit, and the second-best token."""
    order = mx.argsort(-logits)[:2].tolist()
    return float(logits[order[0]] - logits[order[1]]), order[1]


def mlx_greedy(model, prompt_ids, max_tokens, end_ids):
    """Greedy decoding with mlx-lm's model; each step's token and its top-two margin."""
    from mlx_lm.models.cache import make_prompt_cache

    cache = make_prompt_cache(model)
    logits = model(mx.array([prompt_ids]), cache=cache)[0, -1].astype(mx.float32)
    steps = []
    for _ in range(max_tokens):
        token = int(mx.argmax(logits).item())
        margin, second = top_two_margin(logits)
        steps.append({"token": token, "margin": margin, "second": second})
        if token in end_ids:
            break
        logits = model(mx.array([[token]]), cache=cache)[0, -1].astype(mx.float32)
    return steps


def llama_greedy(base, prompt_ids, max_tokens):
    """Greedy decoding on llama-server from the same ids; each step's token and top-two margin
    (from its top-2 probabilities: log p1 - log p2 equals the logit gap)."""
    import math

    answer = post(base, "/completion", {
        "prompt": prompt_ids, "n_predict": max_tokens, "temperature": 0, "top_k": 1, "n_probs": 2,
        "cache_prompt": False, "return_tokens": True, "post_sampling_probs": False, "samplers": ["top_k"],
    })
    steps = []
    for token, probs in zip(answer.get("tokens", []), answer.get("completion_probabilities", [])):
        top = probs.get("top_logprobs") or []
        margin = top[0]["logprob"] - top[1]["logprob"] if len(top) >= 2 else math.inf
        steps.append({"token": token, "margin": margin, "second": top[1]["id"] if len(top) >= 2 else None})
    return steps, answer


def compare(tokenizer, llama_steps, mlx_steps):
    llama_tokens = [s["token"] for s in llama_steps]
    mlx_tokens = [s["token"] for s in mlx_steps]
    parted = next((i for i, (a, b) in enumerate(zip(llama_tokens, mlx_tokens)) if a != b), None)
    if parted is None and len(llama_tokens) != len(mlx_tokens):
        parted = min(len(llama_tokens), len(mlx_tokens))
    result = {
        "first_token_agrees": bool(llama_tokens and mlx_tokens and llama_tokens[0] == mlx_tokens[0]),
        "same_answer": parted is None,
        "llama": tokenizer.decode([t for t in llama_tokens if t not in tokenizer.eos_token_ids]),
        "mlx": tokenizer.decode([t for t in mlx_tokens if t not in tokenizer.eos_token_ids]),
        "tokens": [len(llama_tokens), len(mlx_tokens)],
    }
    if parted is not None and parted < len(llama_steps) and parted < len(mlx_steps):
        result["parted_at"] = parted
        result["llama_margin"] = round(llama_steps[parted]["margin"], 4)
        result["mlx_margin"] = round(mlx_steps[parted]["margin"], 4)
        result["llama_token"] = tokenizer.decode([llama_steps[parted]["token"]])
        result["mlx_token"] = tokenizer.decode([mlx_steps[parted]["token"]])
        # A near tie: the token the other side chose is each side's runner-up.
        result["runner_up_swap"] = (
            llama_steps[parted]["second"] == mlx_steps[parted]["token"] and mlx_steps[parted]["second"] == llama_steps[parted]["token"]
        )
    elif parted is not None:
        result["parted_at"] = parted
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--llama-server", required=True)
    parser.add_argument("--gguf", required=True)
    parser.add_argument("--mlx-model", required=True)
    parser.add_argument("--tokens", type=int, default=48)
    parser.add_argument("--json")
    args = parser.parse_args()
    for path in (args.llama_server, args.gguf, args.mlx_model):
        if not os.path.exists(path):
            print(f"mlx-agreement.py: {path}: no such file", file=sys.stderr)
            return 2
    model, tokenizer = load(args.mlx_model)
    end_ids = set(tokenizer.eos_token_ids)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(os.path.join(os.path.dirname(os.path.abspath(args.json or ".")) if args.json else "/tmp", "mlx-agreement-llama-server.log"), "w")
    server = subprocess.Popen(
        [args.llama_server, "-m", args.gguf, "--port", str(port), "-c", "4096", "-np", "1", "-t", "2", "--jinja"],
        stdout=log, stderr=subprocess.STDOUT)
    try:
        if not wait_ready(base + "/health", server, seconds=120):
            print(f"mlx-agreement.py: llama-server did not start (log: {log.name})", file=sys.stderr)
            return 3
        results = []
        for messages in PROMPTS:
            rendered = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
            served = post(base, "/apply-template", {"messages": messages})["prompt"]
            if served != rendered:
                print(f"mlx-agreement.py: the chat templates render differently:\n{served!r}\n{rendered!r}", file=sys.stderr)
                return 4
            ids = tokenizer.encode(rendered, add_special_tokens=False)
            served_ids = post(base, "/tokenize", {"content": rendered, "add_special": False, "parse_special": True})["tokens"]
            if served_ids != ids:
                print(f"mlx-agreement.py: the tokenizers differ on {rendered!r}:\n{served_ids}\n{ids}", file=sys.stderr)
                return 4
            llama_steps, _ = llama_greedy(base, ids, args.tokens)
            mlx_steps = mlx_greedy(model, ids, args.tokens, end_ids)
            result = compare(tokenizer, llama_steps, mlx_steps)
            result["prompt"] = messages[-1]["content"]
            result["prompt_tokens"] = len(ids)
            results.append(result)
            print(json.dumps(result, ensure_ascii=False), flush=True)
    finally:
        stop(server)
    first = sum(r["first_token_agrees"] for r in results)
    same = sum(r["same_answer"] for r in results)
    summary = {
        "prompts": len(results), "templates_and_tokens_agree": True, "first_token_agrees": first, "same_greedy_answer": same,
        "max_tokens": args.tokens,
    }
    print(json.dumps(summary))
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"summary": summary, "results": results}, out, indent=1, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
