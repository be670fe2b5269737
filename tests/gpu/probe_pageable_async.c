/* SPDX-License-Identifier: Apache-2.0 */
/* Probe of CUDA behaviours syncguard's model depends on (issue 11, item 3).
 *
 * 1. Does an async device-to-host copy into PAGEABLE memory return only once
 *    it has completed? The CUDA 11 "API synchronization behavior" page said
 *    so ("For transfers from device memory to pageable host memory, the
 *    function will return only once the copy has completed"); the current
 *    one says only that it "might be synchronous with respect to host".
 *    The stream is held (cuStreamWaitValue32 on a mapped pinned flag); a
 *    helper thread opens it after 300 ms. If the copy returned before the
 *    flag was opened it was asynchronous, and the probe also reads the
 *    buffer right away to see whether the data had landed.
 * 2. The same for a pageable-to-device copy (documented: "staged", the
 *    call returns once the source is copied, the DMA may still be pending).
 * 3. What cuPointerGetAttributes says (memory type, managed, range) of
 *    pageable memory, memory registered with the CUDA 4.0 cuMemHostRegister
 *    ABI, a host allocation of the virtual memory API, an allocation of a
 *    host-located memory pool, and managed memory; and whether an async
 *    copy into the last four returns before it completes.
 *
 * 4. Does a batch copy (cuMemcpyBatchAsync, 13.0 ABI) from pinned host
 *    memory with CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL return before
 *    its stream reaches it (the source staged during the call), or only
 *    once the gate in front of it opened? And with ..._STREAM?
 *
 * Build and run (on the GPU machine, without syncguard):
 *   gcc -O1 -Itests/lib -I$CUDA/include tests/gpu/probe_pageable_async.c \
 *       tests/lib/sgtest.c -L$CUDA/lib64/stubs -lcuda -ldl -lpthread -o probe
 *   ./probe
 * Each line says what was measured; "model:" lines say what syncguard
 * assumes, so a difference shows at a glance. */
#include <cuda.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sgtest.h"
#include "sgt_hostkinds.h"

#define BYTES (4u << 20)

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

struct opener {
    sgt_hold *hold;
    volatile int opened;
};

static void *open_later(void *arg)
{
    struct opener *o = arg;
    usleep(300 * 1000);
    o->opened = 1;
    __sync_synchronize();
    sgt_release(o->hold);
    return NULL;
}

/* Holds s, starts the opener, runs the copy; returns whether the call
 * returned before the gate opened (asynchronous for the host). */
static int returned_early(CUstream s, CUresult (*copy)(void *), void *arg, double *ms)
{
    struct opener o = { sgt_hold_stream(s), 0 };
    pthread_t t;
    pthread_create(&t, NULL, open_later, &o);
    double t0 = now_ms();
    SGT_CHECK(copy(arg));
    int early = !o.opened;
    *ms = now_ms() - t0;
    pthread_join(t, NULL);
    return early;
}

static CUdeviceptr dev;
static CUstream stream;
static void *dst;

static CUresult dtoh(void *p)
{
    return cuMemcpyDtoHAsync(p, dev, BYTES, stream);
}

static CUresult htod(void *p)
{
    return cuMemcpyHtoDAsync(dev, p, BYTES, stream);
}

static unsigned wrong_bytes(const unsigned char *p, unsigned char want)
{
    unsigned n = 0;
    for (size_t i = 0; i < BYTES; i++)
        n += p[i] != want;
    return n;
}

static void attributes(const char *what, const void *p)
{
    unsigned type = 0, managed = 0;
    CUdeviceptr base = 0;
    size_t size = 0;
    CUpointer_attribute a[] = { CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, CU_POINTER_ATTRIBUTE_RANGE_SIZE };
    void *d[] = { &type, &managed, &base, &size };
    CUresult r = cuPointerGetAttributes(4, a, d, (CUdeviceptr)(uintptr_t)p);
    printf("attributes %-22s result=%d memory_type=%u (1 host, 2 device) is_managed=%u range=%s+%zu\n", what,
           (int)r, type, managed, base == (CUdeviceptr)(uintptr_t)p ? "start" : base ? "inside" : "none", size);
}

