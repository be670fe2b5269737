/* SPDX-License-Identifier: Apache-2.0 */
/* m_event_never_recorded_race: events.  A never-recorded event is complete
 * and captures nothing: cuEventSynchronize on it returns at once and
 * observes nothing.  Twin: m_event_after_copy_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_event_never_recorded_race
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUevent e = sgt_event();
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuEventSynchronize(e));   /* never recorded */
    sgt_release_when_host_waits(hold);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuEventSynchronize(never-recorded event)");
}
