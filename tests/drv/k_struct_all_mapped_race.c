/* SPDX-License-Identifier: Apache-2.0 */
/* k_struct_all_mapped_race: a kernel is given pinned host memory through a
 * pointer inside a struct passed by value, where syncguard cannot see it;
 * with kernel_all_mapped=1 every pinned allocation is guarded at each
 * launch, so the host's read before observing the launch is reported (in
 * flight, or latent if the kernel had finished: no hold here, since the
 * hold's own flag is pinned memory the option guards too).  Twin:
 * k_struct_all_mapped_ok.
 *
 * SG-OPTIONS: kernel_all_mapped=1
 * SG-EXPECT: kernel-early-host-read
 * SG-GREP: Kernel sgt_fill_struct launched
 */
#include "k_launch.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    k_load_kernels(); /* before any hold: a load waits for the device */
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);

    struct sgt_fill_args a = { (CUdeviceptr)(uintptr_t)host, SGT_WORDS, SGT_NEW };
    void *params[] = { &a };
    SGT_CHECK(cuLaunchKernel(sgt_kernel("sgt_fill_struct"), 1, 1, 1, 1, 1, 1, 0, s, params, NULL));

#ifdef SG_TWIN /* k_struct_all_mapped_ok */
    SGT_CHECK(cuStreamSynchronize(s));
#endif
    unsigned early = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* the race, unless synced */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    return sgt_race_verdict(early, late, "cuStreamSynchronize");
}
