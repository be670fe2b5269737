/* m_batch_v13000_race: batch copies (the CUDA 13.0 ABI of
 * cuMemcpyBatchAsync, from cuGetProcAddress at version 13000).  Two D2H
 * copies into pinned memory; the host reads before synchronizing: a race.
 * Twin: m_batch_v13000_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_batch_v13000_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_batch_v13000_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

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
    sgt_buffers(&dev, &host);
    CUstream a;
    SGT_CHECK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
    /* Two D2H copies, one per half of the pinned buffer. */
    CUdeviceptr dsts[2] = { (CUdeviceptr)(uintptr_t)host, (CUdeviceptr)(uintptr_t)(host + SGT_WORDS / 2) };
    CUdeviceptr srcs[2] = { dev, dev + SGT_BYTES / 2 };
    size_t sizes[2] = { SGT_BYTES / 2, SGT_BYTES / 2 }, idx[1] = { 0 };
    CUmemcpyAttributes attr = { .srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM };
    batch_v13000_fn batch = batch_13000();
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(batch(dsts, srcs, sizes, 2, &attr, idx, 1, a));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* m_batch_v13000_ok */
    SGT_CHECK(cuStreamSynchronize(a));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize");
#else
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "read before synchronizing");
#endif
}
