/* SPDX-License-Identifier: Apache-2.0 */
/* k_learn_read_ok: a kernel learnt to only read its pinned argument.
 * sgt_copy copies pinned words into device memory; one synchronized
 * launch teaches syncguard that it reads its second argument and writes
 * its first. The next launch, held, guards the pinned words read-only,
 * like a host-to-device copy's source: the host reading them while the
 * kernel runs is no race (both only read) and neither faults nor waits.
 *
 * SG-LEARN
 * SG-OPTIONS: learn_launches=1:verbosity=2
 * SG-EXPECT: silent
 * SG-GREP: learnt kernel sgt_copy (instrumented here, 1 launch): ptr0 w \[0,16384) ptr1 r \[0,16384)
 * SG-GREP: faults_race=0, faults_waited=0
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
    unsigned wrong = SGT_COUNT_WRONG(words, SGT_WORDS, SGT_OLD); /* a read beside a read */
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    static uint32_t back[SGT_WORDS];
    SGT_CHECK(cuMemcpyDtoH(back, out, SGT_BYTES));
    wrong += SGT_COUNT_WRONG(back, SGT_WORDS, SGT_OLD);
    SGT_CHECK(cuMemFreeHost(words));
    sgt_free_buffers(dev, host);
    return sgt_verdict(wrong, "the pinned words and their copy");
}
