/* SPDX-License-Identifier: Apache-2.0 */
/* m_copy2d_unaligned_nonblocking_race: missing observations.  cuMemcpy2DUnaligned is a
 * synchronous copy like cuMemcpy2D: with a host side it returns once its
 * default-stream work is complete.  Here the held copy runs on a
 * NON-BLOCKING stream, which the legacy stream does not wait for: reading
 * it after the 2D copy is a race.  Its twin holds the copy on the legacy
 * stream itself, which cuMemcpy2DUnaligned (pageable destination) waits
 * for.  Twin: m_copy2d_unaligned_legacy_ok.
 *
 * SG-EMU-ONLY: on the H200 (driver 580) a synchronous copy also waited for
 *   the held non-blocking stream (tests/gpu/RESULTS.md, run 5): the hold
 *   cannot be kept there.
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_copy2d_unaligned_nonblocking_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_copy2d_unaligned_legacy_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    static uint32_t pageable[64 * 4];
#ifdef SG_TWIN
    CUstream s = NULL;                  /* the legacy stream */
#else
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
#endif
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
#ifdef SG_TWIN
    sgt_release_when_host_waits(hold);  /* the 2D copy waits for it */
#endif
    CUDA_MEMCPY2D p = { 0 };
    p.srcMemoryType = CU_MEMORYTYPE_DEVICE, p.srcDevice = dev, p.srcPitch = 256;
    p.dstMemoryType = CU_MEMORYTYPE_HOST, p.dstHost = pageable, p.dstPitch = 256;
    p.WidthInBytes = 64, p.Height = 4;
    SGT_CHECK(cuMemcpy2DUnaligned(&p));
#ifndef SG_TWIN
    sgt_release_when_host_waits(hold);
#endif
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuMemcpy2DUnaligned");
}
