#!/usr/bin/env python3
"""Lists Swift functions, initializers, subscripts and closure-bodied properties longer than a limit.

Usage: scripts/long-functions.py [--limit N] [--check] [--exclude PATH ...] [PATH ...]   (default: Sources)

A body counts from its declaration's first line to its closing brace. One that carries the comment
`// Longer than N lines because …` on the line above its declaration (or on the declaration
line) is listed with that reason; with --check the exit status is 1 when any long body has none.
"""
import argparse
import os
import re
import sys

DECLARATION = re.compile(
    r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|package|internal|fileprivate|private|open|static|class|final|override|mutating|nonmutating|"
    r"nonisolated|convenience|required|lazy|weak|unowned|dynamic|indirect|consuming|borrowing|isolated)(?:\([^)]*\))?\s+)*"
    r"(?:(func)\s+([^\s(<]+)|(init)[?!]?\s*[(<]|(deinit)\b|(subscript)\s*[(<]|(var|let)\s+(\w+)\b[^=]*?(?:\{|=\s*\{))"
)
REASON = re.compile(r"//\s*Longer than \d+ lines because\s+(.+)")


def strip_code(text):
    """The text with comments and string literals blanked (same length and line breaks), so braces
    count only where they are code."""
    out = []
    i, n = 0, len(text)
    # Stack of contexts: 'code' entries carry the parenthesis depth of an interpolation.
    stack = [("code", 0)]
    while i < n:
        kind = stack[-1][0]
        c = text[i]
        if kind == "code":
            if text.startswith("//", i):
                j = text.find("\n", i)
                j = n if j < 0 else j
                out.append(" " * (j - i))
                i = j
                continue
            if text.startswith("/*", i):
                stack.append(("block", 1))
                out.append("  ")
                i += 2
                continue
            m = re.match(r'(#*)("""|")', text[i:])
            if m:
                hashes, quote = m.group(1), m.group(2)
                stack.append(("string", (hashes, quote)))
                out.append(" " * len(m.group(0)))
                i += len(m.group(0))
                continue
            if c == "(" and len(stack) > 1:
                stack[-1] = ("code", stack[-1][1] + 1)
            elif c == ")" and len(stack) > 1:
                if stack[-1][1] == 0:
                    stack.pop()  # end of an interpolation: back in the string
                    out.append(" ")
                    i += 1
                    continue
                stack[-1] = ("code", stack[-1][1] - 1)
            out.append(c)
            i += 1
        elif kind == "block":
            if text.startswith("/*", i):
                stack[-1] = ("block", stack[-1][1] + 1)
                out.append("  ")
                i += 2
            elif text.startswith("*/", i):
                depth = stack[-1][1] - 1
                stack.pop() if depth == 0 else stack.__setitem__(-1, ("block", depth))
                out.append("  ")
                i += 2
            else:
                out.append("\n" if c == "\n" else " ")
                i += 1
        else:
            hashes, quote = stack[-1][1]
            if text.startswith("\\" + hashes + "(", i):
                stack.append(("code", 0))
                out.append(" " * (len(hashes) + 2))
                i += len(hashes) + 2
            elif c == "\\" and not hashes:
                out.append("  " if text[i + 1 : i + 2] != "\n" else " \n")
                i += 2
            elif text.startswith(quote + hashes, i):
                stack.pop()
                out.append(" " * (len(quote) + len(hashes)))
                i += len(quote) + len(hashes)
            else:
                out.append("\n" if c == "\n" else " ")
                i += 1
    return "".join(out)


def long_bodies(path, limit):
    text = open(path, encoding="utf-8").read()
    raw = text.split("\n")
    code = strip_code(text).split("\n")
    found = []
    for number, line in enumerate(code):
        m = DECLARATION.match(line)
        if not m:
            continue
        name = m.group(2) or m.group(3) or m.group(4) or m.group(5) or m.group(7)
        if m.group(6) and "{" not in line:
            continue
        # The body opens at the first `{` at bracket depth 0 from the declaration on.
        depth, opened, end = 0, False, None
        for k in range(number, len(code)):
            for ch in code[k] if k != number else line[m.start() :]:
                if ch in "([":
                    depth += 1
                elif ch in ")]":
                    depth -= 1
                elif ch == "{":
                    if not opened and depth == 0:
                        opened, depth = True, 0
                        braces = 1
                        continue
                    if opened:
                        braces += 1
                elif ch == "}" and opened:
                    braces -= 1
                    if braces == 0:
                        end = k
                        break
            if end is not None:
                break
            if not opened and k > number and (code[k].strip() == "" or DECLARATION.match(code[k])):
                break  # a requirement without a body
        if end is None:
            continue
        length = end - number + 1
        if length > limit:
            reason = None
            for probe in (raw[number - 1] if number else "", raw[number]):
                r = REASON.search(probe)
                if r:
                    reason = r.group(1).strip()
            found.append((path, number + 1, name, length, reason))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*", default=["Sources"])
    parser.add_argument("--limit", type=int, default=80)
    parser.add_argument("--check", action="store_true", help="exit 1 when a long body gives no reason")
    parser.add_argument("--exclude", action="append", default=[], help="a path prefix to leave out")
    options = parser.parse_args()
    files = []
    for root in options.paths:
        if os.path.isfile(root):
            files.append(root)
            continue
        for folder, _, names in os.walk(root):
            files += [os.path.join(folder, name) for name in names if name.endswith(".swift")]
    files = sorted(f for f in files if not any(f.startswith(prefix) for prefix in options.exclude))
    unexplained = 0
    for path in files:
        for path_, line, name, length, reason in long_bodies(path, options.limit):
            print(f"{path_}:{line}: {name}: {length} lines" + (f" (because {reason})" if reason else ""))
            unexplained += reason is None
    if options.check and unexplained:
        print(f"{unexplained} bodies over {options.limit} lines without a reason", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
