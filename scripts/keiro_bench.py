# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Helpers shared by keiro's benchmark scripts (acro-compare.py, loren-repro.py):
find a program of a build tree, run it and collect its output (tab-separated
rows, or JSON), and write simple SVG charts.

A bench program prints tab-separated rows; lines starting with '#' are
comments, the last one before the rows names the columns. Imported, not run:
the scripts find it next to themselves (Python puts a script's directory on
sys.path).
"""
import glob
import json
import math
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SPDX = 'SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause'


def find_program(relpath, builddirs=()):
    """The first executable ROOT-relative build program relpath (e.g.
    'tests/bench/acro_bench') in $KEIRO_BUILDDIR, then in builddirs (names
    under ROOT), then in the most recently built ROOT/build*/. None if absent."""
    dirs = [os.environ.get('KEIRO_BUILDDIR', '')]
    dirs += [os.path.join(ROOT, d) for d in builddirs]
    dirs += sorted(glob.glob(os.path.join(ROOT, 'build*', relpath)),
                   key=os.path.getmtime, reverse=True)
    for d in dirs:
        if not d:
            continue
        p = d if d.endswith(relpath) else os.path.join(d, relpath)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


class Table:
    """The output of one run: stdout, stderr, returncode, the data rows as
    lists of strings (rows) and as dicts keyed by the column names of the
    last '#' line (records)."""

    def __init__(self, stdout, stderr, returncode):
        self.stdout, self.stderr, self.returncode = stdout, stderr, returncode
        self.rows, self.records = [], []
        header = None
        for line in stdout.splitlines():
            if line.startswith('#'):
                header = line[1:].split('\t')
            elif line.strip():
                cells = line.split('\t')
                self.rows.append(cells)
                self.records.append(dict(zip(header, cells)) if header else {})


def run_table(prog, *args, check=True, verbose=False):
    """Runs prog with args (converted with str) and returns its Table. check:
    raise CalledProcessError on a non-zero exit. verbose: one timing line on
    stderr."""
    cmd = [prog] + [str(a) for a in args]
    t0 = time.time()
    out = subprocess.run(cmd, check=check, capture_output=True, text=True)
    table = Table(out.stdout, out.stderr.strip(), out.returncode)
    if verbose:
        print('  %s: %d rows, %.1f s' % (' '.join(cmd[1:3]) + ' ...', len(table.rows),
                                         time.time() - t0), file=sys.stderr)
    return table


def source_commit(src=ROOT):
    """The short commit of the source tree src (`git rev-parse --short
    HEAD`), with ' + local changes' when tracked files outside docs/ differ
    from it; 'unknown (no git)' outside a git checkout."""
    def git(*args):
        return subprocess.run(['git', '-C', src] + list(args), capture_output=True,
                              text=True, check=True).stdout.strip()
    try:
        commit = git('rev-parse', '--short', 'HEAD')
        dirty = git('status', '--porcelain', '--untracked-files=no', '--', '.', ':!docs')
    except (OSError, subprocess.CalledProcessError):
        return 'unknown (no git)'
    return commit + (' + local changes' if dirty else '')


def write_block_page(path, name, title, body):
    """Writes a generated page: body between `<!-- name:begin -->` and
    `<!-- name:end -->`. When path already holds both markers only the text
    between them is replaced (the title and anything else outside stay as
    they are); otherwise the page is written whole: an SPDX comment, the
    title line (no figures in it), then the block."""
    begin, end = '<!-- %s:begin -->' % name, '<!-- %s:end -->' % name
    body = body.strip('\n')
    old = ''
    if os.path.isfile(path):
        with open(path, encoding='utf-8') as f:
            old = f.read()
    a, b = old.find(begin), old.find(end)
    if 0 <= a < b:
        text = old[:a + len(begin)] + '\n' + body + '\n' + old[b:]
    else:
        text = '<!-- %s -->\n%s\n\n%s\n%s\n%s\n' % (SPDX, title, begin, body, end)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)


def replace_blocks(path, blocks):
    """Every generated block in the text blocks (`<!-- NAME:begin -->` ...
    `<!-- NAME:end -->`, markers included) replaces the block of the same
    NAME in the page at path; the text around them stays byte for byte.
    Exits with a message when the page lacks a block's markers."""
    import re
    with open(path, encoding='utf-8') as f:
        text = f.read()
    found = list(re.finditer(r'<!-- ([a-z0-9-]+):begin -->.*?<!-- \1:end -->', blocks, re.S))
    if not found:
        sys.exit('replace-blocks: no generated block given for %s' % path)
    for m in found:
        begin, end = '<!-- %s:begin -->' % m.group(1), '<!-- %s:end -->' % m.group(1)
        a, b = text.find(begin), text.find(end)
        if a < 0 or b < a:
            sys.exit('replace-blocks: %s has no %s block' % (path, m.group(1)))
        text = text[:a] + m.group(0) + text[b + len(end):]
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)


def run_json(prog, *args):
    """Runs prog with args (e.g. `keiro analyze DUMPS --json`) and returns its
    stdout parsed as JSON (whatever the exit status: keiro analyze exits 1
    when a check fails). Raises ValueError when stdout is no JSON."""
    out = subprocess.run([prog] + [str(a) for a in args], check=False, capture_output=True,
                         text=True)
    return json.loads(out.stdout)


# ---------------------------------------------------------------- SVG ----
COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b']


def esc(s):
    return str(s).replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')


