/* SPDX-License-Identifier: Apache-2.0 */
/* k_learn_signal_ok: a kernel learnt to signal through mapped memory.
 * sgt_signal posts a word, then polls the next one for the host's answer
 * (k_handshake_ok). Its first launch is learnt, unguarded
 * (guess_unlearnt=0: no guess); it shows a poll (one thread reading one
 * address again and again), so the allocation is a synchronization
 * variable for this kernel, never guarded: the second handshake runs
 * without a fault, a bounded wait or a report.
 *
 * SG-LEARN
 * SG-OPTIONS: learn_launches=1:guess_unlearnt=0:verbosity=2
 * SG-EXPECT: silent
 * SG-GREP: learnt kernel sgt_signal (instrumented here, 1 launch): ptr0 rw+poll \[0,12)
 * SG-GREP: kernel_first_reads=0, kernel_channels=0
 * SG-GREP: faults_race=0, faults_waited=0
 */
#include <stdio.h>
#include <time.h>

#include "k_launch.h"

static unsigned handshake(CUstream s, uint32_t *words, CUdeviceptr alias)
{
    words[0] = words[1] = words[2] = 0;
    sgt_launch_signal(s, alias, 7, 1, 10000); /* posts 7, then waits for 1 */
    const volatile uint32_t *posted = &words[0];
    while (*posted != 7)
        ;
    /* The answer comes a little later, so that the kernel looks for it
     * again and again: a GPU's poll answered at once may have looked only
     * once, and one look is no poll (the emulator's looks at least 16 times
     * anyway: sgt_kernels.h). Not a bound on anything: only how long the
     * kernel polls. */
    struct timespec later = { 0, 5 * 1000 * 1000 };
    nanosleep(&later, NULL);
    words[1] = 1; /* the answer */
    SGT_CHECK(cuStreamSynchronize(s));
    return words[2] != SGT_SIGNAL_SEEN;
}

int main(void)
{
    CUdeviceptr dev, alias;
    uint32_t *host;
    sgt_start(&dev, &host);
    (void)sgt_kernel("sgt_signal");
    uint32_t *words = k_mapped_words(&alias);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    unsigned wrong = handshake(s, words, alias); /* learnt from */
    wrong += handshake(s, words, alias);
    SGT_CHECK(cuMemFreeHost(words));
    sgt_free_buffers(dev, host);
    return sgt_verdict(wrong, "the kernel's view of the answers");
}
