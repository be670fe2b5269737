/* SPDX-License-Identifier: Apache-2.0 */
/* m_ctx_destroy_other_race: context destroy.  Destroying a DIFFERENT (idle)
 * context says nothing about the copy's context: the read is a race.  Twin:
 * m_ctx_destroy_ok.
 *
 * SG-EMU-ONLY: on the H200 (driver 580) destroying the other context blocked
 *   until the held stream of this one was released, so the hold cannot be
 *   kept there: the program hung (tests/gpu/RESULTS.md, run 5).
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_ctx_destroy_other_race
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    CUcontext other;
    SGT_CHECK(cuCtxCreate(&other, NULL, 0, 0));
    SGT_CHECK(cuCtxDestroy(other));     /* idle: pops it, the primary is current again */
    sgt_release_when_host_waits(hold);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuCtxDestroy of another context");
}
