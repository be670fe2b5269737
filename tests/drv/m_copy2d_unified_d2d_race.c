/* SPDX-License-Identifier: Apache-2.0 */
/* m_copy2d_unified_d2d_race: only real observations release copies.  A pinned copy
 * is held on the legacy stream; then a synchronous cuMemcpy2D whose
 * operands are both CU_MEMORYTYPE_UNIFIED, both device memory: device to
 * device, no host synchronization, so reading the pinned buffer is a race.
 * (The memory type says "unified": what the operands are, only the driver
 * knows.)  Twin: m_copy2d_unified_host_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_copy2d_unified_d2d_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_copy2d_unified_host_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
#ifdef SG_TWIN /* the destination is pinned host memory: host synchronization */
    CUdeviceptr dst = (CUdeviceptr)(uintptr_t)sgt_pinned(SGT_BYTES);
#else
    CUdeviceptr dst = sgt_device_words(SGT_WORDS, 0);
#endif
    sgt_hold *hold = sgt_hold_stream(NULL);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, NULL));
    CUDA_MEMCPY2D p = { 0 };
    p.srcMemoryType = CU_MEMORYTYPE_UNIFIED, p.srcDevice = dev, p.srcPitch = 256;
    p.dstMemoryType = CU_MEMORYTYPE_UNIFIED, p.dstDevice = dst, p.dstPitch = 256;
    p.WidthInBytes = 64, p.Height = 4;
    /* (a driver that made the copy wait gets the hold released) */
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuMemcpy2D(&p));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after a synchronous 2D copy");
}
