#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""syncguard names the Python frames of a race.

A worker thread enqueues cuMemcpyDtoHAsync into pinned memory (through
copy_site.py); the main thread then reads that memory without synchronizing.
The report must carry a "Python stack:" under the access (read_early, this
file) and under the copy (enqueue_copy and stage_batch, copy_site.py), with
the right lines.

Run:  LD_PRELOAD=path/to/libsyncguard.so python3 tests/py/test_python_frames.py
The library is SYNCGUARD_LIB, else LD_PRELOAD, else src/.libs/libsyncguard.so;
the driver is SG_LIBCUDA (default libcuda.so.1; the emulator:
SG_LIBCUDA=.../libcuda.so.1 of tests/emu). Pure stdlib (ctypes). Re-runs
itself as the child under the preload and checks the child's report.
With --torch the child is a PyTorch program instead (pinned tensor,
copy_(non_blocking=True), then .item() without synchronizing): GPU only.
SG_PY_VERBOSE=1 prints the child's report on a pass too.
Exit: 0 pass, 1 fail, 77 skip; prints one line.
"""
import ctypes
import os
import re
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
NBYTES = 3 * 4096 + 100
FILL = 0x5A


def marker_line(path, name):
    with open(path) as f:
        for no, text in enumerate(f, 1):
            if text.rstrip().endswith("# SG-LINE: " + name):
                return no
    raise LookupError(name)


# --- the child: the program under test ---------------------------------

def check(r, what):
    if r != 0:
        print("child: %s failed with CUresult %d" % (what, r), file=sys.stderr)
        sys.exit(2)


def read_early(host, nbytes):
    # ctypes.memmove is a foreign function: it drops the GIL, as PyTorch's
    # tensor ops do, and read_early is the innermost Python frame.
    buf = ctypes.create_string_buffer(nbytes)
    ctypes.memmove(buf, host, nbytes)  # SG-LINE: read
    return buf.raw


def child():
    sys.path.insert(0, HERE)
    sys.dont_write_bytecode = True
    import copy_site

    sys.path.insert(0, os.path.join(HERE, "..", "lib"))
    import sgcuda
    cu = sgcuda.load(os.environ.get("SG_LIBCUDA", "libcuda.so.1"))
    stream, dptr, host = sgcuda.copy_buffers(cu, check, NBYTES, FILL)

    # On the emulator, hold the stream until the host blocks, so the copy is
    # certainly in flight when read_early touches it. On a GPU the race is
    # reported anyway (report_latent, the default).
    hook = getattr(cu, "sgemu_release_on_host_wait", None)
    if hook is not None:
        dflag = sgcuda.hold(cu, check, stream)

    result = []
    t = threading.Thread(target=copy_site.stage_batch,
                         args=(cu, host, dptr.value, NBYTES, stream, result))
    t.start()
    t.join()
    check(result[0], "cuMemcpyDtoHAsync")
    if hook is not None:
        hook.argtypes = [sgcuda.U64, ctypes.c_uint32]
        hook(dflag, 1)

    data = read_early(host.value, NBYTES)  # the race: no synchronization
    check(cu.cuStreamSynchronize(stream), "cuStreamSynchronize")
    good = data == bytes([FILL]) * NBYTES
    print("child: %s" % ("ok" if good else "read saw data the copy had not delivered"))
    sys.stdout.flush()
    os._exit(0 if good else 3)  # the race's exit code is syncguard's to set


# --- the child with PyTorch (--torch; a GPU and torch needed) ---------

def torch_enqueue_copy(torch, dev):
    host = torch.empty(dev.shape, dtype=dev.dtype, pin_memory=True)
    host.copy_(dev, non_blocking=True)  # SG-LINE: torch-copy
    return host


def torch_read_early(host):
    # Tensor.item drops the GIL around the read, like every ATen op.
    return host[0].item()  # SG-LINE: torch-read


def child_torch():
    try:
        import torch
    except ImportError:
        print("child: no torch")
        sys.exit(77)
    if not torch.cuda.is_available():
        print("child: no cuda")
        sys.exit(77)
    dev = torch.full((1 << 22,), 7.0, device="cuda")
    torch.cuda.synchronize()
    host = torch_enqueue_copy(torch, dev)
    value = torch_read_early(host)  # the race: no synchronization
    torch.cuda.synchronize()
    print("child: %s" % ("ok" if value == 7.0 else "read %r before the copy landed" % value))
    sys.stdout.flush()
    os._exit(0)


# --- the parent: runs the child under the preload, checks the report ---

def section(report, title):
    """Lines of the Python stack that follows the line starting with title."""
    lines = report.splitlines()
    for i, line in enumerate(lines):
        if line.lstrip().startswith(title):
            frames, in_py = [], False
            for l in lines[i + 1:]:
                if l.strip() == "Python stack:":
                    in_py = True
                elif in_py and re.match(r"^\s+#\d+ .*\(python\)$", l):
                    frames.append(l.strip())
                elif in_py or not l.startswith("    "):
                    break
            return frames
    return None


def parent():
    if not (3, 9) <= sys.version_info[:2] <= (3, 13):
        print("SKIP test_python_frames: syncguard reads Python 3.9 to 3.13, this is %d.%d"
              % sys.version_info[:2])
        return 77
    lib = os.environ.get("SYNCGUARD_LIB") or os.environ.get("LD_PRELOAD", "").split(":")[0]
    if not lib:
        lib = os.path.join(HERE, "..", "..", "src", ".libs", "libsyncguard.so")
    if not os.path.exists(lib):
        print("SKIP test_python_frames: no library %s" % lib)
        return 77
    use_torch = "--torch" in sys.argv[1:]
    env = dict(os.environ, SG_PY_CHILD="torch" if use_torch else "1", LD_PRELOAD=lib)
    env.setdefault("SYNCGUARD_OPTIONS", "")
    p = subprocess.run([sys.executable, os.path.abspath(__file__)], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    out = p.stdout
    me = os.path.abspath(__file__)
    site = os.path.join(HERE, "copy_site.py")
    if use_torch:
        if p.returncode == 77:
            print("SKIP test_python_frames --torch: %s" % out.strip().splitlines()[-1])
            return 77
        want_access = [("torch_read_early", me, marker_line(me, "torch-read"))]
        want_copy = [("torch_enqueue_copy", me, marker_line(me, "torch-copy"))]
    else:
        want_access = [("read_early", me, marker_line(me, "read"))]
        want_copy = [("enqueue_copy", site, marker_line(site, "copy")),
                     ("stage_batch", site, marker_line(site, "stage"))]
    errors = []
    if "child: ok" not in out:
        errors.append("the child did not finish with the copied data")
    if "SUMMARY: syncguard: early-host-read" not in out:
        errors.append("no early-host-read report")
    for title, want in (("READ at", want_access), ("Copy enqueued", want_copy)):
        frames = section(out, title)
        if not frames:
            errors.append("no Python stack under %r" % title)
            continue
        # Frames of the standard library (a ctypes wrapper, say) may come
        # first; from the first frame of ours on, the stack must be exact.
        ours = [i for i, f in enumerate(frames) if HERE + os.sep in f]
        frames = frames[ours[0]:] if ours else frames
        for i, (fn, path, line) in enumerate(want):
            pat = r"^#\d+ %s %s:%d \(python\)$" % (re.escape(fn), re.escape(path), line)
            if i >= len(frames) or not re.match(pat, frames[i]):
                errors.append("under %r Python frame %d of ours: want %s %s:%d, got %r" % (
                    title, i, fn, os.path.basename(path), line,
                    frames[i] if i < len(frames) else None))
    if "<python frame>" in out:
        errors.append("a Python frame could not be named")
    if errors:
        print("FAIL test_python_frames (Python %d.%d): %s" % (
            sys.version_info[0], sys.version_info[1], "; ".join(errors)))
        sys.stderr.write("--- child output (exit %d) ---\n%s" % (p.returncode, out))
        return 1
    print("PASS test_python_frames%s (Python %d.%d)" % (
        (" --torch" if use_torch else "",) + tuple(sys.version_info[:2])))
    if os.environ.get("SG_PY_VERBOSE"):
        sys.stderr.write(out)
    return 0


if __name__ == "__main__":
    if os.environ.get("SG_PY_CHILD") == "1":
        child()
    elif os.environ.get("SG_PY_CHILD") == "torch":
        child_torch()
    else:
        sys.exit(parent())
