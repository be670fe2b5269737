/* SPDX-License-Identifier: Apache-2.0 */
/* m_event_record_flags_ok: events.
 * cuEventRecordWithFlags(CU_EVENT_RECORD_DEFAULT) after the copy is an
 * ordinary record: synchronizing the event observes the copy.  Twin:
 * m_event_before_copy_race.
 *
 * SG-EXPECT: silent
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
    SGT_CHECK(cuEventRecordWithFlags(e, a, CU_EVENT_RECORD_DEFAULT));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(e));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuEventSynchronize(cuEventRecordWithFlags)");
}
