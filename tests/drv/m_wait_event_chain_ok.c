/* SPDX-License-Identifier: Apache-2.0 */
/* m_wait_event_chain_ok: cuStreamWaitEvent is transitive: A -> B -> C
 * through two event waits; synchronizing C observes the copy on A.  Twin:
 * m_wait_event_before_copy_race.
 *
 * SG-EXPECT: silent
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_wait_event_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
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
#ifdef SG_TWIN /* m_wait_event_ok */
#else
    CUstream c = sgt_stream(CU_STREAM_NON_BLOCKING);
#endif
    CUevent e2 = sgt_event();
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuEventRecord(e, a));
    SGT_CHECK(cuStreamWaitEvent(b, e, 0));
    SGT_CHECK(cuEventRecord(e2, b));
#ifdef SG_TWIN /* m_wait_event_ok */
#else
    SGT_CHECK(cuStreamWaitEvent(c, e2, 0));
#endif
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* m_wait_event_ok */
    SGT_CHECK(cuEventSynchronize(e2));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuEventSynchronize(e2 on the waiting stream)");
#else
    SGT_CHECK(cuStreamSynchronize(c));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize(C), C waits B waits A");
#endif
}
