#!/usr/bin/env python3
"""The layering of ctrun's sources (libct/LAYERS): fails on an #include, or with --objects on
a call, that goes from a folder to one declared above it, and on files that depend on each
other in a circle.

Usage: check_layers.py ROOT [--objects BUILD_DIR]

ROOT holds libct/LAYERS: one source folder a line, the lowest first. A file may use its own
folder and the folders on earlier lines only. Every folder under libct/ must be listed.
Circles are looked for between the .c files of the listed folders: by includes (a.c includes
b.h, b.c includes a.h, or longer circles of that kind) and, with --objects, by the symbols
each object of BUILD_DIR takes from the others (who calls whom, whatever the headers say).
"""
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def read_layers(root):
    path = os.path.join(root, 'libct', 'LAYERS')
    folders = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.split('#', 1)[0].strip()
            if line:
                folders.append(line.rstrip('/'))
    return {folder: rank for rank, folder in enumerate(folders)}


def source_files(root, ranks):
    """Every .c and .h of the listed folders, as paths relative to root."""
    files = []
    for folder in ranks:
        for name in sorted(os.listdir(os.path.join(root, folder))):
            if name.endswith(('.c', '.h')):
                files.append(f'{folder}/{name}')
    return files


def unlisted_folders(root, ranks):
    """Folders under libct/ holding sources that libct/LAYERS does not list."""
    problems = []
    for dirpath, _, names in os.walk(os.path.join(root, 'libct')):
        folder = os.path.relpath(dirpath, root)
        if folder not in ranks and any(n.endswith(('.c', '.h')) for n in names):
            problems.append(f'{folder}: a source folder that libct/LAYERS does not list')
    return problems


def includes_of(root, path):
    with open(os.path.join(root, path), encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield number, m.group(1)


def against_order(user, used, ranks, what):
    """A problem line when `user` (a file) may not use `used` (a file), else None."""
    a, b = os.path.dirname(user), os.path.dirname(used)
    if b in ranks and ranks[b] > ranks[a]:
        return f'{what}: {b}/ is above {a}/ in libct/LAYERS'
    return None


def outside(root, target, ranks):
    """Whether target is a file of the tree (not one the build makes, as version.h) in no
    listed folder: tests/, say, which the sources must never need."""
    return os.path.dirname(target) not in ranks and os.path.exists(os.path.join(root, target))


def check_includes(root, ranks, files):
    problems, edges = [], set()
    for path in files:
        for number, target in includes_of(root, path):
            what = f'{path}:{number}: includes "{target}"'
            problem = against_order(path, target, ranks, what)
            if problem:
                problems.append(problem)
            elif outside(root, target, ranks):
                problems.append(f'{what}: a file outside the folders of libct/LAYERS')
            if path.endswith('.c') and target.endswith('.h'):
                edges.add((path, target[:-2] + '.c'))
    nodes = {f for f in files if f.endswith('.c')}
    return problems, {(a, b) for a, b in edges if b in nodes and a != b}


def circles(edges):
    """The strongly connected components of more than one file (Tarjan, iterative)."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def object_symbols(obj):
    """(defined, undefined) global symbols of an object file."""
    out = subprocess.run(['nm', '-P', obj], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        name, kind = fields[0], fields[1]
        if kind == 'U':
            undefined.add(name)
        elif kind.isupper():
            defined.add(name)
    return defined, undefined


def call_edges(build, files):
    """(caller, callee) pairs of .c files: the caller's object takes a symbol the callee's
    object defines."""
    definer, wants = {}, {}
    for path in files:
        obj = os.path.join(build, path[:-2] + '.o')
        if path.endswith('.c') and os.path.exists(obj):
            defined, wants[path] = object_symbols(obj)
            for name in defined:
                definer[name] = path
    return {(a, definer[s]) for a, need in wants.items() for s in need
            if s in definer and definer[s] != a}


def check_calls(build, ranks, files):
    edges = call_edges(build, files)
    problems = []
    for a, b in sorted(edges):
        problem = against_order(a, b, ranks, f'{a}: calls into {b}')
        if problem:
            problems.append(problem)
    return problems, edges


def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != '--objects'):
        sys.exit('usage: check_layers.py ROOT [--objects BUILD_DIR]')
    root = argv[1]
    ranks = read_layers(root)
    files = source_files(root, ranks)
    problems = unlisted_folders(root, ranks)
    found, include_edges = check_includes(root, ranks, files)
    problems += found
    problems += [f'files that include each other\'s headers in a circle: {", ".join(c)}'
                 for c in circles(include_edges)]
    if len(argv) == 4:
        found, edges = check_calls(argv[3], ranks, files)
        problems += found
        problems += [f'files that call each other in a circle: {", ".join(c)}'
                     for c in circles(edges)]
    for p in problems:
        print(f'check_layers: {p}', file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f'check_layers: {len(files)} files in {len(ranks)} folders keep libct/LAYERS')


if __name__ == '__main__':
    main(sys.argv)