/* A device-to-host copy into p (SGT_BYTES): does it return before it lands? */
static void kind(const char *what, void *p)
{
    if (!p) {
        printf("kind %-22s not available here\n", what);
        return;
    }
    attributes(what, p);
    memset(p, 0, SGT_BYTES);
    SGT_CHECK(cuMemsetD8(dev, 0x5a, SGT_BYTES));
    SGT_CHECK(cuCtxSynchronize());
    struct opener o = { sgt_hold_stream(stream), 0 };
    pthread_t t;
    pthread_create(&t, NULL, open_later, &o);
    SGT_CHECK(cuMemcpyDtoHAsync(p, dev, SGT_BYTES, stream));
    int early = !o.opened;
    unsigned landed = ((unsigned char *)p)[0] == 0x5a;
    pthread_join(t, NULL);
    SGT_CHECK(cuStreamSynchronize(stream));
    printf("kind %-22s async D2H returned %s the gate opened; data there at return: %s; after sync: %s\n", what,
           early ? "BEFORE" : "after", landed ? "yes" : "no",
           ((unsigned char *)p)[0] == 0x5a ? "right" : "WRONG");
}

typedef CUresult (*batch_v13000_fn)(CUdeviceptr *, CUdeviceptr *, size_t *, size_t, CUmemcpyAttributes *,
                                    size_t *, size_t, CUstream);
static CUmemcpySrcAccessOrder batch_order;

static CUresult batch_htod(void *p)
{
    batch_v13000_fn batch = (batch_v13000_fn)sgt_proc("cuMemcpyBatchAsync", 13000);
    CUdeviceptr d = dev, src = (CUdeviceptr)(uintptr_t)p;
    size_t size = BYTES, idx = 0;
    CUmemcpyAttributes attr = { .srcAccessOrder = batch_order };
    attr.srcLocHint.type = CU_MEM_LOCATION_TYPE_HOST;
    attr.dstLocHint.type = CU_MEM_LOCATION_TYPE_DEVICE;
    return batch(&d, &src, &size, 1, &attr, &idx, 1, stream);
}

static void batch_probe(const char *what, CUmemcpySrcAccessOrder order)
{
    void *pinned;
    SGT_CHECK(cuMemAllocHost(&pinned, BYTES));
    memset(pinned, 0x33, BYTES);
    batch_order = order;
    double ms;
    int early = returned_early(stream, batch_htod, pinned, &ms);
    SGT_CHECK(cuStreamSynchronize(stream));
    printf("batch H2D from pinned, %s: returned %s the gate opened (%.1f ms)\n", what,
           early ? "BEFORE" : "after", ms);
    SGT_CHECK(cuMemFreeHost(pinned));
}

int main(void)
{
    sgt_init();
    SGT_CHECK(cuMemAlloc(&dev, BYTES));
    SGT_CHECK(cuMemsetD8(dev, 0x5a, BYTES));
    SGT_CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    SGT_CHECK(cuCtxSynchronize());

    dst = malloc(BYTES);
    memset(dst, 0, BYTES);
    double ms;
    int early = returned_early(stream, dtoh, dst, &ms);
    unsigned wrong = wrong_bytes(dst, 0x5a);
    SGT_CHECK(cuStreamSynchronize(stream));
    printf("pageable D2H async: returned %s the gate opened (%.1f ms); %u of %u bytes not yet copied at return; "
           "after sync %u wrong\n",
           early ? "BEFORE" : "after", ms, wrong, BYTES, wrong_bytes(dst, 0x5a));
    printf("model: pageable D2H async returns once complete (after the gate, 0 bytes missing)\n");

    memset(dst, 0x33, BYTES);
    early = returned_early(stream, htod, dst, &ms);
    memset(dst, 0x44, BYTES); /* the source is the program's again if staged */
    SGT_CHECK(cuStreamSynchronize(stream));
    unsigned char *back = malloc(BYTES);
    SGT_CHECK(cuMemcpyDtoH(back, dev, BYTES));
    printf("pageable H2D async: returned %s the gate opened (%.1f ms); device got %s\n", early ? "BEFORE" : "after",
           ms, wrong_bytes(back, 0x33) == 0 ? "the source as it was at the call (staged)" : "LATER source bytes");
    printf("model: pageable H2D async is staged during the call, may return before the DMA\n");

    attributes("pageable (malloc)", dst);
    kind("cuMemHostRegister 4.0", sgt_register_v1());
    kind("VMM host allocation", sgt_vmm_host());
    kind("host memory pool", sgt_pool_host(stream));
    kind("managed", sgt_managed());
    printf("model: register 4.0 and VMM host asynchronous (returned BEFORE, data not there at return); the pool "
           "and managed returned once complete (GPU run 20)\n");
    batch_probe("DURING_API_CALL", CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL);
    batch_probe("STREAM", CU_MEMCPY_SRC_ACCESS_ORDER_STREAM);
    printf("model: the emulator makes a DURING_API_CALL batch from pinned memory wait (GPU run 20: the test "
           "holding its stream hung); STREAM returns at once\n");
    return 0;
}
