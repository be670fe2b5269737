/* SPDX-License-Identifier: Apache-2.0 */
/* m_event_cross_ctx_wait_ok: cuStreamWaitEvent across contexts ("hEvent may
 * be from a different context or device than hStream").  The copy runs in
 * context A, an event after it is waited for by a stream of context B, and
 * an event recorded there after the wait is synchronized: that covers the
 * copy.  Twin: m_wait_event_before_copy_race.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUcontext ca, cb;
    SGT_CHECK(cuCtxCreate(&ca, NULL, 0, 0));
    CUdeviceptr dev;
    uint32_t *host;
    sgt_buffers(&dev, &host);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUevent e = sgt_event();
    SGT_CHECK(cuCtxCreate(&cb, NULL, 0, 0));
    CUstream b = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUevent e2 = sgt_event();
    SGT_CHECK(cuCtxSetCurrent(ca));
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuEventRecord(e, a));
    SGT_CHECK(cuCtxSetCurrent(cb));
    SGT_CHECK(cuStreamWaitEvent(b, e, 0));
    SGT_CHECK(cuEventRecord(e2, b));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(e2));
    SGT_CHECK(cuCtxSetCurrent(ca));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuEventSynchronize(event of the other context)");
}
