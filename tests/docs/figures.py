#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Every measured figure in README.md and docs/*.md comes from a script.

The rules (docs/testing.md, "Figures come from scripts"):

1. A generated block is the text between `<!-- NAME:begin -->` and
   `<!-- NAME:end -->`. Its first lines name the script that wrote it
   (`scripts/...`, a file that exists) and the commit it ran on (7-40 hex
   digits). Blocks pair up and do not nest; a NAME is used once.
2. Every script a block names is run (in its quick mode) by an integration
   test that `make check` runs, so a block cannot name a script that no
   longer works.
3. Outside blocks, a paragraph (or table row, or list item) with a
   measured-looking figure -- a decimal number, or a number with a unit of
   time, size, percent or ratio -- must sit next to where it comes from:
   `<!-- from: NAME -->` naming a block, or a Markdown link to a block (a
   file that holds one, or an anchor whose section holds one). A paragraph
   whose numbers are not measurements (a bound, a paper's figure, an option
   value) says so with `<!-- not measured: WHY -->`.

Usage: figures.py [--self-test] [--list] SRCDIR
Exit: 0 clean, 1 violations (each printed as FILE:LINE: what).
"""
import os
import re
import sys
import tempfile

BEGIN = re.compile(r"<!--\s*([a-z0-9][a-z0-9-]*):begin\s*-->")
END = re.compile(r"<!--\s*([a-z0-9][a-z0-9-]*):end\s*-->")
FROM = re.compile(r"<!--\s*from:\s*([a-z0-9][a-z0-9-]*)\s*-->")
NOT_MEASURED = re.compile(r"<!--\s*not measured:\s*\S[^>]*-->")
SCRIPT = re.compile(r"scripts/[A-Za-z0-9_.-]+")
COMMIT = re.compile(r"\b[0-9a-f]{7,40}\b")
LINK = re.compile(r"\]\(([^)\s]*)\)")
# A figure: a decimal number that is not a version or a section number,
# or a number with a unit of time, size, percent or ratio.
DECIMAL = re.compile(r"(?<![\w.§/-])\d+\.\d+(?![\w.]*\.\d)(?!\.\d)")
UNIT = re.compile(
    r"(?<![\w.§/-])\d[\d,]*(?:\.\d+)?\s?"
    r"(?:s|ms|µs|us|min|minutes|seconds|%|x|GB|MB|kB|KiB|MiB|GiB)(?![\w/])")
SECTION_REF = re.compile(
    r"(?:§|[Ss]ection|[Ff]ig(?:ure)?\.?|[Tt]able|[Ee]q\.?|Algorithm|[Ll]ine|"
    r"version|OpenSM|opensm|Debian|g\+\+|C\+\+|IBA|[Vv]ol\.?)\s*\d+(?:\.\d+)*")


def doc_files(src):
    out = [os.path.join(src, "README.md")]
    ddir = os.path.join(src, "docs")
    if os.path.isdir(ddir):
        out += sorted(os.path.join(ddir, f) for f in os.listdir(ddir)
                      if f.endswith(".md"))
    return [f for f in out if os.path.isfile(f)]


def slug(heading):
    """GitHub's anchor for a heading."""
    h = heading.strip().lower()
    h = re.sub(r"[^\w\- ]", "", h)
    return h.replace(" ", "-")


class Doc:
    def __init__(self, path):
        self.path = path
        with open(path, encoding="utf-8") as f:
            self.lines = f.read().split("\n")
        self.blocks = []      # (name, first, last) line indexes, inclusive
        self.problems = []
        self.headings = []    # (index, level, anchor)
        self._parse()

    def _parse(self):
        open_name, open_at, fence = None, 0, False
        for i, line in enumerate(self.lines):
            if line.lstrip().startswith("```"):
                fence = not fence
            if not fence:
                m = re.match(r"(#+)\s+(.*)", line)
                if m:
                    self.headings.append((i, len(m.group(1)), slug(m.group(2))))
            b, e = BEGIN.search(line), END.search(line)
            if b:
                if open_name is not None:
                    self.problems.append((i, f"block {b.group(1)} opens inside {open_name}"))
                open_name, open_at = b.group(1), i
            if e:
                if open_name != e.group(1):
                    self.problems.append((i, f"block end {e.group(1)} without its begin"))
                else:
                    self.blocks.append((open_name, open_at, i))
                open_name = None
        if open_name is not None:
            self.problems.append((open_at, f"block {open_name} never ends"))

    def in_block(self, i):
        return any(a <= i <= b for _, a, b in self.blocks)

    def anchor_has_block(self, anchor):
        for n, (i, level, a) in enumerate(self.headings):
            if a != anchor:
                continue
            end = len(self.lines)
            for j, lv, _ in self.headings[n + 1:]:
                if lv <= level:
                    end = j
                    break
            return any(i <= s < end for _, s, _ in self.blocks)
        return False


