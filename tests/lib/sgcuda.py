# SPDX-License-Identifier: Apache-2.0
"""The driver through ctypes, for the Python tests (tests/py, tests/robust):
the entry points they call with their argument types, and the set-up they
share. Pure stdlib. `check(r, what)` is the caller's: how a test fails is
its own business (exit status or assert)."""
import ctypes

P, U64 = ctypes.c_void_p, ctypes.c_uint64


def load(path):
    """libcuda (the emulator's or a real one) with the argument types of the
    calls whose 64-bit or pointer arguments ctypes would get wrong."""
    cu = ctypes.CDLL(path)
    cu.cuMemcpyDtoHAsync_v2.argtypes = [P, U64, ctypes.c_size_t, P]
    cu.cuMemsetD8_v2.argtypes = [U64, ctypes.c_ubyte, ctypes.c_size_t]
    cu.cuStreamWaitValue32.argtypes = [P, U64, ctypes.c_uint32, ctypes.c_uint]
    cu.cuStreamSynchronize.argtypes = [P]
    cu.cuStreamQuery.argtypes = [P]
    cu.cuCtxSetCurrent.argtypes = [P]
    return cu


def copy_buffers(cu, check, nbytes, fill):
    """cuInit, device 0's primary context current, a non-blocking stream,
    nbytes of device memory holding `fill` with no work pending, and nbytes
    of zeroed pinned host memory. Returns (stream, device pointer, host)."""
    check(cu.cuInit(0), "cuInit")
    dev = ctypes.c_int()
    check(cu.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
    ctx = P()
    check(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    check(cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    stream = P()
    check(cu.cuStreamCreate(ctypes.byref(stream), 1), "cuStreamCreate")  # NON_BLOCKING
    dptr = U64()
    check(cu.cuMemAlloc_v2(ctypes.byref(dptr), ctypes.c_size_t(nbytes)), "cuMemAlloc")
    check(cu.cuMemsetD8_v2(dptr.value, fill, nbytes), "cuMemsetD8")
    check(cu.cuCtxSynchronize(), "cuCtxSynchronize")
    host = P()
    check(cu.cuMemAllocHost_v2(ctypes.byref(host), ctypes.c_size_t(nbytes)), "cuMemAllocHost")
    ctypes.memset(host, 0, nbytes)
    return stream, dptr, host


def hold(cu, check, stream):
    """Makes the stream wait for a pinned, device-mapped flag (0 now):
    nothing enqueued after it runs until the flag is 1. Returns the flag's
    device address (for the emulator's sgemu_release_on_host_wait)."""
    flag, dflag = P(), U64()
    check(cu.cuMemHostAlloc(ctypes.byref(flag), ctypes.c_size_t(4), 2), "cuMemHostAlloc")
    check(cu.cuMemHostGetDevicePointer_v2(ctypes.byref(dflag), flag, 0),
          "cuMemHostGetDevicePointer")
    ctypes.memset(flag, 0, 4)
    check(cu.cuStreamWaitValue32(stream, dflag.value, 1, 0), "cuStreamWaitValue32")  # GEQ
    return dflag.value
