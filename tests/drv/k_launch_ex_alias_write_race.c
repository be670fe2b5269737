/* SPDX-License-Identifier: Apache-2.0 */
/* k_launch_ex_alias_write_race: a kernel launched with cuLaunchKernelEx,
 * its parameters packed in the `extra` buffer, is given the device alias
 * of pinned host memory (cuMemHostGetDevicePointer), and the host writes a
 * word of that memory before it has observed the launch.  The launch waits
 * behind a hold, so without syncguard the kernel would overwrite the
 * host's word; syncguard must report the write, wait for the launch and
 * only then let the write land, so the host's word survives.  Only with
 * kernel_args=2: by default a host write to what a kernel was given is
 * taken for a signal the kernel may be polling for (k_poll_flag_ok).
 * Twin: k_launch_ex_event_ok.
 *
 * SG-EXPECT: kernel-early-host-write
 * SG-OPTIONS: kernel_args=2
 * SG-GREP: Kernel sgt_fill launched on .* by cuLaunchKernelEx
 */
#include <stdio.h>

#include "k_launch.h"

#define MINE 0x600dcafeu

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    k_load_kernels(); /* before any hold: a load waits for the device */
    CUstream s = sgt_stream(0);
#ifdef SG_TWIN /* k_launch_ex_event_ok */
    CUevent e = sgt_event();
#endif

    sgt_hold *hold = sgt_hold_stream(s);
    k_fill(K_LAUNCH_EX, s, k_alias(host), SGT_NEW);
#ifdef SG_TWIN
    SGT_CHECK(cuEventRecord(e, s));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(e));
#else
    sgt_release_when_host_waits(hold);
#endif

    ((volatile uint32_t *)host)[7] = MINE; /* the race, unless observed */
    SGT_CHECK(cuStreamSynchronize(s));
    uint32_t word = host[7];
    host[7] = SGT_NEW;
    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    printf("word 7 after the launch: %#x (the host wrote %#x)\n", word, MINE);
    if (word != MINE) {
        printf("check: MISMATCH the kernel overwrote the host's early write\n");
        return 1;
    }
    return sgt_verdict(wrong, "the kernel's other words");
}
