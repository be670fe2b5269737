/* SPDX-License-Identifier: Apache-2.0 */
/* syscalls_pending: what an unrelated system call costs while many copies
 * are in flight. PENDING device-to-host copies, each into a page of its own
 * in one pinned block, are held in flight (a cuStreamWaitValue32 on a flag
 * in front of them); the host then writes a small stack buffer to
 * /dev/null N times. Every write() goes through syncguard's system-call
 * shim, which asks the copy table whether the buffer meets a pending copy:
 * a scan of the table made that cost grow with PENDING (issue 13: 7.2 s
 * against 0.27 s for 200k writes with 10,000 pending); the interval index
 * (src/model/copy_index.c) makes it logarithmic.
 *
 *   cc -O2 -I/usr/local/cuda/include bench/syscalls_pending.c \
 *      -o syscalls_pending -lcuda
 *   LD_PRELOAD=src/.libs/libsyncguard.so ./syscalls_pending [N [PENDING]]
 *
 * (on the CPU emulator: link against tests/emu/.libs/libcuda.so.1.)
 * Prints "syscalls_pending,N,PENDING,US_PER_WRITE". Run it with PENDING 0
 * and 10000, with and without the preload, side by side. */
#include <cuda.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../bench/cu_check.h"
#include "../bench/now_us.h"

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 200000;
    long pending = argc > 2 ? atol(argv[2]) : 10000;
    CUdevice d;
    CUcontext ctx;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&d, 0));
    CHECK(cuDevicePrimaryCtxRetain(&ctx, d));
    CHECK(cuCtxSetCurrent(ctx));
    CUstream s;
    CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    CUdeviceptr dev;
    CHECK(cuMemAlloc(&dev, 256));
    unsigned char *block = NULL, *flag_host;
    if (pending > 0)
        CHECK(cuMemHostAlloc((void **)&block, (size_t)pending * page, 0));
    CHECK(cuMemHostAlloc((void **)&flag_host, page, CU_MEMHOSTALLOC_DEVICEMAP));
    volatile uint32_t *flag = (volatile uint32_t *)flag_host;
    *flag = 0;
    CUdeviceptr flag_dev;
    CHECK(cuMemHostGetDevicePointer(&flag_dev, flag_host, 0));
    CHECK(cuStreamWaitValue32(s, flag_dev, 1, CU_STREAM_WAIT_VALUE_GEQ));
    for (long i = 0; i < pending; i++)
        CHECK(cuMemcpyDtoHAsync(block + (size_t)i * page, dev, 256, s));
    int fd = open("/dev/null", O_WRONLY);
    char buf[64] = { 0 };
    double t0 = now_us();
    for (long i = 0; i < n; i++)
        if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf)
            return 2;
    double t1 = now_us();
    *flag = 1;
    __sync_synchronize();
    CHECK(cuStreamSynchronize(s));
    printf("syscalls_pending,%ld,%ld,%.3f\n", n, pending, (t1 - t0) / (double)n);
    return 0;
}
