/* SPDX-License-Identifier: Apache-2.0 */
/* m_event_rerecord_race: events.  Re-recording an event replaces what it
 * captures:  recorded after the copy on stream A, then re-recorded on an
 * idle stream B, it stands for B's work only, and synchronizing it does not
 * cover the copy.  Twin: m_event_after_copy_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_event_rerecord_race
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
    CUstream b = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuEventRecord(e, a));
    SGT_CHECK(cuEventRecord(e, b));     /* now captures B's (empty) work */
    SGT_CHECK(cuEventSynchronize(e));
    sgt_release_when_host_waits(hold);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuEventSynchronize(re-recorded event)");
}
