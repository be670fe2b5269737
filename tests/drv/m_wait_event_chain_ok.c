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
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr dev;
    uint32_t *host;
    sgt_buffers(&dev, &host);
    CUstream a;
    SGT_CHECK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
    CUevent e;
    SGT_CHECK(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
#ifdef SG_TWIN /* m_wait_event_ok */
    CUstream b;
#else
    CUstream b, c;
#endif
    CUevent e2;
    SGT_CHECK(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
#ifdef SG_TWIN /* m_wait_event_ok */
#else
    SGT_CHECK(cuStreamCreate(&c, CU_STREAM_NON_BLOCKING));
#endif
    SGT_CHECK(cuEventCreate(&e2, CU_EVENT_DISABLE_TIMING));
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
