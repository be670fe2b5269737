/* SPDX-License-Identifier: Apache-2.0 */
/* m_ptds_sync_ok: per-thread default stream.  The copy goes to
 * CU_STREAM_PER_THREAD; cuStreamSynchronize(CU_STREAM_PER_THREAD) on the
 * same thread observes it.  Twin: m_ptds_other_thread_race.
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
    sgt_hold *hold = sgt_hold_stream(CU_STREAM_PER_THREAD);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, CU_STREAM_PER_THREAD));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuStreamSynchronize(CU_STREAM_PER_THREAD));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize(CU_STREAM_PER_THREAD)");
}
