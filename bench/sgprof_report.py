#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Summarize a bench/sgprof.c profile.

usage: sgprof_report.py PROFILE [LIBSYNCGUARD.so] [--iters N] [--top K]
       [--focus SUBSTRING] [--own]

LIBSYNCGUARD.so is the same build that was preloaded (its frames are
symbolized with addr2line); other modules' frames keep the symbol dladdr
gave on the profiled machine. --focus keeps the samples with a frame whose
name contains SUBSTRING (e.g. cuMemcpyDtoHAsync, to leave CUDA's start-up
out). --iters turns sample counts into microseconds per iteration (wall
mode only: in cpu mode the kernel's tick sets the real rate, so only shares
are printed).
Prints syncguard's own share (samples whose innermost frame outside the C
library, libunwind and the loader is syncguard's: its code, the system
calls it makes and the driver calls it makes for itself; not the driver's
work for the program's own calls that it forwards), self time (the innermost
frame), inclusive time (each function once per sample) and the commonest
stacks.
"""
import argparse
import collections
import os
import subprocess


# Frames that do work on behalf of whoever called them.
SERVICE_MODULES = ("libc.so", "libunwind.so", "ld-linux", "linux-vdso", "libpthread")


def read_profile(path):
    hz, mode, stacks = 20000, "wall", []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                for word in line.split():
                    if word.startswith("hz="):
                        hz = int(word[3:])
                    if word.startswith("mode="):
                        mode = word[5:]
                continue
            frames = line.split()
            if frames:
                stacks.append(frames)
    return hz, mode, stacks


def symbolize_library(stacks, library):
    """Map 'libsyncguard.so+0x..' tokens to function names with addr2line."""
    base = os.path.basename(library)
    offsets = sorted({fr.split(":")[0] for st in stacks for fr in st
                      if fr.startswith(base + "+")})
    names = {}
    if not offsets:
        return names
    addrs = [o.split("+", 1)[1] for o in offsets]
    out = subprocess.run(["addr2line", "-f", "-i", "-e", library] + addrs,
                         capture_output=True, text=True, check=True).stdout
    # With -i each address gives one or more (function, file:line) pairs,
    # innermost first; a line of "??" pairs ends nothing, so re-run per
    # address when counts do not line up.
    lines = out.splitlines()
    if len(lines) == 2 * len(addrs):
        for o, i in zip(offsets, range(0, len(lines), 2)):
            names[o] = [lines[i]]
        return names
    for o, a in zip(offsets, addrs):
        one = subprocess.run(["addr2line", "-f", "-i", "-e", library, a],
                             capture_output=True, text=True).stdout.splitlines()
        names[o] = one[0::2] or ["??"]
    return names


def frame_name(frame, names):
    token = frame.split(":")[0]
    if token in names:
        chain = names[token]
        return "sg:" + chain[-1] + ("<" + chain[0] + ">" if len(chain) > 1 else "")
    module, _, rest = frame.partition("+")
    sym = frame.split(":", 1)[1] if ":" in frame else None
    return f"{module}:{sym}" if sym else f"{module}:?"


def function_of(frame):
    """A frame's function name: 'sg:f<inlined>' and 'module:f' give f."""
    return frame.split(":", 1)[-1].split("<")[0] if ":" in frame else None


def owner_of(stack):
    """Who the sample's time is for: the innermost frame outside the service
    modules. A syncguard shim that called the C library's function of its
    own name (read, syscall) passed the program's call on: the time is its
    caller's, syncguard's only when syncguard itself made the call. Driver
    work is the program's when a shim forwards the call of the same name,
    syncguard's when syncguard calls the driver for itself (the event it
    records after a copy, cuStreamIsCapturing, pointer attributes)."""
    for i, frame in enumerate(stack):
        if frame.startswith(SERVICE_MODULES):
            continue
        if frame.startswith("libcuda"):
            j = i
            while j + 1 < len(stack) and stack[j + 1].startswith("libcuda"):
                j += 1
            caller = stack[j + 1] if j + 1 < len(stack) else "?"
            if caller.startswith("sg:") and function_of(caller) != function_of(stack[j]):
                return caller + " (the driver, for syncguard)"
            return frame.split(":")[0]
        if frame.startswith("sg:") and i > 0:
            shim = function_of(frame)
            inner = function_of(stack[i - 1]) or ""
            if inner == shim or inner.lstrip("_") == shim:
                caller = stack[i + 1] if i + 1 < len(stack) else "?"
                if not caller.startswith("sg:"):
                    return caller.split(":")[0] + " (through syncguard's " + shim + ")"
                continue
        return frame if frame.startswith("sg:") else frame.split(":")[0]
    return "?"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("profile")
    ap.add_argument("library", nargs="?")
    ap.add_argument("--iters", type=float)
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--focus")
    ap.add_argument("--own", action="store_true",
                    help="print only 'OWN TOTAL': syncguard's own samples and all")
    args = ap.parse_args()
    hz, mode, stacks = read_profile(args.profile)
    if mode != "wall":
        args.iters = None
    names = symbolize_library(stacks, args.library) if args.library else {}
    named = [[frame_name(f, names) for f in st] for st in stacks]
    if args.focus:
        named = [st for st in named if any(args.focus in f for f in st)]
    total = len(named)

    def amount(n):
        s = f"{n:7d} {100.0 * n / max(total, 1):5.1f}%"
        if args.iters:
            s += f" {n / hz * 1e6 / args.iters:8.3f} us/iter"
        return s

    owner = collections.Counter(owner_of(st) for st in named)
    own = sum(n for name, n in owner.items() if name.startswith("sg:"))
    if args.own:
        print(own, total)
        return
    print(f"samples: {total} ({mode} clock, {hz} Hz asked)"
          + (f", focus {args.focus!r}" if args.focus else ""))
    print("\n== syncguard's own (its code, system calls and driver calls), by the syncguard function")
    print(amount(own), "all of syncguard")
    for name, n in owner.most_common():
        if name.startswith("sg:") and n * 200 >= max(total, 1):
            print(amount(n), name)
    self_time = collections.Counter(st[0] for st in named)
    incl = collections.Counter()
    for st in named:
        incl.update(set(st))
    print("\n== self (innermost frame)")
    for name, n in self_time.most_common(args.top):
        print(amount(n), name)
    print("\n== inclusive")
    for name, n in incl.most_common(args.top):
        print(amount(n), name)
    print("\n== stacks (innermost first, 10 frames)")
    folded = collections.Counter(" <- ".join(st[:10]) for st in named)
    for stack, n in folded.most_common(args.top // 2):
        print(amount(n), stack)


if __name__ == "__main__":
    main()
