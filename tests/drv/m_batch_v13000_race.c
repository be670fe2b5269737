/* SPDX-License-Identifier: Apache-2.0 */
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
#include "sgt_shapes.h"

typedef CUresult (*batch_v13000_fn)(CUdeviceptr *, CUdeviceptr *, size_t *, size_t, CUmemcpyAttributes *,
                                    size_t *, size_t, CUstream);

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_halves ops = sgt_halves_dtoh(host, dev);     /* two D2H copies, one per half */
    /* The CUDA 13.0 ABI, as a 13.0 runtime looks it up. */
    batch_v13000_fn batch = (batch_v13000_fn)sgt_proc("cuMemcpyBatchAsync", 13000);
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(batch(ops.dsts, ops.srcs, ops.sizes, 2, &ops.attr, ops.attr_idx, 1, a));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* m_batch_v13000_ok */
    SGT_CHECK(cuStreamSynchronize(a));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize");
#else
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "read before synchronizing");
#endif
}
