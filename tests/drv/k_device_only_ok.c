/* SPDX-License-Identifier: Apache-2.0 */
/* k_device_only_ok: a kernel that is given device memory only runs while
 * the host reads and writes a pinned buffer it was never given: nothing
 * ties the two, so no report (only a launch's own pointer arguments are
 * guarded).  Twin of k_launch_read_race.
 *
 * SG-EXPECT: silent
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
    k_fill(K_LAUNCH, s, dev, SGT_NEW);
    for (unsigned i = 0; i < SGT_WORDS; i++) /* while the launch is pending */
        host[i] = SGT_NEW;
    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_CHECK(cuMemcpyDtoH(host, dev, SGT_BYTES));
    wrong += SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    return sgt_verdict(wrong, "host words and the kernel's device words");
}
