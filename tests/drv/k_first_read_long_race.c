/* SPDX-License-Identifier: Apache-2.0 */
/* k_first_read_long_race: a kernel writes results into pinned memory and
 * runs longer than the first read's short wait (kernel_read_wait_ms); the
 * host reads them before it observes the launch complete. The first read
 * of an unknown kernel's range waits only that long (the kernel might be
 * waiting for the host) and goes through with the old word; the next read
 * elsewhere is the race: reported, naming the kernel (in flight or latent:
 * the hold opens after the first read), and waited for, so every later
 * word is the kernel's. The kernel is now known to leave
 * results: its second launch's first read waits for it (wait_bound_ms)
 * and sees every word right. Twin: k_delay_kernel_ok (the kernel waits for
 * the host: no report).
 *
 * SG-EXPECT: kernel-early-host-read
 * SG-OPTIONS: kernel_read_wait_ms=20:verbosity=1
 * SG-GREP: Kernel sgt_fill launched on stream .* by cuLaunchKernel
 * SG-GREP: first launch: 1 of 4096 words wrong
 * SG-GREP: second launch: 0 of 4096 words wrong
 * SG-GREP: The host's first read of it, at 0x[0-9a-f]*, found the kernel running and went through after kernel_read_wait_ms=20
 * SG-GREP: waits_abandoned=1,
 * SG-GREP: kernel_channels=0,
 */
#include <stdio.h>

#include "k_launch.h"

/* Launches sgt_fill(host, SGT_WORDS, v) behind a hold; the host reads the
 * first word, then the rest. The hold opens either when the host waits, or
 * right after the first read (which then certainly saw the old word: the
 * short wait's waiter, left blocked in the driver, is no new host wait). */
static unsigned launch_and_read(CUstream s, uint32_t *host, uint32_t v, int release_first)
{
    sgt_hold *hold = sgt_hold_stream(s);
    k_fill(K_LAUNCH, s, (CUdeviceptr)(uintptr_t)host, v);
    if (release_first)
        sgt_release_when_host_waits(hold);
    const volatile uint32_t *h = host;
    unsigned wrong = h[0] != v; /* the first read */
    if (!release_first)
        sgt_release(hold);
    wrong += SGT_COUNT_WRONG(host + 1, SGT_WORDS - 1, v);
    SGT_CHECK(cuStreamSynchronize(s));
    return wrong;
}

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    k_load_kernels(); /* before any hold: a load waits for the device */
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);

    unsigned first = launch_and_read(s, host, SGT_NEW, 0);
    printf("first launch: %u of %u words wrong\n", first, SGT_WORDS);
    unsigned second = launch_and_read(s, host, SGT_NEW + 1, 1);
    printf("second launch: %u of %u words wrong\n", second, SGT_WORDS);
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW + 1);
    sgt_free_buffers(dev, host);
    return sgt_verdict(first != 1 || second != 0 || late != 0, "after both launches");
}
