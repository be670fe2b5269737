/* SPDX-License-Identifier: Apache-2.0 */
/* k_cooperative_race: a cooperative launch (cuLaunchCooperativeKernel)
 * writes pinned host memory and the host reads it having synchronized only
 * with another stream.  syncguard must report the read as a kernel's and
 * explain why that synchronization did not cover the launch.  Twin:
 * k_cooperative_ctx_sync_ok.
 *
 * SG-EXPECT: kernel-early-host-read
 * SG-GREP: Kernel sgt_fill launched on .* by cuLaunchCooperativeKernel
 * SG-GREP: the launch was on stream .* and no event wait orders it before
 */
/* This program is also built as the twins and variants that name it:
 * SG_TWIN for the lines under #ifdef SG_TWIN, K_HOW for another launch
 * entry point (k_launch.h). */
#include "k_launch.h"

#ifndef K_HOW
#define K_HOW K_COOPERATIVE
#endif

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    k_load_kernels(); /* before any hold: a load waits for the device */
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUstream other = sgt_stream(CU_STREAM_NON_BLOCKING);

    sgt_hold *hold = sgt_hold_stream(s);
    k_fill(K_HOW, s, (CUdeviceptr)(uintptr_t)host, SGT_NEW);
#ifdef SG_TWIN /* k_cooperative_ctx_sync_ok */
    (void)other;
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuCtxSynchronize()); /* the context's work, the launch's too */
#else
    SGT_CHECK(cuStreamSynchronize(other)); /* not the launch's stream */
    sgt_release_when_host_waits(hold);
#endif

    unsigned early = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* the race, unless synced */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    return sgt_race_verdict(early, late, "cuStreamSynchronize");
}
