/* SPDX-License-Identifier: Apache-2.0 */
/* k_learn_read_write_race: the host writes pinned words that a kernel,
 * learnt to read them (k_learn_read_ok), may still be reading: the race of
 * a host-to-device copy's source, reported as kernel-early-host-write.
 * syncguard waits for the kernel before the write goes on, so the kernel
 * copies the old words, as the program meant. (Guessing, a host write to
 * what a kernel was given is taken for a signal and not reported.)
 *
 * SG-LEARN
 * SG-OPTIONS: learn_launches=1
 * SG-EXPECT: kernel-early-host-write
 * SG-GREP: was learnt from its launches (learn_kernels): it reads it
 */
#include <stdio.h>

#include "k_launch.h"

int main(void)
{
    CUdeviceptr dev, alias;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUdeviceptr out = sgt_device_words(SGT_WORDS, 0);
    (void)sgt_kernel("sgt_copy");
    uint32_t *words = k_mapped_words(&alias);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);

    sgt_launch_copy(s, out, alias, SGT_WORDS); /* learnt from */
    SGT_CHECK(cuStreamSynchronize(s));

    sgt_hold *hold = sgt_hold_stream(s);
    sgt_launch_copy(s, out, alias, SGT_WORDS);
    sgt_release_when_host_waits(hold);
    words[0] = SGT_NEW; /* the race: the kernel may not have read it yet */
    SGT_CHECK(cuStreamSynchronize(s));
    static uint32_t back[SGT_WORDS];
    SGT_CHECK(cuMemcpyDtoH(back, out, SGT_BYTES));
    unsigned wrong = SGT_COUNT_WRONG(back, SGT_WORDS, SGT_OLD);
    SGT_CHECK(cuMemFreeHost(words));
    sgt_free_buffers(dev, host);
    return sgt_verdict(wrong, "the kernel's copy of the words");
}
