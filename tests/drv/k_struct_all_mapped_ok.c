/* SPDX-License-Identifier: Apache-2.0 */
/* k_struct_all_mapped_ok: the program of k_struct_all_mapped_race with
 * cuStreamSynchronize before the read: with kernel_all_mapped=1 too, an
 * observed launch leaves nothing to report.
 *
 * SG-OPTIONS: kernel_all_mapped=1
 * SG-EXPECT: silent
 */
#include "k_launch.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);

    struct sgt_fill_args a = { (CUdeviceptr)(uintptr_t)host, SGT_WORDS, SGT_NEW };
    void *params[] = { &a };
    SGT_CHECK(cuLaunchKernel(sgt_kernel("sgt_fill_struct"), 1, 1, 1, 1, 1, 1, 0, s, params, NULL));
    SGT_CHECK(cuStreamSynchronize(s));

    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    return sgt_verdict(wrong, "after cuStreamSynchronize");
}
