# SPDX-License-Identifier: Apache-2.0
"""Copies for the suite, on the CPU emulator of the driver (SG_LIBCUDA),
through ctypes (sgcuda.py, copied next to this file by t-pytest-plugin.py).

A racy copy is held: the stream waits for a flag that the emulator sets
when the host next blocks in the driver (syncguard's wait for the copy),
so the copy is certainly in flight when the test touches its memory."""
import ctypes
import os

import sgcuda

NBYTES = 2 * 4096 + 300
FILL = 0xA7

_cu = None


def check(r, what):
    assert r == 0, "%s failed with CUresult %d" % (what, r)


def driver():
    global _cu
    if _cu is None:
        _cu = sgcuda.load(os.environ["SG_LIBCUDA"])
        _cu.sgemu_release_on_host_wait.argtypes = [sgcuda.U64, ctypes.c_uint32]
        _cu.cuMemcpyHtoDAsync_v2.argtypes = [sgcuda.U64, sgcuda.P, ctypes.c_size_t, sgcuda.P]
    return _cu


def held_d2h():
    """A device-to-host copy into pinned memory, held in flight. Returns
    (stream, host pointer)."""
    cu = driver()
    stream, dptr, host = sgcuda.copy_buffers(cu, check, NBYTES, FILL)
    dflag = sgcuda.hold(cu, check, stream)
    check(cu.cuMemcpyDtoHAsync_v2(host, dptr.value, NBYTES, stream), "cuMemcpyDtoHAsync")
    cu.sgemu_release_on_host_wait(dflag, 1)
    return stream, host


def held_h2d():
    """A host-to-device copy from pinned memory, held in flight. Returns
    (stream, host pointer)."""
    cu = driver()
    stream, dptr, host = sgcuda.copy_buffers(cu, check, NBYTES, FILL)
    dflag = sgcuda.hold(cu, check, stream)
    check(cu.cuMemcpyHtoDAsync_v2(dptr.value, host, NBYTES, stream), "cuMemcpyHtoDAsync")
    cu.sgemu_release_on_host_wait(dflag, 1)
    return stream, host


def read_early(host):
    """The racy read: no synchronization before it. ctypes.memmove is a
    foreign function (no Python frame of its own), as PyTorch's ops are."""
    buf = ctypes.create_string_buffer(NBYTES)
    ctypes.memmove(buf, host, NBYTES)  # SG-LINE: read
    return buf.raw


def write_early(host):
    """The racy write of a copy's source."""
    ctypes.memset(host, 0x11, NBYTES)  # SG-LINE: write


def synchronize(stream):
    check(driver().cuStreamSynchronize(stream), "cuStreamSynchronize")


def racy_read():
    """A whole race: the copy, the early read, then the synchronization.
    Returns whether the data read are the copied data (syncguard waits for
    the copy before letting the read through)."""
    stream, host = held_d2h()
    data = read_early(host)
    synchronize(stream)
    return data == bytes([FILL]) * NBYTES
