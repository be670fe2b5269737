/* SPDX-License-Identifier: Apache-2.0 */
/* k_launch_stream_sync_ok: a kernel launched with cuLaunchKernel writes
 * pinned host memory; the host reads it only after cuStreamSynchronize on
 * the launch's stream, which observes the launch complete: no report, and
 * the words are the kernel's.  Twin of k_launch_read_race.
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
    k_fill(K_LAUNCH, s, (CUdeviceptr)(uintptr_t)host, SGT_NEW);
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuStreamSynchronize(s));

    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    return sgt_verdict(wrong, "after cuStreamSynchronize");
}
