/* SPDX-License-Identifier: Apache-2.0 */
/* k_poll_flag_race: host-kernel signalling through mapped memory, as
 * NVIDIA's cudaGraphsPerfScaling (its waitWithTimeout kernel) and XLA's
 * delay kernel do it: a kernel polls a flag in pinned mapped memory, with a
 * timeout of its own, and the host sets the flag 50 ms after the launch,
 * then synchronizes.  With kernel_args=2 (every host access to what a
 * kernel was given is a race) the host's write is reported; the wait for
 * the kernel is bounded (wait_bound_ms), since the kernel waits for the
 * very write that faulted, and then the write lands: the kernel still sees
 * its flag and does not time out.  Twin: k_poll_flag_ok (the default,
 * kernel_args=1: the write is no race and never waits).
 *
 * SG-EXPECT: kernel-early-host-write
 * SG-OPTIONS: kernel_args=2:wait_bound_ms=100:verbosity=1
 * SG-GREP: Kernel sgt_signal launched on .* by cuLaunchKernel
 * SG-GREP: waits_abandoned=1
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * k_poll_flag_ok.c. */
#include <stdio.h>
#include <time.h>

#include "k_launch.h"

int main(void)
{
    CUdeviceptr dev, alias;
    uint32_t *host;
    sgt_start(&dev, &host);
    (void)sgt_kernel("sgt_signal"); /* loaded before the launch */
    uint32_t *words = k_mapped_words(&alias);
    words[1] = 0;
    words[2] = 0;
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);

    sgt_launch_signal(s, alias, 0, 1, 10000); /* polls words[1] for up to 10 s */
    struct timespec later = { 0, 50 * 1000 * 1000 };
    nanosleep(&later, NULL);
    words[1] = 1; /* the signal: the kernel waits for this write */
    SGT_CHECK(cuStreamSynchronize(s));

    uint32_t result = words[2];
    printf("the kernel %s its flag\n", result == SGT_SIGNAL_SEEN ? "saw" : "never saw");
    SGT_CHECK(cuMemFreeHost(words));
    sgt_free_buffers(dev, host);
    return sgt_verdict(result != SGT_SIGNAL_SEEN, "the kernel's view of its flag");
}
