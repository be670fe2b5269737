/* SPDX-License-Identifier: Apache-2.0 */
/* k_cooperative_ctx_sync_ok: a cooperative launch writes pinned host
 * memory; cuCtxSynchronize observes every piece of the context's work, the
 * launch included: no report.  Twin of k_cooperative_race.
 *
 * SG-EXPECT: silent
 */
#include "k_launch.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);

    sgt_hold *hold = sgt_hold_stream(s);
    k_fill(K_COOPERATIVE, s, (CUdeviceptr)(uintptr_t)host, SGT_NEW);
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuCtxSynchronize());

    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    return sgt_verdict(wrong, "after cuCtxSynchronize");
}
