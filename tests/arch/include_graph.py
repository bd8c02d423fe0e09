#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The architecture test: keiro's include graph and two call rules against
the layering of docs/architecture.md ("Layering rules").

usage: include_graph.py [ROOT]        check the tree at ROOT (default: the
                                      repository this script is in)
       include_graph.py --self-test   check the checker on synthetic trees

Sources: every .h and .cc under core/, plugin/ and tool/. Includes: quoted
#include "..." lines, resolved relative to ROOT (files that do not exist
there, e.g. generated ones, are left out), and angle-bracket includes for
the OpenSM rule. A .h and the .cc of the same name form one component; a
folder is a file's directory (files directly in core/ form folder "core").

Violations, each printed as FILE:LINE: [rule] what, then a summary:
 (a) a cycle between components;
 (b) a cycle between folders;
 (c) a forbidden edge (FORBIDDEN below);
 (d) "only the pipeline calls an engine": `.route(` or `->route(` outside
     ROUTE_CALL_ALLOWED (in core/, plugin/, tool/; tests are not scanned), in
     the files that can hold an engine's EngineDesc: those naming EngineDesc,
     kEngine, all_engines( or find_engine( (other classes have route()
     methods too: minimal::Balancer, nue's Dijkstra);
 (e) "option strings are read only by an engine's options reader and the
     pipeline's settings": `.get("`, `.get_int("`, `.get_bool("`, `.has("`
     in core/ outside OPTION_READ_ALLOWED.
 (f) "no function over about 80 lines outside documented hot loops": a
     function body in core/ or plugin/ (a definition that starts at column 0
     and ends at the next `}` at column 0, as clang-format writes them)
     longer than MAX_FUNCTION_LINES non-blank, non-comment lines, unless one
     of the three lines above it is a comment that says "hot loop".
Comments (// to the end of the line) are not searched for (d) and (e).
Exit: 0 clean, 1 violations, 2 usage.
"""
import os
import re
import shutil
import sys
import tempfile

SCANNED = ('core', 'plugin', 'tool')
ENGINES = ('acro', 'dl', 'loren', 'nue')

# (c) forbidden edges: (name, does the rule apply to the including file,
# is the included path forbidden for it). Paths are relative to ROOT.
def _under(path, *folders):
    return any(path.startswith(f + '/') for f in folders)


def _core_root(path):
    return path.startswith('core/') and path.count('/') == 1


FORBIDDEN = [
    ('an engine includes the pipeline, re-routing or the registry',
     lambda src: _under(src, *('core/' + e for e in ENGINES)),
     lambda dst: _under(dst, 'core/pipeline', 'core/reroute', 'core/registry')),
    ('only core/pipeline and core/registry include core/registry in core',
     lambda src: _under(src, 'core') and not _under(src, 'core/pipeline', 'core/registry'),
     lambda dst: _under(dst, 'core/registry')),
    ('only core/pipeline includes core/pipeline in core',
     lambda src: _under(src, 'core') and not _under(src, 'core/pipeline'),
     lambda dst: _under(dst, 'core/pipeline')),
    ('the model (core root) includes a core subfolder',
     _core_root,
     lambda dst: _under(dst, 'core') and not _core_root(dst)),
    ('core includes plugin/, tool/ or OpenSM',
     lambda src: _under(src, 'core'),
     lambda dst: _under(dst, 'plugin', 'tool', 'opensm', 'iba', 'complib')),
]

# (d) where `.route(` / `->route(` may appear: the pipeline calls engines,
# the registry lists them.
ROUTE_CALL_ALLOWED = ('core/pipeline/', 'core/registry/')

# (e) where option strings may be read in core/: the pipeline's settings,
# the general keys' parser, the registry, and each engine's options reader
# (core/<engine>/options.{h,cc} or its adapter core/<engine>/engine.cc).
OPTION_READ_ALLOWED = (
    ['core/pipeline/settings.h', 'core/pipeline/settings.cc', 'core/options.cc',
     'core/registry/'] +
    ['core/%s/%s' % (e, f) for e in ENGINES for f in ('options.h', 'options.cc', 'engine.cc')])

QUOTED = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
ANGLE = re.compile(r'^\s*#\s*include\s+<((?:opensm|iba|complib)/[^>]+)>')
ROUTE_CALL = re.compile(r'(\.|->)route\(')
ENGINE_HOLDER = re.compile(r'\bEngineDesc\b|\bkEngine\b|\ball_engines\(|\bfind_engine\(')
OPTION_READ = re.compile(r'(\.|->)(get_int|get_bool|get|has)\("')


def allowed(path, prefixes):
    return any(path == p or (p.endswith('/') and path.startswith(p)) for p in prefixes)


def sources(root):
    out = []
    for top in SCANNED:
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if f.endswith(('.h', '.cc')):
                    out.append(os.path.relpath(os.path.join(d, f), root).replace(os.sep, '/'))
    return sorted(out)


def component(path):
    return path.rsplit('.', 1)[0]


def folder(path):
    return os.path.dirname(path)


def read_includes(root, files):
    """[(src, line number, included path)] of quoted includes that resolve to
    a scanned file, and of OpenSM angle includes (path as written)."""
    known, edges = set(files), []
    for src in files:
        with open(os.path.join(root, src), encoding='utf-8', errors='replace') as f:
            for n, line in enumerate(f, 1):
                m = QUOTED.match(line)
                if m and (m.group(1) in known or m.group(1).split('/')[0] in
                          ('opensm', 'iba', 'complib')):
                    edges.append((src, n, m.group(1)))
                m = ANGLE.match(line)
                if m:
                    edges.append((src, n, m.group(1)))
    return edges


def strongly_connected(nodes, succ):
    """Tarjan's strongly connected components (iterative), those of two or
    more nodes, each sorted; the list sorted."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for start in sorted(nodes):
        if start in index:
            continue
        work = [(start, iter(sorted(succ.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(succ.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def one_cycle(scc, succ):
    """A cycle inside the component scc, as its node list (first node again
    at the end): the shortest way from scc[0] back to itself."""
    members, start = set(scc), scc[0]
    prev, queue = {}, [start]
    for v in queue:
        for w in sorted(succ.get(v, ())):
            if w not in members:
                continue
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(prev[path[-1]])
                return [start] + path[::-1][1:] + [start] if len(path) > 1 else [start, v, start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return scc + [start]


def graph_of(edges, key):
    """Graph over key(path) (component or folder) without self-edges, and the
    first include line of each edge: {(a, b): (src, line)}."""
    succ, where = {}, {}
    for src, n, dst in edges:
        a, b = key(src), key(dst)
        if a == b:
            continue
        succ.setdefault(a, set()).add(b)
        where.setdefault((a, b), (src, n))
    return succ, where


def cycle_violations(edges, key, rule, what):
    succ, where = graph_of(edges, key)
    nodes = set(succ) | {b for bs in succ.values() for b in bs}
    out = []
    for scc in strongly_connected(nodes, succ):
        cyc = one_cycle(scc, succ)
        path = ' -> '.join(cyc)
        for a, b in zip(cyc, cyc[1:]):
            src, n = where[(a, b)]
            out.append((src, n, rule, '%s cycle %s (this line: %s -> %s)' % (what, path, a, b)))
    return out


def forbidden_violations(edges):
    out = []
    for src, n, dst in edges:
        for name, applies, forbidden in FORBIDDEN:
            if applies(src) and forbidden(dst):
                out.append((src, n, 'c', 'forbidden edge to %s: %s' % (dst, name)))
    return out


def text_violations(root, files):
    out = []
    for src in files:
        with open(os.path.join(root, src), encoding='utf-8', errors='replace') as f:
            text = f.read()
        route_ok = allowed(src, ROUTE_CALL_ALLOWED) or not ENGINE_HOLDER.search(text)
        option_ok = not src.startswith('core/') or allowed(src, OPTION_READ_ALLOWED)
        if route_ok and option_ok:
            continue
        for n, line in enumerate(text.split('\n'), 1):
            code = line.split('//', 1)[0]
            if not route_ok and ROUTE_CALL.search(code):
                out.append((src, n, 'd', "calls an engine's route() outside the pipeline: " +
                            code.strip()))
            if not option_ok and OPTION_READ.search(code):
                out.append((src, n, 'e', 'reads an option string outside an options reader: ' +
                            code.strip()))
    return out


MAX_FUNCTION_LINES = 100
NOT_A_FUNCTION = ('namespace', 'struct', 'class', 'enum', 'union', 'using', 'typedef', 'extern',
                  'static_assert', '#')


def function_start(lines, n):
    """The line index of the '{' that opens a function whose signature starts
    at column 0 on line n (clang-format style, the signature on up to 8
    lines), or -1."""
    head = lines[n]
    if not head[:1].isalpha() and head[:1] != '_' or head.startswith(NOT_A_FUNCTION):
        return -1
    if '(' not in head or '=' in head.split('(', 1)[0]:
        return -1
    for k in range(n, min(n + 8, len(lines))):
        code = lines[k].split('//', 1)[0].rstrip()
        if k > n and (not lines[k][:1].isspace()):
            return -1
        if code.endswith(';'):
            return -1
        if code.endswith('{'):
            return k
    return -1


def function_violations(root, files):
    out = []
    for src in files:
        if not (src.startswith('core/') or src.startswith('plugin/')) or not src.endswith('.cc'):
            continue
        with open(os.path.join(root, src), encoding='utf-8', errors='replace') as f:
            lines = f.read().split('\n')
        n = 0
        while n < len(lines):
            brace = function_start(lines, n)
            if brace < 0:
                n += 1
                continue
            start, body = n, 0
            n = brace + 1
            while n < len(lines) and not lines[n].startswith('}'):
                code = lines[n].strip()
                body += bool(code) and not code.startswith('//')
                n += 1
            above = ' '.join(lines[max(0, start - 3):start]).lower()
            if body > MAX_FUNCTION_LINES and 'hot loop' not in above:
                out.append((src, start + 1, 'f', 'function of %d lines (over %d, not a documented '
                            'hot loop): %s' % (body, MAX_FUNCTION_LINES, lines[start].strip())))
    return out


def check(root):
    """Every violation of the tree at root: [(file, line, rule, message)]."""
    files = sources(root)
    edges = read_includes(root, files)
    v = cycle_violations(edges, component, 'a', 'component')
    v += cycle_violations(edges, folder, 'b', 'folder')
    v += forbidden_violations(edges)
    v += text_violations(root, files)
    v += function_violations(root, files)
    return sorted(set(v))


def report(violations, out=sys.stdout):
    for src, n, rule, msg in violations:
        out.write('%s:%d: [%s] %s\n' % (src, n, rule, msg))
    counts = {r: sum(1 for v in violations if v[2] == r) for r in 'abcdef'}
    out.write('include_graph: %d violations (a component cycles %d, b folder cycles %d, '
              'c forbidden edges %d, d engine calls %d, e option reads %d, f long functions '
              '%d)\n' % (len(violations), counts['a'], counts['b'], counts['c'], counts['d'],
                         counts['e'], counts['f']))


# ---------------------------------------------------------------- self-test

CLEAN = {
    'core/fabric.h': '#pragma once\n',
    'core/fabric.cc': '#include "core/fabric.h"\n#include "config.h"\n',
    'core/graph/bfs.h': '#include "core/fabric.h"\n',
    'core/graph/bfs.cc': '#include "core/graph/bfs.h"\n#include <vector>\n',
    'core/minimal/trees.h': '#include "core/graph/bfs.h"\n',
    'core/engine/engine.h': '#include "core/fabric.h"\n',
    'core/nue/engine.h': '#include "core/engine/engine.h"\n',
    'core/nue/engine.cc': '#include "core/nue/engine.h"\n#include "core/minimal/trees.h"\n'
                          'int seed(const Options &o) { return o.get_int("nue_seed"); }\n',
    'core/registry/registry.h': '#include "core/engine/engine.h"\n',
    'core/registry/registry.cc': '#include "core/registry/registry.h"\n'
                                 '#include "core/nue/engine.h"\n',
    'core/reroute/previous.h': '#include "core/engine/engine.h"\n',
    'core/pipeline/pipeline.h': '#include "core/reroute/previous.h"\n',
    'core/pipeline/pipeline.cc': '#include "core/pipeline/pipeline.h"\n'
                                 'bool run(const EngineDesc &e) { return e.route(in, out); }\n',
    'plugin/osm.h': '#include <opensm/osm_opensm.h>\n#include "core/pipeline/pipeline.h"\n',
    'tool/cmd.cc': '#include "core/registry/registry.h"\n'
                   '// not a call: e.route(in) in a comment\n',
}

# name: (files added to CLEAN, the rules that must fire, how many violations,
# text one of them has)
CASES = {
    'clean': ({}, set(), 0, None),
    'component cycle': ({'core/graph/a.h': '#pragma once\n',
                         'core/graph/a.cc': '#include "core/graph/a.h"\n#include "core/graph/b.h"\n',
                         'core/graph/b.h': '#pragma once\n',
                         'core/graph/b.cc': '#include "core/graph/b.h"\n#include "core/graph/a.h"\n'},
                        {'a'}, 2, 'component cycle core/graph/a -> core/graph/b -> core/graph/a'),
    'folder cycle': ({'core/graph/walk.h': '#include "core/minimal/trees.h"\n'},
                     {'b'}, 2, 'folder cycle core/graph -> core/minimal -> core/graph'),
    'forbidden edge': ({'core/nue/nue.cc': '#include "core/pipeline/pipeline.h"\n'},
                       {'c'}, 2, 'an engine includes the pipeline'),
    'model includes a subfolder': ({'core/topo/gen.h': '#pragma once\n',
                                    'core/routing.h': '#include "core/topo/gen.h"\n'},
                                   {'c'}, 1, 'the model (core root)'),
    'core includes OpenSM': ({'core/log.cc': '#include <complib/cl_types.h>\n'},
                             {'c'}, 1, 'core includes plugin/, tool/ or OpenSM'),
    'engine called outside the pipeline': ({'plugin/glue.cc': 'int f(const EngineDesc *d) {\n'
                                                              '  return d->route(i, o);\n}\n',
                                            'core/graph/walk.cc': 'void f(Walker &w) { w.route(1); }\n'},
                                           {'d'}, 1, "calls an engine's route()"),
    'option read outside a reader': ({'core/vlmap/v.cc': 'int v = opt.get_int("max_vls");\n'},
                                     {'e'}, 1, 'reads an option string'),
    'long function': ({'core/graph/long.cc': 'int f(int x) {\n' + '  x += 1;\n' * 101 +
                       '  return x;\n}\n// hot loop: kept whole\nint g(int x) {\n' +
                       '  x += 1;\n' * 120 + '  return x;\n}\nint h(int x) {\n' +
                       '  // comment\n' * 150 + '  return x;\n}\n'},
                      {'f'}, 1, 'function of 102 lines'),
}


def self_test():
    failed = 0
    for name, (extra, want, count, text) in CASES.items():
        root = tempfile.mkdtemp(prefix='include_graph.')
        try:
            for path, body in dict(CLEAN, **extra).items():
                os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
                with open(os.path.join(root, path), 'w') as f:
                    f.write(body)
            got = check(root)
        finally:
            shutil.rmtree(root)
        rules = {v[2] for v in got}
        ok = rules == want and len(got) == count and (text is None or
                                                      any(text in v[3] for v in got))
        print('%s: %s (rules %s, %d violations; want %s, %d)' %
              ('PASS' if ok else 'FAIL', name, ''.join(sorted(rules)) or '-', len(got),
               ''.join(sorted(want)) or '-', count))
        if not ok:
            report(got)
            failed += 1
    print('include_graph self-test: %d of %d cases failed' % (failed, len(CASES)))
    return 1 if failed else 0


def main(argv):
    if argv[1:] == ['--self-test']:
        return self_test()
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith('-')):
        sys.stderr.write(__doc__)
        return 2
    root = argv[1] if len(argv) == 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                       '..', '..')
    violations = check(root)
    report(violations)
    return 1 if violations else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
