/* SPDX-License-Identifier: Apache-2.0 */
/* k_launch_ex_event_ok: a kernel launched with cuLaunchKernelEx on the
 * device alias of pinned host memory, then an event recorded after it and
 * cuEventSynchronize: the host has observed the launch, so writing and
 * reading the memory afterwards is no race.  Twin of
 * k_launch_ex_alias_write_race.
 *
 * SG-EXPECT: silent
 */
#include "k_launch.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream s = sgt_stream(0);
    CUevent ev = sgt_event();

    sgt_hold *hold = sgt_hold_stream(s);
    k_fill(K_LAUNCH_EX, s, k_alias(host), SGT_NEW);
    SGT_CHECK(cuEventRecord(ev, s));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(ev));

    host[7] = SGT_NEW; /* after the observation: the host's again */
    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    return sgt_verdict(wrong, "after cuEventSynchronize");
}
