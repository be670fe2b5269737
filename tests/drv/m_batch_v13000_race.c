/* m_batch_v13000_race: batch copies (the CUDA 13.0 ABI of
 * cuMemcpyBatchAsync, from cuGetProcAddress at version 13000).  Two D2H
 * copies into pinned memory; the host reads before synchronizing: a race.
 * Twin: m_batch_v13000_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_batch_v13000_race
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

#define WORDS 4096u                     /* 16 KiB, four pages */
#define BYTES (WORDS * sizeof(uint32_t))
#define OLD 0x0badf00du                 /* the host buffer before the copy */
#define NEW 0x5eed1234u                 /* what the copy delivers */

static unsigned count_wrong(const volatile uint32_t *h, unsigned n, uint32_t want)
{
    unsigned wrong = 0;
    for (unsigned i = 0; i < n; i++)
        wrong += h[i] != want;
    return wrong;
}

/* Device memory holding NEW and a pinned host buffer holding OLD, in the
 * current context, with no work pending. */
static void buffers(CUdeviceptr *dev, uint32_t **host)
{
    SGT_CHECK(cuMemAlloc(dev, BYTES));
    SGT_CHECK(cuMemsetD32(*dev, NEW, WORDS));
    SGT_CHECK(cuCtxSynchronize());
    SGT_CHECK(cuMemAllocHost((void **)host, BYTES));
    for (unsigned i = 0; i < WORDS; i++)
        (*host)[i] = OLD;
}

static int verdict(unsigned wrong, const char *when)
{
    printf("%s: %u of %u words wrong\n", when, wrong, WORDS);
    if (wrong) {
        printf("check: MISMATCH the read did not see the copied data\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}

typedef CUresult (*batch_v13000_fn)(CUdeviceptr *, CUdeviceptr *, size_t *, size_t, CUmemcpyAttributes *,
                                    size_t *, size_t, CUstream);

/* The CUDA 13.0 ABI, as a 13.0 runtime looks it up. */
static batch_v13000_fn batch_13000(void)
{
    void *fn = NULL;
    CUdriverProcAddressQueryResult st;
    SGT_CHECK(cuGetProcAddress("cuMemcpyBatchAsync", &fn, 13000, 0, &st));
    SGT_EXPECT(st == CU_GET_PROC_ADDRESS_SUCCESS && fn);
    return (batch_v13000_fn)fn;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr dev;
    uint32_t *host;
    buffers(&dev, &host);
    CUstream a;
    SGT_CHECK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
    /* Two D2H copies, one per half of the pinned buffer. */
    CUdeviceptr dsts[2] = { (CUdeviceptr)(uintptr_t)host, (CUdeviceptr)(uintptr_t)(host + WORDS / 2) };
    CUdeviceptr srcs[2] = { dev, dev + BYTES / 2 };
    size_t sizes[2] = { BYTES / 2, BYTES / 2 }, idx[1] = { 0 };
    CUmemcpyAttributes attr = { .srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM };
    batch_v13000_fn batch = batch_13000();
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(batch(dsts, srcs, sizes, 2, &attr, idx, 1, a));
    sgt_release_when_host_waits(hold);
    return verdict(count_wrong(host, WORDS, NEW), "read before synchronizing");
}
