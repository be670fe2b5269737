/* SPDX-License-Identifier: Apache-2.0 */
/* m_ctx_sync_other_ctx_race: cuCtxSynchronize covers the CURRENT context
 * only.  Two contexts made with cuCtxCreate on device 0: the copy runs in
 * context A, the host synchronizes context B: the read is a race.  Twin:
 * m_ctx_sync_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_ctx_sync_other_ctx_race
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUcontext ca, cb;
    SGT_CHECK(cuCtxCreate(&ca, NULL, 0, 0));           /* current: A */
    CUdeviceptr dev;
    uint32_t *host;
    sgt_buffers(&dev, &host);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuCtxCreate(&cb, NULL, 0, 0));           /* current: B */
    SGT_CHECK(cuCtxSynchronize());                      /* B is idle */
    SGT_CHECK(cuCtxPopCurrent(NULL));                   /* back to A */
    sgt_release_when_host_waits(hold);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuCtxSynchronize of another context");
}
