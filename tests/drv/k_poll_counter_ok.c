/* SPDX-License-Identifier: Apache-2.0 */
/* k_poll_counter_ok: the host polls a counter in pinned mapped memory that
 * a kernel writes and then finishes on its own (DeepEP's host waits so for
 * the number of tokens a notify kernel counted), and reads it once more
 * after its loop.  The host's first read waits for the kernel (it finishes
 * without the host) and sees the count; the second read of the same word
 * is a poll's: the allocation is a signalling channel, nothing is reported.
 * Twin of the read of results: k_launch_read_race.
 *
 * SG-EXPECT: silent
 * SG-OPTIONS: verbosity=1
 * SG-GREP: kernel_first_reads=1
 * SG-GREP: kernel_channels=1
 */
#include <stdio.h>

#include "k_launch.h"

int main(void)
{
    CUdeviceptr dev, alias;
    uint32_t *host;
    sgt_start(&dev, &host);
    k_load_kernels();
    uint32_t *words = k_mapped_words(&alias);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);

    sgt_hold *hold = sgt_hold_stream(s);
    sgt_launch_fill(sgt_kernel("sgt_fill"), s, alias, 1, SGT_NEW); /* the count */
    sgt_release_when_host_waits(hold);
    const volatile uint32_t *count = &words[0];
    unsigned polls = 0;
    while (*count != SGT_NEW)
        polls++;
    uint32_t again = *count;
    SGT_CHECK(cuStreamSynchronize(s));
    printf("count seen after %s\n", polls ? "some polls" : "the first look");

    SGT_CHECK(cuMemFreeHost(words));
    sgt_free_buffers(dev, host);
    return sgt_verdict(again != SGT_NEW, "the count");
}
