#!/usr/bin/env python3
"""docs/architecture.md stays true to the code: every file it names exists, and every function,
type, table or macro it names in backticks is defined or used in the sources. The walks and the
recipes name files and functions a newcomer will open; a rename that forgets the page fails here.

usage: arch_test.py ROOT   (the repository root)
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(ROOT, "docs", "architecture.md")
SOURCE_DIRS = ("src", "include", "tests", "tools", "shaders", "docs")
EXTS = (".c", ".h", ".cpp", ".py", ".sh", ".md", ".build", ".vert", ".frag")
# words in backticks that are not names of the code (commands, values, flags, units)
NOT_NAMES = {"on", "off", "name=value"}


def all_files():
    out = []
    for d in SOURCE_DIRS:
        for base, dirs, files in os.walk(os.path.join(ROOT, d)):
            dirs[:] = [x for x in dirs if not x.startswith(".") and x != "corpus"]
            out += [os.path.relpath(os.path.join(base, f), ROOT) for f in files if f.endswith(EXTS)]
    out += [f for f in os.listdir(ROOT) if f.endswith(EXTS)]
    return out


def main():
    with open(PAGE) as fp:
        page = fp.read()
    files = all_files()
    text = {}
    for f in files:
        if f.endswith((".c", ".h", ".cpp", ".py", ".sh", ".build", ".vert", ".frag")):
            with open(os.path.join(ROOT, f), errors="replace") as fp:
                text[f] = fp.read()
    code = "\n".join(text.values())
    words = set(re.findall(r"\b\w+\b", code))
    problems, checked_files, checked_names = [], 0, 0
    # every code span; a span may hold several names (`sx..sw`, `a`/`b`): split on what names cannot hold
    for span in re.findall(r"`([^`\n]+)`", page):
        for tok in re.split(r"[\s,;()\[\]{}<>=|+*:!&]+", span):
            tok = tok.strip(".'\"")
            if not tok:
                continue
            if tok.endswith(EXTS) and not tok.startswith("-"):
                # a file: a path from the root, from src/, or a bare name found anywhere
                name = tok.rstrip("/")
                ok = (os.path.exists(os.path.join(ROOT, name)) or os.path.exists(os.path.join(ROOT, "src", name))
                      or os.path.exists(os.path.join(ROOT, "src", "app", name))
                      or ("/" not in name and any(os.path.basename(f) == name for f in files))
                      or ("*" in name))
                checked_files += 1
                if not ok:
                    problems.append("file `%s` does not exist" % tok)
            elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", tok) and ("_" in tok or tok.isupper()) \
                    and tok not in NOT_NAMES and not tok.startswith("MURMUR_"):
                # a name of the code: a function, type, table, macro or field
                checked_names += 1
                # a prefix (`MUR_PAR_MIN_*`): some name starts with it
                if tok not in words and not (tok.endswith("_") and any(w.startswith(tok) for w in words)):
                    problems.append("name `%s` is not in the sources" % tok)
    # the walks and recipes must be there
    for heading in ("## The program's rooms", "## Recipe: add a rule", "## Recipe: add a metric",
                    "## Recipe: add a parameter", "## Recipe: add an output format", "## Recipes for the program"):
        if heading not in page:
            problems.append("missing section %r" % heading)
    for walk in ("One frame in the viewer", "One recorded frame to the encoder", "One parameter from `--set` to the kernel"):
        if walk not in page:
            problems.append("missing walk %r" % walk)
    for p in problems:
        print("architecture.md: " + p)
    print("architecture.md: %d file names and %d code names checked, %d problems" % (checked_files, checked_names,
                                                                                     len(problems)))
    return 1 if problems or checked_files < 20 or checked_names < 20 else 0


if __name__ == "__main__":
    sys.exit(main())