def strip_non_prose(text):
    text = re.sub(r"`[^`]*`", " ", text)               # code spans
    text = re.sub(r"\]\([^)]*\)", "]", text)            # link targets
    text = re.sub(r"<!--.*?-->", " ", text)             # comments
    text = re.sub(r"https?://\S+", " ", text)
    text = re.sub(r"\b\d+(?:x\d+)+\b", " ", text)      # 4x4x4, 8x8
    text = re.sub(r"\b\d+(?:\.\d+){2,}\b", " ", text)   # versions
    text = SECTION_REF.sub(" ", text)
    return text


def figures_in(text):
    t = strip_non_prose(text)
    return DECIMAL.findall(t) + UNIT.findall(t)


def units(doc):
    """Paragraphs, list items and table rows outside blocks and fences:
    (first line index, text)."""
    out, cur, start, fence, indented = [], [], 0, False, False
    def flush():
        if cur:
            out.append((start, "\n".join(cur)))
    for i, line in enumerate(doc.lines):
        if line.lstrip().startswith("```"):
            flush(); cur = []; fence = not fence
            continue
        if fence or doc.in_block(i):
            flush(); cur = []
            continue
        # an indented code block (an example of a command's output) starts
        # after a blank line and is not part of a list item
        if (not cur and re.match(r"( {4}|\t)", line) and i > 0
                and not doc.lines[i - 1].strip()) or (indented and line.strip()):
            flush(); cur = []; indented = True
            continue
        indented = False
        s = line.strip()
        new_unit = (not s or s.startswith("|") or re.match(r"([-*+]|\d+\.)\s", s)
                    or s.startswith("#"))
        if new_unit:
            flush(); cur = []
        if s and not s.startswith("#"):
            if not cur:
                start = i
            cur.append(line)
            if s.startswith("|"):
                flush(); cur = []
    flush()
    return out


def check(src, listing=False):
    docs = {os.path.relpath(p, src): Doc(p) for p in doc_files(src)}
    problems = []
    names = {}
    for rel, d in docs.items():
        problems += [(rel, i, w) for i, w in d.problems]
        for name, a, b in d.blocks:
            if name in names:
                problems.append((rel, a, f"block name {name} also used in {names[name]}"))
            names[name] = rel
            head = "\n".join(d.lines[a:min(b, a + 4)])
            scripts = SCRIPT.findall(head)
            if not scripts:
                problems.append((rel, a, f"block {name} names no scripts/... that wrote it"))
            for s in scripts:
                s = s.rstrip(".")
                if not os.path.isfile(os.path.join(src, s)):
                    problems.append((rel, a, f"block {name} names {s}, which does not exist"))
                elif not script_is_tested(src, s):
                    problems.append((rel, a, f"block {name}: no integration test runs {s}"))
            if not COMMIT.search(strip_hashless(head)):
                problems.append((rel, a, f"block {name} names no commit it ran on"))
    for rel, d in docs.items():
        base = os.path.dirname(d.path)
        for i, text in units(d):
            figs = figures_in(text)
            if not figs:
                continue
            if NOT_MEASURED.search(text):
                continue
            ok = False
            for m in FROM.finditer(text):
                if m.group(1) in names:
                    ok = True
                else:
                    problems.append((rel, i, f"from: {m.group(1)} names no block"))
            for target in LINK.findall(text):
                if linked_block(docs, src, base, d, target):
                    ok = True
            if not ok:
                problems.append((rel, i, "figure(s) %s with no generated block or link to one"
                                 % ", ".join(sorted(set(f.strip() for f in figs))[:4])))
    if listing:
        for rel, d in docs.items():
            for name, a, b in d.blocks:
                print(f"{rel}:{a + 1}: block {name} ({b - a - 1} lines)")
    return problems


def strip_hashless(text):
    # a commit is hex with at least one digit and one letter, or 7+ digits
    return " ".join(w for w in re.findall(r"\b[0-9a-f]{7,40}\b", text)
                    if (re.search(r"[a-f]", w) and re.search(r"\d", w)) or w.isdigit())


def linked_block(docs, src, base, doc, target):
    if re.match(r"[a-z]+:", target):
        return False
    path, _, anchor = target.partition("#")
    if path:
        full = os.path.normpath(os.path.join(base, path))
        rel = os.path.relpath(full, src)
        d = docs.get(rel)
    else:
        d = doc
    if d is None or not d.blocks:
        return False
    return d.anchor_has_block(anchor) if anchor else True


