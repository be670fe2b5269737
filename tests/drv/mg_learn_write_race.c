/* SPDX-License-Identifier: Apache-2.0 */
/* mg_learn_write_race: managed memory and a kernel whose accesses were
 * learnt (learn/). One synchronized launch of sgt_fill teaches syncguard
 * that the kernel writes its pointer argument; the next launch, on a held
 * stream, guards the managed allocation against every access, so the
 * host's very first read is the race: reported with the learnt access,
 * and waited for, so the host reads the kernel's words.
 *
 * SG-LEARN
 * SG-OPTIONS: managed_races=1:learn_launches=1
 * SG-EXPECT: kernel-early-host-read
 * SG-GREP: host read of managed memory that a kernel still running may write
 * SG-GREP: READ at 0x[0-9a-f]* [(]byte 0 of a 16384-byte allocation
 * SG-GREP: was learnt from its launches (learn_kernels): it writes it
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "mg_managed.h"
#include "sgt_kernels.h"
#include "sgtest.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr m;
    uint32_t *words = mg_managed_words(&m, 0);
    CUfunction f = sgt_kernel("sgt_fill");
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);

    sgt_launch_fill(f, s, m, SGT_WORDS, SGT_OLD); /* learnt from */
    SGT_CHECK(cuStreamSynchronize(s));

    sgt_hold *hold = sgt_hold_stream(s);
    sgt_launch_fill(f, s, m, SGT_WORDS, SGT_NEW);
    sgt_release_when_host_waits(hold);
    unsigned wrong = SGT_COUNT_WRONG(words, SGT_WORDS, SGT_NEW); /* the race */
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_CHECK(cuMemFree(m));
    return sgt_verdict(wrong, "the managed words the host read while the kernel ran");
}
