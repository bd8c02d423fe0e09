# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Generates keiro's man pages from hand-written templates (docs/man/*.in)
and what the built tool itself says, so that the pages list exactly the
subcommands, options and plugin keys of the build at hand.

usage: gen-man.py KEIRO TEMPLATE OUT

Placeholders in a template:
  @VERSION@   keiro --version
  @DATE@      the date of the newest template or this script (reproducible)
  @COMMANDS@  one subsection per subcommand, from `keiro CMD --help`
  @OPTIONS@   every event_plugin_options key, from `keiro options --tsv`
  @ENGINES@   one tagged paragraph per engine (OpenSM name, short name,
              summary), from `keiro engines`
  @ENGINE_NAMES@  the engines' OpenSM names, comma separated
A template without @ENGINES@ that describes engines by hand (".B keiro\-X"
paragraphs) must describe exactly the engines `keiro engines` lists.
"""
import os
import re
import subprocess
import sys
import time


def esc(s):
    """Text for a roff line: backslashes, hyphens of options, leading dots."""
    s = s.replace('\\', '\\e')
    s = re.sub(r'(?<![\w])-', r'\\-', s)
    if s.startswith(('.', "'")):
        s = '\\&' + s
    return s


def run(*args):
    p = subprocess.run(args, capture_output=True, text=True)
    return p.stdout if p.stdout else p.stderr


OPT = re.compile(r'^  (-\S+(?: [^\s]+)*?)(?:\s{2,}(\S.*))?$')


def help_to_roff(text):
    """A subcommand's --help text as roff: usage lines in bold, option lines
    as tagged paragraphs (continuation lines joined), headings ('options:')
    in italics, everything else as running text."""
    out, in_tp = [], False
    for line in text.rstrip('\n').split('\n'):
        if not line.strip():
            out.append('.PP')
            in_tp = False
            continue
        if line.startswith('usage: ') or re.match(r'^ {7}keiro ', line):
            out.append('.br')
            out.append('.B ' + esc(line.replace('usage: ', '', 1).strip()))
            in_tp = False
            continue
        m = OPT.match(line)
        if m and not line.startswith('   '):
            out.append('.TP')
            out.append('.B ' + esc(m.group(1)))
            if m.group(2):
                out.append(esc(m.group(2)))
            in_tp = True
            continue
        if in_tp and line.startswith('    '):
            out.append(esc(line.strip()))
            continue
        if not line.startswith(' ') and line.rstrip().endswith(':'):
            out.append('.PP')
            out.append('.I ' + esc(line.strip()))
            in_tp = False
            continue
        if in_tp:
            out.append('.PP')
            in_tp = False
        out.append(esc(line.strip()))
    return '\n'.join(out)


def commands(keiro):
    names = []
    for line in run(keiro, '--help').split('\n'):
        m = re.match(r'^  ([a-z][a-z-]*)\s{2,}(.*)$', line)
        if m:
            names.append((m.group(1), m.group(2)))
    if not names:
        sys.exit('gen-man: %s --help lists no commands' % keiro)
    parts = []
    for name, summary in names:
        parts.append('.SS "keiro %s"' % name)
        parts.append(esc(summary[:1].upper() + summary[1:]) + '.')
        parts.append('.PP')
        parts.append(help_to_roff(run(keiro, name, '--help')))
    return '\n'.join(parts)


def options(keiro):
    parts, scope = [], None
    for line in run(keiro, 'options', '--tsv').strip().split('\n'):
        f = line.split('\t')
        if len(f) != 5:
            sys.exit('gen-man: unexpected line from keiro options --tsv: %r' % line)
        if f[0] != scope:
            scope = f[0]
            parts.append('.SS "%s"' % ('General keys (every engine)' if scope == 'general'
                                        else 'Keys of ' + scope))
        parts.append('.TP')
        parts.append('.BI "%s=" %s' % (esc(f[1]), esc(f[2]).replace(' ', '\\ ')))
        text = f[4]
        if text.startswith(scope + ': '):
            text = text[len(scope) + 2:]
        text = text[:1].upper() + text[1:].rstrip('.') + '.'
        parts.append(esc(text) + ('' if f[3] == '-' else ' Default: ' + esc(f[3]) + '.'))
    return '\n'.join(parts)


def engines(keiro):
    """(short name, OpenSM name, summary) of every engine, in registry order."""
    rows = []
    for line in run(keiro, 'engines').strip().split('\n'):
        f = line.split('\t')
        if len(f) != 3:
            sys.exit('gen-man: unexpected line from keiro engines: %r' % line)
        rows.append(tuple(f))
    return rows


def name_roff(name):
    """An engine or command name for roff: every hyphen a minus sign."""
    return name.replace('-', '\\-')


def engines_roff(rows):
    parts = []
    for short, osm, summary in rows:
        parts.append('.TP')
        parts.append('.B ' + name_roff(osm))
        parts.append('(%s) %s.' % (esc(short), esc(summary[:1].upper() + summary[1:])))
    return '\n'.join(parts)


def check_hand_engines(text, rows, template):
    """The hand-written engine paragraphs of a template name the registry's
    engines, no more and no fewer."""
    hand = re.findall(r'^\.B (keiro\\-[a-z0-9]+)$', text, re.M)
    if not hand:
        return
    want = [name_roff(osm) for _, osm, _ in rows]
    if sorted(set(hand)) != sorted(want):
        sys.exit('gen-man: %s describes engines %s, keiro engines lists %s' %
                 (template, ' '.join(sorted(set(hand))), ' '.join(want)))


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    keiro, template, out = sys.argv[1:]
    with open(template) as f:
        text = f.read()
    newest = max(os.path.getmtime(template), os.path.getmtime(__file__))
    date = time.strftime('%Y-%m-%d', time.gmtime(int(os.environ.get('SOURCE_DATE_EPOCH', newest))))
    version = run(keiro, '--version').strip().split()[-1]
    text = text.replace('@VERSION@', version).replace('@DATE@', date)
    if '@COMMANDS@' in text:
        text = text.replace('@COMMANDS@', commands(keiro))
    if '@OPTIONS@' in text:
        text = text.replace('@OPTIONS@', options(keiro))
    rows = engines(keiro)
    text = text.replace('@ENGINE_NAMES@', ', '.join(name_roff(osm) for _, osm, _ in rows))
    if '@ENGINES@' in text:
        text = text.replace('@ENGINES@', engines_roff(rows))
    else:
        check_hand_engines(text, rows, template)
    with open(out + '.tmp', 'w') as f:
        f.write(text)
    os.replace(out + '.tmp', out)


if __name__ == '__main__':
    main()