_TESTED = {}


def script_is_tested(src, script):
    if script in _TESTED:
        return _TESTED[script]
    tdir = os.path.join(src, "tests", "integration")
    mk = os.path.join(tdir, "integration.mk")
    listed = open(mk, encoding="utf-8").read() if os.path.isfile(mk) else ""
    name = os.path.basename(script)
    found = False
    for f in sorted(os.listdir(tdir)) if os.path.isdir(tdir) else []:
        if not f.endswith(".sh") or f not in listed:
            continue
        with open(os.path.join(tdir, f), encoding="utf-8") as fh:
            if re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", fh.read()):
                found = True
                break
    _TESTED[script] = found
    return found


def self_test():
    """Synthetic trees with known verdicts; a checker that stops finding
    violations fails here."""
    cases = {
        "clean": ("Intro without figures.\n\n<!-- t:begin -->\nWritten by `scripts/gen.sh` at commit 1a2b3c4.\n\n| a | 1.5 |\n<!-- t:end -->\n\nThe plateau is 0.81 ([block](#results)).\n", 0),
        "bare-figure": ("keiro routes it in 4.2 s.\n", 1),
        "bare-percent": ("It costs 17% more.\n", 1),
        "not-measured": ("The target is 1.10x ftree. <!-- not measured: the issue's bound -->\n", 0),
        "from-ok": ("<!-- t:begin -->\nBy `scripts/gen.sh` at 1a2b3c4.\n<!-- t:end -->\n\nIt takes 4.2 s. <!-- from: t -->\n", 0),
        "from-missing": ("It takes 4.2 s. <!-- from: nope -->\n", 1),
        "no-script": ("<!-- t:begin -->\nat 1a2b3c4\n<!-- t:end -->\n", 1),
        "missing-script": ("<!-- t:begin -->\n`scripts/none.sh` at 1a2b3c4\n<!-- t:end -->\n", 1),
        "untested-script": ("<!-- t:begin -->\n`scripts/lonely.sh` at 1a2b3c4\n<!-- t:end -->\n", 1),
        "no-commit": ("<!-- t:begin -->\n`scripts/gen.sh` in 30 s\n<!-- t:end -->\n", 1),
        "unclosed": ("<!-- t:begin -->\n`scripts/gen.sh` at 1a2b3c4\n", 1),
        "not-figures": ("A 10x10x10 torus, OpenSM 3.3.23, section 4.3, `max_vls=8`, 8 VLs.\n", 0),
        "table-row": ("| keiro-nue | 1.07 |\n", 1),
        "code-fence": ("```\nroute 4.2 s\n```\n", 0),
        "indented-example": ("It prints:\n\n    route 4.2 s\n    hops 4.57\n\nDone.\n", 0),
        "after-example": ("It prints:\n\n    route 4.2 s\n\nIt took 4.2 s.\n", 1),
    }
    bad = 0
    for name, (text, want) in cases.items():
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "scripts"))
            os.makedirs(os.path.join(d, "tests", "integration"))
            os.makedirs(os.path.join(d, "docs"))
            for s in ("gen.sh", "lonely.sh"):
                open(os.path.join(d, "scripts", s), "w").close()
            with open(os.path.join(d, "tests", "integration", "integration.mk"), "w") as f:
                f.write("TESTS += tests/integration/t.sh\n")
            with open(os.path.join(d, "tests", "integration", "t.sh"), "w") as f:
                f.write("bash scripts/gen.sh --quick\n")
            with open(os.path.join(d, "README.md"), "w") as f:
                f.write("# Results\n\n" + text if name == "clean" else text)
            _TESTED.clear()
            got = len(check(d))
            _TESTED.clear()
            if (got > 0) != (want > 0):
                print(f"self-test {name}: expected {'a violation' if want else 'clean'}, got {got}")
                bad += 1
    print(f"self-test: {len(cases) - bad} of {len(cases)} cases right")
    return bad == 0


def main(argv):
    if "--self-test" in argv:
        return 0 if self_test() else 1
    args = [a for a in argv if not a.startswith("--")]
    src = args[0] if args else "."
    problems = check(src, "--list" in argv)
    for rel, i, what in sorted(problems):
        print(f"{rel}:{i + 1}: {what}")
    by_file = {}
    for rel, _, _ in problems:
        by_file[rel] = by_file.get(rel, 0) + 1
    print("figures: %d violation(s)%s" % (len(problems), "".join(
        f"\n  {f}: {n}" for f, n in sorted(by_file.items()))))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
