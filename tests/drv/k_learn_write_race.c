/* SPDX-License-Identifier: Apache-2.0 */
/* k_learn_write_race: a kernel whose accesses were learnt (learn/). One
 * launch of sgt_fill, synchronized, teaches syncguard that the kernel
 * writes its pointer argument, bytes [0, 16384) of it. The next launch, on
 * a held stream, guards the pinned words like a device-to-host copy's
 * destination: the host's very first read is the race, reported with the
 * kernel's learnt access, and syncguard waits for the kernel before the
 * read goes on: the host sees the words the kernel wrote. (Guessing
 * instead, a first read is let through after a bounded wait and only a
 * second read elsewhere is reported: k_first_read_long_race.)
 *
 * SG-LEARN
 * SG-OPTIONS: learn_launches=1:verbosity=2
 * SG-EXPECT: kernel-early-host-read
 * SG-GREP: learnt kernel sgt_fill (instrumented here, 1 launch): ptr0 w \[0,16384)
 * SG-GREP: was learnt from its launches (learn_kernels): it writes it
 */
#include <stdio.h>

#include "k_launch.h"

int main(void)
{
    CUdeviceptr dev, alias;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUfunction f = sgt_kernel("sgt_fill");
    uint32_t *words = k_mapped_words(&alias);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);

    sgt_launch_fill(f, s, alias, SGT_WORDS, SGT_OLD); /* learnt from */
    SGT_CHECK(cuStreamSynchronize(s));

    sgt_hold *hold = sgt_hold_stream(s);
    sgt_launch_fill(f, s, alias, SGT_WORDS, SGT_NEW);
    sgt_release_when_host_waits(hold);
    unsigned wrong = SGT_COUNT_WRONG(words, SGT_WORDS, SGT_NEW); /* the race */
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_CHECK(cuMemFreeHost(words));
    sgt_free_buffers(dev, host);
    return sgt_verdict(wrong, "the words the host read while the kernel ran");
}
