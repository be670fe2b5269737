#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The cost of sg_python_capture, in this interpreter and in a plain C program.

Builds capture_bench.c with ../../src/capture/python.c (gcc, or CC; cuda.h
from CUDA_HOME, default /usr/local/cuda; or CAPTURE_BENCH_BUILT names a
directory where it was built already, as bench.so and bench)
into a temporary directory, then times captures at a few Python stack
depths, with the GIL released (ctypes.CDLL, as during a PyTorch op) and
held (ctypes.PyDLL). Prints one line per case; exit 0, or 1 when a
capture finds the wrong number of frames or costs 1 us or more.
"""
import ctypes
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, "..", "..")


def build(tmp):
    cc = os.environ.get("CC", "gcc")
    cuda = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    flags = ["-O2", "-std=gnu11", "-D_GNU_SOURCE", "-I" + TOP, "-I" + os.path.join(TOP, "src"),
             "-I" + os.path.join(cuda, "include")]
    srcs = [os.path.join(HERE, "capture_bench.c"), os.path.join(TOP, "src", "capture", "python.c")]
    if not os.path.exists(os.path.join(TOP, "config.h")):
        with open(os.path.join(tmp, "config.h"), "w") as f:
            f.write("/* stand-in */\n")
        flags.append("-I" + tmp)
    so, exe = os.path.join(tmp, "bench.so"), os.path.join(tmp, "bench")
    subprocess.check_call([cc, "-fPIC", "-shared"] + flags + srcs + ["-o", so, "-ldl"])
    subprocess.check_call([cc, "-DBENCH_MAIN"] + flags + srcs + ["-o", exe, "-ldl"])
    return so, exe


def deep(k, fn):
    if k == 0:
        return fn()
    return deep(k - 1, fn)


def main():
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        built = os.environ.get("CAPTURE_BENCH_BUILT")  # a dir with bench.so and bench
        so, exe = (os.path.join(built, "bench.so"), os.path.join(built, "bench")) if built \
            else build(tmp)
        print(subprocess.check_output([exe], universal_newlines=True).strip())
        for loader in (ctypes.CDLL, ctypes.PyDLL):
            lib = loader(so)
            lib.bench_capture.restype = ctypes.c_double
            lib.bench_capture.argtypes = [ctypes.c_long, ctypes.POINTER(ctypes.c_int)]
            gil = "held" if loader is ctypes.PyDLL else "released"
            for depth in (0, 8, 30):
                n = ctypes.c_int()
                best = min(deep(depth, lambda: lib.bench_capture(200000, ctypes.byref(n)))
                           for _ in range(5))
                # frames: the lambda, depth+1 deep, the genexpr, main, <module>
                want = min(depth + 5, 16)
                bad = n.value != want or best >= 1000
                ok = ok and not bad
                print("Python %d.%d, GIL %s: %2d frames, %.1f ns per capture%s" % (
                    sys.version_info[0], sys.version_info[1], gil, n.value, best,
                    "  <-- want %d frames, < 1000 ns" % want if bad else ""))
        buf = ctypes.create_string_buffer(8192)
        line = sys._getframe().f_lineno + 1
        ctypes.CDLL(so).bench_stack(buf, len(buf))
        first = buf.value.decode().splitlines()[0]
        if first != "main %s:%d" % (os.path.abspath(__file__), line):
            ok = False
            print("symbolized innermost frame is wrong: %r" % first)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
