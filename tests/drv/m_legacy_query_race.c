/* SPDX-License-Identifier: Apache-2.0 */
/* m_legacy_query_race: only what the driver runs orders streams.  Blocking
 * stream A holds a device-to-host copy; the host asks cuStreamQuery about
 * the legacy stream (not ready: a query enqueues nothing), then records and
 * synchronizes an event on another blocking stream B, and reads.  Nothing
 * ordered B after A's copy: the read is a race (#11: the query's phantom
 * legacy operation made it look covered, and the read saw stale data).
 * Twin: m_legacy_query_ok, with real legacy-stream work in place of the
 * query: B's record then follows it, and it follows A's copy.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_legacy_query_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_legacy_query_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream a = sgt_stream(CU_STREAM_DEFAULT);
    CUstream b = sgt_stream(CU_STREAM_DEFAULT);
    CUevent e = sgt_event();
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
#ifdef SG_TWIN /* m_legacy_query_ok */
    CUdeviceptr scratch;
    SGT_CHECK(cuMemAlloc(&scratch, 64));
    SGT_CHECK(cuMemsetD8Async(scratch, 1, 64, CU_STREAM_LEGACY)); /* follows A's copy */
    SGT_CHECK(cuEventRecord(e, b));                               /* follows the memset */
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(e));
#else
    SGT_EXPECT(cuStreamQuery(CU_STREAM_LEGACY) == CUDA_ERROR_NOT_READY);
    SGT_CHECK(cuEventRecord(e, b)); /* B has no work: complete at once */
    SGT_CHECK(cuEventSynchronize(e));
    sgt_release_when_host_waits(hold);
#endif
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after synchronizing an event of B");
}
