/* SPDX-License-Identifier: Apache-2.0 */
/* m_ptds_legacy_ok: per-thread default stream.  It "is not a non-blocking
 * stream and will synchronize with the legacy default stream": an event
 * recorded on the legacy stream after a copy on the per-thread stream
 * completes after it.  Twin: m_ptds_other_thread_race.
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
    CUevent e = sgt_event();
    sgt_hold *hold = sgt_hold_stream(CU_STREAM_PER_THREAD);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, CU_STREAM_PER_THREAD));
    SGT_CHECK(cuEventRecord(e, CU_STREAM_LEGACY));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(e));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after synchronizing a legacy-stream event");
}
