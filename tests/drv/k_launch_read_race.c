/* SPDX-License-Identifier: Apache-2.0 */
/* k_launch_read_race: a kernel launched with cuLaunchKernel writes pinned
 * host memory (passed by its host address, which unified addressing lets a
 * kernel use), and the host reads it before it has observed the launch
 * complete.  The launch waits behind a hold, so without syncguard the read
 * certainly sees the old words; syncguard must report the read, naming the
 * kernel, wait for the launch and let the read see what the kernel wrote.
 * Twin: k_launch_stream_sync_ok.
 *
 * SG-EXPECT: kernel-early-host-read
 * SG-GREP: Kernel sgt_fill launched on stream .* by cuLaunchKernel
 * SG-GREP: ^SUMMARY: syncguard: kernel-early-host-read .*k_launch_read_race
 */
#include "k_launch.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    k_load_kernels(); /* before any hold: a load waits for the device */
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);

    sgt_hold *hold = sgt_hold_stream(s);
    k_fill(K_LAUNCH, s, (CUdeviceptr)(uintptr_t)host, SGT_NEW);
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* k_launch_stream_sync_ok */
    SGT_CHECK(cuStreamSynchronize(s));
#endif

    unsigned early = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* the race, unless synced */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    return sgt_race_verdict(early, late, "cuStreamSynchronize");
}
