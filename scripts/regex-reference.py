#!/usr/bin/env python3
"""Writes Tests/ChatEvalGradingTests/Fixtures/python-re.jsonl: random patterns, flags and texts
with the match spans of Python's `re` (`finditer`), which ChatEvalGradingTests compares with
PythonRegex's. Run with Python 3.11 (possessive quantifiers and atomic groups are 3.11 syntax);
the seed is fixed, so the file only changes when this script does.

    python3.11 scripts/regex-reference.py

Texts avoid İ (U+0130) and ı (U+0131): with IGNORECASE Python equates them with i, PCRE2's
Unicode case folding does not (a documented difference, see PythonPatternTranslator).
"""

import json
import random
import re
import sys
import warnings
from pathlib import Path

OUTPUT = Path(__file__).resolve().parent.parent / "Tests" / "ChatEvalGradingTests" / "Fixtures" / "python-re.jsonl"
CASES = 3000
ATOMS = [
    "a", "b", "A", ".", r"\w", r"\W+", r"\d", r"\s", r"\S", "[abc]", "[^a]", "[a-cA]", r"[\w-]", r"[^\W\d]", r"[\s\d]",
    r"[^\s\w]", r"\b", r"\B", "^", "$", r"\A", r"\Z", "é", "É", "ß", "K", "\u212a", "ſ", "k", "日", r"\.", r"\n", " ",
    r"\x41", r"\u00e9", r"\U0001F389", "🎉", r"\101", r"\0", "(?:ab)", "(a|b)", "(?i:a)", "(?-i:a)", "(?=a)", "(?!b)",
    "(?<=a)", r"(?<!\s)", r"[[:]", "x{,2}", "{", "}", r"\-", "_", "1", "٣", "²", "\u0301", "\u001c", "\u00a0",
    r"(\w)\1", r"(?P<x>[ab])(?P=x)", r"(a)?(?(1)b|c)", "(?>a+)", "a++", "b*+", "(?x: a b # c\n )", "(?#comment)",
    r"[\]]", "[]a]", r"[a\-z]", r"[\b]", r"\t", r"\v", "(?s:.)", "(?m:^)", "(?m:$)", "(?i:É)",
]
UNREPEATABLE = ("^", "$", r"\A", r"\Z", r"\b", r"\B", "(?#", "(?<", "(?=", "(?!", "(?m:", "++", "*+", "(?>")
QUANTIFIERS = ["", "", "", "*", "+", "?", "*?", "+?", "{2}", "{1,3}", "{,2}", "??", "{2,}"]
TEXTS = ["abc aab\nbca", "é É e\u0301 日本 x² ٣", "a.b-c_d 12 3.4\t\v", "  \u00a0\u001c\n\nab", "aaa", "",
         "ABC abc AbC", "b\na\n", "ß SS ẞ k K \u212a s S ſ", "aabb\n'\"", "x🎉y 🎉", "[a]]"]


def pattern(rng):
    parts = []
    for _ in range(rng.randint(1, 5)):
        atom = rng.choice(ATOMS)
        parts.append(atom + ("" if atom.startswith(UNREPEATABLE) or atom.endswith(UNREPEATABLE) else rng.choice(QUANTIFIERS)))
    text = "".join(parts)
    if rng.random() < 0.2:
        text = "(?:" + text + ")" + rng.choice(["", "*", "+", "{2}"])
    if rng.random() < 0.15:
        text += "|" + rng.choice(ATOMS)
    return text


def main():
    if sys.version_info[:2] < (3, 11):
        sys.exit("Python 3.11 or later is needed")
    warnings.simplefilter("ignore")   # FutureWarning: possible nested set
    rng = random.Random(20261123)
    flag_choices = [0, 0, re.I, re.M, re.S, re.I | re.M]
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    with OUTPUT.open("w", encoding="utf-8") as out:
        while written < CASES:
            text, flags = pattern(rng), rng.choice(flag_choices)
            try:
                compiled = re.compile(text, flags)
            except re.error:
                continue
            for subject in rng.sample(TEXTS, 2):
                spans = [list(m.span()) for m in compiled.finditer(subject)]
                out.write(json.dumps({"pattern": text, "flags": flags, "text": subject, "spans": spans}, ensure_ascii=False) + "\n")
                written += 1
    print(f"wrote {written} cases to {OUTPUT}")


if __name__ == "__main__":
    main()
