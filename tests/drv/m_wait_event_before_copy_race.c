/* SPDX-License-Identifier: Apache-2.0 */
/* m_wait_event_before_copy_race: cuStreamWaitEvent.  B waits for an event
 * recorded on A BEFORE the copy: B's later work is not ordered after the
 * copy, so synchronizing B says nothing about it.  Twin: m_wait_event_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_wait_event_before_copy_race
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
    SGT_CHECK(cuEventRecord(e, a));
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuStreamWaitEvent(b, e, 0));
    SGT_CHECK(cuStreamSynchronize(b));
    sgt_release_when_host_waits(hold);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize(B), B waits an earlier event");
}
