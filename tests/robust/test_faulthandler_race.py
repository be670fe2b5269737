# SPDX-License-Identifier: Apache-2.0
"""Run by pytest_faulthandler.sh under pytest, with libsyncguard.so preloaded.

pytest enables Python's faulthandler (a SIGSEGV handler installed long after
syncguard's own) before it runs these tests.

test_early_read_of_pinned_buffer: a racy early read (ctypes.string_at) of
the pinned destination of a cuMemcpyDtoHAsync still in flight on the CPU
emulator of the driver.  syncguard must handle the fault (report, wait,
correct data) and faulthandler must not see it: the test passes, the data
read are the copied data, the process is not killed.

test_genuine_crash_still_reaches_faulthandler: a genuine invalid read in a
child Python (same preload, faulthandler enabled) is not syncguard's: the
child's faulthandler prints its "Fatal Python error: Segmentation fault"
and the child dies of SIGSEGV, as without syncguard.
"""
import ctypes
import faulthandler
import os
import subprocess
import sys

import sgcuda  # tests/lib, copied next to this file by pytest_faulthandler.sh

NBYTES = 2 * 4096 + 300
FILL = 0xC3


def check(r, what):
    assert r == 0, "%s failed with CUresult %d" % (what, r)


def test_early_read_of_pinned_buffer():
    assert faulthandler.is_enabled(), "pytest did not enable faulthandler"
    cu = sgcuda.load(os.environ["SG_LIBCUDA"])
    cu.sgemu_release_on_host_wait.argtypes = [sgcuda.U64, ctypes.c_uint32]
    stream, dptr, host = sgcuda.copy_buffers(cu, check, NBYTES, FILL)

    # The hold: the stream waits for a pinned flag, which the emulator sets
    # when the host next blocks in the driver (syncguard's wait for the copy).
    dflag = sgcuda.hold(cu, check, stream)
    check(cu.cuMemcpyDtoHAsync_v2(host, dptr.value, NBYTES, stream), "cuMemcpyDtoHAsync")
    cu.sgemu_release_on_host_wait(dflag, 1)
    assert cu.cuStreamQuery(stream) == 600  # CUDA_ERROR_NOT_READY: held

    data = ctypes.string_at(host, NBYTES)  # the race: no synchronization
    check(cu.cuStreamSynchronize(stream), "cuStreamSynchronize")
    wrong = sum(1 for b in data if b != FILL)
    print("early read: %d of %d bytes not the copied data" % (wrong, NBYTES))
    assert wrong == 0
    print("check: ok")
    sys.stdout.flush()


CRASH = """
import ctypes, faulthandler, sys
faulthandler.enable()
sys.stderr.write("child: reading address 16\\n")
sys.stderr.flush()
ctypes.string_at(16, 1)
print("child: still alive")
"""


def test_genuine_crash_still_reaches_faulthandler():
    r = subprocess.run([sys.executable, "-c", CRASH], capture_output=True)
    err = r.stderr.decode(errors="replace")
    ran = "Fatal Python error: Segmentation fault" in err
    # Not the child's stderr itself: the script looks for faulthandler's
    # words in this process's output.
    print("child exit status %d; its faulthandler ran: %s" % (r.returncode, "yes" if ran else "no"))
    assert r.returncode == -11, "the child was not killed by SIGSEGV"
    assert ran, "faulthandler did not run in the child"
    assert "child: still alive" not in r.stdout.decode(errors="replace")
