/* SPDX-License-Identifier: Apache-2.0 */
/* k_delay_kernel_ok: XLA's GPU timer, twice. Each timer takes a fresh
 * pinned mapped word, launches a delay kernel that polls it (with a timeout
 * of its own; XLA's is 100 ms), reads the word once (still "hold"), then
 * writes "release" and synchronizes. The host's first read of the first
 * timer finds an unknown kernel running: it waits only kernel_read_wait_ms
 * (the kernel waits for this very thread, so the wait always runs out) and
 * goes through; the write then makes the word a signalling channel and the
 * kernel one that signals, so the second timer's read is let through
 * without any wait. No report; neither kernel times out (issue 27, JAX:
 * each timer waited for its kernel's own timeout, 198 times, 20 s). Race
 * twin: k_first_read_long_race.
 *
 * SG-EXPECT: silent
 * SG-OPTIONS: kernel_read_wait_ms=20:verbosity=1
 * SG-GREP: waits_abandoned=1,
 * SG-GREP: kernel_first_reads=1,
 * SG-GREP: kernel_channels=1,
 */
#include <stdio.h>

#include "k_launch.h"

/* One timer: 0 when its kernel saw the release. */
static int one_timer(CUstream s, int n)
{
    CUdeviceptr alias;
    uint32_t *words = k_mapped_words(&alias);
    words[1] = 0; /* hold */
    words[2] = 0;
    sgt_launch_signal(s, alias, 0, 1, 10000); /* polls words[1] for up to 10 s */
    const volatile uint32_t *semaphore = &words[1];
    uint32_t before = *semaphore; /* XLA: is it still "hold"? */
    words[1] = 1;                 /* release */
    SGT_CHECK(cuStreamSynchronize(s));
    uint32_t result = words[2];
    printf("timer %d: the host read %u, the kernel %s the release\n", n, before,
           result == SGT_SIGNAL_SEEN ? "saw" : "never saw");
    SGT_CHECK(cuMemFreeHost(words));
    return before != 0 || result != SGT_SIGNAL_SEEN;
}

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    (void)sgt_kernel("sgt_signal"); /* loaded before the launch */
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    int wrong = one_timer(s, 1);
    wrong += one_timer(s, 2);
    sgt_free_buffers(dev, host);
    return sgt_verdict((unsigned)wrong, "the timers");
}
