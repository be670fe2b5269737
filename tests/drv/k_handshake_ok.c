/* SPDX-License-Identifier: Apache-2.0 */
/* k_handshake_ok: a kernel posts a word into pinned mapped memory and then
 * waits for the host's answer in the next word (the way NCCL's proxies and
 * DeepEP's host-side loops work with a running kernel); the host polls the
 * posted word, then answers.  The host's first read finds the kernel
 * running: syncguard waits for it only boundedly (kernel_read_wait_ms: the
 * kernel cannot finish before the host answers, the bound always runs
 * out) and lets the read through; the poll's next read of the same word
 * makes the allocation a signalling channel: no report, the handshake
 * completes and the kernel never times out.
 *
 * SG-EXPECT: silent
 * SG-OPTIONS: kernel_read_wait_ms=100:verbosity=1
 * SG-GREP: kernel_channels=1
 * SG-GREP: waits_abandoned=1
 */
#include <stdio.h>

#include "k_launch.h"

int main(void)
{
    CUdeviceptr dev, alias;
    uint32_t *host;
    sgt_start(&dev, &host);
    (void)sgt_kernel("sgt_signal");
    uint32_t *words = k_mapped_words(&alias);
    words[0] = words[1] = words[2] = 0;
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);

    sgt_launch_signal(s, alias, 7, 1, 10000); /* posts 7, then waits for 1 */
    const volatile uint32_t *posted = &words[0];
    while (*posted != 7)
        ;
    words[1] = 1; /* the answer */
    SGT_CHECK(cuStreamSynchronize(s));

    uint32_t result = words[2];
    printf("the kernel %s the host's answer\n", result == SGT_SIGNAL_SEEN ? "saw" : "never saw");
    SGT_CHECK(cuMemFreeHost(words));
    sgt_free_buffers(dev, host);
    return sgt_verdict(result != SGT_SIGNAL_SEEN, "the kernel's view of the answer");
}
