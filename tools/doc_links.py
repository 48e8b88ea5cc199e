#!/usr/bin/env python3
"""Check that every relative link and #anchor in README.md and docs/ resolves (issues 24 and 26, docs22).

    tools/doc_links.py [ROOT]        # ROOT: the repository (default: this script's parent's parent)

Reads README.md and every *.md under docs/, outside fenced code blocks and inline code spans, and
checks each inline link or image [text](target) and each reference definition [label]: target:
- a target with a scheme (http:, https:, mailto:, ...) is not checked (no network);
- a relative path must exist, relative to the page's folder;
- an anchor (#name, alone or after a path to a .md page) must be a heading of that page, as GitHub
  writes heading ids (lower case; characters other than letters, digits, spaces, '-' and '_' dropped;
  spaces to '-'; a repeated heading gets -1, -2, ...), or an explicit <a name="..."> / id="...".
The parts of a generated page (docs/murmuration/template.md and why.md, RENDERED_AT) are read as
if they stood where the page does.
Prints one line per broken link (page:line: target: why) and exits 1 if there is any, else prints
how many links it checked and exits 0. Standard library only.
"""
import os
import re
import sys
from urllib.parse import unquote

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
REFDEF = re.compile(r"^\s{0,3}\[([^\]]+)\]:\s*<?(\S+?)>?(?:\s+.*)?$")
CODE = re.compile(r"(`+)(?:.+?)\1")
# parts of a generated page, whose links are written for the page they end up in
RENDERED_AT = {os.path.join("docs", "murmuration", "template.md"): os.path.join("docs", "murmuration.md"),
               os.path.join("docs", "murmuration", "why.md"): os.path.join("docs", "murmuration.md")}
EXPLICIT = re.compile(r"<a\s+[^>]*(?:name|id)\s*=\s*\"([^\"]+)\"|\bid\s*=\s*\"([^\"]+)\"")


def slug(text):
    """GitHub's id for a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link in a heading keeps its text
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def lines_outside_code(path):
    """(line number, text) of the page's lines outside fenced blocks, with inline code blanked."""
    fenced = False
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if not fenced:
                yield i, CODE.sub(lambda m: " " * len(m.group(0)), line.rstrip("\n"))


_anchors = {}


def anchors(path):
    if path not in _anchors:
        seen, out = {}, set()
        for _, line in lines_outside_code(path):
            for a, b in EXPLICIT.findall(line):
                out.add(a or b)
        # headings keep their inline code's text in the id: read them with the code spans in place
        with open(path, encoding="utf-8") as f:
            fenced, seen = False, {}
            for line in f:
                if FENCE.match(line):
                    fenced = not fenced
                    continue
                m = None if fenced else re.match(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$", line.rstrip("\n"))
                if m:
                    base = slug(m.group(2))
                    n = seen.get(base, 0)
                    seen[base] = n + 1
                    out.add(base if n == 0 else "%s-%d" % (base, n))
        _anchors[path] = out
    return _anchors[path]


def pages(root):
    out = [os.path.join(root, "README.md")]
    for d, dirs, files in os.walk(os.path.join(root, "docs")):
        dirs.sort()
        out += [os.path.join(d, f) for f in sorted(files) if f.endswith(".md")]
    return [p for p in out if os.path.isfile(p)]


def check(root):
    bad, count = [], 0
    for page in pages(root):
        for no, line in lines_outside_code(page):
            targets = [m.group(2) for m in INLINE.finditer(line)]
            m = REFDEF.match(line)
            if m:
                targets.append(m.group(2))
            for t in targets:
                if not t or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", t):
                    continue
                count += 1
                path, _, anc = t.partition("#")
                path, anc = unquote(path), unquote(anc)
                rel = os.path.relpath(page, root)
                at = os.path.join(root, RENDERED_AT.get(rel, rel))
                where = os.path.normpath(os.path.join(os.path.dirname(at), path)) if path else at
                if not os.path.exists(where):
                    bad.append("%s:%d: %s: no such file" % (rel, no, t))
                elif anc and where.endswith(".md") and anc not in anchors(where) and anc.lower() not in anchors(where):
                    bad.append("%s:%d: %s: no heading #%s in %s" % (rel, no, t, anc, os.path.relpath(where, root)))
    return bad, count


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    bad, count = check(root)
    for b in bad:
        print(b)
    if bad:
        print("%d of %d relative links broken" % (len(bad), count))
        sys.exit(1)
    print("%d relative links and anchors resolve" % count)


if __name__ == "__main__":
    main()