def fmt(v):
    """A tick label: integers without decimals, else up to 2 decimals."""
    return ('%d' % v) if abs(v - round(v)) < 1e-9 else ('%.2f' % v).rstrip('0')


def nice_ticks(lo, hi, n=6):
    """About n ticks from lo to hi at a step of 1, 2, 2.5 or 5 times a power of 10."""
    span = hi - lo
    if span <= 0:
        return [lo]
    raw = span / n
    mag = 10 ** math.floor(math.log10(raw))
    step = min((m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw), default=raw)
    first = math.ceil(lo / step) * step
    out, v = [], first
    while v <= hi + 1e-9:
        out.append(round(v, 10))
        v += step
    return out


class Svg:
    """An SVG document on a white background. Drawing calls take pixel
    coordinates; after axes() (one plot area: left 64 px, right edge w -
    legend_w, top 36, bottom h - 50) X() and Y() map data to pixels, and
    polyline() and errbar() take data coordinates."""

    def __init__(self, w=640, h=400, title='', legend_w=150, title_size=14):
        self.w, self.h = w, h
        self.parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
                      'viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">' % (w, h, w, h),
                      '<!-- %s -->' % SPDX,
                      '<rect width="100%" height="100%" fill="white"/>']
        if title:
            self.text(w / 2, 20, title, anchor='middle', size=title_size)
        self.l, self.r, self.t, self.b = 64, w - legend_w, 36, h - 50

    # -- pixel coordinates
    def text(self, x, y, s, anchor='start', size=12, rotate=None):
        tr = ' transform="rotate(%d %.1f %.1f)"' % (rotate, x, y) if rotate else ''
        self.parts.append('<text x="%.1f" y="%.1f" text-anchor="%s" font-size="%d"%s>%s</text>'
                          % (x, y, anchor, size, tr, esc(s)))

    def line(self, x1, y1, x2, y2, color='black', width=1, dash=None):
        d = ' stroke-dasharray="%s"' % dash if dash else ''
        self.parts.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" '
                          'stroke-width="%g"%s/>' % (x1, y1, x2, y2, color, width, d))

    def rect(self, x, y, w, h, color, stroke=None):
        """A rectangle filled with color ('none': only its outline in stroke)."""
        s = ' stroke="%s"' % stroke if stroke else ''
        self.parts.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"%s/>'
                          % (x, y, w, h, color, s))

    def circle(self, x, y, r, color):
        self.parts.append('<circle cx="%.1f" cy="%.1f" r="%g" fill="%s"/>' % (x, y, r, color))

    def polyline_px(self, pts, color, dash=None, width=1.6):
        d = ' stroke-dasharray="%s"' % dash if dash else ''
        self.parts.append('<polyline fill="none" stroke="%s" stroke-width="%g"%s points="%s"/>'
                          % (color, width, d, ' '.join('%.1f,%.1f' % p for p in pts)))

    # -- data coordinates (after axes())
    def axes(self, xlo, xhi, ylo, yhi, xlabel, ylabel, xticks=None, yticks=None):
        self.xlo, self.xhi, self.ylo, self.yhi = xlo, xhi, ylo, yhi
        self.line(self.l, self.b, self.r, self.b)
        self.line(self.l, self.b, self.l, self.t)
        for v in nice_ticks(xlo, xhi) if xticks is None else xticks:
            x = self.X(v)
            self.line(x, self.b, x, self.b + 4)
            self.text(x, self.b + 17, fmt(v), anchor='middle', size=11)
        for v in nice_ticks(ylo, yhi) if yticks is None else yticks:
            y = self.Y(v)
            self.line(self.l - 4, y, self.l, y)
            self.line(self.l, y, self.r, y, color='#e0e0e0')
            self.text(self.l - 7, y + 4, fmt(v), anchor='end', size=11)
        self.text((self.l + self.r) / 2, self.h - 12, xlabel, anchor='middle')
        self.text(16, (self.t + self.b) / 2, ylabel, anchor='middle', rotate=-90)

    def X(self, v):
        return self.l + (v - self.xlo) / ((self.xhi - self.xlo) or 1) * (self.r - self.l)

    def Y(self, v):
        return self.b - (v - self.ylo) / ((self.yhi - self.ylo) or 1) * (self.b - self.t)

    def polyline(self, pts, color, dash=None, width=1.6):
        self.polyline_px([(self.X(x), self.Y(y)) for x, y in pts], color, dash, width)

    def errbar(self, x, lo, hi, color):
        self.line(self.X(x), self.Y(lo), self.X(x), self.Y(hi), color=color, width=0.8)

    def legend(self, items):
        """items: (label, color, dash) lines right of the plot area."""
        y = self.t + 6
        for label, color, dash in items:
            self.line(self.r + 12, y, self.r + 36, y, color=color, width=3, dash=dash)
            self.text(self.r + 42, y + 4, label, size=11)
            y += 18

    def svg(self):
        return '\n'.join(self.parts + ['</svg>']) + '\n'

    def save(self, path):
        with open(path, 'w') as f:
            f.write(self.svg())


if __name__ == '__main__':
    # keiro_bench.py replace-blocks PAGE [FILE]: the blocks in FILE (default
    # standard input) replace the same-named blocks of PAGE.
    if len(sys.argv) in (3, 4) and sys.argv[1] == 'replace-blocks':
        src = open(sys.argv[3], encoding='utf-8') if len(sys.argv) == 4 else sys.stdin
        replace_blocks(sys.argv[2], src.read())
    else:
        sys.exit('usage: keiro_bench.py replace-blocks PAGE [FILE]')
