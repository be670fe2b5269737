/* SPDX-License-Identifier: Apache-2.0 */
/* map_count_cliff: many guards near the kernel's limit on mappings
 * (vm.max_map_count). N copies of 256 bytes are held in flight (behind a
 * cuStreamWaitValue32 on a flag) into every other page of one pinned
 * buffer, so that each guard splits the buffer's mapping (two more
 * mappings a copy) and the process comes to the limit syncguard plans for;
 * from there on syncguard leaves copies unguarded. Then the flag is set,
 * the stream synchronized and every copy's bytes checked.
 *
 *   cc -O2 -I/usr/local/cuda/include bench/map_count_cliff.c \
 *      -o map_count_cliff -lcuda
 *   SYNCGUARD_OPTIONS=max_pending=65536 LD_PRELOAD=src/.libs/libsyncguard.so \
 *      ./map_count_cliff [N]
 *
 * (on the CPU emulator: LD_LIBRARY_PATH=tests/emu/.libs). max_pending is
 * raised so that the copies are guarded until the mappings run short, not
 * until syncguard's table is full. Prints
 * "map_count_cliff,N,ENQUEUE_MS,TOTAL_MS,MAPPINGS" (MAPPINGS: the lines of
 * /proc/self/maps with every copy in flight); exit 1 if a copy's bytes are
 * wrong, 2 on a CUDA error. */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cu_check.h"
#include "now_us.h"

#define BYTES 256

static long maps_lines(void)
{
    FILE *f = fopen("/proc/self/maps", "re");
    long n = 0;
    int c;
    while (f && (c = getc(f)) != EOF)
        n += c == '\n';
    if (f)
        fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 40000;
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
    CHECK(cuMemAlloc(&dev, BYTES));
    CHECK(cuMemsetD8(dev, 0x5e, BYTES));
    unsigned char *host, *flag_host;
    CHECK(cuMemHostAlloc((void **)&host, (size_t)n * 2 * page, 0));
    memset(host, 0, (size_t)n * 2 * page);
    CHECK(cuMemHostAlloc((void **)&flag_host, page, CU_MEMHOSTALLOC_DEVICEMAP));
    volatile uint32_t *flag = (volatile uint32_t *)flag_host;
    *flag = 0;
    CUdeviceptr flag_dev;
    CHECK(cuMemHostGetDevicePointer(&flag_dev, flag_host, 0));
    CHECK(cuStreamWaitValue32(s, flag_dev, 1, CU_STREAM_WAIT_VALUE_GEQ));

    double t0 = now_us();
    for (long i = 0; i < n; i++)
        CHECK(cuMemcpyDtoHAsync(host + (size_t)i * 2 * page, dev, BYTES, s));
    double t1 = now_us();
    long lines = maps_lines();
    double t2 = now_us();
    *flag = 1;
    __sync_synchronize();
    CHECK(cuStreamSynchronize(s));
    long wrong = 0;
    for (long i = 0; i < n; i++)
        for (size_t b = 0; b < BYTES; b++)
            wrong += host[(size_t)i * 2 * page + b] != 0x5e;
    double t3 = now_us();
    printf("map_count_cliff,%ld,%.1f,%.1f,%ld\n", n, (t1 - t0) / 1e3,
           (t3 - t2 + t1 - t0) / 1e3, lines);
    if (wrong)
        printf("%ld bytes wrong\n", wrong);
    CHECK(cuMemFreeHost(host));
    CHECK(cuMemFreeHost(flag_host));
    CHECK(cuMemFree(dev));
    return wrong ? 1 : 0;
}
