#!/usr/bin/env python3
"""check_layers.py must fail on what it is there to catch: each test makes a small tree of its
own (or a copy of the real one) with one bad dependency and expects the failure naming it."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, 'check_layers.py')
REPO = os.path.dirname(os.path.dirname(HERE))
SOURCE_FOLDERS = ('libct', 'oci', 'hooks', 'runtime')


def run_check(root, objects=None):
    argv = [sys.executable, CHECK, root] + (['--objects', objects] if objects else [])
    return subprocess.run(argv, capture_output=True, text=True)


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, 'w', encoding='utf-8') as f:
        f.write(text)


def append_line(root, path, line):
    with open(os.path.join(root, path), 'a', encoding='utf-8') as f:
        f.write(line + '\n')


class Tree(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix='check_layers.')
        self.addCleanup(shutil.rmtree, self.root)

    def assertFailsWith(self, text, objects=None):
        r = run_check(self.root, objects)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn(text, r.stderr)

    def compile(self, paths):
        build = os.path.join(self.root, 'build')
        for path in paths:
            obj = os.path.join(build, path[:-2] + '.o')
            os.makedirs(os.path.dirname(obj), exist_ok=True)
            subprocess.run(['cc', '-c', '-I', self.root, '-o', obj,
                            os.path.join(self.root, path)], check=True)
        return build


class TheRealTree(Tree):
    """A copy of the real sources, which keep the order, with one bad include added."""

    def setUp(self):
        super().setUp()
        for folder in SOURCE_FOLDERS:
            shutil.copytree(os.path.join(REPO, folder), os.path.join(self.root, folder))

    def test_the_copy_passes_as_it_is(self):
        r = run_check(self.root)
        self.assertEqual(r.returncode, 0, r.stderr)

    def assertIncludeFails(self, path, header, text):
        """path gets one more line, an include of header: the check fails, saying text."""
        append_line(self.root, path, '#include "%s"' % header)
        self.assertFailsWith(text)

    def test_base_including_a_child_header_fails(self):
        self.assertIncludeFails('libct/base/error.c', 'libct/child/rootfs.h', 'libct/base/error.c:')

    def test_oci_including_more_than_base_fails(self):
        self.assertIncludeFails('oci/config.c', 'libct/state/state.h',
                                'includes "libct/state/state.h": libct/state/ is above oci/')

    def test_a_source_including_a_test_header_fails(self):
        write(self.root, 'tests/unit/fixture.h', 'int fixture;\n')
        self.assertIncludeFails('runtime/main.c', 'tests/unit/fixture.h',
                                'a file outside the folders of libct/LAYERS')

    def test_a_folder_not_listed_fails(self):
        write(self.root, 'libct/newstage/x.c', 'int x;\n')
        self.assertFailsWith('libct/newstage: a source folder that libct/LAYERS does not list')


class SmallTree(Tree):
    """Two folders, low below high, and files that are made to depend on each other."""

    def setUp(self):
        super().setUp()
        write(self.root, 'libct/LAYERS', '# lowest first\nlibct/low\nlibct/high\n')
        write(self.root, 'libct/low/a.h', 'int a(void);\n')
        write(self.root, 'libct/low/b.h', 'int b(void);\n')
        write(self.root, 'libct/high/h.h', 'int h(void);\n')
        write(self.root, 'libct/high/h.c',
              '#include "libct/low/a.h"\nint h(void) { return a(); }\n')

    def test_a_clean_tree_passes(self):
        write(self.root, 'libct/low/a.c', 'int a(void) { return 1; }\n')
        build = self.compile(['libct/low/a.c', 'libct/high/h.c'])
        r = run_check(self.root, build)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_two_files_including_each_other_fail(self):
        write(self.root, 'libct/low/a.c', '#include "libct/low/b.h"\nint a(void) { return 1; }\n')
        write(self.root, 'libct/low/b.c', '#include "libct/low/a.h"\nint b(void) { return 2; }\n')
        self.assertFailsWith("include each other's headers in a circle: "
                             'libct/low/a.c, libct/low/b.c')

    def test_a_call_up_the_order_without_an_include_fails(self):
        write(self.root, 'libct/low/a.c', 'int h(void);\nint a(void) { return h(); }\n')
        build = self.compile(['libct/low/a.c', 'libct/high/h.c'])
        self.assertFailsWith('libct/low/a.c: calls into libct/high/h.c', build)

    def test_three_files_calling_round_fail(self):
        write(self.root, 'libct/low/a.c', 'int b(void);\nint a(void) { return b(); }\n')
        write(self.root, 'libct/low/b.c', 'int c(void);\nint b(void) { return c(); }\n')
        write(self.root, 'libct/low/c.c', 'int a(void);\nint c(void) { return a(); }\n')
        build = self.compile(['libct/low/a.c', 'libct/low/b.c', 'libct/low/c.c'])
        self.assertFailsWith('call each other in a circle: '
                             'libct/low/a.c, libct/low/b.c, libct/low/c.c', build)


if __name__ == '__main__':
    unittest.main()
