#!/usr/bin/env python3
"""One conversation, three runtimes, one table: the same weights on llama.cpp in process
(`chateval run`), on llama-server and on mlx_lm.server (the converted folder), side by side.

    three-runtimes.py --chateval BIN --llama-server BIN --gguf GGUF --mlx-python PY --mlx-model DIR
                      --suite suites/smoke.yaml [--suite ...] [--markdown OUT]

Each runtime replays each suite once, greedy, in session mode, one after the other (never two at
once); the servers are started for their runs and stopped after. Printed per suite and turn: TTFT,
prefill and decode tokens/s, reuse as each runtime reports it (reused/prompt tokens; "?" where it
reports none), and whether the answers agree with llama.cpp in process (the same text, or where
they part). `uptime`'s load average is printed before and after each run: figures taken while
other processes held the cores are marked. Exit codes: 0 measured; 2 bad arguments; 3 a server
did not start or a run failed.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

from local_servers import free_port, stop, wait_ready




def load_average():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])




def run_chateval(chateval, suite, arguments, reports):
    command = [chateval, "run", suite, "--no-project", "--repeat", "1", "--format", "json", "--reports", reports] + arguments
    before = load_average()
    done = subprocess.run(command, capture_output=True, text=True)
    after = load_average()
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr[-2000:]}")
    return json.loads(done.stdout), (before, after)


def served(command, url, log, body):
    with open(log, "w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    try:
        if not wait_ready(url + "/health", process):
            raise RuntimeError(f"{command[0]} did not start (log: {log})")
        # One request before the measured ones: mlx_lm.server answers /health before its model is
        # loaded, and the first request waits for the load; llama-server warms up likewise.
        warm = json.dumps({"messages": [{"role": "user", "content": "Hi"}], "max_tokens": 1}).encode()
        request = urllib.request.Request(url + "/v1/chat/completions", data=warm, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=600) as response:
            response.read()
        return body()
    finally:
        stop(process)


def turns(record):
    for suite in record["suites"]:
        for conversation in suite["conversations"]:
            for index, turn in enumerate(conversation["turns"]):
                yield (suite["name"], conversation["id"], index + 1), turn


def figures(turn):
    m = turn.get("metrics") or {}
    prompt, reused = m.get("prompt_tokens"), m.get("reused_tokens")
    evaluated = prompt - reused if prompt is not None and reused is not None else None
    prefill = m.get("prefill_time")
    decode = m.get("decode_time")
    generated = m.get("generated_tokens") or 0
    return {
        "ttft": m.get("time_to_first_token"),
        "prefill_tps": evaluated / prefill if evaluated and prefill else None,
        "decode_tps": (generated - 1) / decode if decode and generated > 1 else None,
        "reuse": f"{reused}/{prompt}" if reused is not None else f"?/{prompt}",
        "answer": turn.get("answer") or f"({turn.get('status')})",
    }


def agreement(reference, answer):
    if answer == reference:
        return "same"
    common = os.path.commonprefix([reference, answer])
    return f"parts at char {len(common)}"


def fmt(value, digits=0, scale=1):
    return "–" if value is None else f"{value * scale:.{digits}f}"


def table(names, records, loads):
    lines = []
    keys = [key for key, _ in turns(records[0])]
    by_runtime = [dict(turns(record)) for record in records]
    header = "| suite / conversation / turn | " + " | ".join(f"{n} TTFT ms" for n in names) + " | " + " | ".join(
        f"{n} reuse" for n in names) + " | " + " | ".join(f"{n} answer" for n in names[1:]) + " |"
    lines += [header, "|" + "---|" * (1 + 3 * len(names) - 1)]
    for key in keys:
        row = [figures(runtime[key]) if key in runtime else None for runtime in by_runtime]
        reference = row[0]["answer"] if row[0] else ""
        cells = [fmt(r and r["ttft"], 0, 1000) for r in row] + [r["reuse"] if r else "–" for r in row]
        cells += [agreement(reference, r["answer"]) if r else "–" for r in row[1:]]
        lines.append(f"| {key[0]} / {key[1]} / {key[2]} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("| runtime | prefill t/s (median) | decode t/s (median) | TTFT ms (median) | load before → after |")
    lines.append("|---|---|---|---|---|")
    for name, runtime, load in zip(names, by_runtime, loads):
        values = [figures(t) for t in runtime.values()]
        med = lambda k: statistics.median([v[k] for v in values if v[k] is not None]) if any(v[k] is not None for v in values) else None
        lines.append(f"| {name} | {fmt(med('prefill_tps'))} | {fmt(med('decode_tps'), 1)} | {fmt(med('ttft'), 0, 1000)} | "
                     + ", ".join(f"{b:.2f} → {a:.2f}" for b, a in load) + " |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name in ("--chateval", "--llama-server", "--gguf", "--mlx-python", "--mlx-model"):
        parser.add_argument(name, required=True)
    parser.add_argument("--suite", action="append", required=True)
    parser.add_argument("--markdown")
    args = parser.parse_args()
    for path in (args.chateval, args.llama_server, args.gguf, args.mlx_python, args.mlx_model, *args.suite):
        if not os.path.exists(path):
            print(f"three-runtimes.py: {path}: no such file", file=sys.stderr)
            return 2
    reports = tempfile.mkdtemp(prefix="three-runtimes-")
    names = ["llama.cpp in process", "llama-server", "mlx_lm.server"]
    records = {name: [] for name in names}
    loads = {name: [] for name in names}
    try:
        for suite in args.suite:
            record, load = run_chateval(args.chateval, suite, ["--model", args.gguf, "--threads", "2"], reports)
            records[names[0]].append(record)
            loads[names[0]].append(load)
            port = free_port()
            url = f"http://127.0.0.1:{port}"
            llama = [args.llama_server, "-m", args.gguf, "--host", "127.0.0.1", "--port", str(port), "-c", "4096", "-np", "1", "-t", "2"]
            record, load = served(llama, url, os.path.join(reports, "llama-server.log"),
                                  lambda: run_chateval(args.chateval, suite, ["--runtime", "openai", "--base-url", url + "/v1"], reports))
            records[names[1]].append(record)
            loads[names[1]].append(load)
            port = free_port()
            url = f"http://127.0.0.1:{port}"
            mlx = [args.mlx_python, "-m", "mlx_lm.server", "--model", args.mlx_model, "--host", "127.0.0.1", "--port", str(port)]
            record, load = served(mlx, url, os.path.join(reports, "mlx-server.log"),
                                  lambda: run_chateval(args.chateval, suite, ["--runtime", "openai", "--base-url", url + "/v1"], reports))
            records[names[2]].append(record)
            loads[names[2]].append(load)
    except RuntimeError as error:
        print(f"three-runtimes.py: {error}", file=sys.stderr)
        return 3
    merged = []
    for name in names:
        first = records[name][0]
        first = {**first, "suites": [s for r in records[name] for s in r["suites"]]}
        merged.append(first)
    text = table(names, merged, [loads[n] for n in names])
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "unknown CPU")
    text = f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {cpu} ({os.cpu_count()} cores).\n\n" + text
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
