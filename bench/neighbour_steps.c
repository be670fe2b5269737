/* SPDX-License-Identifier: Apache-2.0 */
/* neighbour_steps: what one single-stepped neighbour access costs. A copy
 * into the first 256 bytes of a pinned page is held in flight (a
 * cuStreamWaitValue32 on a flag), and the host then writes other bytes of
 * that page N times through 16 different store instructions in turn (so
 * that no instruction repeats 64 times in a row, which would settle the
 * page): every write faults, is stepped, and the page is guarded again.
 * Optionally on an alternate signal stack of 8 KiB (the case where
 * syncguard's handler moves to a stack of its own).
 *
 *   cc -O2 -Itests/lib -I/usr/local/cuda/include bench/neighbour_steps.c \
 *      -o neighbour_steps -lcuda
 *   LD_PRELOAD=src/.libs/libsyncguard.so ./neighbour_steps [N [altstack]]
 *
 * (on the CPU emulator: link against tests/emu/.libs/libcuda.so.1.)
 * Prints "neighbour_steps,N,US_PER_ACCESS[,altstack]". Without syncguard
 * the writes do not fault: the figure is then the loop's own cost. */
#include <cuda.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../bench/cu_check.h"
#include "../bench/now_us.h"

#define STORE(k) p[1024 + 64 * (k)] = (unsigned char)i;
#define STORES16 STORE(0) STORE(1) STORE(2) STORE(3) STORE(4) STORE(5) STORE(6) STORE(7) \
    STORE(8) STORE(9) STORE(10) STORE(11) STORE(12) STORE(13) STORE(14) STORE(15)

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 20000;
    int alt = argc > 2 && strcmp(argv[2], "altstack") == 0;
    if (alt) {
        static unsigned char stack[8192];
        stack_t ss = { .ss_sp = stack, .ss_size = sizeof stack, .ss_flags = 0 };
        sigaltstack(&ss, NULL);
    }
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
    unsigned char *raw, *flag_host;
    CHECK(cuMemHostAlloc((void **)&raw, 2 * page, 0));
    CHECK(cuMemHostAlloc((void **)&flag_host, page, CU_MEMHOSTALLOC_DEVICEMAP));
    volatile uint32_t *flag = (volatile uint32_t *)flag_host;
    *flag = 0;
    CUdeviceptr flag_dev;
    CHECK(cuMemHostGetDevicePointer(&flag_dev, flag_host, 0));
    volatile unsigned char *p =
        (unsigned char *)(((uintptr_t)raw + page - 1) & ~(uintptr_t)(page - 1));
    CHECK(cuStreamWaitValue32(s, flag_dev, 1, CU_STREAM_WAIT_VALUE_GEQ));
    CHECK(cuMemcpyDtoHAsync((void *)p, dev, 256, s));
    long rounds = n / 16;
    double t0 = now_us();
    for (long i = 0; i < rounds; i++) {
        STORES16
    }
    double t1 = now_us();
    *flag = 1;
    __sync_synchronize();
    CHECK(cuStreamSynchronize(s));
    printf("neighbour_steps,%ld,%.2f%s\n", rounds * 16, (t1 - t0) / (double)(rounds * 16),
           alt ? ",altstack" : "");
    return 0;
}
