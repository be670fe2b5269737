# SPDX-License-Identifier: Apache-2.0
"""What a protect + open pair costs on pinned memory beyond the two calls.

    python3 bench/pin_probe.py [MIB [PASSES]]       (default 6 MiB, 20 passes)

A diagnostic for the training-loop overhead (bench/results/2026-11-30-eb36e36.md),
no target.
For each kind of pinned memory PyTorch uses (cudaHostAlloc, through
tensor.pin_memory(); and cudaHostRegister of anonymous memory), it prints
the kernel mapping that holds the buffer (/proc/self/maps and its VmFlags),
then times, per pass over the whole buffer:
  - base:     a write pass (fill_), nothing else;
  - ro-cycle: mprotect(PROT_READ), mprotect(PROT_READ|PROT_WRITE), write pass
              (what an H2D source guard does to the pages the loader refills);
  - na-cycle: mprotect(PROT_NONE), mprotect(PROT_READ|PROT_WRITE), read pass
              (what a D2H destination guard does before the host reads).
with the minor page faults each pass took (getrusage). If the kernel leaves
the page-table entries read-only after the open and lets the first write
fault them writable again, ro-cycle shows a minor fault per page: a cost of
guarding that neither the mprotect timings nor syncguard's counters see.
"""
import ctypes
import mmap
import resource
import sys
import time

import torch

libc = ctypes.CDLL(None, use_errno=True)
libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
PROT_NONE, PROT_READ, PROT_WRITE = 0, 1, 2


def mapping_of(addr):
    """The /proc/self/smaps header line and VmFlags of the mapping holding addr."""
    head, flags, inside = None, None, False
    with open("/proc/self/smaps") as f:
        for line in f:
            first = line.split(" ", 1)[0]
            if "-" in first and ":" not in first:
                lo, hi = (int(x, 16) for x in first.split("-"))
                inside = lo <= addr < hi
                if inside:
                    head = line.strip()
            elif inside and line.startswith("VmFlags:"):
                flags = line.split(":", 1)[1].strip()
    return head, flags


def protect(addr, size, prot):
    if libc.mprotect(addr, size, prot) != 0:
        raise OSError(ctypes.get_errno(), "mprotect(%#x, %d, %d)" % (addr, size, prot))


def minflt():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def passes(name, t, addr, size, n, before, touch):
    total_us, total_flt, prot_us = 0.0, 0, 0.0
    for _ in range(n):
        f0 = minflt()
        t0 = time.perf_counter()
        before()
        t1 = time.perf_counter()
        touch()
        t2 = time.perf_counter()
        total_flt += minflt() - f0
        prot_us += (t1 - t0) * 1e6
        total_us += (t2 - t0) * 1e6
    pages = size // mmap.PAGESIZE
    print("%-9s %9.1f us/pass (mprotect pair %8.1f us)  %7.1f minor faults/pass"
          "  (%d pages)" % (name, total_us / n, prot_us / n, total_flt / n, pages))


def probe(kind, t, n):
    addr, size = t.data_ptr(), t.numel() * t.element_size()
    head, flags = mapping_of(addr)
    print("== %s: %d bytes at %#x" % (kind, size, addr))
    print("   mapping: %s" % head)
    print("   VmFlags: %s" % flags)
    t.fill_(1)

    def nothing():
        pass

    def ro_cycle():
        protect(addr, size, PROT_READ)
        protect(addr, size, PROT_READ | PROT_WRITE)

    def na_cycle():
        protect(addr, size, PROT_NONE)
        protect(addr, size, PROT_READ | PROT_WRITE)

    write = lambda: t.fill_(2)  # noqa: E731
    read = lambda: t.sum().item()  # noqa: E731
    for _ in range(2):  # the second round is the one to read: warm
        passes("base", t, addr, size, n, nothing, write)
        passes("ro-cycle", t, addr, size, n, ro_cycle, write)
        passes("base-read", t, addr, size, n, nothing, read)
        passes("na-cycle", t, addr, size, n, na_cycle, read)


def main():
    mib = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    torch.cuda.init()
    elems = mib * (1 << 20) // 4
    probe("cudaHostAlloc (tensor.pin_memory())", torch.empty(elems).pin_memory(), n)
    buf = mmap.mmap(-1, mib << 20, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    host = torch.frombuffer(buf, dtype=torch.float32)
    host.fill_(0)  # populate before registering, as a malloc'd buffer would be
    rc = torch.cuda.cudart().cudaHostRegister(host.data_ptr(), mib << 20, 0)
    if int(rc) != 0:
        print("== cudaHostRegister failed: %s" % rc)
        return
    probe("cudaHostRegister (anonymous mmap)", host, n)
    torch.cuda.cudart().cudaHostUnregister(host.data_ptr())


if __name__ == "__main__":
    main()
