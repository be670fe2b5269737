#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The option documentation is what src/base/options.def makes of it.

options.def's help strings are the one description of each option:
help=1 prints them, and tools/gen-options-doc writes them into the option
list of man/syncguard.7 (between its GENERATED OPTIONS markers) and into
docs/options.md. This test fails when either file differs from what the
generator would write now (an option added or changed without running
tools/gen-options-doc, or the generated lines edited by hand), and when
help=1 of the built library does not print every option with the same
text. The source tree is found from this file's place (tests/tools/), so
the test runs from a VPATH build and from a release tarball alike.
Environment: SYNCGUARD_LIB (the help=1 part is left out without it).
Exit: 0 pass, 1 fail.
"""
import os
import subprocess
import sys
import tempfile

NAME = "t-options-doc"
HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.path.normpath(os.path.join(HERE, os.pardir, os.pardir))
GEN = os.path.join(SRCDIR, "tools", "gen-options-doc")


def verdict(word, msg, code):
    print("%s %s: %s" % (word, NAME, msg))
    sys.exit(code)


def load_generator():
    """The generator as a module, to read options.def as it does."""
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.SourceFileLoader("gen_options_doc", GEN)
    spec = importlib.util.spec_from_loader("gen_options_doc", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def main():
    for rel in ("tools/gen-options-doc", "src/base/options.def", "man/syncguard.7", "docs/options.md"):
        if not os.path.isfile(os.path.join(SRCDIR, rel)):
            verdict("FAIL", "%s is missing from the source tree (make dist: EXTRA_DIST?)" % rel, 1)

    # 1. Both files are up to date: --check changes nothing and says so.
    r = subprocess.run([sys.executable, GEN, "--srcdir", SRCDIR, "--check"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if r.returncode != 0:
        sys.stdout.write(r.stdout)
        verdict("FAIL", "man/syncguard.7 or docs/options.md is not what options.def makes: "
                "run tools/gen-options-doc (exit %d)" % r.returncode, 1)

    # 2. --check notices a change: a copy of the tree's files with one
    # generated line altered must be found stale, and regenerating it
    # there (--outdir) must give back the tree's files exactly.
    with tempfile.TemporaryDirectory(prefix="sg-options-doc.") as tmp:
        for rel in ("man/syncguard.7", "docs/options.md"):
            os.makedirs(os.path.join(tmp, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(SRCDIR, rel), encoding="utf-8") as f:
                text = f.read()
            if rel == "docs/options.md":
                text = text.replace("| `mode` |", "| `mode_edited_by_hand` |")
            with open(os.path.join(tmp, rel), "w", encoding="utf-8") as f:
                f.write(text)
        r = subprocess.run([sys.executable, GEN, "--srcdir", SRCDIR, "--outdir", tmp, "--check"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        if r.returncode != 1 or "docs/options.md" not in r.stdout or "mode_edited_by_hand" not in r.stdout:
            sys.stdout.write(r.stdout)
            verdict("FAIL", "--check did not report a hand-edited docs/options.md (exit %d)" % r.returncode, 1)
        r = subprocess.run([sys.executable, GEN, "--srcdir", SRCDIR, "--outdir", tmp],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        if r.returncode != 0:
            sys.stdout.write(r.stdout)
            verdict("FAIL", "the generator failed writing into a scratch folder (exit %d)" % r.returncode, 1)
        for rel in ("man/syncguard.7", "docs/options.md"):
            with open(os.path.join(tmp, rel), encoding="utf-8") as f, \
                    open(os.path.join(SRCDIR, rel), encoding="utf-8") as g:
                if f.read() != g.read():
                    verdict("FAIL", "%s regenerated differs from the tree's" % rel, 1)

    # 3. Every option is in both documents, under its own name.
    gen = load_generator()
    opts = gen.read_options(os.path.join(SRCDIR, "src", "base", "options.def"))
    with open(os.path.join(SRCDIR, "man", "syncguard.7"), encoding="utf-8") as f:
        man = f.read()
    block = man[man.index(gen.BEGIN):man.index(gen.END)]
    with open(os.path.join(SRCDIR, "docs", "options.md"), encoding="utf-8") as f:
        md = f.read()
    for o in opts:
        if "\n.BR %s " % o["name"] not in block:
            verdict("FAIL", "option %s is not in syncguard(7)'s generated list" % o["name"], 1)
        if "\n| `%s` |" % o["name"] not in md:
            verdict("FAIL", "option %s is not in docs/options.md" % o["name"], 1)

    # 4. help=1 prints the same descriptions: the library's table comes
    # from the same lines of options.def.
    lib = os.environ.get("SYNCGUARD_LIB", "")
    if not os.path.isfile(lib):
        verdict("PASS", "%d options documented (help=1 not checked: no SYNCGUARD_LIB)" % len(opts), 0)
    env = dict(os.environ, LD_PRELOAD=lib, SYNCGUARD_OPTIONS="help=1")
    r = subprocess.run(["/bin/true"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    out = " ".join(r.stderr.split())
    if r.returncode != 0:
        sys.stdout.write(r.stderr)
        verdict("FAIL", "help=1 under the preload exited %d" % r.returncode, 1)
    for o in opts:
        if "%s - %s (current: " % (o["name"], o["help"]) not in out:
            sys.stdout.write(r.stderr)
            verdict("FAIL", "help=1 does not print option %s with options.def's text" % o["name"], 1)
    verdict("PASS", "%d options: syncguard(7), docs/options.md and help=1 agree" % len(opts), 0)


if __name__ == "__main__":
    main()
